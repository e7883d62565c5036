#!/usr/bin/env bash
# Issue 16's check on a GPU machine: `warpscope-probe transfers` five times (the default sizes,
# 4 KiB to 1 GiB) beside a plain cudaMemcpy loop timing pinned host-to-device copies of 256 MiB
# (scripts/gpu/transfers/memcpy_loop.cu), the refusals, and compute-sanitizer over a short run.
# scripts/gpu/transfers_summary.py then compares them: the probe's pinned H2D at 256 MiB against
# the loop's best (within 5 %), and each mode's medians over the five runs at sizes >= 16 MiB
# (within 5 %). Run from a folder holding bin/warpscope-probe, bin/memcpy_loop and
# scripts/gpu/transfers_summary.py (scripts/gpu/transfers_pack.sh prepares one).
# Usage: scripts/gpu/transfers_check.sh [OUTDIR]
set -u
out=${1:-${OUT:-/tmp/warpscope-transfers}}
mkdir -p "$out"
probe=$PWD/bin/warpscope-probe
for dir in /usr/local/cuda/targets/x86_64-linux/lib /usr/local/cuda-13.0/targets/x86_64-linux/lib \
           /usr/local/cuda/extras/CUPTI/lib64 /usr/local/cuda/lib64; do
    [ -d "$dir" ] && export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$dir
done
{
    date -u
    nvidia-smi --query-gpu=name,driver_version,memory.total,pcie.link.gen.max,pcie.link.width.max,pcie.link.gen.current,pcie.link.width.current --format=csv
    nvcc --version 2>/dev/null | tail -2
    nproc
    lscpu | grep -iE "numa|model name|L3"
    echo "transparent huge pages: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)"
    uptime
    nvidia-smi topo -m
    grep -E "MemTotal|MemAvailable" /proc/meminfo
    "$probe" info
} > "$out/machine.txt" 2>&1
cat "$out/machine.txt"

echo "== the plain cudaMemcpy loop, before and after the probe's runs (256 MiB pinned H2D, 20 copies)"
bin/memcpy_loop 256 20 > "$out/memcpy_before.json" 2>&1; cat "$out/memcpy_before.json"
for run in 1 2 3 4 5; do
    start=$(date +%s%N)
    # TRANSFERS_ARGS: e.g. "--min 16M" to time only the sizes the repeatability check looks at.
    "$probe" transfers ${TRANSFERS_ARGS:-} --json > "$out/run$run.json" 2> "$out/run$run.err"
    status=$?
    echo "run $run: exit $status in $(( ($(date +%s%N) - start) / 1000000 )) ms"
    tail -1 "$out/run$run.err"
done
bin/memcpy_loop 256 20 > "$out/memcpy_after.json" 2>&1; cat "$out/memcpy_after.json"

echo "== the table of run 1"
"$probe" transfers --sizes 16M --modes h2d_pinned,d2h_pinned --repetitions 3 > "$out/text_small.txt" 2>&1
cat "$out/text_small.txt"

echo "== refusals: managed memory larger than the device, and a bad mode"
"$probe" transfers --sizes 64G --modes managed_fault > "$out/refusal.txt" 2>&1
echo "exit $?" >> "$out/refusal.txt"
"$probe" transfers --modes sideways >> "$out/refusal.txt" 2>&1
echo "exit $?" >> "$out/refusal.txt"
echo '{"id":1,"op":"measure_transfers","options":{"sizes":[1048576],"modes":["h2d_pinned"],"repetitions":3}}' \
    | "$probe" serve > "$out/serve.txt" 2>&1
echo "exit $?" >> "$out/serve.txt"
cat "$out/refusal.txt"; head -c 600 "$out/serve.txt"; echo

echo "== compute-sanitizer (memcheck) over 4 KiB to 4 MiB, every mode"
timeout 200 compute-sanitizer --tool memcheck --leak-check full "$probe" transfers --max 4M \
    --repetitions 2 > "$out/sanitizer.txt" 2>&1
echo "exit $?" >> "$out/sanitizer.txt"
tail -4 "$out/sanitizer.txt"

echo "== summary"
python3 scripts/gpu/transfers_summary.py "$out" | tee "$out/summary.txt"
# The device tool brings back only a few files: everything in one archive.
tar -C "$out" -czf /tmp/transfers_check.tgz . && mv /tmp/transfers_check.tgz "$out/all.tgz"

#!/usr/bin/env bash
# Issue 19's L2 persistence check on a GPU machine: `warpscope-probe l2-persistence` (the default
# sweep) as JSON and as a table, the same kernels under Nsight Compute (ncu, --cache-control none
# so that the persisting lines survive between launches as they do in the probe), the refusals,
# the set-aside limit left as found (two requests in one serve process), and compute-sanitizer
# over a short run. scripts/gpu/l2_persistence_summary.py compares the probe's CUPTI hit rates with
# ncu's. Run from a folder holding bin/warpscope-probe and scripts/gpu/l2_persistence_summary.py
# (scripts/gpu/l2_persistence_pack.sh prepares one). Usage: l2_persistence_check.sh [OUTDIR]
set -u
out=${1:-${OUT:-/tmp/warpscope-l2-persistence}}
mkdir -p "$out"
probe=$PWD/bin/warpscope-probe
for dir in /usr/local/cuda/targets/x86_64-linux/lib /usr/local/cuda-13.0/targets/x86_64-linux/lib \
           /usr/local/cuda/extras/CUPTI/lib64 /usr/local/cuda/lib64; do
    [ -d "$dir" ] && export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$dir
done
{
    date -u
    nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv
    nvcc --version 2>/dev/null | tail -2
    ncu --version | tail -1
    "$probe" info
    echo "== ncu --query-metrics (L2 hit and lookup metrics)"
    ncu --query-metrics --chip gh100 2>/dev/null | grep -E "^lts__t_sector_hit_rate|^lts__t_sectors_lookup|^lts__t_sectors_srcunit_tex_lookup" || true
} > "$out/machine.txt" 2>&1
cat "$out/machine.txt"

echo "== the default sweep, JSON (run 1) and table (run 2)"
start=$(date +%s%N)
"$probe" l2-persistence --json > "$out/l2_persistence_h100.json" 2> "$out/run1.err"
echo "run 1: exit $? in $(( ($(date +%s%N) - start) / 1000000 )) ms"; tail -2 "$out/run1.err"
"$probe" l2-persistence > "$out/table.txt" 2>&1
echo "run 2: exit $?"; cat "$out/table.txt"

echo "== ncu on the same kernels: 16 MiB and 64 MiB, no window, hitRatio 1 and tuned"
ncu --cache-control none --metrics lts__t_sector_hit_rate.pct,lts__t_sectors_lookup_hit.sum,lts__t_sectors_lookup_miss.sum,dram__bytes_read.sum \
    -k regex:regionAndStream --csv --print-units base --log-file "$out/ncu.csv" \
    "$probe" l2-persistence --windows 16M,64M --hit-ratios 1 --repetitions 1 --no-counters --json \
    > "$out/ncu_probe.json" 2> "$out/ncu.err"
echo "ncu exit $?"; tail -3 "$out/ncu.err"
"$probe" l2-persistence --windows 16M,64M --hit-ratios 1 --repetitions 1 --json \
    > "$out/probe_small.json" 2> /dev/null
echo "probe (small) exit $?"

echo "== refusals and the limit left as found"
"$probe" l2-persistence --windows 1G > "$out/refusal.txt" 2>&1
echo "exit $?" >> "$out/refusal.txt"
"$probe" l2-persistence --hit-ratios 2 >> "$out/refusal.txt" 2>&1
echo "exit $?" >> "$out/refusal.txt"
printf '%s\n%s\n' \
    '{"id":1,"op":"measure_l2_persistence","options":{"windowBytes":[8388608],"hitRatios":[1],"setAsideBytes":4194304,"repetitions":2,"streamBytes":268435456}}' \
    '{"id":2,"op":"measure_l2_persistence","options":{"windowBytes":[8388608],"hitRatios":[1],"repetitions":2,"streamBytes":268435456}}' \
    | "$probe" serve > "$out/serve.txt" 2>&1
echo "exit $?" >> "$out/serve.txt"
cat "$out/refusal.txt"
grep -o '"previousSetAsideBytes":[0-9]*\|"setAsideBytes":[0-9]*' "$out/serve.txt"

echo "== compute-sanitizer (memcheck) over a short run"
compute-sanitizer --tool memcheck --leak-check full "$probe" l2-persistence --windows 2M,4M \
    --hit-ratios 1 --stream 64M --repetitions 1 --no-counters > "$out/sanitizer.txt" 2>&1
echo "exit $?" >> "$out/sanitizer.txt"
tail -4 "$out/sanitizer.txt"

echo "== summary"
python3 scripts/gpu/l2_persistence_summary.py "$out" | tee "$out/summary.txt"
echo "== the guide's figure, drawn here from run 1"
python3 scripts/gpu/l2_persistence_figure.py "$out/l2_persistence_h100.json" "$out/l2-persistence-h100.svg" \
    && echo "figure written"
tar -C "$out" -czf /tmp/l2_persistence_check.tgz . && mv /tmp/l2_persistence_check.tgz "$out/all.tgz"

#!/usr/bin/env bash
# Issue 19's streams check on a GPU machine: `warpscope-probe streams` (the notes' staged
# copy-and-kernel experiment over 1 to 8 streams) three times at the defaults, once issued by
# stage, once with the events' timeline instead of CUPTI's, the refusals, a served request with
# progress, compute-sanitizer (memcheck, racecheck) over a short run, and, where Nsight Systems
# is installed, its trace of a 4-stream run beside the probe's timeline.
# Run from a folder holding bin/warpscope-probe (scripts/gpu/streams_pack.sh prepares one).
# Usage: scripts/gpu/streams_check.sh [OUTDIR]
set -u
out=${1:-${OUT:-/tmp/warpscope-streams}}
mkdir -p "$out"
probe=$PWD/bin/warpscope-probe
for dir in /usr/local/cuda/targets/x86_64-linux/lib /usr/local/cuda-13.0/targets/x86_64-linux/lib \
           /usr/local/cuda/extras/CUPTI/lib64 /usr/local/cuda/lib64; do
    [ -d "$dir" ] && export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$dir
done
{
    date -u
    nvidia-smi --query-gpu=name,driver_version,memory.total,pcie.link.gen.max,pcie.link.width.max --format=csv
    nvcc --version 2>/dev/null | tail -2
    nvidia-smi -q | grep -iE "copy|engine" | head
    "$probe" info
} > "$out/machine.txt" 2>&1
cat "$out/machine.txt"

echo "== the table (defaults: 64 MiB, 1 to 8 streams, issued per stream)"
"$probe" streams > "$out/table.txt" 2> "$out/table.err"; echo "exit $?"
cat "$out/table.txt"
for run in 1 2 3; do
    "$probe" streams --json > "$out/run$run.json" 2> "$out/run$run.err"; echo "run $run exit $?"
done
echo "== issued by stage"
"$probe" streams --order by_stage > "$out/by_stage.txt" 2>&1; echo "exit $?"
"$probe" streams --order by_stage --json > "$out/by_stage.json" 2>/dev/null
tail -10 "$out/by_stage.txt"
echo "== the events' timeline instead of CUPTI's"
WARPSCOPE_STREAMS_EVENTS=1 "$probe" streams --json > "$out/events.json" 2>/dev/null; echo "exit $?"
WARPSCOPE_STREAMS_EVENTS=1 "$probe" streams 2>/dev/null | tail -10

echo "== refusals"
{
    "$probe" streams --bytes 64G; echo "exit $?"
    "$probe" streams --streams 2,0; echo "exit $?"
    "$probe" streams --order sideways; echo "exit $?"
} > "$out/refusal.txt" 2>&1
cat "$out/refusal.txt"
echo '{"id":1,"op":"measure_streams","options":{"bytes":4194304,"streams":[2,4],"repetitions":3}}' \
    | "$probe" serve > "$out/serve.txt" 2>&1
echo "exit $?" >> "$out/serve.txt"
cut -c1-300 "$out/serve.txt"

echo "== compute-sanitizer over 1 MiB, 1 to 8 streams"
compute-sanitizer --tool memcheck --leak-check full "$probe" streams --bytes 1M --repetitions 2 \
    > "$out/sanitizer_memcheck.txt" 2>&1
echo "exit $?" >> "$out/sanitizer_memcheck.txt"
tail -3 "$out/sanitizer_memcheck.txt"
compute-sanitizer --tool racecheck "$probe" streams --bytes 1M --repetitions 2 --streams 4 \
    > "$out/sanitizer_racecheck.txt" 2>&1
echo "exit $?" >> "$out/sanitizer_racecheck.txt"
tail -3 "$out/sanitizer_racecheck.txt"

if command -v nsys > /dev/null; then
    echo "== Nsight Systems: a 4-stream run"
    WARPSCOPE_STREAMS_EVENTS=1 nsys profile --trace=cuda -o "$out/nsys4" --force-overwrite true \
        "$probe" streams --streams 4 --repetitions 1 > "$out/nsys.txt" 2>&1
    nsys stats --report cuda_gpu_trace --format csv "$out/nsys4.nsys-rep" >> "$out/nsys.txt" 2>&1
    grep -E "Memcpy|stagedWork" "$out/nsys.txt" | tail -12
    rm -f "$out"/nsys4.*
fi
tar -C "$out" -czf /tmp/streams_check.tgz . && mv /tmp/streams_check.tgz "$out/all.tgz"

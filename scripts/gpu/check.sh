#!/usr/bin/env bash
# The GPU checks of the probe's experiments, one per experiment, on a GPU machine. Run from a
# folder that scripts/gpu/check_pack.sh prepared (bin/warpscope-probe, bin/memcpy_loop for the
# transfers, and the scripts at their paths in the tree). Each writes its files to OUTDIR and all
# of them into OUTDIR/all.tgz (the device tool brings back only a few files).
#
#   transfers       issue 16: `warpscope-probe transfers` five times (the default sizes, 4 KiB to
#                   1 GiB; TRANSFERS_ARGS adds options, e.g. "--min 16M") beside a plain
#                   cudaMemcpy loop timing pinned host-to-device copies of 256 MiB
#                   (scripts/gpu/transfers/memcpy_loop.cu), the refusals, and compute-sanitizer
#                   over a short run; scripts/gpu/transfers_summary.py then compares them: the
#                   probe's pinned H2D at 256 MiB against the loop's best (within 5 %), and each
#                   mode's medians over the five runs at sizes >= 16 MiB (within 5 %).
#   streams         issue 19: `warpscope-probe streams` (the notes' staged copy-and-kernel
#                   experiment over 1 to 8 streams) three times at the defaults, once issued by
#                   stage, once with the events' timeline instead of CUPTI's, the refusals, a
#                   served request with progress, compute-sanitizer (memcheck, racecheck) over a
#                   short run, and, where Nsight Systems is installed, its trace of a 4-stream
#                   run beside the probe's timeline.
#   l2-persistence  issue 19: `warpscope-probe l2-persistence` (the default sweep) as JSON and as a
#                   table, the same kernels under Nsight Compute (ncu, --cache-control none so
#                   that the persisting lines survive between launches as they do in the probe),
#                   the refusals, the set-aside limit left as found (two requests in one serve
#                   process), and compute-sanitizer over a short run;
#                   scripts/gpu/l2_persistence_summary.py compares the probe's CUPTI hit rates
#                   with ncu's, and scripts/gpu/l2_persistence_figure.py draws the guide's figure.
#
# Usage: scripts/gpu/check.sh transfers|streams|l2-persistence [OUTDIR]
# (Raw logs under tests/data/ recorded before this runner name its checks transfers_check.sh,
# streams_check.sh and l2_persistence_check.sh, each packed by its own *_pack.sh.)
set -u
experiment=${1:-}
case "$experiment" in
transfers | streams | l2-persistence) ;;
*)
    echo "check.sh: name the experiment to check: transfers, streams or l2-persistence" \
        "(got '${experiment}'). Usage: scripts/gpu/check.sh EXPERIMENT [OUTDIR]" >&2
    exit 2
    ;;
esac
out=${2:-${OUT:-/tmp/warpscope-$experiment}}
mkdir -p "$out"
probe=$PWD/bin/warpscope-probe
if [ ! -x "$probe" ]; then
    echo "check.sh: no probe at $probe: run from a folder that scripts/gpu/check_pack.sh prepared" >&2
    exit 2
fi
for dir in /usr/local/cuda/targets/x86_64-linux/lib /usr/local/cuda-13.0/targets/x86_64-linux/lib \
           /usr/local/cuda/extras/CUPTI/lib64 /usr/local/cuda/lib64; do
    [ -d "$dir" ] && export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$dir
done

check_transfers() {
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
}

check_streams() {
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
}

check_l2_persistence() {
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
}

case "$experiment" in
transfers) check_transfers ;;
streams) check_streams ;;
l2-persistence) check_l2_persistence ;;
esac
tar -C "$out" -czf "/tmp/${experiment}_check.tgz" . && mv "/tmp/${experiment}_check.tgz" "$out/all.tgz"

#!/usr/bin/env bash
# Runs on a GPU machine, from the repository root, with a build folder that holds warpscope-probe,
# warpscope-replay and the probe's tests (default build/lead): the GPU tests, the self-check, the
# kernels under compute-sanitizer, and the benchmark that compares the probe with ncu.
# Usage: scripts/gpu/device_check.sh [BUILD] [OUTDIR]
set -u
build=${1:-build/lead}
out=${2:-${OUT:-/tmp/warpscope-device}}
mkdir -p "$out"
probe=$build/kernels/probe/warpscope-probe
replay=$build/kernels/tools/warpscope-replay
{
    nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.max.sm,clocks.max.mem --format=csv
    ncu --version | tail -1
    echo "== probe info"
    "$probe" info
} >"$out/machine.txt" 2>&1
cat "$out/machine.txt"

echo "== GPU tests (probe as a process)"
"$build/tests/probe/warpscope-probe-process-tests" >"$out/tests.txt" 2>&1
echo "tests exit: $?" | tee -a "$out/tests.txt"
tail -n 4 "$out/tests.txt"

echo "== selfcheck"
"$probe" selfcheck >"$out/selfcheck.txt" 2>&1
echo "selfcheck exit: $?" | tee -a "$out/selfcheck.txt"
tail -n 3 "$out/selfcheck.txt"

echo "== compute-sanitizer on every kernel the probe launches"
{
    for tool in memcheck racecheck synccheck initcheck; do
        # Replay and latency kernels (global, shared, every width), the L2 flush, and a grid
        # kernel compiled by NVRTC. Counters stay off: CUPTI profiling and the sanitizer exclude
        # each other.
        for args in "readsegment-offset-11 --grid" "shared-tile-column" "shared-tile-column-padded" \
                    "lane*16 --width 16 --repetitions 3" "lane*8 --width 8 --space shared --op store" \
                    "lane --width 1 --cache nc" "writesegment-offset-11 --grid" "lane*2 --width 2 --cache cg"; do
            echo "-- $tool: run $args"
            # shellcheck disable=SC2086
            compute-sanitizer --tool "$tool" --error-exitcode 9 "$probe" run $args --no-counters \
                --repetitions 3 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|========= (Error|Invalid)|exit'
            echo "exit ${PIPESTATUS[0]}"
        done
    done
} >"$out/sanitizer.txt" 2>&1
grep -c '^exit 0' "$out/sanitizer.txt" | sed 's/^/sanitizer runs with exit 0: /'
grep '^exit [^0]' "$out/sanitizer.txt" | sort | uniq -c

echo "== benchmark and ncu comparison"
python3 scripts/gpu/bench_probe.py "$probe" "$replay" "$out/bench" 2>&1 | tee "$out/bench.txt"
tar czf "$out/bench.tar.gz" -C "$out" bench && rm -rf "$out/bench"

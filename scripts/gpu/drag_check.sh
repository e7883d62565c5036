#!/usr/bin/env bash
# Runs on a GPU machine, from a tree laid out as the repository (binaries under BUILD): the
# measured overlay during a drag and around it. The probe's self-check (every counter exact), the
# cost of one measure split into its steps (probe_trace.py), `warpscope --benchmark-gpu` (first
# Run, one measure, cold edits, a 64-value drag at 60 Hz), the window's start-up with and
# without a GPU (--quit-after-first-frame, five each) and the app's cache and measure-ahead tests.
# Usage: scripts/gpu/drag_check.sh BUILD QT_RUNTIME.tar.xz OUTDIR
set -u
build=$1
runtime=$2
out=$3
mkdir -p "$out" /tmp/warpscope-qt
tar -C /tmp/warpscope-qt -xJf "$runtime"
export QT_PLUGIN_PATH=/tmp/warpscope-qt/plugins QT_QPA_PLATFORM=offscreen \
    FONTCONFIG_FILE=/tmp/warpscope-qt/fonts.conf QT_FONT_DPI=96
qtlib=/tmp/warpscope-qt/lib
probe=$build/kernels/probe/warpscope-probe
app=$build/app/warpscope
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv | tee "$out/machine.txt"

echo "== selfcheck"
"$probe" selfcheck >"$out/selfcheck.txt" 2>&1
echo "exit $?"; tail -n 1 "$out/selfcheck.txt"

echo "== one measure, step by step"
python3 scripts/gpu/probe_trace.py "$probe" "$out/trace" >"$out/probe_trace.txt" 2>&1
grep -E '^##|set config and start|stop |cupti prepare|measure latency' "$out/probe_trace.txt" |
    sed 's/  */ /g'
grep -E '^trace: (open device|device_info|counter|cupti prepare)' "$out/trace/trace-both-21-idle.txt" |
    head -n 16

echo "== benchmark"
LD_LIBRARY_PATH=$qtlib:${LD_LIBRARY_PATH:-} "$app" --benchmark-gpu --probe "$probe" \
    --iterations 20 >"$out/benchmark-gpu.md" 2>&1
echo "exit $?"; cat "$out/benchmark-gpu.md"

echo "== window start-up, with a GPU (the probe starting in the background) and without"
for i in 1 2 3 4 5; do
    LD_LIBRARY_PATH=$qtlib:${LD_LIBRARY_PATH:-} WARPSCOPE_GPU_PRESENT=1 \
        "$app" --no-settings --probe "$probe" --quit-after-first-frame 2>&1 | tail -n 1
done | tee "$out/startup-gpu.txt"
for i in 1 2 3 4 5; do
    LD_LIBRARY_PATH=$qtlib:${LD_LIBRARY_PATH:-} CUDA_VISIBLE_DEVICES= WARPSCOPE_GPU_PRESENT=0 \
        "$app" --no-settings --probe "$probe" --quit-after-first-frame 2>&1 | tail -n 1
done | tee "$out/startup-nogpu.txt"

echo "== app tests: the cache and measure-ahead, the GPU tests"
LD_LIBRARY_PATH=$qtlib:${LD_LIBRARY_PATH:-} "$build/tests/app/warpscope-app-tests" \
    --gtest_filter='MeasurementCache*:MeasureAhead*:Gpu*' >"$out/app-tests.txt" 2>&1
echo "exit $?"
grep -E '^\[  (PASSED|FAILED|SKIPPED) |^\[ GPU|Failure' "$out/app-tests.txt" | head -n 30

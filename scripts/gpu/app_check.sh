#!/usr/bin/env bash
# Runs on a GPU machine, from the repository root: the desktop app with the real probe, offscreen.
# Records the probe's answers for the overlay tests, runs the app's GPU tests against the real
# probe, captures the measured overlay of the offset-11 and padded-tile presets, and times an
# edit to the measured overlay on screen.
# Usage: scripts/gpu/app_check.sh BUILD QT_RUNTIME.tar.xz OUTDIR
set -u
build=$1
runtime=$2
out=$3
mkdir -p "$out" /tmp/warpscope-qt
tar -C /tmp/warpscope-qt -xJf "$runtime"
export LD_LIBRARY_PATH=/tmp/warpscope-qt/lib QT_PLUGIN_PATH=/tmp/warpscope-qt/plugins \
    QT_QPA_PLATFORM=offscreen FONTCONFIG_FILE=/tmp/warpscope-qt/fonts.conf QT_FONT_DPI=96
probe=$build/kernels/probe/warpscope-probe
app=$build/app/warpscope
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv | tee "$out/machine.txt"

echo "== recorded probe answers"
python3 scripts/gpu/record_probe_answers.py "$probe" "$out/probe_answers_h100.jsonl" 2>&1 | tail -n 20

echo "== app GPU tests with the real probe"
"$build/tests/app/warpscope-app-tests" --gtest_filter='Gpu*' >"$out/app-gpu-tests.txt" 2>&1
echo "exit $?"
grep -E '^\[  (PASSED|FAILED|SKIPPED) |^\[ GPU|Failure' "$out/app-gpu-tests.txt" | head -n 30

echo "== measured overlays: exported figures and the window"
for spec in readsegment-offset-11:warp shared-tile-column-padded:bank; do
    preset=${spec%%:*}
    view=${spec##*:}
    "$app" --export "$out/figure-$preset.png" --preset "$preset" --view figure --measure \
        --probe "$probe" 2>&1 | tail -n 2
    echo "$preset figure exit ${PIPESTATUS[0]}"
    "$app" --export "$out/figure-$preset.svg" --preset "$preset" --view figure --measure \
        --probe "$probe" 2>&1 | tail -n 1
    "$app" --no-settings --probe "$probe" --preset "$preset" --view "$view" --measure \
        --size 1920x1080 --screenshot "$out/window-$preset.png" 2>&1 | tail -n 1
    echo "$preset window exit ${PIPESTATUS[0]}"
done

echo "== edit to measured overlay"
"$app" --benchmark-gpu --probe "$probe" --iterations 60 2>&1 | tee "$out/benchmark-gpu.md"

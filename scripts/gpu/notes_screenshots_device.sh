#!/usr/bin/env bash
# Runs on a GPU machine, from a folder holding bin/warpscope, bin/warpscope-probe,
# qt-runtime.tar.xz (scripts/gpu/pack_qt_runtime.sh) and scripts/: the guide's notes screenshots
# (scripts/notes-screenshots.sh) measured live by the real probe, offscreen, with the machine's
# GPU, driver and CUDA version beside them.
# Usage: scripts/gpu/notes_screenshots_device.sh OUTDIR
set -u
here=$(pwd)
out=${1:-${OUT:-/tmp/warpscope-notes}}
mkdir -p "$out" /tmp/warpscope-qt
tar -C /tmp/warpscope-qt -xJf qt-runtime.tar.xz
export LD_LIBRARY_PATH=/tmp/warpscope-qt/lib:/usr/local/cuda-13.0/targets/x86_64-linux/lib:/usr/local/cuda/extras/CUPTI/lib64
export QT_PLUGIN_PATH=/tmp/warpscope-qt/plugins QT_QPA_PLATFORM=offscreen \
    FONTCONFIG_FILE=/tmp/warpscope-qt/fonts.conf QT_FONT_DPI=96
{
    nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv
    nvidia-smi | grep -o 'CUDA Version: [0-9.]*'
    "$here/bin/warpscope-probe" info
} >"$out/machine.txt" 2>&1
cat "$out/machine.txt"
start=$(date +%s)
MEASURE=1 PROBE=$here/bin/warpscope-probe APP=$here/bin/warpscope \
    scripts/notes-screenshots.sh "$here" "$out" >"$out/screenshots-log.txt" 2>&1
echo "screenshots exit $? after $(( $(date +%s) - start )) s"
grep -E '^notes-screenshots|^warpscope:' "$out/screenshots-log.txt"

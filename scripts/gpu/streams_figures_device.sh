#!/usr/bin/env bash
# On a GPU machine without Qt: measures measure_streams with the probe and has the app render the
# Streams figures from that answer offscreen, in the same call (the Qt runtime packed by
# scripts/gpu/pack_qt_runtime.sh). Run from a folder holding bin/warpscope-probe, bin/warpscope
# and qt.tar.xz. Writes OUTDIR/streams_h100_figures.json and the PNG and SVG figures.
# Usage: scripts/gpu/streams_figures_device.sh OUTDIR
set -u
out=${1:-${OUT:-/tmp/warpscope-streams-figures}}
mkdir -p "$out" /tmp/warpscope-qt
tar -C /tmp/warpscope-qt -xJf qt.tar.xz
for dir in /usr/local/cuda/targets/x86_64-linux/lib /usr/local/cuda-13.0/targets/x86_64-linux/lib \
           /usr/local/cuda/extras/CUPTI/lib64; do
    [ -d "$dir" ] && cuda_path=${cuda_path:+$cuda_path:}$dir
done
probe=$PWD/bin/warpscope-probe
app=$PWD/bin/warpscope
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/machine.txt"
LD_LIBRARY_PATH=${cuda_path:-} "$probe" streams --json > "$out/streams_h100_figures.json" \
    2> "$out/probe.err"
echo "probe exit $?"
export LD_LIBRARY_PATH=/tmp/warpscope-qt/lib QT_PLUGIN_PATH=/tmp/warpscope-qt/plugins \
    QT_QPA_PLATFORM=offscreen FONTCONFIG_FILE=/tmp/warpscope-qt/fonts.conf QT_FONT_DPI=96
for count in 4 8; do
    "$app" --preset streams --streams "$out/streams_h100_figures.json" --stream-count "$count" \
        --export "$out/streams-h100-$count.png" --size 1600x1000 2>&1 | tail -1
done
"$app" --preset streams --streams "$out/streams_h100_figures.json" --stream-count 4 \
    --export "$out/streams-h100-4.svg" --size 1600x1000 2>&1 | tail -1
"$app" --preset streams --export "$out/streams-model-only.png" --size 1600x1000 2>&1 | tail -1
ls -l "$out"

#!/usr/bin/env bash
# Captures the desktop app's reference screenshots under Xvfb at 1920x1080:
#   warp-readsegment-offset-11.png   the warp view, readSegment offset 11 (seed 002)
#   bank-padded-tile.png             the bank view, the 32x33 padded shared tile (seed 003)
#   sweep-offset.png                 the sweep plot of the offset experiment (seed 002)
#   bank-float4-two-apart.png        the bank view, float4 loads whose phases fuse (l and l ^ 2)
#   bank-float4-one-split.png        the bank view, float4 loads that one split pair keeps apart
#   x11-window.png                   the same warp view read back from the X server itself
# The first three are rendered by the app (--screenshot: a real window under Xvfb, grabbed once it
# is exposed and painted); the last one is captured from the X server with ImageMagick's import.
#
# Usage: scripts/app-screenshots.sh [BUILD_DIR] [OUT_DIR]
#   BUILD_DIR  a build with the app (default: build/dev); the binary is BUILD_DIR/app/warpscope
#   OUT_DIR    where the PNGs go (default: docs/screenshots)
# Preset ids can be overridden: WARP_PRESET, BANK_PRESET, SWEEP_PRESET.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build/dev}"
out="${2:-$root/docs/screenshots}"
app="$build/app/warpscope"
warp_preset="${WARP_PRESET:-readsegment-offset-11}"
bank_preset="${BANK_PRESET:-shared-tile-column-padded}"
sweep_preset="${SWEEP_PRESET:-readsegment-offset-11}"

for tool in xvfb-run Xvfb import; do
    command -v "$tool" >/dev/null || { echo "app-screenshots: $tool is missing (Debian: xvfb, imagemagick)" >&2; exit 1; }
done
[[ -x "$app" ]] || { echo "app-screenshots: no app at $app (build the 'warpscope' target)" >&2; exit 1; }
mkdir -p "$out"

shoot() { # name preset view
    local file="$out/$1.png"
    xvfb-run -a -s "-screen 0 1920x1080x24" \
        "$app" --no-settings --preset "$2" --view "$3" --size 1920x1080 --screenshot "$file"
    echo "app-screenshots: $file ($(stat -c %s "$file") bytes)"
}

shoot warp-readsegment-offset-11 "$warp_preset" warp
shoot bank-padded-tile "$bank_preset" bank
shoot sweep-offset "$sweep_preset" sweep
shoot bank-float4-two-apart shared-float4-two-apart bank
shoot bank-float4-one-split shared-float4-one-split bank

# One capture straight from the X server: the window as the display shows it.
display=":$((90 + RANDOM % 400))"
Xvfb "$display" -screen 0 1920x1080x24 -nolisten tcp >/dev/null 2>&1 &
xvfb_pid=$!
app_pid=""
cleanup() {
    [[ -n "$app_pid" ]] && kill "$app_pid" 2>/dev/null || true
    kill "$xvfb_pid" 2>/dev/null || true
}
trap cleanup EXIT
for _ in $(seq 50); do
    DISPLAY="$display" xdpyinfo >/dev/null 2>&1 && break
    sleep 0.1
done
DISPLAY="$display" "$app" --no-settings --preset "$warp_preset" --view warp --size 1920x1080 &
app_pid=$!
for _ in $(seq 100); do
    DISPLAY="$display" xwininfo -root -tree 2>/dev/null | grep -q 'warpscope' && break
    sleep 0.1
done
sleep 2 # let it paint
DISPLAY="$display" import -window root "$out/x11-window.png"
echo "app-screenshots: $out/x11-window.png ($(stat -c %s "$out/x11-window.png") bytes)"

# Keep the images small (< 500 KB): lossless recompression, palette only when it is needed.
for file in "$out"/warp-readsegment-offset-11.png "$out"/bank-padded-tile.png "$out"/sweep-offset.png "$out"/x11-window.png; do
    if (( $(stat -c %s "$file") > 500000 )); then
        convert "$file" -strip -define png:compression-level=9 -colors 255 "$file"
        echo "app-screenshots: recompressed $file ($(stat -c %s "$file") bytes)"
    fi
done

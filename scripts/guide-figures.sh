#!/usr/bin/env bash
# Regenerates the figures of docs/guide (docs/guide/figures/*.png) with warpscope's headless
# export: no display, no Xvfb, no settings touched. 16:9 slides at 96 DPI (1280x720 pixels):
#   warp-offset-11.png      the warp view, readSegment offset 11
#   bank-padded-tile.png    the bank view, the 32x33 padded shared tile
#   figure-offset-11.png    a composed figure: warp view and metrics, title and caption
#   figure-padded-dark.png  a composed figure: bank view and metrics of the padded tile, dark theme
#   warp-constant-divergent.png  the warp view of a constant load: 32 distinct addresses, 32 rounds
#
# Usage: scripts/guide-figures.sh [BUILD_DIR] [OUT_DIR]
#   BUILD_DIR  a build with the app (default: build/dev); the binary is BUILD_DIR/app/warpscope
#   OUT_DIR    where the PNGs go (default: docs/guide/figures)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build/dev}"
out="${2:-$root/docs/guide/figures}"
app="$build/app/warpscope"
[[ -x "$app" ]] || { echo "guide-figures: no app at $app (build the 'warpscope' target)" >&2; exit 1; }
mkdir -p "$out"
export QT_FONT_DPI=96 # the same text size on every machine

figure() { # name, then warpscope's export arguments
    local file="$out/$1.png"
    shift
    "$app" --export "$file" --size slide-16x9 --dpi 96 "$@" >/dev/null
    echo "guide-figures: $file ($(stat -c %s "$file") bytes)"
}

figure warp-offset-11 --preset readsegment-offset-11 --view warp
figure bank-padded-tile --preset shared-tile-column-padded --view bank
figure figure-offset-11 --preset readsegment-offset-11 --view figure --views warp,metrics
figure figure-padded-dark --preset shared-tile-column-padded --view figure --views bank,metrics \
    --theme dark
figure warp-constant-divergent --preset kernel:constant-divergent --view warp

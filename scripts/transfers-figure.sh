#!/usr/bin/env bash
# The Transfers figure for docs/guide: the app renders the chart headless (--export) from the
# H100's recorded results (tests/data/transfers_h100.json, the first of `check.sh transfers`'s five
# runs) as PNG and SVG, and once more without results (what a model-only machine shows: the
# notes' figures).
#   On a GPU machine (MEASURE=1): the app measures this machine first (--measure) instead.
#
# Usage: scripts/transfers-figure.sh [BUILD_DIR] [OUT_DIR]   (default: build/dev, docs/guide/figures)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build/dev}"
out="${2:-$root/docs/guide/figures}"
app="$build/app/warpscope"
[[ -x "$app" ]] || { echo "transfers-figure: no app at $app (build the 'warpscope' target)" >&2; exit 1; }
mkdir -p "$out"
export QT_QPA_PLATFORM=offscreen

source_args=(--transfers "$root/tests/data/transfers_h100.json")
if [[ "${MEASURE:-0}" == 1 ]]; then
    source_args=(--measure)
fi
for file in "$out/transfers-h100.png" "$out/transfers-h100.svg"; do
    "$app" --preset transfers "${source_args[@]}" --export "$file" --size 1600x1000
done
"$app" --preset transfers --export "$out/transfers-model-only.png" --size 1600x1000
ls -l "$out"/transfers-*

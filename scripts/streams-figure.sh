#!/usr/bin/env bash
# The Streams figures for docs/guide: the app renders the timeline and speed-up headless
# (--export) from the H100's recorded results (tests/data/streams_h100.json, the first of
# `scripts/gpu/check.sh streams`'s three runs) at 4 and 8 streams, and once more without results
# (what a model-only machine shows: the model's timeline and the notes' statement).
#   On a GPU machine (MEASURE=1): the app measures this machine first (--measure) instead.
#
# Usage: scripts/streams-figure.sh [BUILD_DIR] [OUT_DIR]   (default: build/dev, docs/guide/figures)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build/dev}"
out="${2:-$root/docs/guide/figures}"
app="$build/app/warpscope"
[[ -x "$app" ]] || { echo "streams-figure: no app at $app (build the 'warpscope' target)" >&2; exit 1; }
mkdir -p "$out"
export QT_QPA_PLATFORM=offscreen QT_FONT_DPI=96

source_args=(--streams "$root/tests/data/streams_h100.json")
if [[ "${MEASURE:-0}" == 1 ]]; then
    source_args=(--measure)
fi
for count in 4 8; do
    "$app" --preset streams "${source_args[@]}" --export "$out/streams-h100-$count.png" \
        --size 1600x1000 --stream-count "$count"
done
"$app" --preset streams "${source_args[@]}" --export "$out/streams-h100-4.svg" --size 1600x1000 \
    --stream-count 4
"$app" --preset streams --export "$out/streams-model-only.png" --size 1600x1000
ls -l "$out"/streams-*

#!/usr/bin/env bash
# Screenshots of the notes-vs-GPU tab for docs/guide: Table 4-11 (NaiveCol's nine block shapes),
# the readSegment offsets and the tiled transpose without and with padding, each the notes'
# numbers beside this GPU's.
#   On a GPU machine (MEASURE=1): the app measures each table with the probe first (--measure),
#   so the bars are this GPU's, named in the picture.
#   Elsewhere (the default): the bars are the H100's recorded answers in tests/data
#   (kernel_check_h100.jsonl: counters; kernel_tables_h100.jsonl: the timed points), and the
#   picture says "recorded earlier".
#
# Usage: scripts/notes-screenshots.sh [BUILD_DIR] [OUT_DIR]   (default: build/dev, docs/guide/figures)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build/dev}"
out="${2:-$root/docs/guide/figures}"
app="$build/app/warpscope"
[[ -x "$app" ]] || { echo "notes-screenshots: no app at $app (build the 'warpscope' target)" >&2; exit 1; }
command -v xvfb-run >/dev/null || { echo "notes-screenshots: xvfb-run is missing (Debian: xvfb)" >&2; exit 1; }
mkdir -p "$out"

source_args=()
if [[ "${MEASURE:-0}" == 1 ]]; then
    source_args=(--measure)
else
    source_args=(--kernel-measurements "$root/tests/data/kernel_check_h100.jsonl"
                 --kernel-measurements "$root/tests/data/kernel_tables_h100.jsonl")
fi

for experiment in table-4-11 readsegment transpose-tiled; do
    file="$out/notes-$experiment.png"
    xvfb-run -a -s "-screen 0 1920x1080x24" \
        "$app" --no-settings --preset "notes:$experiment" "${source_args[@]}" \
        --size 1920x1080 --screenshot "$file"
    echo "notes-screenshots: $file ($(stat -c %s "$file") bytes)"
done

#!/usr/bin/env bash
# Screenshots of the notes-vs-GPU tab for docs/guide: Table 4-11 (NaiveCol's nine block shapes),
# the readSegment offsets and the tiled transpose without and with padding, each the notes'
# numbers beside this GPU's; and the sweep tab on Table 4-11's kernel (its block shape swept:
# the grid model's sectors beside this GPU's bandwidth; with MEASURE=1 only).
#   On a GPU machine (MEASURE=1): the app measures each table with the probe first (--measure),
#   so the bars are this GPU's, named in the picture. PROBE names the probe to use (else the
#   app's default).
#   Elsewhere (the default): the bars are the H100's recorded answers in tests/data
#   (kernel_check_h100.jsonl: counters; kernel_tables_h100.jsonl: the timed points), and the
#   picture says "recorded earlier".
# The app runs under xvfb-run, or directly when QT_QPA_PLATFORM=offscreen is set (a GPU machine
# without X: scripts/gpu/pack_qt_runtime.sh).
#
# Usage: scripts/notes-screenshots.sh [BUILD_DIR] [OUT_DIR]   (default: build/dev, docs/guide/figures)
#        APP=path/to/warpscope overrides BUILD_DIR's app.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build/dev}"
out="${2:-$root/docs/guide/figures}"
app="${APP:-$build/app/warpscope}"
[[ -x "$app" ]] || { echo "notes-screenshots: no app at $app (build the 'warpscope' target)" >&2; exit 1; }
run=()
if [[ "${QT_QPA_PLATFORM:-}" != offscreen ]]; then
    command -v xvfb-run >/dev/null || { echo "notes-screenshots: xvfb-run is missing (Debian: xvfb), or set QT_QPA_PLATFORM=offscreen" >&2; exit 1; }
    run=(xvfb-run -a -s "-screen 0 1920x1080x24")
fi
mkdir -p "$out"

source_args=()
if [[ "${MEASURE:-0}" == 1 ]]; then
    source_args=(--measure)
    [[ -n "${PROBE:-}" ]] && source_args+=(--probe "$PROBE")
else
    source_args=(--kernel-measurements "$root/tests/data/kernel_check_h100.jsonl"
                 --kernel-measurements "$root/tests/data/kernel_tables_h100.jsonl")
fi

# Each picture on its own: one that fails is said and the others are still made.
status=0
for experiment in table-4-11 readsegment transpose-tiled; do
    file="$out/notes-$experiment.png"
    if "${run[@]}" "$app" --no-settings --preset "notes:$experiment" "${source_args[@]}" \
        --size 1920x1080 --screenshot "$file"; then
        echo "notes-screenshots: $file ($(stat -c %s "$file") bytes)"
    else
        echo "notes-screenshots: $file FAILED" >&2
        status=1
    fi
done

# The sweep tab waits for its grid model and the GPU only with --measure.
[[ "${MEASURE:-0}" == 1 ]] || exit "$status"
file="$out/sweep-kernel-table-4-11.png"
if "${run[@]}" "$app" --no-settings --preset "kernel:transpose-naivecol-cg" --view sweep \
    "${source_args[@]}" --size 1920x1080 --screenshot "$file"; then
    echo "notes-screenshots: $file ($(stat -c %s "$file") bytes)"
else
    echo "notes-screenshots: $file FAILED" >&2
    status=1
fi
exit "$status"

#!/usr/bin/env bash
# Screenshots of traced programs for docs/guide/tracing.md: the app opens a trace recorded on an
# H200 (tests/data/traces) and shows its worst instruction's first traced warp (or the one
# --trace-pc names), with the Trace
# dock listing the launch's memory instructions and the source panel. PyTorch's
# x.t().contiguous() (torch_transpose.wstrace) in the warp view and in the Grid tab (its traced
# warps over the launch), Triton's row softmax (triton_softmax.wstrace), and the project's own
# transpose (sample_transpose.wstrace, recorded with -lineinfo) for the source panel.
# The app runs under xvfb-run, or directly when QT_QPA_PLATFORM=offscreen is set.
#
# Usage: scripts/trace-screenshots.sh [BUILD_DIR] [OUT_DIR]   (default: build/dev, docs/guide/figures)
#        APP=path/to/warpscope overrides BUILD_DIR's app.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build/dev}"
out="${2:-$root/docs/guide/figures}"
app="${APP:-$build/app/warpscope}"
[[ -x "$app" ]] || { echo "trace-screenshots: no app at $app (build the 'warpscope' target)" >&2; exit 1; }
run=()
if [[ "${QT_QPA_PLATFORM:-}" != offscreen ]]; then
    command -v xvfb-run >/dev/null || { echo "trace-screenshots: xvfb-run is missing (Debian: xvfb), or set QT_QPA_PLATFORM=offscreen" >&2; exit 1; }
    run=(xvfb-run -a -s "-screen 0 1920x1080x24")
fi
mkdir -p "$out"

# Each picture on its own: one that fails is said and the others are still made.
status=0
shoot() { # trace view picture [app options]
    local trace="$1" view="$2" file="$out/$3"
    shift 3
    if "${run[@]}" "$app" --no-settings --view "$view" --size 1920x1080 "$@" \
        --screenshot "$file" "$root/tests/data/traces/$trace"; then
        echo "trace-screenshots: $file ($(stat -c %s "$file") bytes)"
    else
        echo "trace-screenshots: $file FAILED" >&2
        status=1
    fi
}
shoot torch_transpose.wstrace warp trace-torch-transpose.png
shoot torch_transpose.wstrace grid trace-torch-transpose-grid.png
# The sample's source is found in this checkout (scripts/gpu/trace_sample.cu), line highlighted.
shoot sample_transpose.wstrace bank trace-source-panel.png --trace-pc 0x16c0
# The softmax's worst per request is its row load; the picture shows a shared reduction step
# (@!P2 LDS R12, [R4] at PC 0x230) in the bank view instead.
shoot triton_softmax.wstrace bank trace-triton-softmax.png --trace-pc 0x230
exit "$status"

#!/usr/bin/env bash
# Screenshots of the four "why swizzle" lecture slides for docs/guide (docs/guide/swizzles.md):
# a row-major tile read by ldmatrix (8-way), the padded tile, the XOR-swizzled tile and a TMA
# 128B box read back, each the last four slides of the course deck with every wavefront shown.
# The app runs in lecture mode in a real window under xvfb-run at 1920x1080, on the deck in the
# source tree (resources/decks/course.json), and is stepped by key presses (--lecture-script):
# End goes to the last slide, Return reveals all its wavefronts, Left goes back one slide.
#
# Usage: scripts/swizzle-slides.sh [BUILD_DIR] [OUT_DIR]   (default: build/dev, docs/guide/figures)
#        APP=path/to/warpscope overrides BUILD_DIR's app.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build/dev}"
out="${2:-$root/docs/guide/figures}"
app="${APP:-$build/app/warpscope}"
deck="$root/resources/decks/course.json"
[[ -x "$app" ]] || { echo "swizzle-slides: no app at $app (build the 'warpscope' target)" >&2; exit 1; }
command -v xvfb-run >/dev/null || { echo "swizzle-slides: xvfb-run is missing (Debian: xvfb)" >&2; exit 1; }
mkdir -p "$out"

shots=(swizzle-1-row-major.png swizzle-2-padded.png swizzle-3-xor.png swizzle-4-tma-128b.png)
for shot in "${shots[@]}"; do rm -f "$out/$shot"; done
script="End,Return,capture:$out/${shots[3]}"
script+=",Left,Return,capture:$out/${shots[2]}"
script+=",Left,Return,capture:$out/${shots[1]}"
script+=",Left,Return,capture:$out/${shots[0]},Esc"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if ! xvfb-run -a -s "-screen 0 1920x1080x24" "$app" --no-settings --lecture "$deck" \
        --size 1920x1080 --lecture-script "$script" >"$log" 2>&1; then
    cat "$log" >&2
    echo "swizzle-slides: the app exited non-zero" >&2
    exit 1
fi
# Each capture must be the slide it names, a 1920x1080 PNG.
status=0
titles=("Why swizzle 1/4" "Why swizzle 2/4" "Why swizzle 3/4" "Why swizzle 4/4")
for i in 0 1 2 3; do
    file="$out/${shots[$i]}"
    if ! grep -qF "${titles[$i]}" "$log"; then
        echo "swizzle-slides: the app's report never reached \"${titles[$i]}\"" >&2
        status=1
    fi
    size=$(python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(24); print("%dx%d" % struct.unpack(">II", d[16:24]) if d[:8]==b"\x89PNG\r\n\x1a\n" else "none")' "$file" 2>/dev/null || echo none)
    if [[ "$size" != 1920x1080 ]]; then
        echo "swizzle-slides: $file is not a 1920x1080 PNG ($size)" >&2
        status=1
    else
        echo "swizzle-slides: $file"
    fi
done
exit "$status"

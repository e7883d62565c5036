#!/usr/bin/env bash
# In the test run: the app starts in lecture mode on the shipped course deck in a real window under
# Xvfb at 1920x1080, is stepped through by key presses (--lecture-script) and captures three
# slides as PNGs in the build folder (tests/app/lecture/): slide 3 halfway through its
# transactions, slide 11 (offset 11, warp view and metrics) complete, slide 25 (offset 32, a
# 32-way bank conflict) with three wavefronts shown. Each must be a 1920x1080 PNG, and the app's
# report of each step must show the slide and step reached. Exit 77 (skipped) without xvfb-run.
# Usage: test_lecture_xvfb.sh APP OUTDIR
set -u
app=$1 out=$2
if ! command -v xvfb-run >/dev/null; then
    echo "skipped: xvfb-run is missing (Debian package xvfb)"
    exit 77
fi
mkdir -p "$out"
shots=(lecture-03-misaligned-step-3.png lecture-11-offset-11.png lecture-25-bank-offset-32.png)
for shot in "${shots[@]}"; do rm -f "$out/$shot"; done
right8="Right,Right,Right,Right,Right,Right,Right,Right"
script="PgDown,PgDown,Space,Space,Space,capture:$out/${shots[0]}"
script+=",$right8,Return,capture:$out/${shots[1]}"
script+=",End,Home,Backspace,PgDown,$right8,$right8,$right8,Left"
script+=",Space,Space,Space,Space,Shift+Space,capture:$out/${shots[2]},Esc"
log="$out/lecture.log"
# The deck's slide count (its "title" lines less the deck's own), so appended slides need no edit.
deck="$(cd "$(dirname "$0")/../.." && pwd)/resources/decks/course.json"
slides=$(($(grep -c '"title":' "$deck") - 1))
if ! xvfb-run -a -s "-screen 0 1920x1080x24" "$app" --no-settings --lecture --size 1920x1080 \
        --lecture-script "$script" >"$log" 2>&1; then
    cat "$log"
    echo "FAIL: the app exited non-zero"
    exit 1
fi
cat "$log"
# The deck's length from the deck itself, so that slides appended later need no edit here.
deck="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/resources/decks/course.json"
slides=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["slides"]))' "$deck")
status=0
expect() {
    if ! grep -qF -- "$1" "$log"; then
        echo "FAIL: the app's report lacks: $1"
        status=1
    fi
}
expect "Space -> slide 3/$slides \"Cached load: misaligned\" · revealed 3/4"
expect "Return -> slide 11/$slides \"readSegment: offset 11\" · revealed 4/4"
expect "Backspace -> slide 1/$slides"
expect "Shift+Space -> slide 25/$slides \"Shared memory: offset 32, a 32-way conflict\" · revealed 3/32"
expect 'capture of slide 3 '
expect 'capture of slide 11 '
expect 'capture of slide 25 '
expect 'Esc -> left lecture mode'
for shot in "${shots[@]}"; do
    file="$out/$shot"
    # A PNG's width and height are big-endian 32-bit integers at bytes 16..23.
    size=$(od -An -tu1 -j16 -N8 "$file" 2>/dev/null | tr -s ' ' | sed 's/^ //')
    read -r w1 w2 w3 w4 h1 h2 h3 h4 <<<"$size"
    width=$(((${w1:-0} << 24) | (${w2:-0} << 16) | (${w3:-0} << 8) | ${w4:-0}))
    height=$(((${h1:-0} << 24) | (${h2:-0} << 16) | (${h3:-0} << 8) | ${h4:-0}))
    if [ "$(head -c 8 "$file" 2>/dev/null | od -An -tx1 | tr -d ' \n')" != "89504e470d0a1a0a" ] ||
        [ "$width" != 1920 ] || [ "$height" != 1080 ]; then
        echo "FAIL: $file is not a 1920x1080 PNG (${width}x${height})"
        status=1
    else
        echo "ok: $file ($(stat -c %s "$file") bytes)"
    fi
done
exit $status

#!/usr/bin/env bash
# In the test run: the app in a real window under Xvfb at 1920x1080 renders the readSegment
# offset-11 warp view, the padded tile's bank view and the offset sweep plot to PNGs in the build
# folder (tests/app/screenshots/). Each must be a 1920x1080 PNG, not blank, with the requested view
# the one visible and its title saying what core predicts (CHECK, warpscope-screenshot-check,
# builds the same window offscreen for each view and finds the one the screenshot matches).
# Exit 77 (skipped) without xvfb-run. Usage: test_screenshots.sh APP OUTDIR CHECK
set -u
app=$1 out=$2 check=$3
if ! command -v xvfb-run >/dev/null; then
    echo "skipped: xvfb-run is missing (Debian package xvfb)"
    exit 77
fi
mkdir -p "$out"
status=0
for shot in "warp readsegment-offset-11 warp" "bank shared-tile-column-padded bank" \
            "sweep readsegment-offset-11 sweep"; do
    set -- $shot
    file="$out/$1.png"
    rm -f "$file"
    if ! xvfb-run -a -s "-screen 0 1920x1080x24" "$app" --no-settings --preset "$2" --view "$3" \
            --size 1920x1080 --screenshot "$file"; then
        echo "FAIL: the app exited non-zero for $1"
        status=1
        continue
    fi
    # A PNG's width and height are big-endian 32-bit integers at bytes 16..23.
    size=$(od -An -tu1 -j16 -N8 "$file" 2>/dev/null | tr -s ' ' | sed 's/^ //')
    read -r w1 w2 w3 w4 h1 h2 h3 h4 <<<"$size"
    width=$(((w1 << 24) | (w2 << 16) | (w3 << 8) | w4))
    height=$(((h1 << 24) | (h2 << 16) | (h3 << 8) | h4))
    if [ "$(head -c 8 "$file" | od -An -tx1 | tr -d ' \n')" != "89504e470d0a1a0a" ] ||
        [ "$width" != 1920 ] || [ "$height" != 1080 ]; then
        echo "FAIL: $file is not a 1920x1080 PNG (${width}x${height})"
        status=1
    elif ! QT_QPA_PLATFORM=offscreen "$check" "$file" "$2" "$3"; then
        echo "FAIL: $file does not show the $3 view of $2"
        status=1
    else
        echo "ok: $file ($(stat -c %s "$file") bytes)"
    fi
done
exit $status

#!/usr/bin/env bash
# Every slide of a lecture deck, at 1920x1080 and at 3840x2160 (a 4K projector: Qt's scale 2),
# stepped through in lecture mode under Xvfb: each slide is captured as a PNG and its layout
# written as JSON (the lecture script's geometry:FILE step), and the check fails when any slide's
# view is clipped: a view needing more room than it got, a scroll bar shown, a view outside the
# slide, a title or caption cut off. The slide count comes from the deck, so added slides need no
# edit here. Exit 77 (skipped) without xvfb-run or python3.
#
# Usage: scripts/lecture-check.sh APP OUTDIR [DECK]
#   APP     the warpscope executable
#   OUTDIR  where the captures go: OUTDIR/1920x1080/slide-NN.{png,json}, OUTDIR/3840x2160/...
#   DECK    a deck file (default: the shipped course deck, resources/decks/course.json)
# LECTURE_CHECK_SIZES="1920x1080" limits the sizes (default: both).
set -u
if [ $# -lt 2 ]; then
    echo "usage: $0 APP OUTDIR [DECK]" >&2
    exit 2
fi
app=$1 out=$2
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
deck=${3:-$root/resources/decks/course.json}
if ! command -v xvfb-run >/dev/null; then
    echo "skipped: xvfb-run is missing (Debian package xvfb)"
    exit 77
fi
if ! command -v python3 >/dev/null; then
    echo "skipped: python3 is missing (it reads the deck and the reports)"
    exit 77
fi
if [ ! -x "$app" ]; then
    echo "FAIL: $app is not an executable: build the warpscope target first" >&2
    exit 2
fi
slides=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["slides"]))' "$deck") || {
    echo "FAIL: cannot read the deck $deck" >&2
    exit 2
}
deckArgument=()
if [ $# -ge 3 ]; then
    deckArgument=("$deck")
fi
status=0
for size in ${LECTURE_CHECK_SIZES:-1920x1080 3840x2160}; do
    dir="$out/$size"
    rm -rf "$dir"
    mkdir -p "$dir"
    scale=1
    if [ "$size" = 3840x2160 ]; then
        scale=2 # the same 1920x1080 slide, every pixel doubled, as a 4K projector shows it
    fi
    script=""
    for ((i = 1; i <= slides; i++)); do
        name=$(printf 'slide-%02d' "$i")
        script+="capture:$dir/$name.png,geometry:$dir/$name.json,PgDown,"
    done
    script+="Esc"
    log="$dir/lecture.log"
    # Bounded: a slide that hangs fails the check instead of the CI job's own time limit.
    if ! QT_SCALE_FACTOR=$scale timeout 600 xvfb-run -a -s "-screen 0 ${size}x24" \
        "$app" --no-settings --lecture "${deckArgument[@]}" --size 1920x1080 \
        --lecture-script "$script" >"$log" 2>&1; then
        cat "$log"
        echo "FAIL: at $size the app exited non-zero or ran past 600 s"
        status=1
        continue
    fi
    if ! python3 - "$dir" "$slides" "$size" <<'EOF'; then
import json, os, struct, sys

folder, slides, size = sys.argv[1], int(sys.argv[2]), sys.argv[3]
width, height = (int(n) for n in size.split("x"))
failed = 0
for i in range(1, slides + 1):
    stem = os.path.join(folder, "slide-%02d" % i)
    try:
        with open(stem + ".json") as f:
            report = json.load(f)
    except (OSError, ValueError) as e:
        print("FAIL: %s: slide %d has no layout report (%s)" % (size, i, e))
        failed += 1
        continue
    if report.get("slide") != i:
        print("FAIL: %s: the report %s.json is of slide %s" % (size, stem, report.get("slide")))
        failed += 1
    problems = report.get("problems", [])
    views = [v.get("name") for v in report.get("views", [])]
    for problem in problems:
        print("FAIL: %s: slide %d \"%s\": %s" % (size, i, report.get("title"), problem))
    failed += 1 if problems else 0
    try:
        with open(stem + ".png", "rb") as f:
            head = f.read(24)
        ok = head[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", head[16:24]) == (width, height)
    except OSError:
        ok = False
    if not ok:
        print("FAIL: %s: %s.png is not a %s PNG" % (size, stem, size))
        failed += 1
    if not problems and ok:
        print("ok: %s: slide %d (%s): nothing clipped" % (size, i, ", ".join(views)))
sys.exit(1 if failed else 0)
EOF
        status=1
    fi
done
exit $status

#!/usr/bin/env bash
# A newcomer's first start, checked by widget geometry: the app starts with no settings (a fresh
# XDG_CONFIG_HOME and XDG_DATA_HOME) under Xvfb at 1366x768, 1920x1080 and 3840x2160 (Qt scale
# factor 2), once on the first preset (the warp view) and once on a shared-memory preset (the bank
# view), and writes its layout as JSON (warpscope --geometry-report). Checked:
#   - the window fills the screen it opens on;
#   - at 1920x1080 and above: every metric table's column as wide as its longest text and all of
#     them inside the table (no horizontal scrolling), every summary row visible, the long list's
#     rows visible or its vertical scroll bar shown, and the bank view's 32 banks all visible;
#   - at 1366x768: nothing cut off without a scroll bar that says so (columns never narrower than
#     their text; where the table or the bank view is wider than its room, a scroll bar).
# Usage: first-start-check.sh WARPSCOPE [FIGURES_DIR]
#   WARPSCOPE    the app (build/dev/app/warpscope)
#   FIGURES_DIR  where to save the three first-start screenshots (docs/guide/figures), optional
# Exit 0 all held, 1 something did not (each failure printed), 77 skipped (no xvfb-run), 2 usage.
set -u
if [ $# -lt 1 ] || [ ! -x "$1" ]; then
    echo "usage: $0 WARPSCOPE [FIGURES_DIR]  (WARPSCOPE: the built app, e.g. build/dev/app/warpscope)" >&2
    exit 2
fi
app=$1 figures=${2:-}
if ! command -v xvfb-run >/dev/null; then
    echo "skipped: xvfb-run is missing (Debian package xvfb)"
    exit 77
fi
if ! command -v python3 >/dev/null; then
    echo "skipped: python3 is missing (the JSON reports are checked with it)"
    exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
# name width height scale
for screen in "1366x768 1366 768 1" "1920x1080 1920 1080 1" "3840x2160 3840 2160 2"; do
    set -- $screen
    name=$1 width=$2 height=$3 scale=$4
    for start in "warp" "bank bank-offset-1"; do
        set -- $start
        kind=$1 preset=${2:-}
        home="$work/$name-$kind"
        mkdir -p "$home/config" "$home/data" "$home/cache"
        report="$work/$name-$kind.json"
        shot=()
        if [ -n "$figures" ] && [ "$kind" = warp ]; then
            mkdir -p "$figures"
            shot=(--screenshot "$figures/first-start-$name.png")
        fi
        args=(--geometry-report "$report" "${shot[@]}")
        [ -n "$preset" ] && args+=(--preset "$preset" --view bank)
        if ! XDG_CONFIG_HOME="$home/config" XDG_DATA_HOME="$home/data" \
            XDG_CACHE_HOME="$home/cache" QT_SCALE_FACTOR="$scale" QT_QPA_PLATFORM=xcb \
            xvfb-run -a -s "-screen 0 ${width}x${height}x24" "$app" "${args[@]}" >"$work/log" 2>&1; then
            echo "FAIL: $name ($kind): the app exited non-zero:"
            cat "$work/log"
            status=1
            continue
        fi
        python3 - "$report" "$name" "$kind" <<'PY' || status=1
import json, sys
report, name, kind = sys.argv[1:4]
g = json.load(open(report))
failures = []
avail = g["screen"]["available"]
win = g["window"]
full = avail["width"] >= 1900  # logical pixels: 1920x1080, and 3840x2160 at scale 2
if win["width"] < 0.95 * avail["width"] or win["height"] < 0.9 * avail["height"]:
    failures.append("the window is %dx%d on a %dx%d screen" % (win["width"], win["height"], avail["width"], avail["height"]))
for key in ("metricsSummary", "metricsList"):
    t = g[key]
    if not t["visible"]:
        failures.append(key + " is not visible")
        continue
    for c in t["columns"]:
        if c["width"] < c["needed"]:
            failures.append("%s column %r is %d px, its text needs %d" % (key, c["title"], c["width"], c["needed"]))
    wider = t["columnsWidth"] > t["viewportWidth"]
    cut_rows = t["rowsVisible"] < t["rows"]
    if full:
        if wider:
            failures.append("%s needs %d px, has %d" % (key, t["columnsWidth"], t["viewportWidth"]))
        if key == "metricsSummary" and cut_rows:
            failures.append("%s shows %d of %d rows" % (key, t["rowsVisible"], t["rows"]))
    if wider and not t["horizontalScrollBar"]:
        failures.append("%s is cut off with no horizontal scroll bar" % key)
    if cut_rows and not t["verticalScrollBar"]:
        failures.append("%s hides rows with no vertical scroll bar" % key)
if kind == "bank":
    b = g["bank"]
    if not b.get("shown"):
        failures.append("the bank view is not shown")
    elif b["banksVisible"] < 32:
        if full:
            failures.append("the bank view shows %d of 32 banks" % b["banksVisible"])
        elif not b["horizontalScrollBar"]:
            failures.append("the bank view shows %d of 32 banks with no scroll bar" % b["banksVisible"])
m = g["metricsDock"]["rect"]
summary = "window %dx%d, metrics dock %d px, list %d/%d px, bank %s" % (
    win["width"], win["height"], m["width"], g["metricsList"]["columnsWidth"],
    g["metricsList"]["viewportWidth"], g["bank"].get("banksVisible", "-"))
if failures:
    print("FAIL: %s (%s): %s" % (name, kind, summary))
    for f in failures:
        print("  - " + f)
    sys.exit(1)
print("ok: %s (%s): %s" % (name, kind, summary))
PY
    done
done
exit $status

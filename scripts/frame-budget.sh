#!/usr/bin/env bash
# The whole window at 60 Hz (issue 18) in one command: runs `warpscope --benchmark` at scale 1 and
# at QT_SCALE_FACTOR=2 (offscreen platform), ROUNDS times each, and prints one Markdown table of the
# rows the issue's targets are about, with the 1-minute load average before and after each run.
# With a second binary (BEFORE), each round runs the two back to back, alternating which goes
# first, so that both sides see the same load.
#
# Usage: scripts/frame-budget.sh [APP] [BEFORE_APP]
#   APP         the app to measure (default: build/release/app/warpscope, a Release build:
#               cmake --preset release && cmake --build build/release --target warpscope -j2)
#   BEFORE_APP  optional: a second binary to compare with, run interleaved
# Environment: ROUNDS (default 3), ITERATIONS (default 50), PRESET (default readsegment-offset-11),
# SCALES (default "1 2"), LOGDIR (default: a fresh temporary folder; every run's full output is
# kept there).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
app="${1:-$root/build/release/app/warpscope}"
before="${2:-}"
rounds="${ROUNDS:-3}"
iterations="${ITERATIONS:-50}"
preset="${PRESET:-readsegment-offset-11}"
scales="${SCALES:-1 2}"
logdir="${LOGDIR:-$(mktemp -d /tmp/frame-budget.XXXXXX)}"
mkdir -p "$logdir"

for binary in "$app" ${before:+"$before"}; do
    [[ -x "$binary" ]] || { echo "frame-budget: no app at $binary" >&2; exit 1; }
done

run() { # label scale binary round
    local label="$1" scale="$2" binary="$3" round="$4"
    local log="$logdir/$label-scale$scale-$round.txt"
    local load_before load_after
    load_before="$(cut -d' ' -f1 /proc/loadavg)"
    QT_QPA_PLATFORM=offscreen QT_SCALE_FACTOR="$scale" "$binary" --benchmark --preset "$preset" \
        --iterations "$iterations" >"$log" 2>/dev/null || true
    load_after="$(cut -d' ' -f1 /proc/loadavg)"
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$label" "$scale" "$round" "$load_before" "$load_after" "$log"
}

runs="$logdir/runs.tsv"
: >"$runs"
for round in $(seq 1 "$rounds"); do
    for scale in $scales; do
        if [[ -n "$before" && $((round % 2)) -eq 0 ]]; then
            run before "$scale" "$before" "$round" >>"$runs"
            run after "$scale" "$app" "$round" >>"$runs"
        else
            run after "$scale" "$app" "$round" >>"$runs"
            [[ -n "$before" ]] && run before "$scale" "$before" "$round" >>"$runs"
        fi
    done
done

python3 - "$runs" <<'EOF'
import re, sys

# (column heading, start of the benchmark row's name)
rows = [
    ("window's frame p50 / p95", "edit → model → window's frame painted ("),
    ("its GUI-thread CPU p50 / p95", "edit → model → window's frame painted, GUI-thread CPU"),
    ("whole window render() p50 / p95", "edit → model → whole window painted"),
    ("60 Hz drag: missed of 120", "60 Hz drag over"),
    ("drag frame p50 / p95", "60 Hz drag: each frame's repaint alone"),
    ("drag frame CPU p50 / p95", "60 Hz drag: each frame's repaint, GUI-thread CPU"),
    ("lecture 4K reveal p50 / p95", "lecture mode 3840×2160 px: Space reveals"),
    ("lecture 4K next slide p50 / p95", "lecture mode 3840×2160 px: Space moves"),
    ("lecture reveal CPU p50 / p95", "lecture mode: a reveal, GUI-thread CPU"),
    ("lecture next slide CPU p50 / p95", "lecture mode: next slide, GUI-thread CPU"),
]
print("| binary | scale | round | load before → after | " + " | ".join(r[0] for r in rows) + " |")
print("| --- | --- | --- | --- |" + " --- |" * len(rows))
for line in open(sys.argv[1]):
    label, scale, rnd, before, after, log = line.rstrip("\n").split("\t")
    text = open(log, encoding="utf-8", errors="replace").read()
    cells = []
    for _, start in rows:
        match = next((l for l in text.splitlines() if l.startswith("| " + start)), None)
        if match is None:
            cells.append("—")
            continue
        parts = [p.strip() for p in match.strip().strip("|").split("|")]
        if start.startswith("60 Hz drag over"):
            missed = re.search(r"(\d+) of (\d+) frames missed", parts[0])
            cells.append(missed.group(1) if missed else "?")
        else:
            cells.append(f"{parts[1]} / {parts[2]}")
    print(f"| {label} | {scale} | {rnd} | {before} → {after} | " + " | ".join(cells) + " |")
EOF
echo
echo "Full output of each run: $logdir"

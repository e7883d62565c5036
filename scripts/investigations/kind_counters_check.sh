#!/usr/bin/env bash
# Runs on a GPU machine, from a tree laid out as the repository (binaries under BUILD): a single
# `measure` reading only the counters its kind needs ("counterNames", docs/protocol.md) against
# one reading all eight. The probe's self-check first (every counter exact, all eight asked
# for), then probe_trace.py's experiments for both ways and for a session opened again when the
# counters change, then, when BUILD has the app and QT_RUNTIME is given, `warpscope
# --benchmark-gpu` and the window's start-up with a GPU. Prints a short table last.
# Usage: scripts/investigations/kind_counters_check.sh BUILD OUTDIR [QT_RUNTIME.tar.xz]
set -u
build=$1
out=$2
runtime=${3:-}
mkdir -p "$out"
probe=$build/kernels/probe/warpscope-probe
app=$build/app/warpscope
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv | tee "$out/machine.txt"
"$probe" hello 2>/dev/null | head -c 400 >>"$out/machine.txt" || true

echo "== selfcheck"
timeout 150 "$probe" selfcheck >"$out/selfcheck.txt" 2>&1
echo "exit $?" >"$out/selfcheck-exit.txt"
tail -n 1 "$out/selfcheck.txt"; cat "$out/selfcheck-exit.txt"

echo "== probe_trace"
python3 scripts/gpu/probe_trace.py "$probe" "$out/trace" both-21-idle both-21 \
    kind-global-ld-21-idle kind-global-ld-21 kind-global-st-21-idle kind-shared-ld-21-idle \
    kind-sweep-24-global-ld-idle alternating-all-and-global-ld-idle >"$out/probe_trace.txt" 2>&1
grep -E '^##|answers for the same|set config and start|stop |cupti prepare|counters open|reopen|measure latency|measure counters' \
    "$out/probe_trace.txt" | sed 's/  */ /g'

echo "== counters compared"; grep -E "^##|answers for the same" "$out/probe_trace.txt" | grep -B1 "answers for the same" | grep -v "^--"

if [ -n "$runtime" ] && [ -x "$app" ]; then
    mkdir -p /tmp/warpscope-qt
    tar -C /tmp/warpscope-qt -xJf "$runtime"
    export QT_PLUGIN_PATH=/tmp/warpscope-qt/plugins QT_QPA_PLATFORM=offscreen \
        FONTCONFIG_FILE=/tmp/warpscope-qt/fonts.conf QT_FONT_DPI=96
    qtlib=/tmp/warpscope-qt/lib
    echo "== benchmark"
    LD_LIBRARY_PATH=$qtlib:${LD_LIBRARY_PATH:-} timeout 240 "$app" --benchmark-gpu \
        --probe "$probe" --iterations 20 >"$out/benchmark-gpu.md" 2>&1
    echo "exit $?" | tee -a "$out/benchmark-gpu.md"
    echo "== window start-up with a GPU"
    for i in 1 2 3; do
        LD_LIBRARY_PATH=$qtlib:${LD_LIBRARY_PATH:-} WARPSCOPE_GPU_PRESENT=1 timeout 20 \
            "$app" --no-settings --probe "$probe" --quit-after-first-frame 2>&1 | tail -n 1
    done | tee "$out/startup-gpu.txt"
fi

echo "== table"
printf '%-40s %s (%s)\n' "selfcheck" "$(tail -n 1 "$out/selfcheck.txt")" "$(cat "$out/selfcheck-exit.txt")"
grep -E '^## ' "$out/probe_trace.txt" | sed -E 's/^## ([^:]*): request to answer p50 ([0-9.]+) ms, p95 ([0-9.]+).*/\1 p50 \2 p95 \3/'
[ -f "$out/benchmark-gpu.md" ] && grep -E '^\| (drag|cold|  of|one|first|window)|^Counters|^Drag' \
    "$out/benchmark-gpu.md"
exit 0

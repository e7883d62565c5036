#!/usr/bin/env bash
# Runs on a GPU machine, from a tree laid out as the repository (binaries under BUILD): the first
# Run after the window opens (issue 14). In order: the probe's self-check (every counter exact),
# probe_trace.py's single-measure rows, probe_startup.py (the probe's start-up as the window's
# warm-up drives it, traced step by step), `warpscope --benchmark-gpu --iterations 20` RUNS times
# (the first Run is one sample per run), and the window's start-up with and without a GPU, three
# times each. Prints a short table last.
# Usage: scripts/gpu/first_run_check.sh BUILD OUTDIR QT_RUNTIME.tar.xz [RUNS]
set -u
build=$1
out=$2
runtime=$3
runs=${4:-3}
mkdir -p "$out"
probe=$build/kernels/probe/warpscope-probe
app=$build/app/warpscope
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv | tee "$out/machine.txt"
"$probe" hello 2>/dev/null | head -c 400 >>"$out/machine.txt" || true
echo >>"$out/machine.txt"

echo "== selfcheck"
timeout 150 "$probe" selfcheck >"$out/selfcheck.txt" 2>&1
echo "exit $?" >"$out/selfcheck-exit.txt"
tail -n 1 "$out/selfcheck.txt"; cat "$out/selfcheck-exit.txt"

echo "== probe_trace"
timeout 120 python3 scripts/gpu/probe_trace.py "$probe" "$out/trace" kind-global-ld-21-idle \
    both-21-idle >"$out/probe_trace.txt" 2>&1
grep -E '^##|answers for the same' "$out/probe_trace.txt"

echo "== probe start-up"
timeout 90 python3 scripts/gpu/probe_startup.py "$probe" "$out/startup" 5 >"$out/probe_startup.txt" 2>&1
cat "$out/probe_startup.txt"

mkdir -p /tmp/warpscope-qt
tar -C /tmp/warpscope-qt -xJf "$runtime"
export QT_PLUGIN_PATH=/tmp/warpscope-qt/plugins QT_QPA_PLATFORM=offscreen \
    FONTCONFIG_FILE=/tmp/warpscope-qt/fonts.conf QT_FONT_DPI=96
qtlib=/tmp/warpscope-qt/lib
for i in $(seq 1 "$runs"); do
    echo "== benchmark $i"
    LD_LIBRARY_PATH=$qtlib:${LD_LIBRARY_PATH:-} WARPSCOPE_GPU_PRESENT=1 timeout 240 "$app" \
        --benchmark-gpu --probe "$probe" --iterations 20 >"$out/benchmark-gpu-$i.md" 2>&1
    echo "exit $?" | tee -a "$out/benchmark-gpu-$i.md"
    grep -E '^\| (first|window)|^Probe start' "$out/benchmark-gpu-$i.md"
done
echo "== window start-up with a GPU"
for i in 1 2 3; do
    LD_LIBRARY_PATH=$qtlib:${LD_LIBRARY_PATH:-} WARPSCOPE_GPU_PRESENT=1 timeout 20 \
        "$app" --no-settings --probe "$probe" --quit-after-first-frame 2>&1 | tail -n 1
done | tee "$out/startup-gpu.txt"
echo "== window start-up without a GPU"
for i in 1 2 3; do
    LD_LIBRARY_PATH=$qtlib:${LD_LIBRARY_PATH:-} CUDA_VISIBLE_DEVICES= WARPSCOPE_GPU_PRESENT=0 \
        timeout 20 "$app" --no-settings --probe "$probe" --quit-after-first-frame 2>&1 | tail -n 1
done | tee "$out/startup-nogpu.txt"

echo "== table"
printf '%-40s %s (%s)\n' "selfcheck" "$(tail -n 1 "$out/selfcheck.txt")" "$(cat "$out/selfcheck-exit.txt")"
grep -E '^## ' "$out/probe_trace.txt" | sed -E 's/^## ([^:]*): request to answer p50 ([0-9.]+) ms, p95 ([0-9.]+).*/\1 p50 \2 p95 \3/'
grep -E '^   (hello|device_info|warm-up|Run)' "$out/probe_startup.txt"
for i in $(seq 1 "$runs"); do
    echo "benchmark $i:"
    grep -E '^\| (drag|cold|first)|^Counters|^Probe start' "$out/benchmark-gpu-$i.md"
done
echo "start-up with a GPU: $(tr '\n' ' ' <"$out/startup-gpu.txt")"
echo "start-up without a GPU: $(tr '\n' ' ' <"$out/startup-nogpu.txt")"
exit 0

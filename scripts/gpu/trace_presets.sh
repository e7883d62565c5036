#!/usr/bin/env bash
# Traces warpscope's own kernel presets as a real program: warpscope-probe run-kernel generates
# each preset's kernel with NVRTC (one memory instruction per access, entry point
# warpscope_kernel) and runs it; warpscope-trace records the first launch of that kernel.
# tests/core/test_trace_presets.cpp checks the traces against core's kernel model, so the presets
# and parameters below are the test's table too: change both together.
#   scripts/gpu/trace_presets.sh CARRY OUT     (on the GPU machine, from the repository root)
# CARRY holds warpscope-probe (nvcc -arch=sm_90 build), warpscope-trace and the tracer's sources
# (trace_build.sh builds the rest); OUT receives preset_*.wstrace, each run's messages and the
# probe's JSON answer.
set -u
carry=$(realpath "${1:?CARRY}")
out=$(realpath -m "${2:?OUT}")
mkdir -p "$out"
build=/tmp/warpscope-trace-build
here=$(dirname "$(realpath "$0")")
log=$out/log.txt
{
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    nvcc --version | tail -2
    "${CUDA_HOME:-/usr/local/cuda}/compute-sanitizer/compute-sanitizer" --version | sed -n 4p
    date -u +%Y-%m-%d
} >"$out/env.txt" 2>&1
"$here/trace_build.sh" "$carry" "$build" "$out" || { tail -c 6000 "$log"; exit 1; }
probe=$carry/warpscope-probe
chmod +x "$probe"

# An untraced run first: a probe that cannot run the kernel on its own is not the tracer's fault.
echo "== untraced: run-kernel readoffset --param n=4096" >>"$log"
timeout -k 5 60 "$probe" run-kernel readoffset --param n=4096 --param offset=11 --no-counters \
    --repetitions 1 --flush none --json </dev/null >"$out/untraced.json" 2>>"$log"
echo "rc=$?" >>"$log"

# trace NAME WARPS PRESET [--param NAME=VALUE...]. The probe runs under its own time limit inside
# the traced program, so a probe that hangs ends and the tracer still writes what it recorded
# (marked incomplete) and its messages; the outer limit catches a tracer that hangs.
trace() {
    local name=$1 warps=$2 preset=$3
    shift 3
    echo "== $name: --warps $warps run-kernel $preset $*" >>"$log"
    timeout -k 5 90 "$build/warpscope-trace" --kernel '^warpscope_kernel$' --warps "$warps" \
        -o "$out/$name.wstrace" -- timeout -k 5 60 "$probe" run-kernel "$preset" "$@" \
        --no-counters --repetitions 1 --flush none --json </dev/null >"$out/$name.json" \
        2>"$out/$name.messages.txt"
    echo "rc=$? $(wc -c <"$out/$name.wstrace" 2>/dev/null) bytes" >>"$log"
    tail -c 1500 "$out/$name.messages.txt" >>"$log"
}
# Small launches first (every warp); the notes' size last: a Debug probe evaluates the grid model
# over all 2^24 threads before it launches, so carry a release build (cmake --preset release).
trace preset_readoffset_small all readoffset --param n=4096 --param offset=11
trace preset_naivecol all transpose-naivecol --param nx=64 --param ny=64
trace preset_tiled all transpose-tiled --param nx=64 --param ny=64
trace preset_tiled_padded all transpose-tiled-padded --param nx=64 --param ny=64
trace preset_readoffset_sample256 sample:256 readoffset --param offset=11
ls -la "$out" >>"$log"
tail -c 8000 "$log"

#!/usr/bin/env bash
# Traces warpscope's own kernel presets as real programs: scripts/gpu/preset_program.py writes
# each preset (the probe's generated kernel, one memory instruction per access, entry point
# warpscope_kernel) as a stand-alone CUDA program with the launch and buffers warpscope-cli
# analyze-kernel gives; nvcc -arch=sm_90 -lineinfo builds it; warpscope-trace records its launch
# and Nsight Compute's source counters profile the same launch. tests/core/
# test_trace_presets_recorded.cpp checks the traces and counters against core's kernel model, so
# the presets and parameters below are that test's table too: change both together.
#   scripts/gpu/trace_presets.sh TRACER PROGRAMS OUT   (on the GPU machine, repository root)
# TRACER holds warpscope-trace and the tracer's sources (trace_build.sh builds the rest);
# PROGRAMS holds the built programs preset_*; OUT receives preset_*.wstrace, their messages,
# ncu_preset_*.csv and log.txt.
set -u
tracer=$(realpath "${1:?TRACER}")
programs=$(realpath "${2:?PROGRAMS}")
out=$(realpath -m "${3:?OUT}")
mkdir -p "$out"
build=/tmp/warpscope-trace-build
here=$(dirname "$(realpath "$0")")
log=$out/log.txt
{
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    nvcc --version | tail -2
    ncu --version | tail -1
    date -u +%Y-%m-%d
} >"$out/env.txt" 2>&1
"$here/trace_build.sh" "$tracer" "$build" "$out" || { tail -c 6000 "$log"; exit 1; }

# trace NAME WARPS: the program untraced first (a program that fails on its own is not the
# tracer's fault), then traced, then (for every-warp traces) profiled.
trace() {
    local name=$1 warps=$2 program=$programs/$1
    chmod +x "$program"
    echo "== $name: untraced" >>"$log"
    timeout -k 5 60 "$program" >>"$log" 2>&1
    echo "rc=$?" >>"$log"
    echo "== $name: warpscope-trace --warps $warps" >>"$log"
    timeout -k 5 120 "$build/warpscope-trace" --kernel '^warpscope_kernel$' --warps "$warps" \
        -o "$out/$name.wstrace" -- "$program" </dev/null >"$out/$name.messages.txt" 2>&1
    echo "rc=$? $(wc -c <"$out/$name.wstrace" 2>/dev/null) bytes" >>"$log"
    tail -c 1500 "$out/$name.messages.txt" >>"$log"
    if [ "$warps" = all ]; then
        timeout 120 ncu --section SourceCounters -k warpscope_kernel -f -o "$build/ncu_$name" \
            "$program" >/dev/null 2>>"$log"
        timeout 60 ncu -i "$build/ncu_$name.ncu-rep" --page source --csv --print-source sass \
            >"$out/ncu_$name.csv" 2>>"$log"
        echo "ncu rc=$? $(wc -c <"$out/ncu_$name.csv") bytes" >>"$log"
    fi
}
trace preset_readoffset_small all
trace preset_naivecol all
trace preset_tiled all
trace preset_tiled_padded all
trace preset_readoffset_sample256 sample:256
ls -la "$out" >>"$log"
tail -c 8000 "$log"

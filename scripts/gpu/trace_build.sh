#!/usr/bin/env bash
# Builds warpscope-trace's injected library and device patches on the GPU machine (the toolkit
# there has the Compute Sanitizer API headers) under the project's warning flags, as CMake's
# warpscope_set_warnings gives them in the dev preset (cmake/, -Werror included), so the parts
# the development machines cannot compile are held to the same warnings.
#   scripts/gpu/trace_build.sh CARRY BUILD OUT
# CARRY holds trace_inject.cpp, trace_raw.h, trace_patches.cu and warpscope-trace (the launcher,
# built with core where the project builds). BUILD receives the three files side by side; OUT
# receives build_warnings.txt (the compilers' messages) and appends to log.txt.
set -u
carry=$(realpath "${1:?CARRY}")
build=$(realpath -m "${2:?BUILD}")
out=$(realpath -m "${3:?OUT}")
mkdir -p "$build" "$out"
cuda=${CUDA_HOME:-/usr/local/cuda}
san=$cuda/compute-sanitizer
warnings="-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Woverloaded-virtual -Wimplicit-fallthrough -Werror"
report=$out/build_warnings.txt
{
    echo "== g++ $(g++ -dumpfullversion): trace_inject.cpp, -std=c++20 -O0 -g $warnings"
    g++ -std=c++20 -O0 -g $warnings -fPIC -shared -I"$san/include" -I"$cuda/include" -I"$carry" \
        "$carry/trace_inject.cpp" -L"$san" -lsanitizer-public -Wl,-rpath,"$san" \
        -o "$build/libwarpscope-trace-inject.so" 2>&1
    echo "rc=$?"
    echo "== nvcc: trace_patches.cu, --Werror all-warnings, host side under the same flags"
    nvcc --fatbin --compile-as-tools-patch -gencode arch=compute_90,code=sm_90 --Werror all-warnings \
        -Xcompiler "$(echo $warnings | tr ' ' ',')" -I"$san/include" -I"$carry" \
        -o "$build/warpscope-trace-patches.fatbin" -c "$carry/trace_patches.cu" 2>&1
    echo "rc=$?"
} >"$report" 2>&1
# Tracing goes on with a build that warns (the warnings are reported above, not hidden).
if [ ! -s "$build/libwarpscope-trace-inject.so" ]; then
    g++ -std=c++20 -O2 -fPIC -shared -I"$san/include" -I"$cuda/include" -I"$carry" \
        "$carry/trace_inject.cpp" -L"$san" -lsanitizer-public -Wl,-rpath,"$san" \
        -o "$build/libwarpscope-trace-inject.so" >>"$report" 2>&1
fi
if [ ! -s "$build/warpscope-trace-patches.fatbin" ]; then
    nvcc --fatbin --compile-as-tools-patch -gencode arch=compute_90,code=sm_90 -I"$san/include" \
        -I"$carry" -o "$build/warpscope-trace-patches.fatbin" -c "$carry/trace_patches.cu" \
        >>"$report" 2>&1
fi
cp "$carry/warpscope-trace" "$build/" && chmod +x "$build/warpscope-trace"
cat "$report" >>"$out/log.txt"
[ -s "$build/libwarpscope-trace-inject.so" ] && [ -s "$build/warpscope-trace-patches.fatbin" ]

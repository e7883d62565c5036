#!/usr/bin/env bash
# Builds warpscope-trace's injected library and device patches on the GPU machine (the toolkit
# there has the Compute Sanitizer API headers) and traces the known programs: the sample kernels
# (scripts/gpu/trace_sample.cu), a PyTorch elementwise op and transpose (trace_torch.py) and two
# Triton kernels (trace_triton.py). Also: a kernel that matches nothing, a full record buffer, a
# faulting kernel, Nsight Compute's per-instruction source counters for the same launches, and
# the wall time traced against untraced. Usage (on the GPU machine, from the repository root):
#   scripts/gpu/trace_check.sh CARRY OUT
# CARRY holds warpscope-trace (built with core), trace_inject.cpp, trace_raw.h, trace_patches.cu,
# trace_sample (nvcc -arch=sm_90 -lineinfo) and the two Python programs; OUT receives the traces,
# each program's JSON line, the messages and the timings (tests/data/traces keeps the small ones).
set -u
carry=$(realpath "${1:?CARRY}")
out=$(realpath -m "${2:?OUT}")
mkdir -p "$out"
cuda=${CUDA_HOME:-/usr/local/cuda}
san=$cuda/compute-sanitizer
build=/tmp/warpscope-trace-build
rm -rf "$build" && mkdir -p "$build"
log=$out/log.txt
step() { echo "== $*" >>"$log"; }

{
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    "$san/compute-sanitizer" --version | head -3
    nvcc --version | tail -2
    python3 -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)"
    ncu --version | tail -1
    ls "$san" | head -30
} >"$out/env.txt" 2>&1
grep -n "SANITIZER_MEMORY_DEVICE_FLAG_\|(\*SanitizerCallbackMemoryAccess)\|sanitizerUnpatchModule\|sanitizerGetFunctionPcAndSize" \
    "$san/include/"*.h >"$out/header_grep.txt" 2>&1
python3 - "$san/include/sanitizer_callbacks.h" >>"$out/header_grep.txt" 2>&1 <<'PY'
import re, sys
text = open(sys.argv[1]).read()
end = text.find("} Sanitizer_LaunchData;")
start = text.rfind("typedef struct", 0, end)
print(re.sub(r"/\*\*.*?\*/", "", text[start:end], flags=re.S))
PY

step "build the injected library"
g++ -std=c++17 -O2 -fPIC -shared -I"$san/include" -I"$cuda/include" -I"$carry" \
    "$carry/trace_inject.cpp" -L"$san" -lsanitizer-public -Wl,-rpath,"$san" \
    -o "$build/libwarpscope-trace-inject.so" 2>"$out/build_inject.txt"
echo "rc=$?" >>"$log"; head -c 4000 "$out/build_inject.txt" >>"$log"
step "build the patches"
nvcc --fatbin --compile-as-tools-patch -gencode arch=compute_90,code=sm_90 -I"$san/include" \
    -I"$carry" -o "$build/warpscope-trace-patches.fatbin" -c "$carry/trace_patches.cu" \
    2>"$out/build_patches.txt"
echo "rc=$?" >>"$log"; head -c 4000 "$out/build_patches.txt" >>"$log"
if [ ! -s "$build/libwarpscope-trace-inject.so" ] || [ ! -s "$build/warpscope-trace-patches.fatbin" ]; then
    cat "$out/env.txt" "$log"
    exit 1
fi
cp "$carry/warpscope-trace" "$build/" && chmod +x "$build/warpscope-trace"
tracer=$build/warpscope-trace

# trace NAME [tracer options] -- PROGRAM...: the trace, the program's stdout and the messages.
trace() {
    local name=$1
    shift
    step "trace $name: $*"
    local t0=$(date +%s.%N)
    timeout 300 "$tracer" "$@" >"$out/$name.json" 2>"$out/$name.messages.txt"
    local rc=$?
    local t1=$(date +%s.%N)
    echo "rc=$rc wall_s=$(awk "BEGIN{print $t1 - $t0}")" >>"$log"
    tail -c 3000 "$out/$name.messages.txt" >>"$log"
}
untraced() {
    local name=$1
    shift
    step "untraced $name: $*"
    local t0=$(date +%s.%N)
    timeout 300 "$@" >"$out/$name.json" 2>"$out/$name.messages.txt"
    local rc=$?
    local t1=$(date +%s.%N)
    echo "rc=$rc wall_s=$(awk "BEGIN{print $t1 - $t0}")" >>"$log"
}

sample=$carry/trace_sample
trace sample_coalesced --kernel coalesced --warps all -o "$out/sample_coalesced.wstrace" -- "$sample"
trace sample_strided --kernel strided --warps all -o "$out/sample_strided.wstrace" -- "$sample"
trace sample_transpose --kernel transpose --warps all -o "$out/sample_transpose.wstrace" -- "$sample"
trace sample_nomatch --kernel no_such_kernel -o "$out/none.wstrace" -- "$sample"
trace sample_full --kernel coalesced --warps all --max-records 8 -o "$out/sample_full.wstrace" -- "$sample" 4096
trace sample_fault --kernel coalesced -o "$out/sample_fault.wstrace" -- "$sample" fault
if [ ! -s "$out/sample_coalesced.wstrace" ]; then
    WARPSCOPE_TRACE_PATCH_AT_LOAD=1 trace sample_coalesced_at_load --kernel coalesced --warps all \
        -o "$out/sample_coalesced_at_load.wstrace" -- "$sample"
fi

trace torch_kernels --kernel no_such_kernel -o "$out/none.wstrace" -- python3 "$carry/trace_torch.py"
trace torch_mul --kernel vectorized_elementwise_kernel --warps all -o "$out/torch_mul.wstrace" \
    -- python3 "$carry/trace_torch.py"
trace torch_transpose --kernel '18elementwise_kernel' --warps all -o "$out/torch_transpose.wstrace" \
    -- python3 "$carry/trace_torch.py"
trace triton_add --kernel vector_add --warps all -o "$out/triton_add.wstrace" -- python3 "$carry/trace_triton.py"
trace triton_softmax --kernel row_softmax --warps all -o "$out/triton_softmax.wstrace" \
    -- python3 "$carry/trace_triton.py"

step "overhead: coalesced over 2^24 floats, 5 launches, the first traced"
untraced overhead_native "$sample" 16777216 5
trace overhead_one_warp --kernel coalesced --warps 0:0 -o "$build/o1.wstrace" -- "$sample" 16777216 5
trace overhead_sample256 --kernel coalesced --warps sample:256 -o "$build/o2.wstrace" -- "$sample" 16777216 5
untraced overhead_torch_native python3 "$carry/trace_torch.py"

step "ncu source counters"
for k in coalesced strided transpose; do
    timeout 120 ncu --section SourceCounters -k "$k" -f -o "$build/ncu_$k" "$sample" >/dev/null 2>>"$log"
    timeout 60 ncu -i "$build/ncu_$k.ncu-rep" --page source --csv --print-source sass \
        >"$out/ncu_$k.csv" 2>>"$log"
    echo "ncu $k rc=$? $(wc -c <"$out/ncu_$k.csv")" >>"$log"
done
for k in vector_add row_softmax; do
    timeout 180 ncu --section SourceCounters -k "$k" -f -o "$build/ncu_$k" python3 "$carry/trace_triton.py" >/dev/null 2>>"$log"
    timeout 60 ncu -i "$build/ncu_$k.ncu-rep" --page source --csv --print-source sass \
        >"$out/ncu_$k.csv" 2>>"$log"
    echo "ncu $k rc=$? $(wc -c <"$out/ncu_$k.csv")" >>"$log"
done
# PyTorch's kernels by mangled name: the first launch of each is the traced one.
for k in vectorized_elementwise_kernel 18elementwise_kernel; do
    timeout 180 ncu --section SourceCounters --kernel-name-base mangled -k "regex:$k" -c 1 -f \
        -o "$build/ncu_torch_$k" python3 "$carry/trace_torch.py" >/dev/null 2>>"$log"
    timeout 60 ncu -i "$build/ncu_torch_$k.ncu-rep" --page source --csv --print-source sass \
        >"$out/ncu_torch_$k.csv" 2>>"$log"
    echo "ncu torch $k rc=$? $(wc -c <"$out/ncu_torch_$k.csv")" >>"$log"
done
ls -la "$out" >>"$log"
tail -c 9000 "$log"

#!/usr/bin/env bash
# Issue 19, local and texture memory, on a GPU machine, from a folder holding bin/warpscope-probe
# (built with -DCMAKE_CUDA_ARCHITECTURES=90), scripts/gpu/{kernel_check,nsight,loctex_figures}.py,
# tests/probe/check_kernel_sass.py, resources/kernels.json and tests/data/loctex/table.txt:
#   1. kernel_check.py on the six local/texture presets (model vs probe vs ncu, SASS,
#      compute-sanitizer memcheck);
#   2. where the local array lives: the generated kernels compiled with nvcc -Xptxas -v (stack
#      frame) and their SASS (LDL/STL, TEX);
#   3. partly active warps and narrow local accesses, model vs CUPTI (run-kernel --json);
#   4. loctex_figures.py: the guide's two figures and their data.
# Usage: scripts/gpu/loctex_device_run.sh OUTDIR
set -u
out=${1:-${OUT:-/tmp/warpscope-loctex}}
mkdir -p "$out"
here=$(pwd)
probe=$here/bin/warpscope-probe
export PATH=/usr/local/cuda/bin:$PATH
for dir in /usr/local/cuda/targets/x86_64-linux/lib /usr/local/cuda-13.0/targets/x86_64-linux/lib \
           /usr/local/cuda/extras/CUPTI/lib64 /usr/local/cuda/lib64; do
    [ -d "$dir" ] && export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$dir
done
export PYTHONUNBUFFERED=1
ids="local-same-index local-lane-index texture-rows texture-rows-global texture-tiles texture-tiles-global"
python3 scripts/gpu/kernel_check.py check "$probe" resources/kernels.json "$out" $ids 2>&1 | tail -n 30
{
    for id in local-same-index texture-tiles; do
        echo "== $id: nvcc -Xptxas -v on the generated source"
        "$probe" run-kernel $id --source >"$out/$id.cu" 2>&1
        nvcc -arch=sm_90 -cubin -Xptxas -v -o "$out/$id.cubin" "$out/$id.cu" 2>&1 | grep -E "stack|spill|registers|error"
        cuobjdump -sass "$out/$id.cubin" | grep -E "LDL|STL|TEX|LDG|STG" | sed 's/ *\/\* 0x[0-9a-f]* \*\/ *$//'
    done
} >"$out/where.txt" 2>&1
cat "$out/where.txt"
{
    echo "== partly active warps and narrow local accesses: model = CUPTI?"
    for k in \
      '{"name":"texPartial","buffers":[{"name":"a","bytes":1048576}],"grid":[64,1,1],"block":[32,1,1],"accesses":[{"op":"load","space":"texture","width":4,"buffer":"a","row_bytes":1024,"address":"(bid.x * 4 + lane % 4) * 1024 + (lane / 4) * 4","active":"lane < 5 || lane > 25"}]}' \
      '{"name":"texScatter","buffers":[{"name":"a","bytes":1048576}],"grid":[64,1,1],"block":[64,1,1],"accesses":[{"op":"load","space":"texture","width":4,"buffer":"a","row_bytes":512,"address":"((gid * 37) % 2048) * 128 + (lane % 3) * 4","active":"1"}]}' \
      '{"name":"localBytes","buffers":[{"name":"o","bytes":65536}],"grid":[64,1,1],"block":[64,1,1],"accesses":[{"op":"store","space":"local","width":1,"address":"(lane * 5) % 32","active":"lane % 3 != 0"},{"op":"load","space":"local","width":2,"address":"(lane % 8) * 2","active":"1"},{"op":"store","space":"global","width":4,"buffer":"o","address":"gid * 4","active":"1"}]}'; do
        "$probe" run-kernel "$k" --json --repetitions 1 | python3 -c '
import json, sys
a = json.loads(sys.stdin.readline())
p, c = a["predicted"], a["counters"]
for m in sorted(n for n in p if n.startswith("l1tex__") and ("_local_" in n or "tex_mem_texture" in n)):
    print("%-12s %-50s model %8s  GPU %8s  %s" % (a["kernel"], m, p[m], c.get(m), "ok" if p[m] == c.get(m) else "DIFFERENT"))'
        compute-sanitizer --tool memcheck --error-exitcode 9 "$probe" run-kernel "$k" --no-counters --repetitions 1 2>&1 | grep "ERROR SUMMARY"
    done
} >"$out/partial.txt" 2>&1
cat "$out/partial.txt"
python3 scripts/gpu/loctex_figures.py "$probe" "$out" tests/data/loctex/table.txt 2>&1 | tail -n 12
rm -rf "$out/cubins" "$out"/*.cubin

#!/usr/bin/env bash
# Runs issue 11's whole-kernel checks on a GPU machine from a folder prepared by
# scripts/gpu/kernel_device_pack.sh (binaries in bin/, the scripts and resources/kernels.json at
# their paths in the tree). Usage, from that folder:
#   scripts/gpu/kernel_device_run.sh smoke|check|extra|tables|all [OUTDIR]
# smoke:  device facts, one kernel end to end, the generated SASS of every preset, and the
#         probe's protocol tests;
# check:  kernel_check.py check (model vs probe vs ncu, SASS, compute-sanitizer);
# extra:  the same on non-square grids and other launches (kernel_check.py check --extra);
# tables: kernel_check.py tables (the notes' tables, 5 runs each).
# The investigations of DRAM reads beyond the footprint (experiment, dram, fill, cold,
# cold-clocks) are scripts/investigations/dram_fills/device_run.sh, packed beside these.
set -u
mode=${1:-all}
out=${2:-${OUT:-/tmp/warpscope-kernels}}
mkdir -p "$out"
here=$(pwd)
probe=$here/bin/warpscope-probe
for dir in /usr/local/cuda/targets/x86_64-linux/lib /usr/local/cuda-13.0/targets/x86_64-linux/lib \
           /usr/local/cuda/extras/CUPTI/lib64 /usr/local/cuda/lib64; do
    [ -d "$dir" ] && export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$dir
done
export PYTHONUNBUFFERED=1

if [ "$mode" = smoke ] || [ "$mode" = all ]; then
    {
        nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem \
            --format=csv
        nvcc --version | tail -2
        ncu --version | tail -1
        "$probe" info
        echo "== readoffset (offset 0, 11, 128), counters on"
        "$probe" run-kernel readoffset
        "$probe" run-kernel readoffset --sweep offset=0,11,128
        echo "== transpose-tiled-padded, counters on"
        "$probe" run-kernel transpose-tiled-padded
        echo "== an out-of-bounds kernel is refused, and buffers larger than the GPU"
        "$probe" run-kernel '{"grid":[2,1,1],"block":[32,1,1],"buffers":[{"name":"a","bytes":128}],"accesses":[{"op":"load","space":"global","width":4,"buffer":"a","address":"gid*4"}]}'
        echo "exit $?"
        "$probe" run-kernel '{"grid":[1,1,1],"block":[32,1,1],"buffers":[{"name":"big","bytes":107374182400},{"name":"small","bytes":128}],"accesses":[{"op":"load","space":"global","width":4,"buffer":"big","address":"gid*4"}]}'
        echo "exit $?"
        echo "== protocol tests"
        bin/warpscope-probe-protocol-tests --gtest_brief=1 2>&1 | tail -5
        echo "== SASS of every preset"
        python3 tests/probe/check_kernel_sass.py "$probe" --kernels resources/kernels.json
        echo "exit $?"
    } 2>&1 | tee "$out/smoke.txt"
fi
if [ "$mode" = check ] || [ "$mode" = all ]; then
    python3 scripts/gpu/kernel_check.py check "$probe" resources/kernels.json "$out" 2>&1 |
        tail -n 60
    rm -rf "$out/cubins"
fi
if [ "$mode" = extra ] || [ "$mode" = all ]; then
    # The same three-way check on launches other than the presets' own (non-square grids).
    python3 scripts/gpu/kernel_check.py check "$probe" resources/kernels.json "$out" --extra 2>&1 |
        tail -n 20
    rm -rf "$out/cubins"
fi
if [ "$mode" = tables ] || [ "$mode" = all ]; then
    python3 scripts/gpu/kernel_check.py tables "$probe" resources/kernels.json "$out" 5 2>&1 |
        tail -n 80
fi

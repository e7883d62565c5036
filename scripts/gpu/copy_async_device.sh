#!/usr/bin/env bash
# Issue 19's async copies on a GPU machine, from a folder packed by scripts/gpu/kernel_device_pack.sh
# (plus scripts/gpu/copy_async_sweep.py): kernel_check.py on the copyasync-* presets and their
# extra launches (model = probe = ncu, SASS, compute-sanitizer), whether a hardware counter gives
# the LDGSTS shared wavefronts, and the element-size sweep. Usage, from that folder:
#   scripts/gpu/copy_async_device.sh OUTDIR [RUNS]
set -u
out=${1:-${OUT:-/tmp/warpscope-copy-async}}
runs=${2:-3}
mkdir -p "$out"
for dir in /usr/local/cuda/targets/x86_64-linux/lib /usr/local/cuda-13.0/targets/x86_64-linux/lib \
           /usr/local/cuda/extras/CUPTI/lib64 /usr/local/cuda/lib64; do
    [ -d "$dir" ] && export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$dir
done
export PYTHONUNBUFFERED=1
probe=$PWD/bin/warpscope-probe
{
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv
    nvcc --version | tail -2
    ncu --version | tail -1
} > "$out/device.txt" 2>&1
python3 scripts/gpu/kernel_check.py check "$probe" resources/kernels.json "$out" --copy-async \
    > "$out/check.log" 2>&1
echo "check exit $?" >> "$out/check.log"
# Does a hardware counter hold the LDGSTS shared wavefronts? cmd_write against the SASS metric.
ncu --csv --print-units base --cache-control all -k regex:warpscope_kernel -c 1 --metrics \
    l1tex__data_pipe_lsu_wavefronts_mem_shared_cmd_write.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum \
    "$probe" run-kernel copyasync-shared-stride --param stride=2 --param gstride=4 --no-counters \
    --repetitions 1 > "$out/cmd_write.csv" 2>&1
python3 scripts/gpu/copy_async_sweep.py "$probe" "$out" "$runs" > "$out/sweep.log" 2>&1
echo "sweep exit $?" >> "$out/sweep.log"
tail -25 "$out/check.log"
grep -E "Metric|wavefronts" "$out/cmd_write.csv" | tail -3
tail -12 "$out/sweep.log"

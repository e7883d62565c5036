#!/usr/bin/env bash
# Runs issue 15's measurements on a GPU machine, from a folder holding bin/warpscope-probe,
# bin/warpscope-replay, scripts/hw/ and data/*_patterns.jsonl. Usage: device_fusion.sh OUTDIR SET...
# Every SET (data/hardware_SET_patterns.jsonl) is measured by the probe (OUTDIR/probe-SET.jsonl);
# the patterns of data/spotcheck_patterns.jsonl, if present, are measured again with Nsight Compute
# through warpscope-replay and checked with compute-sanitizer (scripts/hw/measure.sh, in
# OUTDIR/ncu-spot). Prints no counter, only what was measured.
set -u
out=$1
shift
mkdir -p "$out"
for dir in /usr/local/cuda/targets/x86_64-linux/lib /usr/local/cuda-13.0/targets/x86_64-linux/lib \
           /usr/local/cuda/extras/CUPTI/lib64 /usr/local/cuda/lib64; do
    [ -d "$dir" ] && export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$dir
done
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader | tee "$out/gpu.txt"
nvcc --version 2>/dev/null | tail -1 | tee "$out/cuda.txt"
for set in "$@"; do
    start=$SECONDS
    python3 scripts/hw/probe_measure.py bin/warpscope-probe "data/hardware_${set}_patterns.jsonl" \
        "$out/probe-$set.jsonl" 2>&1 | tail -3
    echo "  $((SECONDS - start)) s"
done
if [ -f data/spotcheck_patterns.jsonl ]; then
    start=$SECONDS
    bash scripts/hw/measure.sh bin/warpscope-replay data/spotcheck_patterns.jsonl "$out/ncu-spot" \
        2>&1 | tail -8
    echo "  ncu + sanitizers: $((SECONDS - start)) s"
fi

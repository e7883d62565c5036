#!/usr/bin/env bash
# The probe's own per-instruction counts on a GPU machine (issue 32): measure_kernel with
# "per_instruction": true (CUPTI's SASS metrics) for the kernel presets that
# scripts/gpu/per_instruction.sh measured with Nsight Compute, the cost against the same request
# without it, and run-kernel --per-instruction-live's table for the two tiled transposes.
# Usage (from the checkout's root on the GPU machine):
#   [BUDGET=S] scripts/gpu/per_instruction_live.sh CARRY OUT
# CARRY holds bin/warpscope-probe (built with the toolkit for the GPU), kernels.json
# (resources/kernels.json) and per_instruction_live.py. OUT receives env.txt, live_answers.jsonl
# (one {"id", "answer"} line per preset: tests/data/per_instruction_live_h200.jsonl),
# cost.jsonl, the CLI tables and sass_metrics.tsv (every SASS metric CUPTI offers for the GPU),
# packed in all.tgz. About 80 s on the H200.
set -u
C=${1:?CARRY}
OUT=${2:?OUT}
for dir in /usr/local/cuda/targets/x86_64-linux/lib /usr/local/cuda/extras/CUPTI/lib64 /usr/local/cuda/lib64; do
    [ -d "$dir" ] && export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$dir
done
{ date -u +%Y-%m-%dT%H:%MZ; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader; nvcc --version | tail -1; } > "$OUT/env.txt" 2>&1
timeout 60 "$C/bin/warpscope-probe" run-kernel transpose-tiled --per-instruction-live > "$OUT/cli_tt.txt" 2>&1; echo "rc $?" >> "$OUT/cli_tt.txt"
timeout 300 python3 "$C/per_instruction_live.py" "$C" "$OUT" "${BUDGET:-150}" > "$OUT/driver.txt" 2>&1; echo "rc $?" >> "$OUT/driver.txt"
timeout 60 "$C/bin/warpscope-probe" run-kernel transpose-tiled-padded --per-instruction-live > "$OUT/cli_ttp.txt" 2>&1; echo "rc $?" >> "$OUT/cli_ttp.txt"
# A fresh process each: what the option costs a one-off command (CUPTI's set-up included).
for p in transpose-tiled readoffset; do
  s=$(date +%s.%N); timeout 60 "$C/bin/warpscope-probe" run-kernel $p --json > /dev/null 2>&1; m=$(date +%s.%N)
  timeout 60 "$C/bin/warpscope-probe" run-kernel $p --json --per-instruction-live > /dev/null 2>&1; e=$(date +%s.%N)
  python3 -c "import sys; s,m,e=map(float,sys.argv[1:]); print('$p process plain %.3f s, per_instruction %.3f s' % (m-s, e-m))" $s $m $e >> "$OUT/process_cost.txt"
done
# The device tool brings back few files: one archive.
cd "$OUT" && tar czf all.tgz ./*.txt ./*.jsonl ./*.json ./*.tsv && rm -f ./*.txt ./*.jsonl ./*.json ./*.tsv

#!/usr/bin/env bash
# Runs on a GPU machine: measures ldmatrix / stmatrix pattern sets with Nsight Compute (one
# single-warp launch per pattern, --cache-control all) and checks the measuring kernels with
# compute-sanitizer's memcheck. Usage: measure_ldmatrix.sh REPLAY OUTDIR DESIGNED HELDOUT...
# REPLAY is kernels/tools/ldmatrix_replay.cu built with nvcc -arch=sm_90. Writes OUTDIR/info.txt
# (GPU, driver, ncu and sanitizer versions, the metrics asked for), OUTDIR/sass.txt (the
# instructions the kernels hold), OUTDIR/ncu-SET.csv per set and OUTDIR/sanitizer.txt. Prints no
# counter, so a held-out set's numbers are read only on purpose (make_ldmatrix_table.py).
set -u
replay=$1 out=$2
shift 2
mkdir -p "$out"
info=$out/info.txt
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader >"$info" 2>&1
ncu --version >>"$info" 2>&1
compute-sanitizer --version >>"$info" 2>&1
# The counters the model predicts, then others that exist only on some versions (asked for only
# when ncu lists them, so a missing one does not stop the run).
metrics=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
query=$(mktemp)
ncu --query-metrics >"$query" 2>&1
for m in smsp__inst_executed_op_ldsm smsp__inst_executed_op_stsm \
         l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldsm \
         l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm \
         l1tex__data_pipe_lsu_wavefronts_mem_shared_op_stsm \
         l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_stsm \
         smsp__inst_executed_op_shared_ld smsp__inst_executed_op_shared_st \
         l1tex__data_pipe_lsu_wavefronts_mem_shared; do
    if grep -qE "^ *$m( |$)" "$query"; then
        metrics+=,$m.sum
    else
        echo "not listed by ncu: $m" >>"$info"
    fi
done
echo "metrics: $metrics" >>"$info"
grep -iE "ldsm|stsm" "$query" >"$out/query_matrix.txt"
cuobjdump -sass "$replay" | grep -E "Function|LDSM|STSM|LDS|STS" >"$out/sass.txt" 2>&1
for set in "$@"; do
    base=$(basename "$set" .jsonl)
    ncu --metrics "$metrics" --csv --print-units base --cache-control all --clock-control none \
        --log-file "$out/ncu-$base.csv" "$replay" "$set" >"/tmp/replay-$base.log" 2>&1
    echo "ncu $base exit $?: $(grep -c '"ID"\|^"[0-9]' "$out/ncu-$base.csv") csv lines" | tee -a "$info"
    compute-sanitizer --tool memcheck --error-exitcode 9 "$replay" "$set" \
        >>"$out/sanitizer.txt" 2>&1
    echo "memcheck $base exit: $?" | tee -a "$out/sanitizer.txt" "$info"
done
tail -n 2 /tmp/replay-*.log

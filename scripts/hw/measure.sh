#!/usr/bin/env bash
# Runs on a GPU machine: measures every pattern of a JSON-lines file with Nsight Compute and checks
# the replay kernels with compute-sanitizer. Usage: measure.sh REPLAY_BINARY PATTERNS OUTDIR
# Writes OUTDIR/{gpu.txt,ncu-version.txt,ncu.csv,ncu.log,sanitizer.txt}; make_table.py turns them
# into tests/data/hardware_table_*.jsonl.
set -u
replay=$1 patterns=$2 out=$3
mkdir -p "$out"
metrics=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
metrics+=,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
extra=smsp__inst_executed_op_global_ld.sum,smsp__inst_executed_op_global_st.sum
extra+=,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum
extra+=,l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum,l1tex__t_sectors_pipe_lsu.sum

nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader >"$out/gpu.txt" 2>&1
ncu --version >"$out/ncu-version.txt" 2>&1
if ! ncu --metrics "$metrics,$extra" --csv --print-units base --cache-control all \
        --clock-control none --log-file "$out/ncu.csv" "$replay" "$patterns" \
        >"$out/replay.log" 2>"$out/ncu.log"; then
    echo "ncu with extra metrics failed; retrying with the eight counters only" >>"$out/ncu.log"
    ncu --metrics "$metrics" --csv --print-units base --cache-control all \
        --clock-control none --log-file "$out/ncu.csv" "$replay" "$patterns" \
        >"$out/replay.log" 2>>"$out/ncu.log"
fi
compute-sanitizer --tool memcheck --error-exitcode 9 "$replay" "$patterns" \
    >"$out/sanitizer.txt" 2>&1
echo "memcheck exit: $?" >>"$out/sanitizer.txt"
compute-sanitizer --tool racecheck --error-exitcode 9 "$replay" "$patterns" \
    >"$out/racecheck.txt" 2>&1
echo "racecheck exit: $?" >>"$out/racecheck.txt"
tail -n 3 "$out/sanitizer.txt" "$out/racecheck.txt" "$out/ncu.log"
wc -l "$out/ncu.csv"

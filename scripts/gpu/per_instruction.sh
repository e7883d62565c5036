#!/usr/bin/env bash
# Per-instruction truth on the GPU (issue 32): for every kernel preset with global or shared
# accesses, and for the excess study's kernels, runs Nsight Compute once on the probe's generated
# kernel collecting the per-SASS-instruction source counters (section SourceCounters), the
# SASS-patched kernel totals (smsp__sass_*) and the hardware counters (l1tex__*) of the same
# launch, then joins them with the grid model's prediction per access
# (scripts/gpu/per_instruction.py). Usage (on the GPU machine, from the repository root):
#   [STOP_AFTER_S=N] [ONLY="ID ..."] scripts/gpu/per_instruction.sh CARRY OUT [presets|study|all]
# (ONLY: measure just these kernels, e.g. the presets a table still lacks)
# CARRY holds bin/warpscope-probe and bin/warpscope-cli (built with the toolkit), kernels.json
# (resources/kernels.json), per_instruction.py and per_instruction_study.py; OUT receives the
# joined tables per_instruction.jsonl and per_instruction_study.jsonl, and raw.tgz: per kernel
# the memory instructions the probe promises (NAME.probe.json), the source page
# (NAME.source.csv), the raw metrics (NAME.raw.csv) and Nsight Compute's report (NAME.ncu-rep).
# The command takes 4 to 11 s per kernel on the H200 (probe start, NVRTC, the replay passes).
set -u
carry=$(realpath "${1:?CARRY}")
out=$(realpath -m "${2:?OUT}")
mode=${3:-all}
mkdir -p "$out/raw"
probe=$carry/bin/warpscope-probe
cli=$carry/bin/warpscope-cli
helper=$carry/per_instruction.py
for dir in /usr/local/cuda/targets/x86_64-linux/lib /usr/local/cuda/extras/CUPTI/lib64 \
           /usr/local/cuda/lib64; do
    [ -d "$dir" ] && export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$dir
done
log=$out/log.txt
work=/tmp/warpscope-per-instruction
rm -rf "$work" && mkdir -p "$work"

{
    date -u +%Y-%m-%dT%H:%MZ
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
    ncu --version | tail -1
    nvcc --version | tail -1
} >"$out/env.txt" 2>&1

# The hardware counters (whole kernel, every SM's L1) and their SASS-patched siblings, which count
# only what each executed instruction itself causes.
HARDWARE=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts_cache_access.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum,sm__warps_active.avg.pct_of_peak_sustained_active,sm__ctas_launched.sum,gpu__time_duration.sum
SASS=smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum,smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum

# A metric ncu does not know fails the whole run: keep only the names this ncu accepts (all of a
# list in one tiny profiled launch; where that fails, one launch per name).
accepted() {
    local list=$1 ok="" m
    if try_metrics "$list"; then
        echo "$list"
        return
    fi
    for m in ${list//,/ }; do
        if try_metrics "$m"; then
            ok=${ok:+$ok,}$m
        else
            echo "ncu refuses $m: $(grep -i -m1 'error\|invalid\|fail' "$work/check.txt")" >>"$log"
        fi
    done
    echo "$ok"
}
try_metrics() {
    timeout 120 ncu --metrics "$1" -k regex:warpscope_kernel -c 1 --csv \
        "$probe" run-kernel transpose-tiled --no-counters --repetitions 1 >"$work/check.txt" 2>&1 &&
        grep -q "\"${1%%,*}\"" "$work/check.txt"
}
HARDWARE=$(accepted "$HARDWARE")
sass_ok=$(accepted "$SASS")
echo "hardware metrics: $HARDWARE" >>"$log"
echo "sass metrics: $sass_ok" >>"$log"

# measure NAME KERNEL [probe options]: one cold launch under ncu (caches flushed, base clocks).
measure() {
    local name=$1 kernel=$2
    shift 2
    local t0=$(date +%s.%N)
    if [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $name "* ]]; then
        return
    fi
    if [ -n "${STOP_AFTER_S:-}" ] && [ $SECONDS -ge "$STOP_AFTER_S" ]; then
        echo "$name: not measured, past STOP_AFTER_S=$STOP_AFTER_S" >>"$log"
        return
    fi
    # The memory instructions the probe promises for this kernel (no GPU needed).
    timeout 60 "$probe" run-kernel "$kernel" "$@" --source --json \
        >"$out/raw/$name.probe.json" 2>"$work/$name.probe.err"
    timeout 300 ncu --section SourceCounters --section LaunchStats --section Occupancy --metrics "$HARDWARE${sass_ok:+,$sass_ok}" \
        --cache-control all --clock-control base -k regex:warpscope_kernel -c 1 -f \
        -o "$work/$name" "$probe" run-kernel "$kernel" "$@" --no-counters --repetitions 1 \
        >"$work/$name.ncu.txt" 2>&1
    local rc=$?
    timeout 120 ncu -i "$work/$name.ncu-rep" --page source --csv --print-source sass \
        >"$out/raw/$name.source.csv" 2>>"$log"
    timeout 120 ncu -i "$work/$name.ncu-rep" --page raw --csv --print-units base \
        >"$out/raw/$name.raw.csv" 2>>"$log"
    local t1=$(date +%s.%N)
    echo "$name: ncu rc=$rc $(awk "BEGIN{printf \"%.1f\", $t1 - $t0}") s" >>"$log"
    [ $rc -eq 0 ] || tail -5 "$work/$name.ncu.txt" >>"$log"
}

# The shared-memory presets first, then the study, then the global-only presets (with
# STOP_AFTER_S, what is measured by then is what comes back).
if [ "$mode" = presets ] || [ "$mode" = all ]; then
    for id in $(python3 "$helper" ids "$carry/kernels.json" --shared); do
        measure "$id" "$id"
    done
fi
if [ "$mode" = study ] || [ "$mode" = all ]; then
    python3 "$helper" study "$carry/kernels.json" "$work/study" 2>>"$log"
    for file in "$work"/study/*.json; do
        name=$(basename "$file" .json)
        cp "$file" "$out/raw/$name.kernel.json"
        measure "$name" "$file"
    done
    python3 "$helper" join "$cli" "$out/raw" "$out/raw" --study \
        >"$out/per_instruction_study.jsonl" 2>>"$log"
fi
if [ "$mode" = presets ] || [ "$mode" = all ]; then
    for id in $(python3 "$helper" ids "$carry/kernels.json" --global-only); do
        measure "$id" "$id"
    done
    python3 "$helper" join "$cli" "$carry/kernels.json" "$out/raw" \
        >"$out/per_instruction.jsonl" 2>>"$log"
fi
# One archive instead of a few hundred files (a device tool may bring back only a few).
cp "$work"/*.ncu-rep "$out/raw/" 2>/dev/null
tar czf "$out/raw.tgz" -C "$out" raw && rm -rf "$out/raw"
cat "$out/env.txt" "$log"

#!/usr/bin/env bash
# Issue 11's investigations of cold DRAM reads beyond the footprint (docs/benchmarks.md, "Cold
# DRAM reads beyond the footprint", "Every cold state, repeated", "When L2 fills a sector
# written in part"), on a GPU machine, from a folder prepared by scripts/gpu/kernel_device_pack.sh
# (binaries in bin/, the scripts and resources/kernels.json at their paths in the tree). Usage,
# from that folder:
#   scripts/investigations/dram_fills/device_run.sh experiment|dram|fill|cold|cold-clocks|all [OUTDIR]
# experiment: whether kernels that only store columns read DRAM (partial sectors), ECC mode;
# dram:   kernel_dram.py: why row-reading transposes read more DRAM than their footprint
#         (L2 fills of sectors written in part; every L2/DRAM counter, block shapes, sizes, clocks);
# fill:   kernel_fill.py: designed kernels that store half sectors, the other half written soon,
#         late or never (when the L2 reads a sector written in part from DRAM), and
#         compute-sanitizer over them;
# cold:   kernel_cold_state.py: Unroll4Row's and controls' cold DRAM reads over repeated probe
#         processes and launches, in every cold state (the probe's clean flush, its dirty and no
#         flush, ncu's invalidated L2; kernel and application replay); then kernel_check.py check
#         on two presets and compute-sanitizer over the probe's --flush variants;
# cold-clocks: the clocks a launch profiled by ncu runs at, beside its DRAM reads.
# all:    experiment, dram and fill.
set -u
mode=${1:-all}
out=${2:-${OUT:-/tmp/warpscope-kernels}}
mkdir -p "$out"
here=$(pwd)
probe=$here/bin/warpscope-probe
inv=scripts/investigations/dram_fills
for dir in /usr/local/cuda/targets/x86_64-linux/lib /usr/local/cuda-13.0/targets/x86_64-linux/lib \
           /usr/local/cuda/extras/CUPTI/lib64 /usr/local/cuda/lib64; do
    [ -d "$dir" ] && export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$dir
done
export PYTHONUNBUFFERED=1

if [ "$mode" = experiment ] || [ "$mode" = all ]; then
    # Do kernels that only store columns read DRAM? (the footprint says they read nothing)
    {
        nvidia-smi -q -d ECC | grep -iE "ecc mode|current|pending" | head -4
        for k in $inv/kernels/stores_*.json; do
            for args in "" "--warm"; do
                "$probe" run-kernel "$k" --json --repetitions 5 $args | python3 -c '
import json, sys
for line in sys.stdin:
    a = json.loads(line)
    c, p = a["counters"], a["predicted"]
    print("%-20s %-5s dram read %10d (footprint %d)  dram write %10d  L2 write sectors %d  %.4f ms" % (
        a["kernel"], "warm" if not a["timing"]["cold"] else "cold", c.get("dram__bytes_read.sum", -1),
        p.get("dram__bytes_read.sum", 0), c.get("dram__bytes_write.sum", -1),
        c.get("lts__t_sectors_srcunit_tex_op_write.sum", -1), a["timing"]["kernelMs"]["median"]))'
            done
        done
        for id in transpose-naiverow transpose-unroll4row transpose-copyrow; do
            "$probe" run-kernel $id --json --repetitions 3 | python3 -c '
import json, sys
a = json.loads(sys.stdin.readline())
print("%-20s dram read %d, footprint %d (%+.1f %%)" % (a["kernel"], a["counters"]["dram__bytes_read.sum"],
      a["predicted"]["dram__bytes_read.sum"],
      100.0 * (a["counters"]["dram__bytes_read.sum"] / a["predicted"]["dram__bytes_read.sum"] - 1)))'
        done
    } 2>&1 | tee "$out/experiment.txt"
fi
if [ "$mode" = dram ] || [ "$mode" = all ]; then
    python3 $inv/kernel_dram.py "$probe" "$out" 2>&1 | tail -n 40
fi
if [ "$mode" = fill ] || [ "$mode" = all ]; then
    python3 $inv/kernel_fill.py "$probe" "$out" 2>&1 | tail -n 45
    for k in fill_half fill_pair; do
        compute-sanitizer --tool memcheck "$probe" run-kernel $inv/kernels/$k.json \
            --param sectors=65536 --no-counters --repetitions 1 > "$out/sanitizer_$k.txt" 2>&1
        echo "compute-sanitizer $k: exit $? $(grep -E "ERROR SUMMARY" "$out/sanitizer_$k.txt")"
    done
fi
if [ "$mode" = cold ]; then
    python3 $inv/kernel_cold_state.py run "$probe" "$out" "${COLD_DEADLINE:-200}" 2>&1 |
        tail -n 30
    python3 scripts/gpu/kernel_check.py check "$probe" resources/kernels.json "$out" \
        transpose-unroll4row transpose-naiverow-cg 2>&1 | tail -n 8
    rm -rf "$out/cubins"
    for flush in dirty none; do
        compute-sanitizer --tool memcheck "$probe" run-kernel transpose-unroll4row --flush $flush \
            --no-counters --repetitions 2 > "$out/sanitizer_flush_$flush.txt" 2>&1
        echo "compute-sanitizer --flush $flush: exit $? $(grep -E "ERROR SUMMARY" \
            "$out/sanitizer_flush_$flush.txt")"
    done
    bin/warpscope-probe-protocol-tests --gtest_brief=1 2>&1 | tail -3
fi
if [ "$mode" = cold-clocks ]; then
    # The clocks a launch profiled by ncu runs at (after the probe's flush, and after ncu's),
    # beside its DRAM reads: does ncu's profiled launch run slower than the probe's?
    metrics=dram__bytes_read.sum,gpu__time_duration.sum,sm__cycles_elapsed.max
    for unit in sm dram lts; do
        metrics=$metrics,${unit}__cycles_elapsed.avg.per_second
    done
    for cache in none all; do
        for clock in none base; do
            echo "== ncu --cache-control $cache --clock-control $clock"
            ncu --metrics "$metrics" \
                --csv --print-units base --cache-control $cache --clock-control $clock \
                -k regex:warpscope_kernel "$probe" run-kernel transpose-unroll4row --no-counters \
                --repetitions 6 2>&1 | grep -v "^==PROF=="
        done
    done 2>&1 | tee "$out/cold_clocks.txt" | tail -n 3
    for flush in clean dirty; do
        "$probe" run-kernel transpose-unroll4row --json --repetitions 21 --flush $flush \
            --sweep nx=2048,2048,2048
    done > "$out/cold_clocks_probe.jsonl"
fi

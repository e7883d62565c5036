#!/usr/bin/env bash
# One ncu pass over the L2 persistence experiment (issue 19's model): L2 lookups split by where
# they come from, the SM's TEX unit or the other L2 partition over the LTC fabric, and the fabric
# lookups by eviction class (persisting = evict_last, streaming = evict_first). Run on a GPU
# machine from a folder holding bin/warpscope-probe (scripts/gpu/check_pack.sh prepares
# one); results under $OUT (tests/data/l2_persistence/partitions/ holds the H100's).
# Usage: l2_persistence_partitions.sh
set -u
out=${OUT:-/tmp/out}; mkdir -p "$out"
export LD_LIBRARY_PATH=/usr/local/cuda-13.0/targets/x86_64-linux/lib:/usr/local/cuda/extras/CUPTI/lib64
p=$PWD/bin/warpscope-probe
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version 2>/dev/null | tail -2; ncu --version | tail -1; } > "$out/machine.txt" 2>&1
m1=lts__t_sector_hit_rate.pct,lts__t_sectors_lookup_hit.sum,lts__t_sectors_lookup_miss.sum,lts__t_sectors_srcunit_tex_lookup_hit.sum,lts__t_sectors_srcunit_tex_lookup_miss.sum,lts__t_sectors_srcunit_ltcfabric_lookup_hit.sum,lts__t_sectors_srcunit_ltcfabric_lookup_miss.sum,dram__bytes_read.sum,lts__d_sectors_fill_device.sum
s=$(date +%s)
timeout 70 ncu --cache-control none --metrics $m1 -k regex:regionAndStream --csv --print-units base --log-file "$out/ncu_partitions.csv" \
  "$p" l2-persistence --windows 2M,16M,64M --hit-ratios 0.5,1 --repetitions 1 --no-counters --json > "$out/ncu_partitions_probe.json" 2> "$out/ncu_partitions.err"
echo "ncu1 exit $? in $(( $(date +%s) - s )) s"; tail -2 "$out/ncu_partitions.err"
m2=lts__t_sectors_srcunit_ltcfabric_evict_last_lookup_hit.sum,lts__t_sectors_srcunit_ltcfabric_evict_last_lookup_miss.sum,lts__t_sectors_srcunit_ltcfabric_evict_first_lookup_hit.sum,lts__t_sectors_srcunit_ltcfabric_evict_first_lookup_miss.sum,lts__t_sectors_srcunit_ltcfabric_evict_normal_lookup_hit.sum,lts__t_sectors_srcunit_ltcfabric_evict_normal_lookup_miss.sum,lts__t_sectors_lookup_miss_data_promoted.sum
s=$(date +%s)
timeout 40 ncu --cache-control none --metrics $m2 -k regex:regionAndStream --csv --print-units base --log-file "$out/ncu_fabric_props.csv" \
  "$p" l2-persistence --windows 16M --hit-ratios 0.5,1 --repetitions 1 --no-counters --json > /dev/null 2> "$out/ncu_fabric_props.err"
echo "ncu2 exit $? in $(( $(date +%s) - s )) s"; tail -2 "$out/ncu_fabric_props.err"
grep -c regionAndStream "$out/ncu_partitions.csv"

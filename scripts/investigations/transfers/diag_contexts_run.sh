#!/usr/bin/env bash
# Issue 16's fourth diagnosis on a GPU machine (scripts/investigations/transfers/diag_contexts.cu):
# processes of pageable copies, one context or six in the order of ORDER (default 1 6 1 6 1 6 1 6 1
# 6; 48 samples each of h2d and d2h at 64 and 256 MiB), then MANAGED (default 5) processes of managed
# memory's first touch (three variants, four contexts). Run from a folder holding bin/diag_contexts;
# logs go to OUTDIR (default $OUT), one file a process, and all of them into OUTDIR/all.tgz;
# scripts/investigations/transfers/diag_contexts_summary.py reads the logs.
# Usage: [ORDER="6 1 1 6"] [MANAGED=0] diag_contexts_run.sh [OUTDIR]
set -u
out=${1:-${OUT:-/tmp/warpscope-diag-contexts}}
mkdir -p "$out"
for dir in /usr/local/cuda/targets/x86_64-linux/lib /usr/local/cuda-13.0/targets/x86_64-linux/lib; do
    [ -d "$dir" ] && export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$dir
done
{
    date -u
    nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.current,pcie.link.width.current --format=csv
    nvidia-smi | grep -i "cuda version"
    nproc
    lscpu | grep -iE "numa|model name|L3"
    echo "transparent huge pages: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)"
    grep -E "MemTotal|MemAvailable|AnonHugePages" /proc/meminfo
    uptime
} > "$out/machine.txt" 2>&1
cat "$out/machine.txt"
p=0
for k in ${ORDER:-1 6 1 6 1 6 1 6 1 6}; do
    p=$((p + 1))
    start=$(date +%s%N)
    timeout 90 bin/diag_contexts pageable $k 48 > "$out/pageable_p${p}_k${k}.txt" 2>&1
    echo "pageable process $p K=$k: exit $? in $(( ($(date +%s%N) - start) / 1000000 )) ms"
done
for p in $(seq 1 "${MANAGED:-5}"); do
    start=$(date +%s%N)
    timeout 90 bin/diag_contexts managed 4 > "$out/managed_p${p}.txt" 2>&1
    echo "managed process $p: exit $? in $(( ($(date +%s%N) - start) / 1000000 )) ms"
done
# The device tool brings back only a few files: everything in one archive.
tar -C "$out" -czf /tmp/diag_contexts.tgz . && mv /tmp/diag_contexts.tgz "$out/all.tgz"
grep -E "^(PAGEABLE|HOSTMEMCPY)" "$out"/pageable_p*.txt | cut -c1-150

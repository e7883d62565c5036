#!/bin/bash
# Checks warpscope's TMA tile-layout model against the GPU (issue 31). Two halves:
#
#   on the GPU machine:  scripts/gpu/tma_check.sh dump TMA_DUMP OUT_DIR
#       runs tma_dump (built with nvcc -arch=sm_90a from scripts/hw/tma_dump.cu) over every
#       swizzle mode, destination offset, box width and element size, each offset in its own
#       process; the cases that may fault (offsets not 128-byte aligned, the 128B_ATOM modes) one
#       process each; compute-sanitizer memcheck over one offset and the extra cases. Writes
#       OUT_DIR/tma_dumps.jsonl (header line first), OUT_DIR/tma_memcheck.txt.
#
#   anywhere:            scripts/gpu/tma_check.sh compare DUMPS.jsonl WARPSCOPE_CLI
#       asks `warpscope-cli tma-layout` for every dumped case and reports each difference
#       (scripts/hw/tma_compare.py); exits non-zero when any valid case differs.
set -u
here=$(cd "$(dirname "$0")" && pwd)
case "${1:-}" in
dump)
    dump=$2
    out=$3
    jsonl=$out/tma_dumps.jsonl
    gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
    driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)
    cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1)
    cuda=$(nvcc --version 2>/dev/null | sed -n 's/.*release \([0-9.]*\).*/\1/p')
    printf '{"header":"tma_dump (scripts/hw/tma_dump.cu) on the GPU: which box row and byte each 16-byte chunk of shared memory holds after one cp.async.bulk.tensor.2d","gpu":"%s","compute_capability":"%s","driver":"%s","cuda":"%s"}\n' \
        "$gpu" "$cc" "$driver" "${cuda:-unknown}" >"$jsonl"
    for offset in 0 128 256 384 512 640 768 896 1024 1152 2048 3200; do
        "$dump" grid "$offset" >>"$jsonl" || echo "grid $offset: exit $?" >&2
    done
    "$dump" extra >>"$jsonl" || echo "extra: exit $?" >&2
    "$dump" shifted >>"$jsonl" || echo "shifted: exit $?" >&2
    # Offsets that are 16-byte but not 128-byte aligned, in every mode.
    for offset in 16 32 64 96 1040; do
        for mode in 0 1 2 3; do
            inner=$((mode == 0 ? 64 : 16 << mode))
            timeout 60 "$dump" one "$mode" 2 "$inner" 8 "$offset" >>"$jsonl" ||
                echo "one $mode $offset: exit $?" >&2
        done
    done
    # The CUDA 12.8 128B_ATOM modes (4, 5, 6), which compute capability 9.0 lacks.
    for mode in 4 5 6; do
        timeout 60 "$dump" one "$mode" 2 128 8 0 >>"$jsonl" || echo "one $mode: exit $?" >&2
    done
    compute-sanitizer --tool memcheck --error-exitcode 3 "$dump" grid 384 >"$out/tma_memcheck.txt" 2>&1
    echo "memcheck grid 384: exit $?" >>"$out/tma_memcheck.txt"
    compute-sanitizer --tool memcheck --error-exitcode 3 "$dump" extra >>"$out/tma_memcheck.txt" 2>&1
    echo "memcheck extra: exit $?" >>"$out/tma_memcheck.txt"
    compute-sanitizer --tool memcheck --error-exitcode 3 "$dump" shifted >>"$out/tma_memcheck.txt" 2>&1
    echo "memcheck shifted: exit $?" >>"$out/tma_memcheck.txt"
    wc -l "$jsonl"
    ;;
compare)
    exec python3 "$here/../hw/tma_compare.py" "$2" "$3"
    ;;
*)
    echo "usage: $0 dump TMA_DUMP OUT_DIR | compare DUMPS.jsonl WARPSCOPE_CLI" >&2
    exit 2
    ;;
esac

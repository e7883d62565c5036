#!/usr/bin/env bash
# Packs what scripts/gpu/check.sh needs on a GPU machine into DEST: warpscope-probe from a GPU
# build folder (-DWARPSCOPE_WITH_APP=OFF -DCMAKE_CUDA_ARCHITECTURES=90), the plain cudaMemcpy
# loop built here for sm_90 when the transfers are among the experiments (it needs nvcc), and the
# scripts. Usage: scripts/gpu/check_pack.sh BUILD DEST [EXPERIMENT...]
# (EXPERIMENT: transfers, streams or l2-persistence; default all three.)
set -eu
if [ $# -lt 2 ]; then
    echo "check_pack.sh: name the build folder and the destination." \
        "Usage: scripts/gpu/check_pack.sh BUILD DEST [transfers|streams|l2-persistence...]" >&2
    exit 2
fi
build=$1
dest=$2
shift 2
experiments=${*:-transfers streams l2-persistence}
for experiment in $experiments; do
    case "$experiment" in
    transfers | streams | l2-persistence) ;;
    *)
        echo "check_pack.sh: no experiment '$experiment'; the experiments are transfers, streams" \
            "and l2-persistence" >&2
        exit 2
        ;;
    esac
done
src=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$dest"
mkdir -p "$dest/bin" "$dest/scripts/gpu"
cp "$build/kernels/probe/warpscope-probe" "$dest/bin/"
case " $experiments " in
*" transfers "*)
    nvcc -O2 -arch=sm_90 -o "$dest/bin/memcpy_loop" "$src/scripts/gpu/transfers/memcpy_loop.cu"
    ;;
esac
strip "$dest/bin/"*
cp "$src/scripts/gpu/check.sh" "$src/scripts/gpu/transfers_summary.py" \
    "$src/scripts/gpu/l2_persistence_summary.py" "$src/scripts/gpu/l2_persistence_figure.py" \
    "$dest/scripts/gpu/"
du -sh "$dest"

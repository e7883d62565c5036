#!/usr/bin/env bash
# Packs what scripts/gpu/l2_persistence_check.sh needs on a GPU machine into DEST: warpscope-probe
# from a GPU build folder (-DWARPSCOPE_WITH_APP=OFF -DCMAKE_CUDA_ARCHITECTURES=90) and the
# scripts. Usage: l2_persistence_pack.sh BUILD DEST
set -eu
build=$1
dest=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$dest"
mkdir -p "$dest/bin" "$dest/scripts/gpu"
cp "$build/kernels/probe/warpscope-probe" "$dest/bin/"
strip "$dest/bin/"*
cp "$src/scripts/gpu/l2_persistence_check.sh" "$src/scripts/gpu/l2_persistence_summary.py" \
    "$src/scripts/gpu/l2_persistence_figure.py" \
    "$dest/scripts/gpu/"
du -sh "$dest"

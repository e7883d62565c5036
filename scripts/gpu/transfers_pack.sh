#!/usr/bin/env bash
# Packs what scripts/gpu/transfers_check.sh needs on a GPU machine into DEST: warpscope-probe from
# a GPU build folder (-DWARPSCOPE_WITH_APP=OFF -DCMAKE_CUDA_ARCHITECTURES=90), the plain
# cudaMemcpy loop built here for sm_90, and the scripts. Usage: transfers_pack.sh BUILD DEST
set -eu
build=$1
dest=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$dest"
mkdir -p "$dest/bin" "$dest/scripts/gpu"
cp "$build/kernels/probe/warpscope-probe" "$dest/bin/"
nvcc -O2 -arch=sm_90 -o "$dest/bin/memcpy_loop" "$src/scripts/gpu/transfers/memcpy_loop.cu"
strip "$dest/bin/"*
cp "$src/scripts/gpu/transfers_check.sh" "$src/scripts/gpu/transfers_summary.py" "$dest/scripts/gpu/"
du -sh "$dest"

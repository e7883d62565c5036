#!/usr/bin/env bash
# Packs what scripts/gpu/kernel_device_run.sh (and the investigations' device_run.sh in
# scripts/investigations/dram_fills) needs on a GPU machine into one folder (default .carry/probe
# of the checkout the device tool sends): the probe and its protocol tests from a build folder
# (configured with -DWARPSCOPE_WITH_APP=OFF -DCMAKE_CUDA_ARCHITECTURES=90), the scripts, and
# resources/kernels.json. Usage: scripts/gpu/kernel_device_pack.sh BUILD DEST
set -eu
build=$1
dest=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$dest"
inv=scripts/investigations/dram_fills
mkdir -p "$dest/bin" "$dest/scripts/gpu" "$dest/$inv/kernels" "$dest/tests/probe" "$dest/resources"
cp "$build/kernels/probe/warpscope-probe" "$dest/bin/"
cp "$build/tests/probe/warpscope-probe-protocol-tests" "$dest/bin/"
strip "$dest/bin/"*
cp "$src/scripts/gpu/kernel_check.py" "$src/scripts/gpu/nsight.py" "$src/scripts/gpu/kernel_device_run.sh" \
    "$dest/scripts/gpu/"
cp "$src/$inv/device_run.sh" "$src/$inv/kernel_dram.py" "$src/$inv/kernel_fill.py" \
    "$src/$inv/kernel_cold_state.py" "$dest/$inv/"
cp "$src/scripts/gpu/copy_async_device.sh" "$src/scripts/gpu/copy_async_sweep.py" "$dest/scripts/gpu/"
cp "$src/$inv/kernels/"*.json "$dest/$inv/kernels/"
cp "$src/tests/probe/check_kernel_sass.py" "$dest/tests/probe/"
cp "$src/resources/kernels.json" "$dest/resources/"
du -sh "$dest"

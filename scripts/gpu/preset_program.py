#!/usr/bin/env python3
"""Writes one of warpscope's kernel presets as a stand-alone CUDA program, so that it can be traced
and profiled as any user's program is (scripts/gpu/trace_presets.sh).

The kernel is the probe's own generated source (`warpscope-probe run-kernel PRESET --source
--json`: one memory instruction per access, entry point warpscope_kernel); the launch, the scalar
parameters and the buffer sizes are what `warpscope-cli analyze-kernel PRESET` prints. Neither
needs a GPU, so the programs are written on the development machine and compiled with nvcc where
the GPU is.

  preset_program.py PROBE CLI OUT.cu PRESET [--param NAME=VALUE ...]
"""
import json
import re
import subprocess
import sys


def main(argv):
    if len(argv) < 5:
        sys.exit(__doc__)
    probe, cli, out, preset = argv[1:5]
    params = argv[5:]
    source_json = json.loads(
        subprocess.run([probe, "run-kernel", preset, *params, "--source", "--json"],
                       check=True, capture_output=True, text=True).stdout)
    analysis = subprocess.run([cli, "analyze-kernel", preset, *params], check=True,
                              capture_output=True, text=True).stdout
    values = dict(re.findall(r"(\w+)=(-?\d+)",
                             re.search(r"^Parameters: (.*)$", analysis, re.M).group(1)))
    launch = re.search(r"^Launch: grid \((\d+), (\d+), (\d+)\), block \((\d+), (\d+), (\d+)\)",
                       analysis, re.M).groups()
    grid, block = launch[:3], launch[3:]
    buffers = {name: int(size.replace(",", ""))
               for name, size in re.findall(r"^Buffer (\w+): ([\d,]+) bytes", analysis, re.M)}
    shared = int(source_json["sharedBytesPerBlock"])
    source = source_json["source"]

    signature = re.search(r"warpscope_kernel\(([^)]*)\)", source).group(1)
    setup, args = [], []
    for parameter in (p.strip() for p in signature.split(",")):
        name = parameter.split()[-1]
        if name.startswith("ws_buf_"):
            buffer = name[len("ws_buf_"):]
            size = buffers[buffer]
            setup.append(f"    unsigned char* {name} = nullptr;\n"
                         f"    check(cudaMalloc(&{name}, {size}), \"cudaMalloc {buffer}\");\n"
                         f"    check(cudaMemset({name}, 0, {size}), \"cudaMemset {buffer}\");")
            args.append(name)
        elif name == "ws_sink":
            setup.append("    unsigned* ws_sink = nullptr;\n"
                         "    check(cudaMalloc(&ws_sink, 32 * sizeof(unsigned)), \"cudaMalloc sink\");")
            args.append("ws_sink")
        elif name == "ws_sentinel":
            args.append("0x9e3779b9u")  # the probe's: no loaded value is ever equal to it
        elif name.startswith("ws_"):
            args.append(f"(i64){values[name[3:]]}LL")
        else:
            sys.exit(f"unknown kernel parameter {parameter!r}")
    program = f"""// warpscope kernel preset {preset} {' '.join(params)}, as a stand-alone program
// (written by scripts/gpu/preset_program.py; the kernel is warpscope-probe's generated source).
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

{source}

static void check(cudaError_t status, const char* what) {{
    if (status != cudaSuccess) {{
        std::fprintf(stderr, "%s: %s\\n", what, cudaGetErrorString(status));
        std::exit(1);
    }}
}}

int main() {{
{chr(10).join(setup)}
    check(cudaFuncSetAttribute(warpscope_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               {max(shared, 1)}), "shared memory size");
    warpscope_kernel<<<dim3({', '.join(grid)}), dim3({', '.join(block)}), {shared}>>>({', '.join(args)});
    check(cudaGetLastError(), "launch");
    check(cudaDeviceSynchronize(), "kernel");
    std::printf("{preset}: grid ({', '.join(grid)}), block ({', '.join(block)}), {shared} shared bytes: ok\\n");
    return 0;
}}
"""
    with open(out, "w") as f:
        f.write(program)


if __name__ == "__main__":
    main(sys.argv)

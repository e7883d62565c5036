#!/usr/bin/env python3
"""Checks on a GPU machine that every generated whole kernel holds exactly one SASS memory
instruction per access, in the kernel's order, of the access's width.

For each kernel (preset ids, or all presets of resources/kernels.json), it asks the probe for the
memory instructions the generator promises (`run-kernel ID --source --json`), runs the kernel once
with WARPSCOPE_SAVE_CUBIN set so the probe writes the cubin NVRTC made, disassembles it with
`cuobjdump -sass`, and compares the sequence of global/shared/local memory instructions and
texture reads (LDG, STG, LDS, STS, LDL, STL, TEX with their width) with the promise. Any other
memory instruction (local spills LDL/STL the kernel has no local access for,
generic LD/ST, atomics) is a failure too. Indexed loads from the user constant bank (LDC with
c[0x3][R], what a constant access compiles to) count as memory instructions; the kernel's own
parameter loads (LDC c[0x0][...]) do not.

Usage: check_kernel_sass.py PROBE [--kernels resources/kernels.json] [ID ...]
Exit status: 0 all match; 1 a mismatch; 77 no GPU or no cuobjdump here (the test is skipped).
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
MEMORY = re.compile(r"^(LDG|STG|LDS|STS|LDL|STL|LD|ST|ATOM|ATOMG|ATOMS|RED|REDG|LDSM|LDGSTS|TEX|TLD)(\.|$)")
INSTRUCTION = re.compile(r"/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_.]*)")
# A load from __constant__ data indexed by a register: LDC R4, c[0x3][R2] (bank 3 holds the
# module's __constant__ variables on sm_70 and later).
CONSTANT_LOAD = re.compile(r"^LDC(\.|$)")
USER_CONSTANT_BANK = re.compile(r"c\[0x3\]\[")


def width_of(opcode):
    parts = opcode.split(".")
    for part in parts[1:]:
        if part in ("U8", "S8"):
            return 1
        if part in ("U16", "S16"):
            return 2
        if part == "64":
            return 8
        if part == "128":
            return 16
    return 4


def sass_memory_instructions(cubin):
    text = subprocess.run(["cuobjdump", "-sass", cubin], check=True, capture_output=True,
                          text=True).stdout
    found = []
    for line in text.splitlines():
        match = INSTRUCTION.search(line)
        if not match:
            continue
        opcode = match.group(1)
        if "@!PT " in line:
            # Predicated on never-true: ptxas pads around async copies with `@!PT LDS RZ, [RZ]`,
            # which never executes.
            continue
        if CONSTANT_LOAD.match(opcode) and USER_CONSTANT_BANK.search(line):
            found.append(("LDC", width_of(opcode), opcode, line.strip()))
            continue
        family = MEMORY.match(opcode)
        if family:
            found.append((family.group(1), width_of(opcode), opcode, line.strip()))
    return found


def check_one(probe, kernel_id, workdir, extra_args=()):
    """Returns (ok, expected list, found list of opcodes, message)."""
    source = subprocess.run([probe, "run-kernel", kernel_id, "--source", "--json", *extra_args],
                            capture_output=True, text=True)
    if source.returncode != 0:
        return False, [], [], "run-kernel --source failed: " + source.stderr.strip()
    promised = json.loads(source.stdout.splitlines()[0])["memoryInstructions"]
    cubin = os.path.join(workdir, kernel_id + ".cubin")
    env = dict(os.environ, WARPSCOPE_SAVE_CUBIN=cubin)
    run = subprocess.run([probe, "run-kernel", kernel_id, "--no-counters", "--repetitions", "1",
                          *extra_args], capture_output=True, text=True, env=env)
    if run.returncode != 0 or not os.path.exists(cubin):
        return False, promised, [], "run-kernel failed: " + (run.stderr.strip() or run.stdout[-400:])
    found = sass_memory_instructions(cubin)
    expected = []
    for entry in promised:
        family, width = entry.split()[:2]
        expected.append((family, int(width)))
    got = [(family, width) for family, width, _, _ in found]
    ok = got == expected
    message = "" if ok else "SASS has " + ", ".join(op for _, _, op, _ in found)
    if not ok and sorted(got) == sorted(expected):
        # The same instructions in another order: accesses under distinct guards (the
        # element-size presets' "w == 4", "w == 8") are blocks ptxas lays out freely.
        ok = True
        message = "same instructions, other order: " + message[len("SASS has "):]
    return ok, promised, [op for _, _, op, _ in found], message


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    probe = argv[1]
    kernels_file = None
    ids = []
    rest = argv[2:]
    while rest:
        arg = rest.pop(0)
        if arg == "--kernels":
            kernels_file = rest.pop(0)
        else:
            ids.append(arg)
    if shutil.which("cuobjdump") is None:
        print("skipped: cuobjdump is not on PATH (a CUDA toolkit's binutils are needed)")
        return SKIP
    info = subprocess.run([probe, "info"], capture_output=True, text=True)
    if info.returncode == 4:
        print("skipped: no GPU here: " + info.stderr.strip())
        return SKIP
    if not ids:
        if kernels_file is None:
            kernels_file = os.path.join(os.path.dirname(__file__), "..", "..", "resources",
                                        "kernels.json")
        ids = [preset["id"] for preset in json.load(open(kernels_file))]
    failures = 0
    with tempfile.TemporaryDirectory() as workdir:
        for kernel_id in ids:
            ok, promised, found, message = check_one(probe, kernel_id, workdir)
            print(("ok   " if ok else "FAIL ") + kernel_id + ": " + ", ".join(promised) +
                  ("" if ok else " -- " + message))
            failures += 0 if ok else 1
    print(f"{len(ids) - failures} of {len(ids)} kernels: SASS memory instructions are exactly the "
          "accesses, in order")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

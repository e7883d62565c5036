#!/usr/bin/env python3
"""Writes the third held-out set (tests/data/hardware_validation3_patterns.jsonl).

Drawn after whole-warp phase fusion for 8- and 16-byte shared loads was fitted to the first three
sets, and committed with that code before it was measured: warps whose every lane pair shares an
address (fused, with conflicts inside the fused phases), the same with exactly one pair split, and
masked mixtures.
"""
import json
import random
import sys

rng = random.Random(31337)
rows = []


def shared_pairs(width, span, active_p=1.0):
    out = []
    for even in range(0, 32, 2):
        a = rng.randrange(span // width) * width
        out += [a if rng.random() < active_p else None, a if rng.random() < active_p else None]
    if all(x is None for x in out):
        out[0] = 0
    return out


def one_split(width, span):
    out = shared_pairs(width, span)
    even = 2 * rng.randrange(16)
    out[even + 1] = (out[even] + width) % span
    return out


for op in ["load", "store"]:
    for width in [8, 16]:
        for i in range(6):
            rows.append((f"v3-s-{op}-w{width}-all-pairs-{i}", width, op,
                         shared_pairs(width, 1024)))
        for i in range(4):
            rows.append((f"v3-s-{op}-w{width}-all-pairs-masked-{i}", width, op,
                         shared_pairs(width, 2048, 0.7)))
        for i in range(6):
            rows.append((f"v3-s-{op}-w{width}-one-split-{i}", width, op, one_split(width, 512)))
    for width in [4]:
        for i in range(2):
            rows.append((f"v3-s-{op}-w{width}-all-pairs-{i}", width, op,
                         shared_pairs(width, 512)))

out = open(sys.argv[1], "w") if len(sys.argv) > 1 else sys.stdout
for name, width, op, addrs in rows:
    out.write(json.dumps({"name": name, "space": "shared", "op": op, "width": width,
                          "cache": "default", "addresses": addrs}) + "\n")
print(f"{len(rows)} patterns", file=sys.stderr)

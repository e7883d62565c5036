#!/usr/bin/env python3
"""Writes the second held-out set (tests/data/hardware_validation2_patterns.jsonl).

Drawn after the phase-fusion rule for 8- and 16-byte shared loads was fitted to the first two
sets, and committed with the model's code before it was measured. It mixes, within one warp,
phases whose lane pairs share addresses with phases whose pairs do not, under random masks.
"""
import json
import random
import sys

rng = random.Random(20261122)
rows = []


def pattern(width, span, pair_share_p, active_p):
    out = []
    for even in range(0, 32, 2):
        a = rng.randrange(span // width) * width
        b = a if rng.random() < pair_share_p else rng.randrange(span // width) * width
        out += [a if rng.random() < active_p else None, b if rng.random() < active_p else None]
    if all(x is None for x in out):
        out[rng.randrange(32)] = 0
    return out


def phase_mix(width, span):
    """Some phases all-shared pairs, others not."""
    lanes_per_phase = 128 // width
    out = []
    for first in range(0, 32, lanes_per_phase):
        share = rng.random() < 0.6
        for even in range(first, first + lanes_per_phase, 2):
            a = rng.randrange(span // width) * width
            b = a if share else rng.randrange(span // width) * width
            out += [a, b]
    return out


for op in ["load", "store"]:
    for width in [8, 16]:
        for i in range(6):
            rows.append((f"v2-s-{op}-w{width}-phase-mix-{i}", "shared", op, width,
                         phase_mix(width, 2048)))
        for i in range(6):
            rows.append((f"v2-s-{op}-w{width}-pairs-masked-{i}", "shared", op, width,
                         pattern(width, 1024, 0.6, 0.75)))
        for i in range(4):
            rows.append((f"v2-s-{op}-w{width}-mostly-shared-{i}", "shared", op, width,
                         pattern(width, 512, 0.9, 0.9)))
        for i in range(3):
            rows.append((f"v2-s-{op}-w{width}-tight-{i}", "shared", op, width,
                         pattern(width, 256, 0.5, 1.0)))
    for width in [1, 2, 4]:
        for i in range(2):
            rows.append((f"v2-s-{op}-w{width}-pairs-{i}", "shared", op, width,
                         pattern(width, 512, 0.5, 0.8)))
    for width in [2, 8]:
        rows.append((f"v2-g-{op}-w{width}-pairs", "global", op, width,
                     pattern(width, 2048, 0.5, 0.8)))

out = open(sys.argv[1], "w") if len(sys.argv) > 1 else sys.stdout
for name, space, op, width, addrs in rows:
    out.write(json.dumps({"name": name, "space": space, "op": op, "width": width,
                          "cache": "default", "addresses": addrs}) + "\n")
print(f"{len(rows)} patterns", file=sys.stderr)

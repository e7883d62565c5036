#!/usr/bin/env python3
"""Writes the last held-out set of issue 15 (tests/data/hardware_validation6_patterns.jsonl).

Drawn after the final rule (fuse an 8/16-byte load's phases two by two when the whole warp shares
addresses with one partner distance, l^1 or l^2, an inactive partner never splitting a pair) was
committed, and measured afterwards with Nsight Compute and the probe. Unlike sets 4 and 5, most
rows start near the rule's boundary: a warp built with one partner distance (or all lanes of a
quad on one address, or a mix of distances), then 0 to 3 lanes moved to another address, to a
partner's address or made inactive, over small and large spans; stores of the same shapes (which
never fuse), and plain random rows as before.
"""
import json
import random
import sys

rng = random.Random(606060)
rows = []


def built(width, span, mode):
    n = span // width
    out = [None] * 32
    for q in range(0, 32, 4):
        m = mode if mode != "mixed" else rng.choice(["pairs", "apart", "quad"])
        a, b = rng.randrange(n) * width, rng.randrange(n) * width
        shape = {"pairs": [a, a, b, b], "apart": [a, b, a, b], "quad": [a, a, a, a]}[m]
        out[q:q + 4] = shape
    return out


def perturb(addrs, width, span, k):
    out = list(addrs)
    for _ in range(k):
        lane = rng.randrange(32)
        kind = rng.random()
        if kind < 0.4:
            out[lane] = rng.randrange(span // width) * width
        elif kind < 0.7:
            out[lane] = None
        else:
            other = rng.choice([lane ^ 1, lane ^ 2, lane ^ 3, lane ^ 4])
            out[lane] = out[other]
    if all(a is None for a in out):
        out[0] = 0
    return out


def random_row(width, span, active_p):
    out = [rng.randrange(span // width) * width if rng.random() < active_p else None
           for _ in range(32)]
    if all(a is None for a in out):
        out[0] = 0
    return out


for i in range(130):
    width = rng.choice([8, 16, 16])
    span = rng.choice([64, 128, 256, 512, 2048])
    mode = rng.choice(["pairs", "apart", "quad", "mixed"])
    k = rng.choice([0, 0, 1, 1, 2, 3])
    rows.append((f"v6-s-load-w{width}-{mode}-k{k}-{i}", width, "load",
                 perturb(built(width, span, mode), width, span, k)))
for i in range(30):
    width = rng.choice([8, 16])
    mode = rng.choice(["pairs", "apart", "quad"])
    rows.append((f"v6-s-store-w{width}-{mode}-{i}", width, "store",
                 perturb(built(width, 256, mode), width, 256, rng.choice([0, 1]))))
for i in range(30):
    width = rng.choice([8, 16])
    span = rng.choice([64, 128, 1024])
    rows.append((f"v6-s-load-w{width}-random-{i}", width, "load",
                 random_row(width, span, rng.choice([1.0, 0.8]))))
for i in range(6):
    rows.append((f"v6-s-load-w4-apart-{i}", 4, "load", perturb(built(4, 256, "apart"), 4, 256, 1)))

out = open(sys.argv[1], "w") if len(sys.argv) > 1 else sys.stdout
for name, width, op, addrs in rows:
    out.write(json.dumps({"name": name, "space": "shared", "op": op, "width": width,
                          "cache": "default", "addresses": addrs}) + "\n")
print(f"{len(rows)} patterns", file=sys.stderr)

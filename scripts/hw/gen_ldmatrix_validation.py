#!/usr/bin/env python3
"""Writes the held-out ldmatrix / stmatrix set (tests/data/ldmatrix_validation_patterns.jsonl).

Usage: gen_ldmatrix_validation.py OUT. Drawn before any rule existed and committed before it was
measured; its counters were read only after the rule fitted to the designed set (gen_ldmatrix.py)
had been committed. Random op, matrix count and transpose; rows drawn four ways: uniformly over a
span, from a small pool of addresses (broadcasts and collisions together), a strided tile with a
random stride and base, and a tile whose 16-byte chunks are XOR-swizzled with a random mask.
"""
import json
import random
import sys

rng = random.Random(31311128)
rows = []

for k in range(72):
    op = rng.choice(["ldmatrix", "stmatrix"])
    m = rng.choice([1, 2, 4])
    tr = rng.random() < 0.5
    n = 8 * m
    kind = ["span", "pool", "stride", "xor"][k % 4]
    if kind == "span":
        span = rng.choice([128, 256, 512, 2048, 16384])
        rowsat = [rng.randrange(span // 16) * 16 for _ in range(n)]
    elif kind == "pool":
        pool = [rng.randrange(64) * 16 for _ in range(rng.choice([2, 3, 5, 8, 12]))]
        rowsat = [rng.choice(pool) for _ in range(n)]
    elif kind == "stride":
        stride = rng.choice([16, 32, 48, 64, 80, 96, 112, 128, 144, 160, 192, 256, 272])
        base = rng.randrange(64) * 16
        step = rng.choice([16, 32, 128, 8 * stride, 1024])
        rowsat = [base + i * step + j * stride for i in range(m) for j in range(8)]
    else:
        mask = rng.randrange(8)
        shift = rng.choice([0, 1, 2])
        rowsat = [j * 128 + (((i + 2 * (j >> 3)) ^ ((j >> shift) & mask)) % 8) * 16
                  for i in range(m) for j in range(8)]
    t = "t" if tr else "n"
    rows.append({"name": f"lv-{op}-x{m}{t}-{kind}-{k}", "space": "shared", "op": op,
                 "matrices": m, "transpose": tr, "width": 16,
                 "addresses": rowsat + [None] * (32 - n)})

with open(sys.argv[1], "w") as out:
    for row in rows:
        out.write(json.dumps(row) + "\n")
print(f"{len(rows)} patterns", file=sys.stderr)

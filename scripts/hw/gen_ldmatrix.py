#!/usr/bin/env python3
"""Writes the designed ldmatrix / stmatrix set (tests/data/ldmatrix_patterns.jsonl) of issue 31.

Usage: gen_ldmatrix.py OUT. Every pattern is one m8n8 .b16 ldmatrix or stmatrix of 1, 2 or 4
matrices, plain and .trans. Lanes 8i..8i+7 give the rows of matrix i (the PTX ISA's ldmatrix
table); lanes past 8 x matrices are null. Cases, each for every op, count and transpose:
conflict-free rows (contiguous, padded tile, XOR-swizzled tile), 2-, 4- and 8-way row collisions
(row strides of 32, 64 and 128 bytes), rows in the same bank group across matrices (each matrix
alone conflict-free), matrices on the same addresses, broadcasts (two rows on one address, a
whole matrix on one address, the whole instruction on one address), one matrix conflicting among
clean ones, and random rows over small and large spans.
"""
import json
import random
import sys

rng = random.Random(20261128)
rows = []


def add(name, op, matrices, transpose, row_addresses):
    assert len(row_addresses) == 8 * matrices
    addresses = list(row_addresses) + [None] * (32 - 8 * matrices)
    t = "t" if transpose else "n"
    rows.append({"name": f"lm-{op}-x{matrices}{t}-{name}", "space": "shared", "op": op,
                 "matrices": matrices, "transpose": transpose, "width": 16,
                 "addresses": addresses})


def tile(matrices, stride, base=0, matrix_step=None):
    """Row j of matrix i at base + i * matrix_step + j * stride (matrix_step: 8 rows on)."""
    step = 8 * stride if matrix_step is None else matrix_step
    return [base + i * step + j * stride for i in range(matrices) for j in range(8)]


for op in ("ldmatrix", "stmatrix"):
    for m in (1, 2, 4):
        for tr in (False, True):
            n = 8 * m
            add("contiguous", op, m, tr, [16 * r for r in range(n)])
            add("contiguous-base4096", op, m, tr, [4096 + 16 * r for r in range(n)])
            add("reversed", op, m, tr, [16 * (n - 1 - r) for r in range(n)])
            # A GEMM operand tile: 64 halves (128 bytes) a row; the matrices side by side (16 bytes
            # apart) or one under the other (8 rows apart).
            add("rowmajor128-side", op, m, tr, tile(m, 128, matrix_step=16))
            add("rowmajor128-below", op, m, tr, tile(m, 128))
            add("padded144-side", op, m, tr, tile(m, 144, matrix_step=16))
            add("padded144-below", op, m, tr, tile(m, 144))
            add("swizzled128", op, m, tr,
                [j * 128 + ((i ^ j) % 8) * 16 for i in range(m) for j in range(8)])
            add("stride32-2way", op, m, tr, tile(m, 32))
            add("stride64-4way", op, m, tr, tile(m, 64))
            add("stride256-8way", op, m, tr, tile(m, 256))
            if m > 1:
                add("samegroups-across", op, m, tr, tile(m, 16, matrix_step=1024))
                add("samerows-across", op, m, tr, tile(m, 16, matrix_step=0))
                add("conflict-in-matrix1", op, m, tr,
                    [1024 * (j if i == 1 else 0) + 16 * j + 128 * i for i in range(m)
                     for j in range(8)])
                # The 8 rows of matrix i all in bank group i, one matrix per group.
                add("onegroup-per-matrix", op, m, tr,
                    [16 * i + 128 * j for i in range(m) for j in range(8)])
            # Broadcasts: rows 0 and 1 of each matrix on one address; a whole matrix on one
            # address; the whole instruction on one address; two distinct addresses in one group.
            add("pair-broadcast", op, m, tr,
                [i * 128 + 16 * (0 if j == 1 else j) for i in range(m) for j in range(8)])
            add("matrix-broadcast", op, m, tr, [i * 128 for i in range(m) for j in range(8)])
            add("all-one-address", op, m, tr, [512] * n)
            add("two-addresses-one-group", op, m, tr,
                [i * 16 + (1024 if j % 2 else 0) for i in range(m) for j in range(8)])
            add("four-rows-one-address", op, m, tr,
                [i * 128 + (0 if j < 4 else 16 * j) for i in range(m) for j in range(8)])
            for k in range(3):
                span = [256, 1024, 8192][k]
                add(f"random-{span}-{k}", op, m, tr,
                    [rng.randrange(span // 16) * 16 for _ in range(n)])

with open(sys.argv[1], "w") as out:
    for row in rows:
        out.write(json.dumps(row) + "\n")
print(f"{len(rows)} patterns", file=sys.stderr)

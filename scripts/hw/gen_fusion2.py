#!/usr/bin/env python3
"""Writes the second designed set for issue 15 (tests/data/hardware_fusion2_patterns.jsonl).

Drawn after rule 1 (fuse when every lane pairs with l^1, or every lane with l^2) and held-out set 4
(which it predicted, but which, like the first designed set's random rows, never tells rule 1 from
a per-quarter or per-half choice of partners). Each group of four lanes (a quad) gets a shape:
which of its lanes share an address, which are inactive.

- shapes:  every shape of a quad (51: each lane inactive or on one of up to four addresses), the
           same in all eight quads, for 8- and 16-byte loads;
- single:  one shape in quad 5, the other quads paired (l^1) or two apart (l^2);
- mixed:   quads paired, two apart or all on one address, mixed over quads, quarters and halves;
- lane:    a warp of lanes two apart with one lane moved to a fresh address or made inactive.
"""
import itertools
import json
import random
import sys

rng = random.Random(1502)
rows = []


def add(name, width, addrs):
    assert len(addrs) == 32 and any(a is not None for a in addrs), name
    for a in addrs:
        assert a is None or (a >= 0 and a % width == 0 and a < 16384), (name, a)
    rows.append((name, width, addrs))


def shapes():
    """Every quad shape up to renaming: labels 0.. in order of first use, None inactive."""
    seen = []
    for combo in itertools.product([None, 0, 1, 2, 3], repeat=4):
        if all(c is None for c in combo):
            continue
        rename, out = {}, []
        for c in combo:
            if c is None:
                out.append(None)
            else:
                rename.setdefault(c, len(rename))
                out.append(rename[c])
        if out not in seen:
            seen.append(out)
    return seen


def shape_name(shape):
    return "".join("." if s is None else "ABCD"[s] for s in shape)


def quad(shape, j, width):
    return [None if s is None else width * (4 * j + s) for s in shape]


PAIRED = [0, 0, 1, 1]
APART = [0, 1, 0, 1]
ONE = [0, 0, 0, 0]
MODES = {"P": PAIRED, "T": APART, "O": ONE}

for width in [8, 16]:
    for shape in shapes():
        a = []
        for j in range(8):
            a += quad(shape, j, width)
        add(f"f2-w{width}-shape-{shape_name(shape)}-all", width, a)

for shape in shapes():
    for rest in ["P", "T"]:
        a = []
        for j in range(8):
            a += quad(shape if j == 5 else MODES[rest], j, 16)
        add(f"f2-w16-shape-{shape_name(shape)}-q5-rest{rest}", 16, a)

mixes = ["PPTTTTTT", "TTPPPPPP", "PPPPTTTT", "TTTTPPPP", "PTPTPTPT", "PPTTPPTT", "TPPPPPPP",
         "PPPTPPPP", "PPPPPPPT", "PTTTTTTT", "TTTTTTTP", "OOTTTTTT", "OOPPPPPP", "TTOOTTOO"]
for i in range(6):
    mixes.append("".join(rng.choice("PT") for _ in range(8)))
for width in [8, 16]:
    for mix in mixes:
        a = []
        for j, m in enumerate(mix):
            a += quad(MODES[m], j, width)
        add(f"f2-w{width}-mixed-{mix}", width, a)

for width in [8, 16]:
    base = []
    for j in range(8):
        base += quad(APART, j, width)
    for lane in range(32):
        a = list(base)
        a[lane] = 2048 + width * lane
        add(f"f2-w{width}-apart-moved-l{lane}", width, a)
    for lane in range(0, 32, 3):
        a = list(base)
        a[lane] = None
        add(f"f2-w{width}-apart-inactive-l{lane}", width, a)

out = open(sys.argv[1], "w") if len(sys.argv) > 1 else sys.stdout
for name, width, addrs in rows:
    out.write(json.dumps({"name": name, "space": "shared", "op": "load", "width": width,
                          "cache": "default", "addresses": addrs}) + "\n")
print(f"{len(rows)} patterns", file=sys.stderr)

#!/usr/bin/env python3
"""Writes the patterns of the hardware table (tests/data/hardware_patterns.jsonl).

Each line is one warp instruction in the `warpscope-cli predict` form plus a "name". The set covers
every width, load and store, global and shared, every global cache path, partial masks,
broadcasts, strides, misalignment against lines and sectors, and seeded random scatters, and it
holds patterns chosen to tell apart the ways 8- and 16-byte shared accesses could be served.
"""
import json
import random
import sys

WIDTHS = [1, 2, 4, 8, 16]
rows = []


def add(name, space, op, width, addrs, cache="default"):
    assert len(addrs) == 32
    for a in addrs:
        assert a is None or (a >= 0 and a % width == 0), (name, a)
    rows.append({"name": name, "space": space, "op": op, "width": width, "cache": cache,
                 "addresses": addrs})


def lanes(f, mask=lambda l: True):
    return [f(l) if mask(l) else None for l in range(32)]


rng = random.Random(20261121)


def scatter(width, span, unique=True):
    slots = span // width
    picks = rng.sample(range(slots), 32) if unique else [rng.randrange(slots) for _ in range(32)]
    return [p * width for p in picks]


# ---- global, every width, load and store ---------------------------------------------------
for op in ["load", "store"]:
    for w in WIDTHS:
        add(f"g-{op}-w{w}-coalesced", "global", op, w, lanes(lambda l: l * w))
        add(f"g-{op}-w{w}-offset1", "global", op, w, lanes(lambda l: (l + 1) * w))
        add(f"g-{op}-w{w}-stride2", "global", op, w, lanes(lambda l: l * 2 * w))
        add(f"g-{op}-w{w}-stride128B", "global", op, w, lanes(lambda l: l * 128))
        add(f"g-{op}-w{w}-broadcast", "global", op, w, lanes(lambda l: 256))
        add(f"g-{op}-w{w}-even-lanes", "global", op, w, lanes(lambda l: l * w, lambda l: l % 2 == 0))
        add(f"g-{op}-w{w}-random", "global", op, w, scatter(w, 1 << 16))
    # the course notes' figures, 4-byte elements
    add(f"g-{op}-w4-offset11", "global", op, 4, lanes(lambda l: (l + 11) * 4))
    add(f"g-{op}-w4-offset128", "global", op, 4, lanes(lambda l: (l + 128) * 4))
    add(f"g-{op}-w4-permuted-line", "global", op, 4, [p * 4 for p in rng.sample(range(32), 32)])
    add(f"g-{op}-w4-stride32B", "global", op, 4, lanes(lambda l: l * 32))
    add(f"g-{op}-w4-stride4096B", "global", op, 4, lanes(lambda l: l * 4096))
    add(f"g-{op}-w4-one-lane", "global", op, 4, lanes(lambda l: 64, lambda l: l == 5))
    add(f"g-{op}-w4-upper-half", "global", op, 4, lanes(lambda l: l * 4, lambda l: l >= 16))
    add(f"g-{op}-w4-reverse", "global", op, 4, lanes(lambda l: (31 - l) * 4))
    add(f"g-{op}-w4-pairs-same", "global", op, 4, lanes(lambda l: (l // 2) * 4))
    add(f"g-{op}-w4-random-dup", "global", op, 4, scatter(4, 512, unique=False))
    add(f"g-{op}-w16-reverse", "global", op, 16, lanes(lambda l: (31 - l) * 16))
    add(f"g-{op}-w16-quarter-repeat", "global", op, 16, lanes(lambda l: (l % 8) * 16))
    add(f"g-{op}-w16-lane0-lane31-same", "global", op, 16, lanes(lambda l: 0 if l in (0, 31) else l * 16))
    add(f"g-{op}-w8-half-repeat", "global", op, 8, lanes(lambda l: (l % 16) * 8))
    add(f"g-{op}-w16-stride32B", "global", op, 16, lanes(lambda l: l * 32))
    add(f"g-{op}-w8-stride256B", "global", op, 8, lanes(lambda l: l * 256))

# ---- global loads on every cache path ------------------------------------------------------
for cache in ["ca", "cg", "nc"]:
    add(f"g-load-w4-coalesced-{cache}", "global", "load", 4, lanes(lambda l: l * 4), cache)
    add(f"g-load-w4-offset11-{cache}", "global", "load", 4, lanes(lambda l: (l + 11) * 4), cache)
    add(f"g-load-w4-stride128B-{cache}", "global", "load", 4, lanes(lambda l: l * 128), cache)
    add(f"g-load-w4-random-{cache}", "global", "load", 4, scatter(4, 1 << 16), cache)
    add(f"g-load-w16-coalesced-{cache}", "global", "load", 16, lanes(lambda l: l * 16), cache)
    add(f"g-load-w16-broadcast-{cache}", "global", "load", 16, lanes(lambda l: 0), cache)
    add(f"g-load-w1-coalesced-{cache}", "global", "load", 1, lanes(lambda l: l), cache)
    add(f"g-load-w8-even-lanes-{cache}", "global", "load", 8, lanes(lambda l: l * 8, lambda l: l % 2 == 0), cache)

# ---- shared, every width, load and store ---------------------------------------------------
for op in ["load", "store"]:
    for w in WIDTHS:
        add(f"s-{op}-w{w}-consecutive", "shared", op, w, lanes(lambda l: l * w))
        add(f"s-{op}-w{w}-broadcast", "shared", op, w, lanes(lambda l: 0))
        add(f"s-{op}-w{w}-stride128B", "shared", op, w, lanes(lambda l: l * 128))
        add(f"s-{op}-w{w}-even-lanes", "shared", op, w, lanes(lambda l: l * w, lambda l: l % 2 == 0))
        add(f"s-{op}-w{w}-random", "shared", op, w, scatter(w, 8192))
    # 4-byte: the course notes' and classic cases
    add(f"s-{op}-w4-stride2words", "shared", op, 4, lanes(lambda l: l * 8))
    add(f"s-{op}-w4-stride33words", "shared", op, 4, lanes(lambda l: l * 33 * 4))
    add(f"s-{op}-w4-stride32words-half", "shared", op, 4, lanes(lambda l: l * 128, lambda l: l < 16))
    add(f"s-{op}-w4-two-lanes-conflict", "shared", op, 4, lanes(lambda l: 128 if l == 1 else l * 4))
    add(f"s-{op}-w4-pairs-same-word", "shared", op, 4, lanes(lambda l: (l // 2) * 4))
    add(f"s-{op}-w4-multicast-4words", "shared", op, 4, lanes(lambda l: (l % 4) * 4))
    add(f"s-{op}-w4-two-words-same-bank", "shared", op, 4, lanes(lambda l: (l % 2) * 128))
    add(f"s-{op}-w4-xor-swizzle", "shared", op, 4, lanes(lambda l: (l * 32 + (l ^ 3)) * 4))
    add(f"s-{op}-w1-stride64B", "shared", op, 1, lanes(lambda l: l * 64))
    add(f"s-{op}-w2-stride4B", "shared", op, 2, lanes(lambda l: l * 4))
    add(f"s-{op}-w1-same-word-bytes", "shared", op, 1, lanes(lambda l: l % 4))
    # 8-byte: half-warp phases or not?
    add(f"s-{op}-w8-half-repeat", "shared", op, 8, lanes(lambda l: (l % 16) * 8))
    add(f"s-{op}-w8-halves-swapped", "shared", op, 8, lanes(lambda l: ((l + 16) % 32) * 8))
    add(f"s-{op}-w8-stride16B", "shared", op, 8, lanes(lambda l: l * 16))
    add(f"s-{op}-w8-stride256B", "shared", op, 8, lanes(lambda l: l * 256))
    add(f"s-{op}-w8-lower-half", "shared", op, 8, lanes(lambda l: l * 8, lambda l: l < 16))
    add(f"s-{op}-w8-lane-pairs", "shared", op, 8, lanes(lambda l: (l // 2) * 8))
    add(f"s-{op}-w8-cross-half-conflict", "shared", op, 8,
        lanes(lambda l: l * 8 if l < 16 else (l - 16) * 8 + 128))
    add(f"s-{op}-w8-one-lane", "shared", op, 8, lanes(lambda l: 8, lambda l: l == 3))
    # 16-byte: quarter-warp phases or not?
    add(f"s-{op}-w16-quarter-repeat", "shared", op, 16, lanes(lambda l: (l % 8) * 16))
    add(f"s-{op}-w16-half-repeat", "shared", op, 16, lanes(lambda l: (l % 16) * 16))
    add(f"s-{op}-w16-stride32B", "shared", op, 16, lanes(lambda l: l * 32))
    add(f"s-{op}-w16-stride512B", "shared", op, 16, lanes(lambda l: l * 512))
    add(f"s-{op}-w16-first-quarter", "shared", op, 16, lanes(lambda l: l * 16, lambda l: l < 8))
    add(f"s-{op}-w16-lanes-0-and-8", "shared", op, 16, lanes(lambda l: l * 16, lambda l: l in (0, 8)))
    add(f"s-{op}-w16-lanes-0-and-8-same-bank", "shared", op, 16,
        lanes(lambda l: 0 if l == 0 else 128, lambda l: l in (0, 8)))
    add(f"s-{op}-w16-lanes-0-and-1-same-bank", "shared", op, 16,
        lanes(lambda l: 0 if l == 0 else 128, lambda l: l in (0, 1)))
    add(f"s-{op}-w16-quarter-reversed", "shared", op, 16, lanes(lambda l: (31 - l) * 16))
    add(f"s-{op}-w16-lane-quads", "shared", op, 16, lanes(lambda l: (l // 4) * 16))
    add(f"s-{op}-w16-stride128B-quarter", "shared", op, 16, lanes(lambda l: l * 128, lambda l: l < 8))

names = [r["name"] for r in rows]
assert len(names) == len(set(names)), "duplicate names"
out = open(sys.argv[1], "w") if len(sys.argv) > 1 else sys.stdout
for r in rows:
    out.write(json.dumps(r) + "\n")
print(f"{len(rows)} patterns", file=sys.stderr)

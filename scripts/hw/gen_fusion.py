#!/usr/bin/env python3
"""Writes the designed set for issue 15 (tests/data/hardware_fusion_patterns.jsonl).

Where is phase fusion of 8- and 16-byte shared loads decided? Every family starts from a warp
whose lane pairs (2k, 2k+1) all share an address and changes one thing:

- split:     one pair p (every p) asks for two addresses; the second one is fresh (same banks,
             another word), or a copy of the address of pair p^1, p^2, p^4 (the other quarter of
             the half-warp) or p^8 (the other half-warp); the odd lane or the even lane moves;
- bit:       the second address differs from the first in one address bit (4 to 12);
- inactive:  lane 2p, lane 2p+1 or both inactive (every p);
- quarters:  one split pair in quarter s while any of the other quarters are wholly inactive;
- two-split: two split pairs in chosen positions;
- bases:     the same single splits over a broadcast and over a warp whose halves read the same
             addresses;
- groupings: lanes that share an address in groups other than even/odd pairs;
- 8-byte:    single splits and inactive lanes for 8-byte loads;
- random:    random addresses over small spans (many duplicates), with masks and pair-sharing
             probabilities, and rows kept inside a few banks: the kind of pattern that refuted the
             whole-warp rule.

A few stores and 4-byte loads come along as controls.
"""
import json
import random
import sys

rng = random.Random(1501)
rows = []


def add(name, width, addrs, op="load"):
    assert len(addrs) == 32 and any(a is not None for a in addrs), name
    for a in addrs:
        assert a is None or (a >= 0 and a % width == 0 and a < 16384), (name, a)
    rows.append((name, width, op, addrs))


def from_pairs(pair_addrs):
    out = []
    for a in pair_addrs:
        out += [a, a]
    return out


W = 16
base = [16 * k for k in range(16)]  # fused: 2 wavefronts; unfused: 4

# split: one pair asks for two addresses
relations = {
    "fresh": lambda p: base[p] + 1024,
    "dup-next": lambda p: base[p ^ 1],
    "dup-quarter": lambda p: base[p ^ 2],
    "dup-other-quarter": lambda p: base[p ^ 4],
    "dup-other-half": lambda p: base[p ^ 8],
}
for rel, f in relations.items():
    for p in range(16):
        for moved in ["odd", "even"]:
            a = from_pairs(base)
            a[2 * p + (1 if moved == "odd" else 0)] = f(p)
            add(f"f-w16-split-{rel}-{moved}-p{p}", W, a)

# bit: the second address differs in one bit
for p in [0, 5, 10, 15]:
    for bit in range(4, 13):
        a = from_pairs(base)
        a[2 * p + 1] = base[p] ^ (1 << bit)
        add(f"f-w16-bit{bit}-p{p}", W, a)

# inactive lanes in a pair
for p in range(16):
    for which, lanes in [("even", [2 * p]), ("odd", [2 * p + 1]), ("both", [2 * p, 2 * p + 1])]:
        a = from_pairs(base)
        for l in lanes:
            a[l] = None
        add(f"f-w16-inactive-{which}-p{p}", W, a)

# one split in quarter s, any subset of the other quarters inactive
for s in range(4):
    others = [q for q in range(4) if q != s]
    for m in range(8):
        a = from_pairs(base)
        a[8 * s + 1] = base[4 * s] + 1024
        off = [others[i] for i in range(3) if (m >> i) & 1]
        for q in off:
            for l in range(8 * q, 8 * q + 8):
                a[l] = None
        add(f"f-w16-quarters-split{s}-off{''.join(map(str, off)) or 'none'}", W, a)

# two split pairs
pos = [0, 3, 4, 7, 8, 11, 12, 15]
for i, p in enumerate(pos):
    for q in pos[i + 1:]:
        a = from_pairs(base)
        a[2 * p + 1] = base[p] + 1024
        a[2 * q + 1] = base[q] + 2048
        add(f"f-w16-two-splits-p{p}-p{q}", W, a)

# other bases
for p in range(16):
    a = [0] * 32
    a[2 * p + 1] = 16
    add(f"f-w16-broadcast-split-p{p}", W, a)
    a = from_pairs([16 * (k % 8) for k in range(16)])
    a[2 * p + 1] = 16 * (p % 8) + 1024
    add(f"f-w16-halves-same-split-p{p}", W, a)

# groupings other than even/odd pairs (all lanes active)
for width in [8, 16]:
    for g, key in [("xor2", lambda l: l & ~2), ("xor4", lambda l: l & ~4),
                   ("xor8", lambda l: l & ~8), ("xor16", lambda l: l & ~16),
                   ("quads", lambda l: l // 4), ("octets", lambda l: l // 8),
                   ("xor3", lambda l: min(l, l ^ 3)), ("odd-pairs", lambda l: (l + 1) // 2)]:
        a = [width * key(l) for l in range(32)]
        add(f"f-w{width}-group-{g}", width, a)

# 8-byte loads
base8 = [8 * k for k in range(16)]  # fused: 1 wavefront; unfused: 2
rel8 = {
    "fresh": lambda p: base8[p] + 1024,
    "dup-next": lambda p: base8[p ^ 1],
    "dup-quarter": lambda p: base8[p ^ 4],
    "dup-other-half": lambda p: base8[p ^ 8],
}
for rel, f in rel8.items():
    for p in range(16):
        a = from_pairs(base8)
        a[2 * p + 1] = f(p)
        add(f"f-w8-split-{rel}-p{p}", 8, a)
for p in range(0, 16, 3):
    for which, lanes in [("even", [2 * p]), ("odd", [2 * p + 1])]:
        a = from_pairs(base8)
        for l in lanes:
            a[l] = None
        add(f"f-w8-inactive-{which}-p{p}", 8, a)


# random, small spans
def rand_pattern(width, span, share_p, active_p):
    out = []
    for _ in range(16):
        a = rng.randrange(span // width) * width
        b = a if rng.random() < share_p else rng.randrange(span // width) * width
        out += [a if rng.random() < active_p else None, b if rng.random() < active_p else None]
    if all(x is None for x in out):
        out[rng.randrange(32)] = 0
    return out


def few_banks(width, words):
    # lanes on a few bank groups, different rows: conflicts inside every phase
    cols = [rng.randrange(128 // width) * width for _ in range(words)]
    return [rng.randrange(16) * 128 + rng.choice(cols) for _ in range(32)]


for span in [64, 128, 256, 512, 1024]:
    for mode, share_p, active_p in [("random", 0.0, 1.0), ("masked", 0.0, 0.7),
                                    ("share50", 0.5, 1.0), ("share80", 0.8, 0.85),
                                    ("share95", 0.95, 1.0)]:
        for i in range(8):
            add(f"f-w16-rand-{mode}-span{span}-{i}", 16, rand_pattern(16, span, share_p, active_p))
for span in [64, 128, 256, 512]:
    for mode, share_p, active_p in [("random", 0.0, 1.0), ("share80", 0.8, 0.85)]:
        for i in range(6):
            add(f"f-w8-rand-{mode}-span{span}-{i}", 8, rand_pattern(8, span, share_p, active_p))
for words in [1, 2, 3]:
    for i in range(6):
        add(f"f-w16-few-banks-{words}-{i}", 16, few_banks(16, words))
    for i in range(3):
        add(f"f-w8-few-banks-{words}-{i}", 8, few_banks(8, words))

# controls: stores and 4-byte loads of some of the same shapes
for i in range(6):
    add(f"f-w16-store-rand-{i}", 16, rand_pattern(16, 256, 0.6, 0.9), op="store")
    add(f"f-w4-rand-{i}", 4, rand_pattern(4, 256, 0.5, 0.9))

out = open(sys.argv[1], "w") if len(sys.argv) > 1 else sys.stdout
for name, width, op, addrs in rows:
    out.write(json.dumps({"name": name, "space": "shared", "op": op, "width": width,
                          "cache": "default", "addresses": addrs}) + "\n")
print(f"{len(rows)} patterns", file=sys.stderr)

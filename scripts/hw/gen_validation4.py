#!/usr/bin/env python3
"""Writes the held-out sets of issue 15 (tests/data/hardware_validation{4,5}_patterns.jsonl).

Usage: gen_validation4.py SET OUT, SET being 4 or 5 (each its own seed). Both sets were drawn before
any rule for issue 15 existed and measured in the same GPU session as the designed set
(gen_fusion.py), but their counters were read only after the candidate rule they test had been
committed (set 4 against the first candidate, set 5 against the next one); scripts/hw/README.md
records what each refuted. Mostly 16-byte shared loads with duplicated addresses: random
addresses over small and large spans, random masks, pairs that share with some probability, rows
kept inside a few banks, and whole quarter-warps switched off; some 8-byte loads, 16-byte stores and
4-byte loads as controls.
"""
import json
import random
import sys

which = int(sys.argv[1])
seeds = {4: 20261215, 5: 52151226}
rng = random.Random(seeds[which])
prefix = f"v{which}"
rows = []


def rand_pattern(width, span, share_p, active_p):
    out = []
    for _ in range(16):
        a = rng.randrange(span // width) * width
        b = a if rng.random() < share_p else rng.randrange(span // width) * width
        out += [a if rng.random() < active_p else None, b if rng.random() < active_p else None]
    return out


def few_banks(width, words, active_p):
    cols = [rng.randrange(128 // width) * width for _ in range(words)]
    return [rng.randrange(32) * 128 + rng.choice(cols) if rng.random() < active_p else None
            for _ in range(32)]


def quarters_off(addrs):
    out = list(addrs)
    for q in range(4):
        if rng.random() < 0.3:
            for l in range(8 * q, 8 * q + 8):
                out[l] = None
    return out


def add(name, width, op, addrs):
    if all(a is None for a in addrs):
        addrs[rng.randrange(32)] = 0
    rows.append((f"{prefix}-s-{op}-w{width}-{name}", width, op, addrs))


for i in range(40):
    span = rng.choice([64, 128, 256, 512, 1024, 4096])
    share = rng.choice([0.0, 0.3, 0.6, 0.8, 0.9, 0.97])
    active = rng.choice([1.0, 1.0, 0.9, 0.7])
    add(f"rand-{i}", 16, "load", rand_pattern(16, span, share, active))
for i in range(20):
    span = rng.choice([64, 128, 256])
    add(f"dups-{i}", 16, "load", rand_pattern(16, span, 0.0, 1.0))
for i in range(20):
    add(f"few-banks-{i}", 16, "load", few_banks(16, rng.choice([1, 2, 4]), rng.choice([1.0, 0.8])))
for i in range(20):
    span = rng.choice([128, 256, 1024])
    add(f"quarters-off-{i}", 16, "load",
        quarters_off(rand_pattern(16, span, rng.choice([0.5, 0.9, 1.0]), 1.0)))
for i in range(20):
    span = rng.choice([64, 128, 512])
    add(f"rand-{i}", 8, "load", rand_pattern(8, span, rng.choice([0.0, 0.6, 0.9]), 0.9))
for i in range(10):
    add(f"rand-{i}", 16, "store", rand_pattern(16, 256, 0.7, 0.9))
for i in range(5):
    add(f"rand-{i}", 4, "load", rand_pattern(4, 256, 0.5, 0.9))

out = open(sys.argv[2], "w") if len(sys.argv) > 2 else sys.stdout
for name, width, op, addrs in rows:
    out.write(json.dumps({"name": name, "space": "shared", "op": op, "width": width,
                          "cache": "default", "addresses": addrs}) + "\n")
print(f"{len(rows)} patterns", file=sys.stderr)

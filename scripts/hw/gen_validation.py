#!/usr/bin/env python3
"""Writes held-out patterns (tests/data/hardware_validation_patterns.jsonl).

The modern model's shared-memory rules for 8- and 16-byte accesses were fitted to the first
hardware table; these patterns, drawn afterwards with another seed, were measured only once the
model was committed, to check the rules on data they were not fitted to.
"""
import json
import random
import sys

rng = random.Random(7)
rows = []


def add(name, space, op, width, addrs, cache="default"):
    rows.append({"name": name, "space": space, "op": op, "width": width, "cache": cache,
                 "addresses": addrs})


def rand_addrs(width, span, active_p=1.0, dup_p=0.0):
    out = []
    for lane in range(32):
        if rng.random() > active_p:
            out.append(None)
            continue
        if dup_p and lane % 2 == 1 and out[-1] is not None and rng.random() < dup_p:
            out.append(out[-1])  # share the even lane's address: a one-unit pair
            continue
        out.append(rng.randrange(span // width) * width)
    if all(a is None for a in out):
        out[0] = 0
    return out


for op in ["load", "store"]:
    for width in [8, 16]:
        for i in range(8):
            add(f"v-s-{op}-w{width}-scatter-{i}", "shared", op, width, rand_addrs(width, 2048))
        for i in range(5):
            add(f"v-s-{op}-w{width}-pairs-{i}", "shared", op, width,
                rand_addrs(width, 1024, dup_p=0.7))
        for i in range(4):
            add(f"v-s-{op}-w{width}-masked-{i}", "shared", op, width,
                rand_addrs(width, 4096, active_p=0.5))
        for i in range(3):
            add(f"v-s-{op}-w{width}-narrow-{i}", "shared", op, width, rand_addrs(width, 256))
    for width in [1, 2, 4]:
        for i in range(3):
            add(f"v-s-{op}-w{width}-scatter-{i}", "shared", op, width, rand_addrs(width, 1024))
        add(f"v-s-{op}-w{width}-masked", "shared", op, width, rand_addrs(width, 512, 0.4))
    for width in [1, 4, 16]:
        add(f"v-g-{op}-w{width}-scatter", "global", op, width, rand_addrs(width, 4096))
        add(f"v-g-{op}-w{width}-masked", "global", op, width, rand_addrs(width, 1024, 0.5))

out = open(sys.argv[1], "w") if len(sys.argv) > 1 else sys.stdout
for r in rows:
    out.write(json.dumps(r) + "\n")
print(f"{len(rows)} patterns", file=sys.stderr)

#!/usr/bin/env python3
"""Summary of issue 16's fourth diagnosis (diag_contexts.cu, diag_contexts_run.sh).

Reads the per-process logs of one or more folders and prints, for pageable copies: each process's
medians (ms), the spread of the process medians ((max - min) / median, %) for one context and for
six, the spread between the contexts of one process, and how closely a process's copies follow its
host memcpy (Pearson r over processes); for managed memory's first touch: the spread of the process
medians of each variant. A file may hold several processes (each starts with a HOST line).
Usage: diag_contexts_summary.py FOLDER [FOLDER ...]
"""
import glob
import os
import re
import statistics
import sys


def spread(values):
    return 100.0 * (max(values) - min(values)) / statistics.median(values)


def pearson(xs, ys):
    mx, my = statistics.mean(xs), statistics.mean(ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / (sxx * syy) ** 0.5 if sxx and syy else float("nan")


def processes(path):
    """Each process of a log: its name and lines (a new process starts at each HOST line)."""
    out, lines = [], None
    base = os.path.basename(path)
    for line in open(path, encoding="utf-8"):
        if line.startswith("HOST "):
            lines = []
            out.append((f"{base}#{len(out) + 1}", lines))
        if lines is not None:
            lines.append(line.rstrip("\n"))
    return out


def main(folders):
    if not folders:
        sys.exit(__doc__)
    pageable, managed = [], []
    for folder in folders:
        if not os.path.isdir(folder):
            sys.exit(f"{folder}: not a folder")
        for path in sorted(glob.glob(os.path.join(folder, "*.txt"))):
            for name, lines in processes(path):
                record = {"name": f"{os.path.basename(folder)}/{name}", "copies": {}, "ctx": {},
                          "host": {}, "managed": {}}
                for line in lines:
                    f = line.split()
                    if f[0] == "PAGEABLE":
                        record["k"] = int(f[1][2:])
                        key = (f[2], int(f[3]))
                        record["copies"][key] = float(f[5])
                        record["ctx"][key] = [float(x) for x in f[f.index("per_ctx_ms") + 1:]]
                    elif f[0] == "HOSTMEMCPY":
                        record["host"][int(f[1])] = float(f[3])
                    elif f[0] == "HOSTMEMCPY_BEFORE_CONTEXTS":
                        record["before"] = float(f[3])
                    elif f[0] == "HOST":
                        record["touch"] = float(f[2])
                    elif f[0] == "MANAGED":
                        record["managed"][(f[2], int(f[3]))] = float(f[5])
                    elif f[0] == "MANAGED_FILL":
                        record.setdefault("fill", {})[int(f[1])] = float(f[3])
                if record["copies"]:
                    pageable.append(record)
                elif record["managed"]:
                    managed.append(record)

    keys = [("h2d", 64), ("h2d", 256), ("d2h", 64), ("d2h", 256)]
    if pageable:
        print("pageable copies, process medians (ms); host memcpy beside (ms); memcpy before contexts")
        print(f"{'process':40} {'K':>2} " + " ".join(f"{d} {z:>3}" for d, z in keys) +
              "  host64 host256  before")
        for r in pageable:
            print(f"{r['name']:40} {r['k']:>2} " + " ".join(f"{r['copies'][k]:7.3f}" for k in keys) +
                  f"  {r['host'].get(64, float('nan')):6.2f} {r['host'].get(256, float('nan')):7.2f}"
                  f"  {r.get('before', float('nan')):6.2f}")
        print()
        print("spread of the process medians, % ((max - min) / median), by folder and K")
        groups = {}
        for r in pageable:
            groups.setdefault((r["name"].split("/")[0], r["k"]), []).append(r)
        groups.update({("all", k): [r for r in pageable if r["k"] == k]
                       for k in sorted({r["k"] for r in pageable})})
        for (folder, k), rs in groups.items():
            print(f"  {folder:16} K={k} ({len(rs):2} processes): " + ", ".join(
                f"{d} {z} {spread([r['copies'][(d, z)] for r in rs]):5.1f}" for d, z in keys))
        print()
        print("spread between the contexts of one process (median over the K=6 processes), %")
        six = [r for r in pageable if r["k"] > 1]
        if six:
            print("  " + ", ".join(
                f"{d} {z} {statistics.median(spread(r['ctx'][(d, z)]) for r in six):5.1f}"
                for d, z in keys))
        print()
        print("does a process's copy time follow its host memcpy? Pearson r over all processes")
        for d, z in keys:
            ys = [r["copies"][(d, z)] for r in pageable]
            beside = pearson([r["host"][z] for r in pageable], ys)
            withb = [r for r in pageable if "before" in r]
            before = pearson([r["before"] for r in withb], [r["copies"][(d, z)] for r in withb])
            ratio = [r["copies"][(d, z)] / r["host"][z] for r in pageable]
            print(f"  {d} {z}: r with memcpy beside {beside:5.2f}, with memcpy before contexts "
                  f"{before:5.2f} ({len(withb)} processes); spread of copy / memcpy "
                  f"{spread(ratio):5.1f} % against {spread(ys):5.1f} % of the copy alone")
    if managed:
        print()
        print("managed first touch, process medians (ms) by variant, and their spread, %")
        variants = sorted({k for r in managed for k in r["managed"]}, key=lambda k: (k[1], k[0]))
        for v in variants:
            values = [r["managed"][v] for r in managed]
            print(f"  {v[0]:8} {v[1]:4} MiB: " + " ".join(f"{x:7.2f}" for x in values) +
                  f"   spread {spread(values):5.1f}")
        for z in sorted({k[1] for k in variants}):
            fills = [r["fill"][z] for r in managed]
            print(f"  host fill of A and B {z} MiB: " + " ".join(f"{x:7.1f}" for x in fills) +
                  f"   spread {spread(fills):5.1f}; r with one_ctx "
                  f"{pearson(fills, [r['managed'][('one_ctx', z)] for r in managed]):5.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])

#!/usr/bin/env python3
"""Summarises the folder of `scripts/gpu/check.sh l2-persistence`: the default sweep as a table
(time, L2 hit rate from CUPTI, the model's), and the probe's CUPTI counters beside Nsight Compute's for
the same kernels (ncu.csv holds, per point, the warm-up launch and one timed launch; the timed
one, the second, is the steady state the probe counts). Usage: l2_persistence_summary.py DIR"""
import csv
import json
import sys
from pathlib import Path

METRICS = ["lts__t_sector_hit_rate.pct", "lts__t_sectors_lookup_hit.sum",
           "lts__t_sectors_lookup_miss.sum", "dram__bytes_read.sum"]


def mib(value):
    return f"{value / 1048576:g} MiB"


def label(point):
    if not point["window"]:
        return "none"
    return f"{point['hitRatio']:.3f}" + ("*" if point["tuned"] else "")


def main():
    folder = Path(sys.argv[1])
    answer = json.loads((folder / "l2_persistence_h100.json").read_text())
    print(f"device {answer['device']}: L2 {mib(answer['l2Bytes'])}, persistingL2CacheMaxSize "
          f"{mib(answer['persistingL2MaxBytes'])}, accessPolicyMaxWindowSize "
          f"{mib(answer['maxWindowBytes'])}; set aside {mib(answer['setAsideBytes'])}; "
          f"limit before {answer['previousSetAsideBytes']}")
    print(f"{'window':>8} {'hitRatio':>9} {'ms':>8} {'spread':>7} {'hit %':>7} {'model %':>8} "
          f"{'region %':>9} {'model %':>8}  region model kind")
    for p in answer["points"]:
        spread = 100 * (p["maxMs"] - p["minMs"]) / p["medianMs"] if p["medianMs"] else 0
        print(f"{mib(p['windowBytes']):>8} {label(p):>9} {p['medianMs']:8.4f} {spread:6.1f}% "
              f"{p.get('hitRatePct', float('nan')):7.2f} {p['modelHitRatePct']:8.2f} "
              f"{p.get('regionHitPct', float('nan')):9.2f} {p['modelRegionHitPct']:8.2f}  "
              f"{p.get('modelRegionHitKind', '-')}")

    rows = []
    ncu = folder / "ncu.csv"
    if ncu.exists():
        lines = [line for line in ncu.read_text().splitlines() if line.startswith('"')]
        rows = list(csv.DictReader(lines))
    launches = {}
    for row in rows:
        launches.setdefault(int(row["ID"]), {})[row["Metric Name"]] = float(
            row["Metric Value"].replace(",", ""))
    small = json.loads((folder / "probe_small.json").read_text())
    print("\nprobe (CUPTI) against ncu, the timed launch of each point (--cache-control none)")
    print(f"{'window':>8} {'hitRatio':>9} {'metric':>32} {'probe':>14} {'ncu':>14} {'diff':>8}")
    worst = 0.0
    for index, p in enumerate(small["points"]):
        measured = launches.get(2 * index + 1)
        if measured is None or "counters" not in p:
            print(f"{mib(p['windowBytes']):>8} {label(p):>9}  (missing: ncu launch "
                  f"{2 * index + 1} or probe counters)")
            continue
        for metric in METRICS:
            a = p["counters"][metric]
            b = measured.get(metric, float("nan"))
            if metric.endswith(".pct"):
                diff = a - b
                worst = max(worst, abs(diff))
                text = f"{diff:+.2f} pt"
            else:
                text = f"{100 * (a - b) / b:+.2f} %" if b else "-"
            print(f"{mib(p['windowBytes']):>8} {label(p):>9} {metric:>32} {a:14.2f} {b:14.2f} "
                  f"{text:>8}")
    print(f"\nlargest hit-rate difference probe - ncu: {worst:.2f} points")


if __name__ == "__main__":
    main()

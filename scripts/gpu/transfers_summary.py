#!/usr/bin/env python3
"""Summarises the output folder of `scripts/gpu/check.sh transfers`: the probe's pinned
host-to-device bandwidth at 256 MiB against the plain cudaMemcpy loop's best (within 5 %), and every mode's
medians over the five runs at sizes >= 16 MiB (within 5 %: (max - min) / median of the five).
Writes OUTDIR/transfers_h100.json (what tests/data/transfers_h100.json records) and prints tables.
Usage: transfers_summary.py OUTDIR"""
import json
import os
import statistics
import sys

LIMIT = 5.0
MIB = 1 << 20


def load(path):
    with open(path) as f:
        text = f.read().strip()
    return json.loads(text.splitlines()[-1]) if text else None


def main():
    out = sys.argv[1]
    runs = []
    for i in range(1, 6):
        path = os.path.join(out, "run%d.json" % i)
        try:
            runs.append(load(path))
        except (OSError, ValueError) as error:
            print("run %d unreadable: %s" % (i, error))
    runs = [r for r in runs if r]
    loop = {}
    for name in ("before", "after"):
        try:
            loop[name] = load(os.path.join(out, "memcpy_%s.json" % name))
        except (OSError, ValueError):
            loop[name] = None
    result = {"machine": open(os.path.join(out, "machine.txt")).read(), "runs": runs,
              "memcpyLoop": loop}
    if not runs:
        print("no probe run to summarise")
        return 1
    # Medians over the runs, per mode and size.
    table = {}
    for run in runs:
        for curve in run["curves"]:
            for point in curve["points"]:
                table.setdefault((curve["mode"], point["bytes"]), []).append(point["bandwidthGBs"])
    repeat = []
    worst = 0.0
    print("repeatability over %d runs at sizes >= 16 MiB (GB/s: min / median / max, spread)" %
          len(runs))
    for (mode, size), values in sorted(table.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        if size < 16 * MIB:
            continue
        median = statistics.median(values)
        spread = 100.0 * (max(values) - min(values)) / median if median else 0.0
        worst = max(worst, spread)
        repeat.append({"mode": mode, "bytes": size, "minGBs": min(values), "medianGBs": median,
                       "maxGBs": max(values), "spreadPercent": spread})
        print("  %-17s %8d MiB  %8.2f %8.2f %8.2f  %5.2f %%%s" %
              (mode, size // MIB, min(values), median, max(values), spread,
               "" if spread <= LIMIT else "  OVER 5 %"))
    probe256 = table.get(("h2d_pinned", 256 * MIB), [])
    bests = [loop[k]["bestGBs"] for k in loop if loop[k]]
    comparison = {}
    if probe256 and bests:
        probe = statistics.median(probe256)
        best = max(bests)
        comparison = {"probeMedianGBs": probe, "probeRunsGBs": probe256, "loopBestGBs": best,
                      "loopMedianGBs": [loop[k]["medianGBs"] for k in loop if loop[k]],
                      "differencePercent": 100.0 * (probe - best) / best}
        print("pinned H2D at 256 MiB: probe %.2f GB/s (median of %d runs' medians), plain "
              "cudaMemcpy loop best %.2f GB/s: %+.2f %%%s" %
              (probe, len(probe256), best, comparison["differencePercent"],
               "" if abs(comparison["differencePercent"]) <= LIMIT else "  OVER 5 %"))
    print("worst spread at >= 16 MiB: %.2f %% (%s)" % (worst, "pass" if worst <= LIMIT else "FAIL"))
    result["repeatability"] = repeat
    result["worstSpreadPercent"] = worst
    result["comparison"] = comparison
    with open(os.path.join(out, "transfers_h100.json"), "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

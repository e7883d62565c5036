#!/usr/bin/env python3
"""Recomputes the derived fields of a recorded measure_l2_persistence answer with the current
model (core/include/warpscope/l2_persistence_model.h, rewritten here line for line; the probe's
test TheRecordedH100SweepCarriesTheModelAndTheDramShare checks that both agree on the recorded
file): modelRegionHitPct, modelHitRatePct, their kinds modelRegionHitKind and modelHitRateKind
("prediction" only where the window holds the whole region with hitRatio 1, else "estimate"; the
hit rate always "estimate") and regionHitPct (from dram__bytes_read.sum). The
measured counters and times are left as they are. With --table, prints model against measured
for every point instead, and with --ncu CSV PROBEJSON also the points ncu measured (cold
launches: ncu's replays start with the region out of L2).

Usage: l2_persistence_rederive.py RESULT.json [--partitions 2] [--write] [--table]
       [--ncu NCU.csv NCU_PROBE.json]"""
import argparse
import csv
import json
import math
import re
import sys
from pathlib import Path

HEADER = Path(__file__).resolve().parents[2] / "core/include/warpscope/l2_persistence_model.h"


def survival(ratio):
    if not ratio > 1.0:
        return 1.0
    s = 0.0
    for _ in range(200):
        nxt = math.exp(-(1.0 - s) * ratio)
        if abs(nxt - s) < 1e-12:
            return nxt
        s = nxt
    return s


def model(window_bytes, hit_ratio, window, set_aside, l2, per_region, partitions, reads=0.0):
    w = float(window_bytes)
    h = min(max(hit_ratio, 0.0), 1.0) if window else 0.0
    persisting = h * w
    fits = (not window) or persisting <= set_aside
    served = 0.0
    if w > 0:
        if window:
            served = h if fits else (h * survival(persisting / set_aside) if set_aside > 0 else 0.0)
        elif l2 > 0:
            served = math.exp(-max(0, per_region) * w / l2)
    if reads > 1.0:
        served *= (reads - 1.0) / reads
    elif reads > 0.0:
        served = 0.0
    region = min(max(served, 0.0), 1.0)
    lookups = 1.0 + (max(1, partitions) - 1) / max(1, partitions)
    return region, region / (1.0 + max(0, per_region)) / lookups


def region_kind(window_bytes, hit_ratio, window, set_aside):
    """L2ModelKind of the region share: a prediction only where the window holds the whole
    region (hitRatio 1, num_bytes <= set-aside), as l2PersistenceModel's basis says."""
    h = min(max(hit_ratio, 0.0), 1.0) if window else 0.0
    fits = (not window) or h * float(window_bytes) <= set_aside
    whole = window and fits and h >= 1.0 and window_bytes > 0
    return "prediction" if whole else "estimate"


def statement():
    text = HEADER.read_text()
    body = text[text.index("l2PersistenceModelStatement()"):]
    body = body[body.index("return") + 6:body.index(";\n")]
    return "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', body)).replace('\\"', '"')


def region_share(dram, stream, region_bytes):
    return min(max(100.0 * (1.0 - (dram - stream) / region_bytes), 0.0), 100.0)


def ncu_points(csv_path, probe_json):
    """ncu's values per kernel launch, paired with the probe's points (two launches each)."""
    rows = [r for r in csv.DictReader(l for l in open(csv_path) if l.startswith('"'))]
    launches = {}
    for r in rows:
        launches.setdefault(int(r["ID"]), {})[r["Metric Name"]] = float(r["Metric Value"].replace(",", ""))
    points = json.load(open(probe_json))["points"]
    out = []
    for i in sorted(launches):
        out.append((points[i // 2], launches[i], i % 2))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("result")
    ap.add_argument("--partitions", type=int, default=2)
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--table", action="store_true")
    ap.add_argument("--ncu", nargs=2)
    args = ap.parse_args()
    data = json.load(open(args.result))
    stream = data["streamBytes"]
    per = data["streamPerRegion"]
    region_bytes = float(stream // per)
    set_aside = data["setAsideBytes"]
    l2 = data["l2Bytes"]
    worst_region = worst_hit = (0.0, None)
    rows = []
    for p in data["points"]:
        region, hit = model(p["windowBytes"], p["hitRatio"], p["window"], set_aside, l2, per,
                            args.partitions)
        p["modelRegionHitPct"] = 100.0 * region
        p["modelHitRatePct"] = 100.0 * hit
        p["modelRegionHitKind"] = region_kind(p["windowBytes"], p["hitRatio"], p["window"], set_aside)
        p["modelHitRateKind"] = "estimate"
        if p.get("countersMeasured"):
            p["regionHitPct"] = region_share(p["counters"]["dram__bytes_read.sum"], stream, region_bytes)
            dr = p["modelRegionHitPct"] - p["regionHitPct"]
            dh = p["modelHitRatePct"] - p["hitRatePct"]
            worst_region = max(worst_region, (abs(dr), p), key=lambda t: t[0])
            worst_hit = max(worst_hit, (abs(dh), p), key=lambda t: t[0])
            rows.append((p, dr, dh))
    data["l2Partitions"] = args.partitions
    data["model"] = statement()
    if args.write:
        Path(args.result).write_text(json.dumps(data, separators=(",", ":"), sort_keys=True) + "\n")
    if args.table:
        def ratio(p):
            if not p["window"]:
                return "none"
            return f"{p['hitRatio']:.3f}" + ("*" if p.get("tuned") else "")
        print(f"{data['device']}: L2 {l2 / 2**20:.0f} MiB in {args.partitions} partitions, "
              f"{set_aside / 2**20:.2f} MiB set aside, {per} streaming bytes per region byte")
        print("region = share of the region's reads served by L2 (1 - (dram__bytes_read - stream) / "
              "region reads); hit = lts__t_sector_hit_rate.pct; the probe's CUPTI counters of its "
              "counted (warm) launch")
        print(f"{'window':>8} {'hitRatio':>9} {'region':>8} {'model':>7} {'diff':>7} "
              f"{'hit %':>7} {'model':>7} {'diff':>6}  region model kind")
        worst_kind = {"prediction": 0.0, "estimate": 0.0}
        for p, dr, dh in rows:
            kind = p["modelRegionHitKind"]
            worst_kind[kind] = max(worst_kind[kind], abs(dr))
            print(f"{p['windowBytes'] / 2**20:5.0f} MiB {ratio(p):>9} {p['regionHitPct']:8.2f} "
                  f"{p['modelRegionHitPct']:7.2f} {dr:+7.2f} {p['hitRatePct']:7.2f} "
                  f"{p['modelHitRatePct']:7.2f} {dh:+6.2f}  {kind}")
        print(f"largest region difference where the model predicts: {worst_kind['prediction']:.2f} "
              f"points; where it estimates: {worst_kind['estimate']:.2f} points")
        wr, wh = worst_region, worst_hit
        print(f"largest difference, region: {wr[0]:.2f} points ({wr[1]['windowBytes'] >> 20} MiB, "
              f"{ratio(wr[1])}); hit rate: {wh[0]:.2f} points ({wh[1]['windowBytes'] >> 20} MiB, "
              f"{ratio(wh[1])})")
    if args.ncu:
        print()
        print("ncu (--cache-control none), each launch; the model for a cold launch (first of "
              "the region's reads per launch misses)")
        print(f"{'window':>8} {'hitRatio':>9} {'region':>8} {'model':>7} {'diff':>7} "
              f"{'hit %':>7} {'model':>7} {'diff':>6} {'lookups/sector':>14}  region model kind")
        worst = [0.0, 0.0]
        sectors = (stream + region_bytes) / 32.0
        for p, m, _ in ncu_points(*args.ncu):
            reads = region_bytes / p["windowBytes"]
            region, hit = model(p["windowBytes"], p["hitRatio"], p["window"], set_aside, l2, per,
                                args.partitions, reads)
            share = region_share(m["dram__bytes_read.sum"], stream, region_bytes)
            hits = m["lts__t_sectors_lookup_hit.sum"]
            lookups = hits + m["lts__t_sectors_lookup_miss.sum"]
            dr = 100 * region - share
            dh = 100 * hit - m["lts__t_sector_hit_rate.pct"]
            worst = [max(worst[0], abs(dr)), max(worst[1], abs(dh))]
            print(f"{p['windowBytes'] / 2**20:5.0f} MiB {ratio(p):>9} {share:8.2f} {100 * region:7.2f} "
                  f"{dr:+7.2f} {m['lts__t_sector_hit_rate.pct']:7.2f} {100 * hit:7.2f} {dh:+6.2f} "
                  f"{lookups / sectors:14.4f}  "
                  f"{region_kind(p['windowBytes'], p['hitRatio'], p['window'], set_aside)}")
        print(f"largest difference under ncu, region: {worst[0]:.2f} points; hit rate: "
              f"{worst[1]:.2f} points")
    return 0


if __name__ == "__main__":
    sys.exit(main())

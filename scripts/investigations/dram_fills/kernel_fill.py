#!/usr/bin/env python3
"""When does the L2 read a sector written in part from DRAM? (issue 11)

Usage: kernel_fill.py PROBE OUTDIR [DEADLINE_SECONDS]

Designed kernels that store nothing but half sectors (scripts/investigations/dram_fills/kernels/fill_*.json), each lane
4 bytes, a warp 16 bytes of each of 8 sectors:

- fill_pair: the other half of each sector is written by the warp `d` warps later in launch
  order (d = 1: the neighbour warp of the same block, the same instruction: "soon"; d = 8: the
  next block; up to half the grid: "late", when everything the grid writes in between, about
  d x 128 bytes, exceeds the L2);
- fill_half: the other half is never written ("never").

Each at output sizes below and above the L2 (16, 64, 256 MiB), under ncu with
`--cache-control all` (L2 flushed and invalidated before each launch) and clocks at base (ncu's
default): dram__bytes_read.sum, the L2's fills from DRAM, its write lookup misses, the writes it
forwards between its partitions; and the probe's own cold launch (CUPTI). A kernel that only
stores has a footprint of 0 bytes read: every byte it reads is a fill.

Writes OUTDIR/kernel_fill.txt (log and table) and OUTDIR/kernel_fill.jsonl (every measurement).
"""
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "gpu"))  # nsight.py
import kernel_dram  # noqa: E402  (its ncu() and run() helpers)
import nsight  # noqa: E402

METRICS = ["dram__bytes_read.sum", "dram__bytes_write.sum", "lts__d_sectors_fill_device.sum",
           "lts__t_sectors_op_write_lookup_miss.sum", "lts__t_sectors_op_write.sum",
           "lts__t_sectors_srcunit_ltcfabric_op_write.sum",
           "lts__t_sectors_srcunit_tex_op_write.sum", "gpu__time_duration.sum"]
MIB = 1 << 20


def pair_points():
    points = []  # (sectors, d)
    for size in (16 * MIB, 64 * MIB, 256 * MIB):
        sectors = size // 32
        warps = sectors // 4
        ds = [1, 8, 1024, 8192, warps // 16, warps // 8, warps // 4, warps // 2]
        for d in sorted(set(ds)):
            points.append((sectors, d))
    return points


def half_points():
    return [(size // 32,) for size in (1 * MIB, 4 * MIB, 16 * MIB, 64 * MIB, 256 * MIB)]


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    probe, out_dir = argv[1], argv[2]
    deadline = float(argv[3]) if len(argv) > 3 else 300.0
    started = time.perf_counter()
    os.makedirs(out_dir, exist_ok=True)

    log = nsight.Log(out_dir, "kernel_fill", started)
    code, out, err, _ = kernel_dram.run(
        ["nvidia-smi", "--query-gpu=name,driver_version,ecc.mode.current,clocks.max.sm",
         "--format=csv"], timeout=60)
    log(out.strip() or err.strip())
    rows = []
    for name, points, keys in (("fill_half", half_points(), ["sectors"]),
                               ("fill_pair", pair_points(), ["sectors", "d"])):
        kernel = os.path.join(HERE, "kernels", name + ".json")
        extra = []
        for i, key in enumerate(keys):
            extra += ["--sweep", key + "=" + ",".join(str(p[i]) for p in points)]
        if time.perf_counter() - started > deadline:
            log("skipped %s (deadline)" % name)
            continue
        got = kernel_dram.ncu(log, probe, kernel, METRICS, "base", "all", extra=extra,
                              label=name)
        answers = kernel_dram.probe_counters(log, probe, kernel, extra=extra, label=name)
        for i, point in enumerate(points):
            launches = got[2 * i:2 * i + 2]  # the probe's untimed launch, then its timed one
            probe_read = None
            if i < len(answers) and answers[i].get("counters"):
                probe_read = answers[i]["counters"].get("dram__bytes_read.sum")
            rows.append((name, point, launches, probe_read))
    log("")
    log("| kernel | output | d (warps) | bytes written between the halves | DRAM read / output "
        "(ncu, 2 launches) | L2 fills from DRAM / sectors | L2 write lookup misses / sectors "
        "| fabric writes / sectors written | DRAM write / output | probe cold, DRAM read / "
        "output |")
    log("|---|---|---|---|---|---|---|---|---|---|")
    for name, point, launches, probe_read in rows:
        sectors = point[0]
        size = sectors * 32
        d = point[1] if len(point) > 1 else None
        between = "never" if d is None else "%.1f MiB" % (d * 128 / MIB)

        def share(metric, base):
            return " / ".join("%.3f" % (g.get(metric, float("nan")) / base) for g in launches) \
                or "-"
        log("| %s | %d MiB | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            name, size // MIB, "-" if d is None else d, between,
            share("dram__bytes_read.sum", size), share("lts__d_sectors_fill_device.sum", sectors),
            share("lts__t_sectors_op_write_lookup_miss.sum", sectors),
            share("lts__t_sectors_srcunit_ltcfabric_op_write.sum",
                  sectors * (2 if d is not None else 1)),
            share("dram__bytes_write.sum", size),
            "-" if probe_read is None else "%.3f" % (probe_read / size)))
    log("elapsed %.0f s" % (time.perf_counter() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""Why do transposes that store columns read more DRAM than their footprint? (issue 11)

Usage: kernel_dram.py PROBE OUTDIR [DEADLINE_SECONDS]

Measures, on a GPU machine, the DRAM traffic of kernels whose stores leave 32-byte sectors
partly written (the row-reading transposes: a warp writes 4 or 8 bytes of each sector, the
rest comes from other warps) against kernels whose stores write whole sectors:

1. facts: GPU, driver, ECC mode, clocks, ncu version; the L2 / DRAM counters this ncu knows
   (`ncu --query-metrics`, the names with fill / partial / evict / write in them);
2. mechanism: a few kernels under ncu with every such counter, with `--cache-control all`
   (caches flushed and invalidated before the launch) and `--clock-control base` (ncu's
   default: clocks locked to base) and `none` (the clocks the probe runs at); the same
   kernels' first timed launch after the probe's own flush under ncu (`--cache-control none`,
   clocks not locked: the probe's cold launch, counted by ncu); and the probe's own counters;
3. sweeps: block shapes (how many warps complete a sector), sizes (output smaller / larger
   than the L2) and a row stride that is not a power of two, for Unroll4Row, NaiveRow and a
   kernel made of Unroll4Row's stores alone;
4. every preset: dram__bytes_read.sum / _write.sum under ncu with both clock settings.

Writes OUTDIR/kernel_dram.txt (the log and tables), OUTDIR/kernel_dram.jsonl (every
measurement, raw) and OUTDIR/ncu_metrics.txt (the counters this ncu offers, filtered).
Stops starting new measurements after DEADLINE_SECONDS (default 400) and says what it skipped.
"""
import json
import os
import re
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "gpu"))  # nsight.py
import nsight  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
STARTED = time.perf_counter()
DRAM = ["dram__bytes_read.sum", "dram__bytes_write.sum"]
# Named in the sweep and preset passes when this ncu knows them (checked against --query-metrics).
MEDIUM = DRAM + ["lts__t_sectors_srcunit_tex_op_write.sum", "lts__d_sectors_fill_device.sum",
                 "lts__t_sectors_srcunit_tex_op_write_lookup_miss.sum",
                 "lts__t_sectors_srcunit_tex_op_read.sum", "gpu__time_duration.sum"]
RICH_PATTERNS = [
    r"^dram__(bytes|sectors)_(read|write)$",
    r"^lts__d_sectors_fill_(device|sysmem)$",
    r"^lts__t_sectors_srcunit_tex_op_(read|write)(_lookup_(hit|miss))?$",
    r"^lts__t_sectors_op_(read|write)(_lookup_(hit|miss))?$",
    r"^lts__t_requests_srcunit_tex_op_write$",
    r"^lts__t_sectors_srcunit_ltcfabric(_op_(read|write))?$",
    r"^lts__.*(partial|evict|writeback|fill|ecc|dirty|clean).*$",
    r"^lts__d_.*$",
    r"^gpu__time_duration$",
]
MAX_RICH = 48

SWEEP_POINTS = [  # nx, ny, bx, by
    (2048, 2048, 16, 16),
    (2048, 2048, 8, 32),
    (2048, 2048, 4, 64),
    (2048, 2048, 32, 8),
    (2048, 2080, 16, 16),
    (512, 512, 16, 16),
    (1024, 1024, 16, 16),
    (4096, 4096, 16, 16),
    (4096, 4160, 16, 16),
    (8192, 8192, 16, 16),
]
MECHANISM = ["transpose-unroll4row", "transpose-naiverow", "transpose-copyrow",
             os.path.join(HERE, "kernels", "stores_unroll4row.json")]
SWEEPS = ["transpose-unroll4row", os.path.join(HERE, "kernels", "stores_unroll4row.json"),
          "transpose-naiverow"]


def run(args, timeout=240):
    return nsight.run(args, timeout)


def elapsed():
    return time.perf_counter() - STARTED


def sweep_args(points):
    names = ["nx", "ny", "bx", "by"]
    args = []
    for i, name in enumerate(names):
        args += ["--sweep", name + "=" + ",".join(str(p[i]) for p in points)]
    return args


def ncu(log, probe, kernel, metrics, clock, cache, extra=(), launch_skip=0, count=None,
        label=""):
    """Runs ncu over `probe run-kernel KERNEL --no-counters --repetitions 1`; returns one dict per
    profiled launch (metric -> value, plus the grid and block ncu reports)."""
    args = ["ncu", "--metrics", ",".join(metrics), "--csv", "--print-units", "base",
            "--cache-control", cache, "--clock-control", clock, "-k", "regex:warpscope_kernel"]
    if launch_skip:
        args += ["--launch-skip", str(launch_skip)]
    if count:
        args += ["-c", str(count)]
    args += [probe, "run-kernel", kernel, *extra, "--no-counters", "--repetitions", "1"]
    code, out, err, seconds = run(args, timeout=300)
    launches = {}
    for row in nsight.csv_rows(out):
        key = row.get("ID")
        entry = launches.setdefault(key, {"grid": row.get("Grid Size"),
                                          "block": row.get("Block Size")})
        try:
            entry[row["Metric Name"]] = nsight.metric_value(row)
        except (KeyError, ValueError):
            pass
    result = [launches[k] for k in sorted(launches, key=lambda k: int(k))]
    passes = re.findall(r"(\d+) passes?", out + err)
    log.record(kind="ncu", label=label, kernel=kernel, extra=list(extra), clock=clock,
               cache=cache, launch_skip=launch_skip, code=code, seconds=round(seconds, 1),
               passes=passes[:4], launches=result,
               error=(err.strip()[-400:] if code else ""))
    if code != 0 or not result:
        log("  ncu %s %s (%s, %s): exit %d after %.0f s: %s" % (
            kernel, " ".join(extra), clock, cache, code, seconds,
            (err.strip() or out.strip())[-300:]))
    return result


def probe_counters(log, probe, kernel, extra=(), label=""):
    code, out, err, seconds = run([probe, "run-kernel", kernel, *extra, "--json",
                                   "--repetitions", "3"], timeout=300)
    answers = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    log.record(kind="probe", label=label, kernel=kernel, extra=list(extra), code=code,
               seconds=round(seconds, 1),
               answers=[{"parameters": a.get("parameters"), "grid": a.get("grid"),
                         "block": a.get("block"), "counters": a.get("counters"),
                         "predicted": a.get("predicted"),
                         "kernelMs": a.get("timing", {}).get("kernelMs")} for a in answers])
    if code != 0 or not answers:
        log("  probe %s: exit %d: %s" % (kernel, code, err.strip()[-300:]))
    return answers


def pct(value, base):
    return 100.0 * (value - base) / base if base else float("nan")


def mb(value):
    return "-" if value is None else "%.3f" % (value / 1e6)


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    probe, out_dir = argv[1], argv[2]
    deadline = float(argv[3]) if len(argv) > 3 else 400.0
    os.makedirs(out_dir, exist_ok=True)
    log = nsight.Log(out_dir, "kernel_dram", STARTED)
    skipped = []

    # 1. Facts.
    for args in (["nvidia-smi", "--query-gpu=name,driver_version,ecc.mode.current,clocks.sm,"
                  "clocks.mem,clocks.max.sm,clocks.max.mem,clocks.applications.graphics,"
                  "clocks.default_applications.graphics", "--format=csv"],
                 ["ncu", "--version"], [probe, "info"]):
        code, out, err, _ = run(args, timeout=120)
        log((out.strip() or err.strip()))
    code, out, err, _ = run(["ncu", "--query-metrics"], timeout=120)
    names = {}
    for line in out.splitlines():
        m = re.match(r"^([a-z0-9]+__[a-z0-9_]+)\s+(\S+)", line)
        if m:
            names[m.group(1)] = m.group(2)
    with open(os.path.join(out_dir, "ncu_metrics.txt"), "w") as f:
        for line in out.splitlines():
            if re.match(r"^(lts__|dram__|fbpa__|ltc__)", line):
                f.write(line + "\n")
    log("ncu --query-metrics: %d metrics (exit %d); lts/dram/fbpa/ltc lines in ncu_metrics.txt"
        % (len(names), code))
    rich = []
    for pattern in RICH_PATTERNS:  # in the patterns' order: the last ones are cut first
        for name in sorted(names):
            if names[name] == "Counter" and re.match(pattern, name) and name + ".sum" not in rich:
                rich.append(name + ".sum")
    for must in MEDIUM:
        if must not in rich and must[:-4] in names:
            rich.insert(0, must)
    if len(rich) > MAX_RICH:
        log("rich set cut from %d to %d: %s" % (len(rich), MAX_RICH, ", ".join(rich[MAX_RICH:])))
        rich = rich[:MAX_RICH]
    medium = [m for m in MEDIUM if m[:-4] in names] or DRAM
    log("rich set (%d): %s" % (len(rich), ", ".join(rich)))
    log("medium set: " + ", ".join(medium))
    if not rich:
        rich = medium

    # 2. Mechanism.
    log("")
    log("== mechanism: every L2/DRAM counter, ncu --cache-control all, clocks base and none")
    for kernel in MECHANISM:
        for clock in ("base", "none"):
            if elapsed() > deadline:
                skipped.append("mechanism %s %s" % (kernel, clock))
                continue
            got = ncu(log, probe, kernel, rich, clock, "all", count=1, label="mechanism")
            if got:
                g = got[0]
                log("  %-28s clock %-4s  dram rd %s MB  wr %s MB  fill_device %s  "
                    "L2 wr sectors %s  wr lookup miss %s  %.1f us" % (
                        os.path.basename(kernel), clock, mb(g.get(DRAM[0])),
                        mb(g.get(DRAM[1])), g.get("lts__d_sectors_fill_device.sum"),
                        g.get("lts__t_sectors_srcunit_tex_op_write.sum"),
                        g.get("lts__t_sectors_srcunit_tex_op_write_lookup_miss.sum"),
                        (g.get("gpu__time_duration.sum") or 0) / 1e3))
        if elapsed() > deadline:
            skipped.append("mechanism %s after-flush and probe" % kernel)
            continue
        # The probe's own cold launch (after its flush: 2 x L2 written, then read), counted by
        # ncu: the second launch (the first timed one), caches left alone, clocks not locked.
        got = ncu(log, probe, kernel, medium, "none", "none", launch_skip=1, count=1,
                  label="after-probe-flush")
        if got:
            g = got[0]
            log("  %-28s after the probe's flush, clocks free: dram rd %s MB wr %s MB fill %s"
                % (os.path.basename(kernel), mb(g.get(DRAM[0])), mb(g.get(DRAM[1])),
                   g.get("lts__d_sectors_fill_device.sum")))
        answers = probe_counters(log, probe, kernel, label="mechanism")
        for a in answers:
            c, p = a["counters"], a["predicted"]
            log("  %-28s probe cold (CUPTI): dram rd %s MB (footprint %s MB) wr %s MB, "
                "%.4f ms" % (os.path.basename(kernel), mb(c.get(DRAM[0])),
                             mb(p.get(DRAM[0])), mb(c.get(DRAM[1])),
                             a["timing"]["kernelMs"]["median"]))

    # 3. Sweeps.
    log("")
    log("== sweeps: (nx, ny, bx, by) = " + " ".join("(%d,%d,%d,%d)" % p for p in SWEEP_POINTS))
    for kernel in SWEEPS:
        points = SWEEP_POINTS
        if "naiverow" in kernel:
            points = [p for p in SWEEP_POINTS if p[0] <= 4096]
        extra = sweep_args(points)
        table = {}
        for clock, cache, skip in (("base", "all", 0), ("none", "all", 0), ("none", "none", 0)):
            if elapsed() > deadline:
                skipped.append("sweep %s %s %s" % (kernel, clock, cache))
                continue
            got = ncu(log, probe, kernel, medium, clock, cache, extra=extra, label="sweep")
            # Two launches per point: the probe's untimed first launch, then one after its flush.
            for i, g in enumerate(got):
                point = points[i // 2] if i // 2 < len(points) else None
                table.setdefault(point, {}).setdefault((clock, cache), []).append(g)
        if elapsed() > deadline:
            skipped.append("sweep %s probe" % kernel)
            answers = []
        else:
            answers = probe_counters(log, probe, kernel, extra=extra, label="sweep")
        log("")
        log("%s: DRAM read beyond the footprint, as %% of the output buffer (nx * ny * 4); "
            "ncu launches: the probe's first / its launch after its flush"
            % os.path.basename(kernel))
        log("| nx, ny, bx, by | footprint MB | ncu base, all | ncu none, all | "
            "ncu none, none (2nd = after probe flush) | probe CUPTI cold | L2 write sectors "
            "(ncu none) | fill_device (ncu none, all) |")
        log("|---|---|---|---|---|---|---|---|")
        for i, point in enumerate(points):
            out_bytes = point[0] * point[1] * 4
            # Every kernel swept reads its input once (or nothing): footprint = nx * ny * 4 or 0.
            fp = 0 if "stores" in kernel else out_bytes
            probe_text = "-"
            if i < len(answers):
                fp = answers[i]["predicted"].get(DRAM[0], 0)
                probe_text = "%+.2f" % (100.0 * (answers[i]["counters"].get(DRAM[0], 0) - fp)
                                        / out_bytes)
            cells = []
            for key in (("base", "all"), ("none", "all"), ("none", "none")):
                runs = table.get(point, {}).get(key, [])
                cells.append(" / ".join("%+.2f" % (100.0 * (g.get(DRAM[0], 0) - fp) / out_bytes)
                                        for g in runs) or "-")
            none_all = table.get(point, {}).get(("none", "all"), [{}])
            log("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
                ", ".join(map(str, point)), mb(fp), cells[0], cells[1], cells[2], probe_text,
                " / ".join(str(g.get("lts__t_sectors_srcunit_tex_op_write.sum")) for g in
                           none_all),
                " / ".join(str(g.get("lts__d_sectors_fill_device.sum")) for g in none_all)))

    # 4. Every preset, both clock settings.
    log("")
    log("== every preset: dram__bytes_read.sum under ncu --cache-control all, both launches")
    code, out, err, _ = run([probe, "run-kernel", "--help"], timeout=60)
    presets = []
    kernels_json = os.path.join(HERE, "..", "..", "..", "resources", "kernels.json")
    if os.path.exists(kernels_json):
        presets = [p["id"] for p in json.load(open(kernels_json))]
    for clock in ("none", "base"):
        for kid in presets:
            if elapsed() > deadline:
                skipped.append("preset %s %s" % (kid, clock))
                continue
            got = ncu(log, probe, kid, DRAM + ["gpu__time_duration.sum"], clock, "all",
                      count=2, label="preset")
            log("  %-26s clock %-4s dram rd %s MB wr %s MB" % (
                kid, clock, " / ".join(mb(g.get(DRAM[0])) for g in got),
                " / ".join(mb(g.get(DRAM[1])) for g in got)))
    log("")
    log("skipped (deadline %.0f s): %s" % (deadline, ", ".join(skipped) or "nothing"))
    log("elapsed %.0f s" % elapsed())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

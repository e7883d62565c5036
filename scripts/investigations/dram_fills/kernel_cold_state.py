#!/usr/bin/env python3
"""Which cold state does a cold launch's DRAM read depend on? (issue 11, Unroll4Row)

Usage: kernel_cold_state.py run PROBE OUTDIR [DEADLINE_SECONDS]
       kernel_cold_state.py render JSONL          (the tables again from a run's raw file)

Unroll4Row's cold launches read more from DRAM than the footprint: L2 fills of the sectors its
column stores write in part. The probe's own cold launch (CUPTI, L2 flushed by writing a buffer
of 2 x L2 and reading it back, so that L2 holds clean unrelated lines) and ncu with
`--cache-control all` (L2 written back and invalidated) disagreed: +3.9 / +4.5 % against +7.1 to
+10.0 % of one launch each. This measures, for Unroll4Row (L1 on and off) and controls (CopyCol,
NaiveRow, DiagonalRow):

1. probe: several probe processes x several cold launches each (`run-kernel ID --json --sweep
   nx=N,N,...`: every point is the same kernel over fresh buffers, its counters one launch after
   the flush), with the probe's clean flush (the default) and the variants `--flush dirty`
   (written only: L2 full of dirty unrelated lines) and `--flush none` (warm);
2. ncu over `run-kernel ID --no-counters --repetitions R` (launch 1: the untimed one after the
   buffers' memset; launches 2..R+1: each after the probe's flush):
   - `--cache-control all`: every launch after ncu's own flush and invalidation;
   - `--cache-control none`: the probe's own flush state counted by ncu (kernel replay);
   - the same with `--replay-mode application` (no memory saved or restored by ncu);
   - `--cache-control none` over `--flush dirty` and `--flush none`;
   clocks not locked (`--clock-control none`, as the probe runs), and `base` for Unroll4Row.
   The metrics (DRAM bytes, L2 fills from DRAM, the kernel's time) take one pass.

Writes OUTDIR/kernel_cold_state.txt (log and tables) and OUTDIR/kernel_cold_state.jsonl (every
measurement, raw). Stops starting new measurements after DEADLINE_SECONDS (default 240).
"""
import json
import os
import re
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "gpu"))  # nsight.py
import nsight  # noqa: E402

STARTED = time.perf_counter()
READ = "dram__bytes_read.sum"
METRICS = [READ, "dram__bytes_write.sum", "lts__d_sectors_fill_device.sum",
           "gpu__time_duration.sum"]
FOOTPRINT = 2048 * 2048 * 4  # every kernel here reads its 16 MiB input once
MAIN = ["transpose-unroll4row", "transpose-unroll4row-cg"]
CONTROLS = ["transpose-copycol", "transpose-naiverow", "transpose-diagonalrow"]
VARIANTS = ["transpose-unroll4row", "transpose-unroll4row-cg", "transpose-naiverow"]


def run(args, timeout=200):
    return nsight.run(args, timeout)


def elapsed():
    return time.perf_counter() - STARTED


def probe_runs(log, probe, kernel, flush, processes, points):
    """`processes` probe processes, each `points` cold launches with counters."""
    for p in range(processes):
        args = [probe, "run-kernel", kernel, "--json", "--repetitions", "3", "--sweep",
                "nx=" + ",".join(["2048"] * points)]
        if flush != "clean":
            args += ["--flush", flush]
        code, out, err, seconds = run(args)
        answers = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
        reads = [a["counters"].get(READ) for a in answers]
        log.record(kind="probe", kernel=kernel, flush=flush, process=p, code=code,
                   seconds=round(seconds, 1), reads=reads,
                   fills=[a["counters"].get("lts__d_sectors_fill_device.sum") for a in answers],
                   writes=[a["counters"].get("dram__bytes_write.sum") for a in answers],
                   footprint=[a["predicted"].get(READ) for a in answers],
                   l2Flush=[a.get("l2Flush") for a in answers],
                   countersCold=[a.get("countersCold") for a in answers],
                   kernelMs=[a["timing"]["kernelMs"]["median"] for a in answers],
                   error=err.strip()[-300:] if code else "")
        log("  probe %-24s flush %-5s process %d: %s  (%.1f s)%s" % (
            kernel, flush, p, " ".join(pct_text(r) for r in reads), seconds,
            "" if code == 0 else "  exit %d: %s" % (code, err.strip()[-200:])))


def ncu_runs(log, probe, kernel, cache, clock="none", replay="kernel", flush="clean",
             repetitions=6):
    args = ["ncu", "--metrics", ",".join(METRICS), "--csv", "--print-units", "base",
            "--cache-control", cache, "--clock-control", clock, "--replay-mode", replay,
            "-k", "regex:warpscope_kernel", probe, "run-kernel", kernel, "--no-counters",
            "--repetitions", str(repetitions)]
    if flush != "clean":
        args += ["--flush", flush]
    code, out, err, seconds = run(args)
    launches = {}
    for row in nsight.csv_rows(out):
        entry = launches.setdefault(row.get("ID"), {})
        try:
            entry[row["Metric Name"]] = nsight.metric_value(row)
        except (KeyError, ValueError):
            pass
    result = [launches[k] for k in sorted(launches, key=int)]
    prof = [line for line in (out + err).splitlines() if line.startswith("==PROF==")
            or line.startswith("==WARNING==") or line.startswith("==ERROR==")]
    passes = sorted(set(re.findall(r"(\d+) pass(?:es)?\b", "\n".join(prof))))
    log.record(kind="ncu", kernel=kernel, cache=cache, clock=clock, replay=replay, flush=flush,
               repetitions=repetitions, code=code, seconds=round(seconds, 1), passes=passes,
               launches=result, prof=prof[:6] + prof[-3:],
               error=(err.strip()[-300:] if code else ""))
    reads = [g.get(READ) for g in result]
    log("  ncu   %-24s cache %-4s clock %-4s replay %-11s flush %-5s: first %s | after: %s"
        "  (passes %s, %.1f s)%s" % (
            kernel, cache, clock, replay, flush, pct_text(reads[0] if reads else None),
            " ".join(pct_text(r) for r in reads[1:]), ",".join(passes) or "?", seconds,
            "" if code == 0 and result else "  exit %d: %s" % (
                code, (err.strip() or out.strip())[-200:])))


def pct(value):
    return 100.0 * (value - FOOTPRINT) / FOOTPRINT


def pct_text(value):
    return "-" if value is None else "%+.1f" % pct(value)


def spread(values):
    values = [pct(v) for v in values if v is not None]
    if not values:
        return "-", 0
    return ("%+.1f / %+.1f / %+.1f" % (min(values), statistics.median(values), max(values)),
            len(values))


def render(jsonl, out=print):
    rows = [json.loads(line) for line in open(jsonl)]
    kernels = []
    for r in rows:
        if r.get("kernel") and r["kernel"] not in kernels:
            kernels.append(r["kernel"])
    out("DRAM read beyond the footprint (16,777,216 bytes), %: min / median / max (launches)")
    out("")
    out("| cold state | how it is measured | " + " | ".join(kernels) + " |")
    out("|---|---|" + "---|" * len(kernels))
    states = [
        ("clean unrelated lines (probe's flush: 2 x L2 written, read back)", "probe (CUPTI)",
         lambda r: r["kind"] == "probe" and r["flush"] == "clean", None),
        ("clean unrelated lines (probe's flush)", "ncu, cache none, kernel replay",
         lambda r: r["kind"] == "ncu" and r["cache"] == "none" and r["flush"] == "clean"
         and r["replay"] == "kernel" and r["clock"] == "none", "after"),
        ("clean unrelated lines (probe's flush)", "ncu, cache none, application replay",
         lambda r: r["kind"] == "ncu" and r["cache"] == "none" and r["flush"] == "clean"
         and r["replay"] == "application", "after"),
        ("invalidated (ncu --cache-control all)", "ncu, clocks free",
         lambda r: r["kind"] == "ncu" and r["cache"] == "all" and r["clock"] == "none", "all"),
        ("invalidated (ncu --cache-control all)", "ncu, clocks base",
         lambda r: r["kind"] == "ncu" and r["cache"] == "all" and r["clock"] == "base", "all"),
        ("dirty unrelated lines (probe --flush dirty: 2 x L2 written)", "probe (CUPTI)",
         lambda r: r["kind"] == "probe" and r["flush"] == "dirty", None),
        ("dirty unrelated lines (probe --flush dirty)", "ncu, cache none",
         lambda r: r["kind"] == "ncu" and r["cache"] == "none" and r["flush"] == "dirty",
         "after"),
        ("warm: the previous launch's data (probe --flush none)", "probe (CUPTI)",
         lambda r: r["kind"] == "probe" and r["flush"] == "none", None),
        ("warm: the previous launch's data (probe --flush none)", "ncu, cache none",
         lambda r: r["kind"] == "ncu" and r["cache"] == "none" and r["flush"] == "none",
         "after"),
        ("the buffers just zeroed (the probe's untimed first launch)", "ncu, cache none",
         lambda r: r["kind"] == "ncu" and r["cache"] == "none" and r["replay"] == "kernel",
         "first"),
    ]
    times = []
    for state, how, match, which in states:
        cells = []
        time_cells = []
        for kernel in kernels:
            values = []
            us = []
            for r in rows:
                if r.get("kernel") != kernel or not match(r):
                    continue
                if r["kind"] == "probe":
                    values += r["reads"]
                    us += [1e3 * ms for ms in r["kernelMs"]]
                else:
                    launches = r["launches"][:1] if which == "first" else (
                        r["launches"] if which == "all" else r["launches"][1:])
                    values += [g.get(READ) for g in launches]
                    us += [g["gpu__time_duration.sum"] / 1e3 for g in launches
                           if g.get("gpu__time_duration.sum")]
            text, n = spread(values)
            cells.append("-" if n == 0 else "%s (%d)" % (text, n))
            time_cells.append("%.1f" % statistics.median(us) if us else "-")
        out("| %s | %s | %s |" % (state, how, " | ".join(cells)))
        times.append("| %s | %s | %s |" % (state, how, " | ".join(time_cells)))
    out("")
    out("The same launches' time, median, microseconds (probe: CUDA events around each cold "
        "timed launch, the median of 3 per point; ncu: gpu__time_duration.sum of the launch "
        "it counted)")
    out("")
    out("| cold state | how it is measured | " + " | ".join(kernels) + " |")
    out("|---|---|" + "---|" * len(kernels))
    for line in times:
        out(line)


def main(argv):
    if len(argv) == 3 and argv[1] == "render":
        render(argv[2])
        return 0
    if len(argv) < 4 or argv[1] != "run":
        print(__doc__)
        return 2
    probe, out_dir = argv[2], argv[3]
    deadline = float(argv[4]) if len(argv) > 4 else 240.0
    os.makedirs(out_dir, exist_ok=True)
    log = nsight.Log(out_dir, "kernel_cold_state", STARTED)
    skipped = []
    for args in (["nvidia-smi", "--query-gpu=name,driver_version,ecc.mode.current,clocks.sm,"
                  "clocks.mem,clocks.max.sm,clocks.max.mem", "--format=csv"],
                 ["ncu", "--version"], [probe, "info"]):
        code, out, err, _ = run(args, timeout=120)
        log(out.strip() or err.strip())
    log.record(kind="facts", footprint=FOOTPRINT)

    steps = []
    for kernel in MAIN:
        steps.append(lambda k=kernel: probe_runs(log, probe, k, "clean", 4, 5))
        steps.append(lambda k=kernel: ncu_runs(log, probe, k, "all"))
        steps.append(lambda k=kernel: ncu_runs(log, probe, k, "none"))
    for kernel in CONTROLS:
        steps.append(lambda k=kernel: probe_runs(log, probe, k, "clean", 3, 4))
        steps.append(lambda k=kernel: ncu_runs(log, probe, k, "all"))
        steps.append(lambda k=kernel: ncu_runs(log, probe, k, "none"))
    for kernel in VARIANTS:
        steps.append(lambda k=kernel: ncu_runs(log, probe, k, "none", replay="application"))
        for flush in ("dirty", "none"):
            steps.append(lambda k=kernel, f=flush: probe_runs(log, probe, k, f, 1, 5))
            steps.append(lambda k=kernel, f=flush: ncu_runs(log, probe, k, "none", flush=f))
    for kernel in MAIN:
        steps.append(lambda k=kernel: ncu_runs(log, probe, k, "all", clock="base"))
    for i, step in enumerate(steps):
        if elapsed() > deadline:
            skipped.append(str(i))
            continue
        step()
    log("")
    render(os.path.join(out_dir, "kernel_cold_state.jsonl"), log)
    log("")
    log("skipped steps (deadline %.0f s): %s" % (deadline, ", ".join(skipped) or "none"))
    log("elapsed %.0f s" % elapsed())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

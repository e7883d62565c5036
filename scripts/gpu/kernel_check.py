#!/usr/bin/env python3
"""Whole kernels on a GPU machine: the grid model, the probe and Nsight Compute side by side, and
the course notes' bandwidth tables reproduced.

Usage:
  kernel_check.py check  PROBE KERNELS_JSON OUTDIR [ID ... | --extra | --copy-async]
  kernel_check.py tables PROBE KERNELS_JSON OUTDIR [RUNS]
  kernel_check.py render KERNELS_JSON OUTDIR   (the tables again from OUTDIR/kernel_tables.jsonl)

check   For every kernel preset (or the ids given), in one run:
        - the probe's answer for one cold launch (`run-kernel ID --json`): the grid model's
          prediction and the probe's CUPTI counters;
        - `ncu` over `warpscope-probe run-kernel ID --no-counters` collecting the same metrics on
          the same generated kernel (ncu flushes the caches before it: a cold launch too), with
          ncu's default --clock-control base, and the DRAM counters again with clocks not
          locked (--clock-control none, as the probe runs);
        - the generated kernel's SASS (cuobjdump): exactly one memory instruction per access;
        - compute-sanitizer memcheck, and racecheck for kernels with shared accesses.
        Prints a table; global requests and sectors must agree exactly in all three sources
        (and, for kernels with local accesses or texture reads, the local and texture requests
        and sectors: LOCAL and TEXTURE below),
        shared wavefronts within 10 %, dram__bytes_read.sum within 5 % of the predicted
        footprint in every measurement (probe, ncu with both clock settings); a kernel over it
        is named with its sectors written in part (warpscope__sectors_written_in_part: L2 fills
        of those sectors are what a cold launch reads beyond the footprint, docs/models.md).
        Kernels with a constant access (constant-broadcast, constant-divergent) also collect
        idc__requests.sum and smsp__inst_executed_op_ldc_pred_on_any.sum under ncu; their
        difference must equal the model's warpscope__constant_extra_requests and the probe's,
        exactly (a table of them follows the main one).
        Writes OUTDIR/kernel_check.txt and OUTDIR/kernel_check.jsonl (raw).
        --extra: the launches of EXTRA below instead (non-square grids, other blocks and
        offsets), written to OUTDIR/kernel_check_extra.txt and .jsonl.
tables  The notes' Tables 4-4, 4-6, 4-10, 4-11, 4-13 and the readSegment/writeSegment and
        readOffset/writeOffset offsets: RUNS (default 5) separate probe processes per preset,
        each the median of 21 cold launches; prints the median bandwidth of the runs, their
        spread, and the notes' number beside. Writes OUTDIR/kernel_tables.txt and .jsonl.
"""
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests",
                                "probe"))
import check_kernel_sass  # noqa: E402
import nsight  # noqa: E402

METRICS = nsight.ACCESS_METRICS + [
    "lts__t_sectors_srcunit_tex_op_read.sum",
    "lts__t_sectors_srcunit_tex_op_write.sum",
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
    "l1tex__t_sector_hit_rate.pct",
    "gpu__time_duration.sum",
]
EXACT = METRICS[:4]
# Issue 19: counters measured only for kernels with local accesses or texture reads (the probe
# asks CUPTI for them only then); the model predicts each exactly (docs/models.md).
LOCAL = [
    "l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum",
]
TEXTURE = [
    "l1tex__t_requests_pipe_tex_mem_texture.sum",
    "l1tex__t_sectors_pipe_tex_mem_texture.sum",
]


def kind_metrics(preset):
    """The per-kind counters a preset's kernel adds (local, texture), in the probe's order."""
    spaces = {a.get("space") for a in preset["kernel"]["accesses"]}
    return (LOCAL if "local" in spaces else []) + (TEXTURE if "texture" in spaces else [])
# Async copies (copy_async, LDGSTS): requested only for kernels that have one. All four must equal
# the model exactly; the shared side's wavefronts and conflicts (SASS-patched, per instruction)
# only ncu measures. The hardware conflict counter (COPY_HW_CONFLICTS, probe and ncu) also counts
# conflicts with other warps' traffic: it must be at least the model's, and is shown beside it.
COPY = [
    "l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts_cache_access.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access.sum",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum",
    "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum",
]
COPY_NCU_ONLY = COPY[2:]
COPY_HW_CONFLICTS = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum"
DRAM = ["dram__bytes_read.sum", "dram__bytes_write.sum"]
# Kernels with a constant access: the constant cache's counters. Every LDC instruction costs one
# IDC request per distinct address of the warp (the kernel's parameter loads one each), so
# idc__requests - LDC instructions is what the grid model's warpscope__constant_extra_requests
# predicts, exactly (docs/metrics.md).
CONSTANT = ["idc__requests.sum", "smsp__inst_executed_op_ldc_pred_on_any.sum"]
CONSTANT_EXTRA = "warpscope__constant_extra_requests"


def constant_extra(values):
    if all(values.get(m) is not None for m in CONSTANT):
        return values[CONSTANT[0]] - values[CONSTANT[1]]
    return None
SHARED_WAVEFRONTS = [METRICS[4], METRICS[6]]


def log(out, text):
    print(text, flush=True)
    out.write(text + "\n")
    out.flush()


def run(args, timeout=240, env=None):
    started = time.perf_counter()
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=timeout, env=env)
        return done.returncode, done.stdout, done.stderr, time.perf_counter() - started
    except subprocess.TimeoutExpired:
        return 124, "", "timed out after %d s" % timeout, time.perf_counter() - started


def ncu_metrics(probe, kernel_id, extra=(), metrics=None, clock="base"):
    code, out, err, seconds = run(["ncu", "--metrics", ",".join(metrics or METRICS), "--csv",
                                   "--print-units", "base", "--cache-control", "all",
                                   "--clock-control", clock,
                                   "-k", "regex:warpscope_kernel", "-c", "1",
                                   probe, "run-kernel", kernel_id, *extra, "--no-counters",
                                   "--repetitions", "1"], timeout=300)
    values = {}
    for row in nsight.csv_rows(out):
        try:
            values[row["Metric Name"]] = nsight.metric_value(row)
        except (KeyError, ValueError):
            pass
    return values, (code, err.strip()[-300:], seconds)


def sanitizer(probe, kernel_id, tool, extra=()):
    code, out, err, seconds = run(["compute-sanitizer", "--tool", tool, "--error-exitcode", "9",
                                   probe, "run-kernel", kernel_id, *extra, "--no-counters",
                                   "--repetitions", "1"], timeout=300)
    summary = [line for line in (out + err).splitlines()
               if "ERROR SUMMARY" in line or "RACECHECK SUMMARY" in line or "Error" in line][:3]
    return code, " / ".join(summary), seconds


def pct(a, b):
    return 100.0 * (a - b) / b if b else float("nan")


def fmt(value):
    if value is None:
        return "-"
    if float(value).is_integer():
        return str(int(value))
    return "%.1f" % value


# Launches other than the presets' own: non-square grids, where the diagonal block mapping sends
# whole blocks outside the matrix (their threads are inactive), and the thin blocks of Table 4-11.
EXTRA = [
    ("transpose-diagonalrow", ["--param", "bx=32", "--param", "by=8"]),
    ("transpose-diagonalcol-cg", ["--param", "bx=32", "--param", "by=8"]),
    ("transpose-diagonalrow", ["--param", "nx=2048", "--param", "ny=1024"]),
    ("transpose-naivecol-cg", ["--param", "bx=8", "--param", "by=32"]),
    ("transpose-unroll4col-cg", ["--param", "bx=8", "--param", "by=32"]),
    ("readoffset", ["--param", "offset=11"]),
    ("writeoffset-cg", ["--param", "offset=11"]),
    ("constant-divergent", ["--param", "distinct=5", "--param", "stride=16"]),
    ("constant-broadcast", ["--param", "n=1000", "--param", "bs=96"]),
    ("copyasync-width", ["--param", "w=4"]),
    ("copyasync-width", ["--param", "w=8"]),
    ("copyasync-width-staged", ["--param", "w=4"]),
    ("copyasync-shared-stride", ["--param", "stride=33"]),
    ("copyasync-shared-stride", ["--param", "stride=1", "--param", "gstride=2"]),
    ("copyasync-shared-stride", ["--param", "stride=2", "--param", "gstride=4"]),
]


def check(probe, kernels_json, out_dir, ids):
    presets = json.load(open(kernels_json))
    name = "kernel_check"
    jobs = [(p["id"], []) for p in presets]
    if ids == ["--extra"]:
        jobs, name = EXTRA, "kernel_check_extra"
    elif ids == ["--copy-async"]:
        # Issue 19's async copies alone: their presets and their EXTRA launches.
        jobs = [(p["id"], []) for p in presets if p["id"].startswith("copyasync-")]
        jobs += [job for job in EXTRA if job[0].startswith("copyasync-")]
        name = "kernel_check_copy_async"
    elif ids:
        jobs = [(p["id"], []) for p in presets if p["id"] in ids]
    by_id = {p["id"]: p for p in presets}
    os.makedirs(out_dir, exist_ok=True)
    text = open(os.path.join(out_dir, name + ".txt"), "w")
    raw = open(os.path.join(out_dir, name + ".jsonl"), "w")
    code, info, err, _ = run([probe, "info"])
    log(text, info.strip() or err.strip())
    _, smi, _, _ = run(["nvidia-smi", "--query-gpu=name,driver_version,memory.total",
                        "--format=csv,noheader"])
    _, ncuv, _, _ = run(["ncu", "--version"])
    log(text, "nvidia-smi: " + smi.strip())
    log(text, "ncu: " + (ncuv.strip().splitlines() or ["?"])[-1])
    log(text, "date: " + time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))
    failures = []
    rows = []
    workdir = os.path.join(out_dir, "cubins")
    os.makedirs(workdir, exist_ok=True)
    for kid, extra in jobs:
        preset = by_id[kid]
        label = " ".join([kid] + [a for a in extra if a != "--param"])
        has_shared = any(a.get("space") == "shared" or a.get("op") == "copy_async"
                         for a in preset["kernel"]["accesses"])
        has_copy = any(a.get("op") == "copy_async" for a in preset["kernel"]["accesses"])
        has_constant = any(a.get("space") == "constant" for a in preset["kernel"]["accesses"])
        cubin = os.path.join(workdir, kid + ".cubin")
        code, out, err, seconds = run([probe, "run-kernel", kid, *extra, "--json",
                                       "--repetitions", "5"],
                                      env=dict(os.environ, WARPSCOPE_SAVE_CUBIN=cubin))
        if not out.strip():
            log(text, "FAIL %s: run-kernel exit %d: %s" % (label, code, err.strip()[-400:]))
            failures.append(label)
            continue
        answer = json.loads(out.splitlines()[0])
        extra_metrics = kind_metrics(preset)  # compared exactly below, with EXACT
        copy_metrics = COPY + [COPY_HW_CONFLICTS] if has_copy else []  # compared on their own
        ncu, ncu_status = ncu_metrics(probe, kid, extra, METRICS + extra_metrics + copy_metrics)
        ncu_free, _ = ncu_metrics(probe, kid, extra, DRAM, "none")
        if has_constant:
            ncu_constant, _ = ncu_metrics(probe, kid, extra, CONSTANT)
            ncu.update(ncu_constant)
            if constant_extra(ncu) is not None:
                ncu[CONSTANT_EXTRA] = constant_extra(ncu)
        promised = answer["memoryInstructions"]
        found_full = check_kernel_sass.sass_memory_instructions(cubin)
        found = [op for _, _, op, _ in found_full]
        expected = [(e.split()[0], int(e.split()[1])) for e in promised]
        got = [(f, w) for f, w, _, _ in found_full]
        sass_ok = got == expected
        sass_message = "" if sass_ok else "SASS has " + ", ".join(found)
        if not sass_ok and sorted(got) == sorted(expected):
            # The same instructions in another order: accesses under distinct guards (the
            # element-size presets' "w == 4", "w == 8") are blocks ptxas lays out freely.
            sass_ok = True
            sass_message = "same instructions, other order: " + ", ".join(found)
        memcheck = sanitizer(probe, kid, "memcheck", extra)
        racecheck = sanitizer(probe, kid, "racecheck", extra) if has_shared else None
        predicted = answer["predicted"]
        counters = answer["counters"]
        problems = []
        for m in EXACT + extra_metrics:
            p, c, n = predicted.get(m), counters.get(m), ncu.get(m)
            if not (p == c == n):
                problems.append("%s predicted %s probe %s ncu %s" % (m, fmt(p), fmt(c), fmt(n)))
        if has_constant:
            p, c, n = predicted.get(CONSTANT_EXTRA), counters.get(CONSTANT_EXTRA), ncu.get(
                CONSTANT_EXTRA)
            if p is None or not (p == c == n):
                problems.append("%s predicted %s probe %s ncu %s" % (CONSTANT_EXTRA, fmt(p),
                                                                     fmt(c), fmt(n)))
        for m in COPY if has_copy else []:
            p, c, n = predicted.get(m), counters.get(m), ncu.get(m)
            if m in COPY_NCU_ONLY:
                c = p
            if not (p == c == n):
                problems.append("%s predicted %s probe %s ncu %s" % (m, fmt(p), fmt(c), fmt(n)))
        if has_copy:
            p = predicted.get(COPY[3])
            for source, v in (("probe", counters.get(COPY_HW_CONFLICTS)),
                              ("ncu", ncu.get(COPY_HW_CONFLICTS))):
                if p is None or v is None or v < p:
                    problems.append("%s %s %s below the model's %s" % (COPY_HW_CONFLICTS, source,
                                                                     fmt(v), fmt(p)))
        for m in SHARED_WAVEFRONTS:
            p, c, n = predicted.get(m, 0), counters.get(m), ncu.get(m)
            if p or c or n:
                for source, v in (("probe", c), ("ncu", n)):
                    if v is None or (p == 0 and v != 0) or (p and abs(pct(v, p)) > 10):
                        problems.append("%s predicted %s %s %s" % (m, fmt(p), source, fmt(v)))
        footprint = predicted.get("dram__bytes_read.sum")
        in_part = predicted.get("warpscope__sectors_written_in_part")
        for source, v in (("probe", counters.get("dram__bytes_read.sum")),
                          ("ncu", ncu.get("dram__bytes_read.sum")),
                          ("ncu (clocks free)", ncu_free.get("dram__bytes_read.sum"))):
            if footprint and (v is None or abs(pct(v, footprint)) > 5):
                problems.append("dram__bytes_read.sum predicted %s %s %s (%+.1f %%)%s"
                                % (fmt(footprint), source, fmt(v),
                                   pct(v, footprint) if v else float("nan"),
                                   "; %s sectors written in part (fills, not predicted)"
                                   % fmt(in_part) if in_part else ""))
        if not sass_ok:
            problems.append("SASS: " + sass_message)
        if memcheck[0] != 0:
            problems.append("memcheck exit %d %s" % (memcheck[0], memcheck[1]))
        if racecheck and racecheck[0] != 0:
            problems.append("racecheck exit %d %s" % (racecheck[0], racecheck[1]))
        record = {"id": label, "answer": answer, "ncu": ncu, "ncuStatus": ncu_status,
                  "ncuClocksFree": ncu_free,
                  "sass": {"ok": sass_ok, "promised": promised, "found": found},
                  "memcheck": memcheck, "racecheck": racecheck, "problems": problems}
        raw.write(json.dumps(record) + "\n")
        raw.flush()
        rows.append(record)
        if problems:
            failures.append(label)
        log(text, "%s %s: %s" % ("FAIL" if problems else "ok  ", label,
                                 "; ".join(problems) if problems else
                                 "%.3f ms, %.0f GB/s" % (answer["timing"]["kernelMs"]["median"],
                                                        answer["effectiveBandwidthGBs"])))
    # The table for docs/benchmarks.md.
    log(text, "")
    log(text, "| preset | ld requests (model = probe = ncu) | ld sectors | st requests | st sectors "
              "| shared wavefronts ld+st: model / probe / ncu "
              "| DRAM read: footprint / probe / ncu / ncu clocks free (sectors written in part) "
              "| L2 sectors rd from L1: model / probe / ncu | SASS | sanitizer |")
    log(text, "|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        p, c, n = r["answer"]["predicted"], r["answer"]["counters"], r["ncu"]

        def triple(m):
            values = [p.get(m), c.get(m), n.get(m)]
            if values[0] == values[1] == values[2]:
                return fmt(values[0]) + " ✓"
            return " / ".join(fmt(v) for v in values) + " ✗"

        def wave(src):
            return sum((src.get(m) or 0) for m in SHARED_WAVEFRONTS)

        fp = p.get("dram__bytes_read.sum") or 0
        free = r.get("ncuClocksFree", {})
        reads = [c.get("dram__bytes_read.sum"), n.get("dram__bytes_read.sum"),
                 free.get("dram__bytes_read.sum")]
        dram = " / ".join(fmt(v) for v in [fp] + reads)
        if fp and all(reads):
            dram += " (%s)" % ", ".join("%+.1f %%" % pct(v, fp) for v in reads)
        dram += " (%s)" % fmt(p.get("warpscope__sectors_written_in_part"))
        lts = "%s / %s / %s" % (fmt(p.get("lts__t_sectors_srcunit_tex_op_read.sum")),
                                fmt(c.get("lts__t_sectors_srcunit_tex_op_read.sum")),
                                fmt(n.get("lts__t_sectors_srcunit_tex_op_read.sum")))
        shared = "-" if not (wave(p) or wave(c) or wave(n)) else "%s / %s / %s" % (
            fmt(wave(p)), fmt(wave(c)), fmt(wave(n)))
        san = "memcheck %s" % ("clean" if r["memcheck"][0] == 0 else "exit %d" % r["memcheck"][0])
        if r["racecheck"]:
            san += ", racecheck %s" % ("clean" if r["racecheck"][0] == 0
                                       else "exit %d" % r["racecheck"][0])
        log(text, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["id"], triple(EXACT[0]), triple(EXACT[1]), triple(EXACT[2]), triple(EXACT[3]),
            shared, dram, lts, "✓" if r["sass"]["ok"] else "✗", san))
    constant_rows = [r for r in rows if CONSTANT_EXTRA in r["answer"]["predicted"]]
    if constant_rows:
        log(text, "")
        log(text, "| constant preset | distinct addresses (model) | extra requests: model / probe "
                  "/ ncu | idc__requests.sum probe / ncu | LDC instructions probe / ncu | time (ms) |")
        log(text, "|---|---|---|---|---|---|")
        for r in constant_rows:
            p, c, n = r["answer"]["predicted"], r["answer"]["counters"], r["ncu"]
            values = [p.get(CONSTANT_EXTRA), c.get(CONSTANT_EXTRA), n.get(CONSTANT_EXTRA)]
            log(text, "| %s | %s | %s %s | %s / %s | %s / %s | %.4f |" % (
                r["id"], fmt(p.get("warpscope__constant_addresses")),
                " / ".join(fmt(v) for v in values),
                "✓" if values[0] == values[1] == values[2] else "✗",
                fmt(c.get(CONSTANT[0])), fmt(n.get(CONSTANT[0])),
                fmt(c.get(CONSTANT[1])), fmt(n.get(CONSTANT[1])),
                r["answer"]["timing"]["kernelMs"]["median"]))
    kinds = [r for r in rows if kind_metrics(by_id[r["id"].split()[0]])]
    if kinds:
        log(text, "")
        log(text, "| preset | local ld requests | local ld sectors | local st requests "
                  "| local st sectors | texture requests | texture sectors "
                  "| global-load equivalent sectors (model) |")
        log(text, "|---|---|---|---|---|---|---|---|")
        for r in kinds:
            p, c, n = r["answer"]["predicted"], r["answer"]["counters"], r["ncu"]

            def cell(m):
                values = [p.get(m), c.get(m), n.get(m)]
                if all(v is None for v in values):
                    return "-"
                if values[0] == values[1] == values[2]:
                    return fmt(values[0]) + " ✓"
                return " / ".join(fmt(v) for v in values) + " ✗"

            log(text, "| %s | %s | %s |" % (
                r["id"], " | ".join(cell(m) for m in LOCAL + TEXTURE),
                fmt(p.get("warpscope__texture_global_equivalent_sectors"))))
    copies = [r for r in rows if any(m in r["answer"]["predicted"] for m in COPY)]
    if copies:
        log(text, "")
        log(text, "| launch | LDGSTS requests (model = probe = ncu) | LDGSTS sectors "
                  "| shared wavefronts (model = ncu) | bank conflicts (model = ncu) "
                  "| hardware bank conflicts, probe / ncu (at least the model's) |")
        log(text, "|---|---|---|---|---|---|")
        for r in copies:
            p, c, n = r["answer"]["predicted"], r["answer"]["counters"], r["ncu"]
            cells = []
            for m in COPY:
                values = [p.get(m)] + ([] if m in COPY_NCU_ONLY else [c.get(m)]) + [n.get(m)]
                same = all(v == values[0] for v in values)
                cells.append(fmt(values[0]) + " ✓" if same
                             else " / ".join(fmt(v) for v in values) + " ✗")
            cells.append("%s / %s" % (fmt(c.get(COPY_HW_CONFLICTS)), fmt(n.get(COPY_HW_CONFLICTS))))
            log(text, "| %s | %s |" % (r["id"], " | ".join(cells)))
    log(text, "")
    log(text, "%d kernels, %d with problems%s" % (len(jobs), len(failures),
                                                  (": " + ", ".join(failures)) if failures else ""))
    return 1 if failures else 0


# The notes' tables: (table, preset id, sweep points, which point the notes' row is).
BLOCKS_4_11 = [(32, 32), (32, 16), (32, 8), (16, 32), (16, 16), (16, 8), (8, 32), (8, 16), (8, 8)]
TABLES = [
    ("4-4 (L1 on)", ["transpose-copyrow", "transpose-copycol", "transpose-naiverow",
                     "transpose-naivecol"], [(16, 16)]),
    ("4-6 (L1 off)", ["transpose-copyrow-cg", "transpose-copycol-cg", "transpose-naiverow-cg",
                      "transpose-naivecol-cg"], [(16, 16)]),
    ("4-10 (diagonal, L1 on)", ["transpose-diagonalrow", "transpose-diagonalcol"], [(16, 16)]),
    ("4-11 (NaiveCol block shapes, L1 off)", ["transpose-naivecol-cg"], BLOCKS_4_11),
    ("4-13 (block (8, 32), L1 off)", ["transpose-copyrow-cg", "transpose-naiverow-cg",
                                      "transpose-naivecol-cg", "transpose-unroll4row-cg",
                                      "transpose-unroll4col-cg"], [(8, 32)]),
]
# The notes give two numbers for the same kernel and block in two tables; the preset lists both
# (in table order), and notes_value() finds the first.
NOTES_OVERRIDE = {
    ("4-11", "transpose-naivecol-cg", (16, 16)): 80.27,
    ("4-13", "transpose-naivecol-cg", (8, 32)): 101.99,
}
OFFSET_PRESETS = ["readsegment", "readsegment-cg", "writesegment", "readoffset", "readoffset-cg",
                  "writeoffset", "writeoffset-cg", "sumarrays", "aos-testinnerstruct",
                  "soa-testinnerarray", "transpose-tiled", "transpose-tiled-padded"]


def notes_value(preset, params):
    """The notes' bandwidth (GB/s) for this preset at these parameters, if they give one."""
    for ref in preset.get("references", []):
        if ref.get("unit") != "GB/s":
            continue
        if all(params.get(k) == v for k, v in ref.get("parameters", {}).items()):
            return ref["value"], preset.get("notesGpu", "")
    return None, preset.get("notesGpu", "")


def tables(probe, kernels_json, out_dir, runs):
    presets = {p["id"]: p for p in json.load(open(kernels_json))}
    os.makedirs(out_dir, exist_ok=True)
    text = open(os.path.join(out_dir, "kernel_tables.txt"), "w")
    raw = open(os.path.join(out_dir, "kernel_tables.jsonl"), "w")
    jobs = {}  # preset id -> list of sweep points (dicts)
    for _, ids, blocks in TABLES:
        for kid in ids:
            for bx, by in blocks:
                point = {"bx": bx, "by": by}
                if point not in jobs.setdefault(kid, []):
                    jobs[kid].append(point)
    for kid in OFFSET_PRESETS:
        if kid not in presets:
            continue
        sweeps = presets[kid].get("sweeps", [])
        offset = [s for s in sweeps if s["parameter"] in ("offset", "pad")]
        if offset:
            jobs[kid] = [{offset[0]["parameter"]: v} for v in offset[0]["values"]]
        else:
            # No sweep of its own: its first parameter at its own value, so it can be repeated.
            first = presets[kid]["kernel"]["parameters"][0]
            jobs[kid] = [{first["name"]: first["value"]}]
    results = {}  # (kid, json point) -> list of answers, one per run
    copy = []
    device = None
    for kid, points in jobs.items():
        if kid not in presets:
            log(text, "missing preset " + kid)
            continue
        # One probe process per preset: its sweep measures every point, then every point again,
        # `runs` times over (each time the median of 21 cold launches).
        repeated = points * runs
        args = [probe, "run-kernel", kid, "--json", "--no-counters"]
        names = sorted({k for p in points for k in p})
        for name in names:
            args += ["--sweep", name + "=" + ",".join(str(p[name]) for p in repeated)]
        code, out, err, seconds = run(args, timeout=400)
        if code != 0 and not out.strip():
            log(text, "%s failed (%d): %s" % (kid, code, err.strip()[-300:]))
            continue
        for index, (line, point) in enumerate(zip(out.splitlines(), repeated)):
            answer = json.loads(line)
            device = answer["device"]
            copy.append(answer["copyBandwidthGBs"])
            key = (kid, json.dumps(point, sort_keys=True))
            results.setdefault(key, []).append(answer)
            raw.write(json.dumps({"run": index // len(points), "id": kid, "point": point,
                                  "effectiveBandwidthGBs": answer["effectiveBandwidthGBs"],
                                  "kernelMs": answer["timing"]["kernelMs"],
                                  "cold": answer["timing"]["cold"],
                                  "bytesRequested": answer["bytesRequested"],
                                  "shareOfCopyBandwidthPct": answer["shareOfCopyBandwidthPct"],
                                  "copyBandwidthGBs": answer["copyBandwidthGBs"]}) + "\n")
    raw.write(json.dumps({"device": device, "runs": runs}) + "\n")
    raw.close()
    return render(kernels_json, out_dir)


def render(kernels_json, out_dir):
    """Formats kernel_tables.jsonl (written by `tables`) as the tables of docs/benchmarks.md."""
    presets = {p["id"]: p for p in json.load(open(kernels_json))}
    text = open(os.path.join(out_dir, "kernel_tables.txt"), "w")
    results = {}
    copy = []
    device, runs = None, 0
    for line in open(os.path.join(out_dir, "kernel_tables.jsonl")):
        record = json.loads(line)
        if "device" in record:
            device, runs = record["device"], record["runs"]
            continue
        copy.append(record["copyBandwidthGBs"])
        key = (record["id"], json.dumps(record["point"], sort_keys=True))
        results.setdefault(key, []).append(record)
    jobs = {}
    for kid, point in results:
        jobs.setdefault(kid, []).append(json.loads(point))
    log(text, "GPU: %s, driver %s, CUDA runtime %s; theoretical %.0f GB/s; device-to-device copy "
              "(read + write) %.0f GB/s (median of %d measurements, spread %.1f %%)" % (
                  device["name"], device["driverVersion"], device["runtimeVersion"],
                  device["theoreticalBandwidthGBs"], statistics.median(copy), len(copy),
                  100 * (max(copy) - min(copy)) / statistics.median(copy)))
    log(text, "The notes' transpose numbers: their GPU is %s." % presets.get(
        "transpose-copyrow", {}).get("notesGpu", "not named"))
    log(text, "Every number: effective bandwidth = bytes read + written by active threads / median "
              "of 21 cold launches (L2 flushed before each); %d runs (one probe process per "
              "preset measures all its points, then all again, %d times); spread = (max - min) / "
              "median of the runs' bandwidths." % (runs, runs))

    def row(kid, point):
        answers = results.get((kid, json.dumps(point, sort_keys=True)), [])
        if not answers:
            return None
        bw = [a["effectiveBandwidthGBs"] for a in answers]
        med = statistics.median(bw)
        return med, 100 * (max(bw) - min(bw)) / med, statistics.median(
            a["kernelMs"]["median"] for a in answers), statistics.median(
            a["shareOfCopyBandwidthPct"] for a in answers)

    for title, ids, blocks in TABLES:
        log(text, "")
        log(text, "Table " + title)
        log(text, "| kernel | block | time (ms) | GB/s (H100) | spread of runs | % of copy | notes' GB/s |")
        log(text, "|---|---|---|---|---|---|---|")
        for kid in ids:
            for bx, by in blocks:
                point = {"bx": bx, "by": by}
                got = row(kid, point)
                notes, gpu = notes_value(presets.get(kid, {}), point)
                notes = NOTES_OVERRIDE.get((title.split()[0], kid, (bx, by)), notes)
                if got is None:
                    log(text, "| %s | (%d, %d) | - | - | - | - | %s |" % (kid, bx, by, fmt(notes)))
                    continue
                log(text, "| %s | (%d, %d) | %.4f | %.1f | %.1f %% | %.1f %% | %s |" % (
                    kid, bx, by, got[2], got[0], got[1], got[3],
                    "%.2f" % notes if notes is not None else "-"))
    log(text, "")
    log(text, "Offsets, layouts and the tiled transpose")
    log(text, "| kernel | point | time (ms) | GB/s (H100) | spread of runs | % of copy | notes |")
    log(text, "|---|---|---|---|---|---|---|")
    for kid in OFFSET_PRESETS:
        for point in jobs.get(kid, []):
            got = row(kid, point)
            refs = [r for r in presets.get(kid, {}).get("references", [])
                    if all(point.get(k) == v for k, v in r.get("parameters", {}).items())]
            notes = "; ".join("%s %g %s" % (r["quantity"], r["value"], r.get("unit", ""))
                              for r in refs) or "-"
            label = ", ".join("%s=%d" % kv for kv in point.items()) or "-"
            if got is None:
                log(text, "| %s | %s | - | - | - | - | %s |" % (kid, label, notes))
                continue
            log(text, "| %s | %s | %.4f | %.1f | %.1f %% | %.1f %% | %s |" % (
                kid, label, got[2], got[0], got[1], got[3], notes))
    return 0


def main(argv):
    if len(argv) == 4 and argv[1] == "render":
        return render(argv[2], argv[3])
    if len(argv) < 5 or argv[1] not in ("check", "tables"):
        print(__doc__)
        return 2
    mode, probe, kernels_json, out_dir = argv[1:5]
    if mode == "check":
        return check(probe, kernels_json, out_dir, argv[5:])
    return tables(probe, kernels_json, out_dir, int(argv[5]) if len(argv) > 5 else 5)


if __name__ == "__main__":
    sys.exit(main(sys.argv))

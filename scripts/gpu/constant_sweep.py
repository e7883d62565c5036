#!/usr/bin/env python3
"""Constant memory on a GPU machine (issue 19): the notes' rule (seed 003: a warp's distinct
addresses are served one after another; one address is broadcast) against the constant cache's
counters and the kernel's time.

Usage: constant_sweep.py PROBE OUTDIR [widths]   (widths: parts 3 and 4 only)

1. sweep   `run-kernel constant-divergent --sweep distinct=1..32` (21 launches each, counters
           on): the grid model's constant-cache requests (distinct addresses, whole grid) beside
           the probe's CUPTI counters and the median time. OUTDIR/constant_sweep.jsonl, one
           {"id": "constant-divergent", "answer": ...} per point (what `warpscope
           --kernel-measurements` reads).
2. ncu     the same kernel at distinct = 1, 2, 3, 4, 8, 16, 32 (and a strided and a partial-grid
           variant) under `ncu`: idc__requests.sum and smsp__inst_executed_op_ldc_pred_on_any.sum,
           whose difference the model predicts exactly (warpscope__constant_extra_requests).
3. widths  1-, 2-, 8- and 16-byte constant loads, including lanes on distinct bytes of one word,
           through the probe's counters: what "a distinct address" is for the counter.
4. memcheck compute-sanitizer on the generated kernels of 1 to 3.
Prints a table per part; exit status 1 when a counter the model predicts differs.
"""
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nsight  # noqa: E402

IDC, LDC, EXTRA = ("idc__requests.sum", "smsp__inst_executed_op_ldc_pred_on_any.sum",
                   "warpscope__constant_extra_requests")


def run(args, timeout=300, env=None):
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=timeout, env=env)
        return done.returncode, done.stdout, done.stderr
    except subprocess.TimeoutExpired:
        return 124, "", "timed out"


def fmt(v):
    if v is None:
        return "-"
    return str(int(v)) if float(v).is_integer() else "%.4g" % v


def width_kernel(width, address, n=4096):
    return json.dumps({
        "grid": [n // 128, 1, 1], "block": [128, 1, 1],
        "buffers": [{"name": "c", "bytes": 4096}],
        "accesses": [{"label": "load c", "op": "load", "space": "constant", "width": width,
                      "buffer": "c", "address": address}]})


def main(argv):
    if len(argv) not in (3, 4) or (len(argv) == 4 and argv[3] != "widths"):
        print(__doc__)
        return 2
    probe, out_dir = argv[1], argv[2]
    only_widths = len(argv) == 4
    os.makedirs(out_dir, exist_ok=True)
    text = open(os.path.join(out_dir, "constant_check.txt"), "w")

    def log(line):
        print(line, flush=True)
        text.write(line + "\n")

    failures = 0
    _, smi, _ = run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"])
    _, nvcc, _ = run(["nvcc", "--version"])
    _, ncuv, _ = run(["ncu", "--version"])
    log("GPU: " + smi.strip() + "; " + (nvcc.strip().splitlines() or ["?"])[-1] + "; ncu " +
        (ncuv.strip().splitlines() or ["?"])[-1])
    log("date: " + time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))

    # 1. The sweep through the probe.
    if only_widths:
        return widths_and_sanitizer(probe, out_dir, log, failures)
    values = ",".join(str(d) for d in range(1, 33))
    code, out, err = run([probe, "run-kernel", "constant-divergent", "--sweep",
                          "distinct=" + values, "--json", "--repetitions", "21"], timeout=400)
    sweep = open(os.path.join(out_dir, "constant_sweep.jsonl"), "w")
    log("")
    log("| distinct addresses per warp | model: constant-cache requests (grid) | model: extra | "
        "probe: idc__requests | probe: LDC instructions | probe: extra | match | "
        "time (µs, median of 21) | spread |")
    log("|---|---|---|---|---|---|---|---|---|")
    for line in out.splitlines():
        answer = json.loads(line)
        # The form the app reads with --kernel-measurements: the preset's id and the answer.
        sweep.write(json.dumps({"id": "constant-divergent", "answer": answer}) + "\n")
        p, c = answer["predicted"], answer["counters"]
        ms = answer["timing"]["kernelMs"]
        ok = p.get(EXTRA) is not None and p.get(EXTRA) == c.get(EXTRA)
        failures += 0 if ok else 1
        log("| %d | %s | %s | %s | %s | %s | %s | %.2f | %.1f %% |" % (
            answer["parameters"]["distinct"], fmt(p.get("warpscope__constant_addresses")),
            fmt(p.get(EXTRA)), fmt(c.get(IDC)), fmt(c.get(LDC)), fmt(c.get(EXTRA)),
            "✓" if ok else "✗", ms["median"] * 1000.0, ms["spreadPct"]))
    sweep.close()
    if code != 0:
        log("sweep exit %d: %s" % (code, err.strip()[-400:]))
        failures += 1

    # 2. ncu on the same generated kernels.
    log("")
    log("| ncu: kernel | model extra | idc__requests.sum | LDC instructions | ncu extra | match |")
    log("|---|---|---|---|---|---|")
    jobs = [["--param", "distinct=%d" % d] for d in (1, 2, 3, 4, 8, 16, 32)]
    jobs += [["--param", "distinct=5", "--param", "stride=16"],
             ["--param", "distinct=7", "--param", "n=1000", "--param", "bs=96"]]
    for extra in jobs:
        code, out, err = run([probe, "run-kernel", "constant-divergent", *extra, "--json",
                              "--no-counters", "--repetitions", "1"])
        predicted = json.loads(out.splitlines()[0])["predicted"] if out.strip() else {}
        code, out, err = run(["ncu", "--metrics", IDC + "," + LDC, "--csv", "--print-units",
                              "base", "-k", "regex:warpscope_kernel", "-c", "1", probe,
                              "run-kernel", "constant-divergent", *extra, "--no-counters",
                              "--repetitions", "1"])
        got = {}
        for row in nsight.csv_rows(out):
            try:
                got[row["Metric Name"]] = nsight.metric_value(row)
            except (KeyError, ValueError):
                pass
        measured = got[IDC] - got[LDC] if IDC in got and LDC in got else None
        ok = measured is not None and measured == predicted.get(EXTRA)
        failures += 0 if ok else 1
        log("| %s | %s | %s | %s | %s | %s |" % (
            " ".join(a for a in extra if a != "--param"), fmt(predicted.get(EXTRA)),
            fmt(got.get(IDC)), fmt(got.get(LDC)), fmt(measured), "✓" if ok else "✗"))
        with open(os.path.join(out_dir, "constant_ncu.jsonl"), "a") as raw:
            raw.write(json.dumps({"args": extra, "predicted": predicted, "ncu": got}) + "\n")

    return widths_and_sanitizer(probe, out_dir, log, failures)


def widths_and_sanitizer(probe, out_dir, log, failures):
    # 3. Widths: what counts as one address.
    log("")
    log("| width | address | model: distinct addresses per warp | model extra (grid) | "
        "probe extra | match |")
    log("|---|---|---|---|---|---|")
    cases = [(1, "lane"), (1, "lane % 4"), (1, "(lane % 8) * 4"), (2, "(lane % 2) * 2"),
             (2, "lane * 2"), (4, "lane * 4"), (8, "lane * 8"), (8, "(lane % 4) * 8"),
             (16, "lane * 16"), (16, "(lane % 2) * 16")]
    widths = open(os.path.join(out_dir, "constant_widths.jsonl"), "w")
    for width, address in cases:
        code, out, err = run([probe, "run-kernel", width_kernel(width, address), "--json",
                              "--repetitions", "3"])
        if not out.strip():
            log("| %d | %s | failed: %s |" % (width, address, err.strip()[-200:]))
            failures += 1
            continue
        answer = json.loads(out.splitlines()[0])
        widths.write(json.dumps({"width": width, "address": address, "answer": answer}) + "\n")
        p, c = answer["predicted"], answer["counters"]
        per_warp = p["warpscope__constant_addresses"] / p["warpscope__constant_requests"]
        ok = p.get(EXTRA) == c.get(EXTRA)
        failures += 0 if ok else 1
        log("| %d | %s | %s | %s | %s | %s |" % (width, address, fmt(per_warp), fmt(p.get(EXTRA)),
                                                 fmt(c.get(EXTRA)), "✓" if ok else "✗"))
    widths.close()

    # 4. compute-sanitizer.
    log("")
    for label, args in [("constant-divergent", ["constant-divergent"]),
                        ("constant-broadcast", ["constant-broadcast"]),
                        ("width 16", [width_kernel(16, "(lane % 2) * 16")]),
                        ("width 1", [width_kernel(1, "lane % 4")])]:
        code, out, err = run(["compute-sanitizer", "--tool", "memcheck", "--error-exitcode", "9",
                              probe, "run-kernel", *args, "--no-counters", "--repetitions", "1"])
        summary = [l for l in (out + err).splitlines() if "ERROR SUMMARY" in l][:1]
        failures += 0 if code == 0 else 1
        log("memcheck %s: exit %d %s" % (label, code, " ".join(summary)))
    log("")
    log("%d problems" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

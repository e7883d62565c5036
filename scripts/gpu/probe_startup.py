#!/usr/bin/env python3
"""The probe's start-up as the window's warm-up drives it, on a GPU machine.

Usage: probe_startup.py PROBE OUTDIR [RUNS]
Starts PROBE RUNS times (5 by default) with WARPSCOPE_PROBE_TRACE=1 and writes, at once, what
the app writes when its window opens on a machine with a GPU (GpuRunner::warmUp): hello,
device_info and a measure of a coalesced global load reading the two counters the overlay
compares for it, with the latency (21 repetitions); then, once that is answered, a measure of
another global load (the first Run). Prints, per run and as medians, when each answer arrived
(ms since the process was started), and the medians of the traced start-up steps
(OUTDIR/startup-N.txt holds each run's trace).
"""
import json
import os
import re
import statistics
import subprocess
import sys
import time

probe_path, out_dir = sys.argv[1:3]
runs = int(sys.argv[3]) if len(sys.argv) > 3 else 5
os.makedirs(out_dir, exist_ok=True)

GLOBAL_LD = ["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
             "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]


def load(offset):
    return {"space": "global", "op": "load", "width": 4, "cache": "default",
            "addresses": [(lane + offset) * 4 for lane in range(32)]}


def measure(rid, offset):
    return {"id": rid, "op": "measure", "pattern": load(offset),
            "options": {"counterNames": GLOBAL_LD, "latency": True, "repetitions": 21}}


answers = {"hello": [], "device_info": [], "warm-up measure": [], "Run's measure": []}
steps = {}
for run in range(runs):
    trace_path = os.path.join(out_dir, f"startup-{run + 1}.txt")
    with open(trace_path, "w") as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen([probe_path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=err, text=True, bufsize=1,
                                env={**os.environ, "WARPSCOPE_PROBE_TRACE": "1"})
        for request in ({"id": 1, "op": "hello"}, {"id": 2, "op": "device_info"}, measure(3, 0)):
            proc.stdin.write(json.dumps(request) + "\n")
        proc.stdin.flush()
        names = {1: "hello", 2: "device_info", 3: "warm-up measure", 4: "Run's measure"}
        seen = {}
        while len(seen) < 4:
            line = proc.stdout.readline()
            if not line:
                raise SystemExit(f"run {run + 1}: the probe ended early (see {trace_path})")
            answer = json.loads(line)
            rid = answer.get("id")
            if rid not in names or "progress" in answer:
                continue
            seen[rid] = 1e3 * (time.perf_counter() - t0)
            if not answer.get("ok"):
                print(f"run {run + 1}: {names[rid]} failed: {json.dumps(answer)[:300]}")
            if rid == 3:
                proc.stdin.write(json.dumps(measure(4, 11)) + "\n")
                proc.stdin.flush()
        proc.stdin.write(json.dumps({"id": 5, "op": "shutdown"}) + "\n")
        proc.stdin.flush()
        proc.wait(timeout=60)
    for rid, name in names.items():
        answers[name].append(seen[rid])
    print(f"run {run + 1}: " + ", ".join(f"{names[r]} {seen[r]:.1f}" for r in sorted(seen)) +
          " ms after the start")
    for line in open(trace_path):
        m = re.match(r"trace: (.*) ([0-9.]+) ms$", line.strip())
        if m:
            steps.setdefault(m.group(1), []).append(float(m.group(2)))

print(f"\n## probe start-up, requests written at once: {runs} runs, ms since the start")
for name, values in answers.items():
    print(f"   {name:40s} median {statistics.median(values):8.1f}  min {min(values):8.1f}"
          f"  max {max(values):8.1f}")
print("## traced steps (median per run, calls per run)")
for step, values in steps.items():
    print(f"   {step:60s} {statistics.median(values):8.3f} ms  x{len(values) / runs:.1f}")

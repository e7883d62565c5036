#!/usr/bin/env python3
"""Splits the cost of the probe's requests into their steps, on a GPU machine.

Usage: probe_trace.py PROBE OUTDIR [EXPERIMENT...]
Runs PROBE with WARPSCOPE_PROBE_TRACE=1 (probe_trace.h: one stderr line per timed step) once
per experiment below, each time with its own stderr file (OUTDIR/trace-NAME.txt; its first lines
time the probe's start-up), and prints for each the request-to-answer median and, per traced
step, how often it ran per request, its median and its total per request. An experiment either
sends its requests back to back or leaves the probe idle for a while before each (as a user's
edits do), so that what the probe sets up while idle is not counted in the request.
"""
import json
import os
import re
import statistics
import subprocess
import sys
import time

probe_path, out_dir = sys.argv[1:3]
os.makedirs(out_dir, exist_ok=True)


def coalesced(i):
    return {"space": "global", "op": "load", "width": 4, "cache": "default",
            "addresses": [(l + i) * 4 for l in range(32)]}


def run(name, requests, env=None, repeat=30, gap=0.0):
    err_path = os.path.join(out_dir, f"trace-{name}.txt")
    with open(err_path, "w") as err:
        proc = subprocess.Popen([probe_path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=err, text=True, bufsize=1,
                                env={**os.environ, "WARPSCOPE_PROBE_TRACE": "1", **(env or {})})
        next_id = [1]

        def ask(op, **fields):
            rid = next_id[0]
            next_id[0] += 1
            proc.stdin.write(json.dumps({"id": rid, "op": op, **fields}) + "\n")
            proc.stdin.flush()
            while True:
                answer = json.loads(proc.stdout.readline())
                if answer.get("id") == rid and "progress" not in answer:
                    if not answer.get("ok"):
                        raise RuntimeError(json.dumps(answer))
                    return answer["result"]

        ask("device_info")
        err.flush()
        op, fields = requests(0)
        ask(op, **fields)  # warm-up
        times = []
        cold, warm = [], []
        seen = {}
        for i in range(repeat):
            if gap:
                time.sleep(gap)
            t = time.perf_counter()
            op, fields = requests(i + 1)
            result = ask(op, **fields)
            times.append(1e3 * (time.perf_counter() - t))
            if op == "measure":  # every answer for one pattern must count alike
                seen.setdefault(json.dumps(fields["pattern"], sort_keys=True), []).append(
                    result.get("counters") or {})
            for m in result.get("measurements", [result]):
                latency = m.get("latency") or {}
                if "coldCycles" in latency:
                    cold.append(latency["coldCycles"]["median"])
                    warm.append(latency["warmCycles"]["median"])
        ask("shutdown")
        proc.wait(timeout=60)
    steps = {}
    for line in open(err_path):
        m = re.match(r"trace: (.*) ([0-9.]+) ms$", line.strip())
        if m:
            steps.setdefault(m.group(1), []).append(float(m.group(2)))
    n = repeat + 1
    times.sort()
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    print(f"## {name}: request to answer p50 {statistics.median(times):.2f} ms, "
          f"p95 {p95:.2f}, min {min(times):.2f}, max {max(times):.2f}, n {len(times)}"
          + (f", {gap * 1e3:.0f} ms idle before each" if gap else ", back to back")
          + (f"; latency medians of the answers: cold {statistics.median(cold):.0f}, "
             f"warm {statistics.median(warm):.0f} cycles" if cold else ""))
    compared = differ = 0
    for answers in seen.values():
        for a in answers[1:]:
            for name in set(a) & set(answers[0]):
                compared += 1
                differ += a[name] != answers[0][name]
    if compared:
        print(f"   counters of answers for the same pattern compared: {compared}, differing: {differ}")
    for step, values in steps.items():
        print(f"   {step:40s} calls/request {len(values) / n:5.1f}  median {statistics.median(values):8.3f} ms"
              f"  sum/request {sum(values) / n:8.3f} ms")
    sys.stdout.flush()


def measure(counters, latency, repetitions):
    return lambda i: ("measure", {"pattern": coalesced(i % 7 + 11),
                                  "options": {"counters": counters, "latency": latency,
                                              "repetitions": repetitions}})


def sweep(n, latency, names=None):
    options = {"counters": True, "latency": latency, "repetitions": 21}
    if names:
        options["counterNames"] = names
    return lambda i: ("sweep", {"patterns": [coalesced((i * n + k) % 97) for k in range(n)],
                                "options": options})


# The two counters the app's overlay compares for a kind (nsightCountersFor), as it asks.
GLOBAL_LD = ["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
             "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]
GLOBAL_ST = ["l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
             "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"]
SHARED_LD = ["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
             "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"]


def named(pattern, names, repetitions=21):
    return lambda i: ("measure", {"pattern": pattern(i),
                                  "options": {"counterNames": names, "latency": True,
                                              "repetitions": repetitions}})


def store(i):
    return {**coalesced(i), "op": "store"}


def shared(i):
    return {"space": "shared", "op": "load", "width": 4,
            "addresses": [((l * (i % 3 + 1)) % 32) * 4 for l in range(32)]}


def alternating(i):
    # Every other request asks for every counter: the session is opened again each time.
    if i % 2:
        return measure(True, True, 21)(i)
    return named(coalesced, GLOBAL_LD)(i)


experiments = [
    ("both-21-idle", measure(True, True, 21), None, 30, 0.1),
    ("both-21", measure(True, True, 21), None, 30, 0.0),
    ("both-5-idle", measure(True, True, 5), None, 30, 0.1),
    ("counters-idle", measure(True, False, 21), None, 30, 0.1),
    ("latency-21", measure(False, True, 21), None, 30, 0.0),
    ("sweep-24-latency-idle", sweep(24, True), None, 10, 0.1),
    ("kind-global-ld-21-idle", named(lambda i: coalesced(i % 7 + 11), GLOBAL_LD), None, 30, 0.25),
    ("kind-global-ld-21", named(lambda i: coalesced(i % 7 + 11), GLOBAL_LD), None, 30, 0.0),
    ("kind-global-st-21-idle", named(lambda i: store(i % 7 + 11), GLOBAL_ST), None, 20, 0.25),
    ("kind-shared-ld-21-idle", named(shared, SHARED_LD), None, 20, 0.25),
    ("kind-sweep-24-global-ld-idle", sweep(24, True, GLOBAL_LD), None, 10, 0.25),
    ("alternating-all-and-global-ld-idle", alternating, None, 12, 0.4),
]
if len(sys.argv) > 3:  # only the experiments named
    experiments = [e for e in experiments if e[0] in sys.argv[3:]]
for name, requests, env, repeat, gap in experiments:
    try:
        run(name, requests, env, repeat, gap)
    except Exception as e:  # one experiment failing keeps the others
        print(f"## {name}: failed: {e}")

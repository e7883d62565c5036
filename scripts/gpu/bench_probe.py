#!/usr/bin/env python3
"""Benchmarks warpscope-probe on a GPU machine and compares its counters with Nsight Compute.

Usage: bench_probe.py PROBE REPLAY OUTDIR
  PROBE   the warpscope-probe binary
  REPLAY  the warpscope-replay binary (ncu measures the same single-warp kernel through it)
Prints a table and writes OUTDIR/bench.json. Everything is timed in this one run:
  - start-up: process start to the answer of the first device_info;
  - one pattern, request to answer with counters and latency, 30 times after start-up (p50, p90);
  - a 64-pattern sweep with counters;
  - `ncu` collecting the same eight metrics on the same kernel, end to end, 3 times;
  - the coalesced 16-byte grid load's bandwidth against the measured copy bandwidth;
  - latency medians of one pattern measured 5 times (spread of the medians);
  - counters of every pattern of a sweep against ncu's for the same patterns.
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import nsight

probe_path, replay_path, out_dir = sys.argv[1:4]
os.makedirs(out_dir, exist_ok=True)
METRICS = nsight.ACCESS_METRICS


class Probe:
    def __init__(self, path):
        self.started = time.perf_counter()
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=sys.stderr, text=True, bufsize=1)
        self.next_id = 1

    def ask(self, op, **fields):
        request = {"id": self.next_id, "op": op, **fields}
        self.next_id += 1
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"the probe closed its output during {op}")
            answer = json.loads(line)
            if answer.get("id") == request["id"] and "progress" not in answer:
                return answer

    def close(self):
        try:
            self.ask("shutdown")
        except Exception:
            pass
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def result_of(answer):
    if not answer.get("ok"):
        raise RuntimeError(json.dumps(answer.get("error")))
    return answer["result"]


def coalesced(i):
    return {"space": "global", "op": "load", "width": 4, "cache": "default",
            "addresses": [(l + i) * 4 for l in range(32)]}


patterns = [json.loads(l) for l in open("tests/data/hardware_patterns.jsonl")]
for p in patterns:
    p.pop("name")
report = {}

probe = Probe(probe_path)
info = result_of(probe.ask("device_info"))
report["startup_s"] = time.perf_counter() - probe.started
report["device"] = info

# One pattern, request to answer with counters and latency.
times = []
without_counters = []
for i in range(31):
    t = time.perf_counter()
    one = result_of(probe.ask("measure", pattern=coalesced(i % 7 + 11),
                              options={"counters": True, "latency": True, "repetitions": 5}))
    if i > 0:
        times.append(time.perf_counter() - t)
    if not one["countersMeasured"]:
        without_counters.append(one["countersUnavailableReason"])
report["one_pattern_without_counters"] = without_counters
report["one_pattern_ms_p50"] = 1e3 * statistics.median(times)
report["one_pattern_ms_p90"] = 1e3 * sorted(times)[int(0.9 * len(times))]

# A 64-pattern sweep with counters.
sweep = patterns[:64]
t = time.perf_counter()
swept = result_of(probe.ask("sweep", patterns=sweep, options={"counters": True, "latency": False}))
report["sweep64_s"] = time.perf_counter() - t
report["sweep_without_counters"] = sorted({m["countersUnavailableReason"]
                                           for m in swept["measurements"] if not m["countersMeasured"]})

# Latency repeatability: five medians of the same pattern.
cold, warm = [], []
for _ in range(5):
    r = result_of(probe.ask("measure", pattern=coalesced(0),
                            options={"counters": False, "latency": True, "repetitions": 51}))
    cold.append(r["latency"]["coldCycles"]["median"])
    warm.append(r["latency"]["warmCycles"]["median"])
report["latency_cold_medians"] = cold
report["latency_warm_medians"] = warm
report["latency_cold_spread_pct"] = 100 * (max(cold) - min(cold)) / statistics.median(cold)
report["latency_warm_spread_pct"] = 100 * (max(warm) - min(warm)) / statistics.median(warm)

# Grid bandwidth: coalesced 16-byte loads over 512 MiB.
grid_pattern = {"space": "global", "op": "load", "width": 16, "cache": "default",
                "source": {"address": "gid * 16", "active": "1", "blockDim": [256, 1, 1],
                           "gridDim": [131072, 1, 1], "warp": 0}}
grid = result_of(probe.ask("measure", pattern=grid_pattern,
                           options={"counters": False, "latency": False, "grid": True,
                                    "repetitions": 20}))["grid"]
report["grid"] = grid
report["grid_share_of_copy_pct"] = 100 * grid["effectiveBandwidthGBs"] / info["measuredCopyBandwidthGBs"]
probe.close()

# ncu on the same kernel, end to end, and its counters for the sweep's patterns.
with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
    f.write(json.dumps(coalesced(11)) + "\n")
    one = f.name
ncu_times = []
for _ in range(3):
    t = time.perf_counter()
    subprocess.run(["ncu", "--metrics", ",".join(METRICS), "--csv", "--log-file",
                    os.path.join(out_dir, "ncu-one.csv"), replay_path, one],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ncu_times.append(time.perf_counter() - t)
report["ncu_one_pattern_s_median"] = statistics.median(ncu_times)
report["speedup_vs_ncu"] = report["ncu_one_pattern_s_median"] / (report["one_pattern_ms_p50"] / 1e3)

with open(os.path.join(out_dir, "sweep.jsonl"), "w") as f:
    for p in sweep:
        f.write(json.dumps(p) + "\n")
subprocess.run(["ncu", "--metrics", ",".join(METRICS), "--csv", "--print-units", "base",
                "--log-file", os.path.join(out_dir, "ncu-sweep.csv"), replay_path,
                os.path.join(out_dir, "sweep.jsonl")],
               check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
ncu_values = {}
for row in nsight.csv_rows(open(os.path.join(out_dir, "ncu-sweep.csv")).read()):
    ncu_values.setdefault(int(row["ID"]), {})[row["Metric Name"]] = nsight.metric_value(row)
mismatches = []
for i, measured in enumerate(swept["measurements"]):
    for m in METRICS:
        if measured["counters"].get(m) != ncu_values[i][m]:
            mismatches.append((i, m, measured["counters"].get(m), ncu_values[i][m]))
report["probe_vs_ncu_patterns"] = len(sweep)
report["probe_vs_ncu_mismatches"] = mismatches[:20]
report["probe_vs_ncu_mismatch_count"] = len(mismatches)

json.dump(report, open(os.path.join(out_dir, "bench.json"), "w"), indent=2)
print(f"GPU                       {info['name']} (driver CUDA {info['driverVersion']})")
print(f"start-up to device_info   {report['startup_s']:.2f} s")
print(f"one pattern p50 / p90     {report['one_pattern_ms_p50']:.1f} / {report['one_pattern_ms_p90']:.1f} ms")
print(f"64-pattern sweep          {report['sweep64_s']:.3f} s")
print(f"ncu, one pattern          {report['ncu_one_pattern_s_median']:.2f} s  "
      f"(probe {report['speedup_vs_ncu']:.0f}x faster)")
print(f"grid 16-byte load         {grid['effectiveBandwidthGBs']:.0f} GB/s = "
      f"{report['grid_share_of_copy_pct']:.1f} % of copy {info['measuredCopyBandwidthGBs']:.0f} GB/s")
print(f"latency medians cold      {cold} spread {report['latency_cold_spread_pct']:.2f} %")
print(f"latency medians warm      {warm} spread {report['latency_warm_spread_pct']:.2f} %")
print(f"probe vs ncu              {len(sweep)} patterns, {len(mismatches)} counter mismatches")
print(f"measures without counters {len(without_counters)} {sorted(set(without_counters))[:2]}")
print(f"sweep without counters    {report['sweep_without_counters'][:2]}")

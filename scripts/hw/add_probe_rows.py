#!/usr/bin/env python3
"""Appends a set measured by warpscope-probe (probe_measure.py) to the hardware table.

Usage: add_probe_rows.py TABLE.jsonl PATTERNS.jsonl PROBE_OUT.jsonl GPU.txt
GPU.txt is `nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader` from the
same machine. The set is refused unless the GPU name, driver and compute capability equal the
table header's (the probe's counters are Nsight Compute's, docs/protocol.md), or when a pattern
name is already in the table. The header's "sets" gains the file name and "probeSets" records
that its rows came from the probe rather than from ncu.
"""
import json
import sys

table_path, patterns_path, probe_path, gpu_path = sys.argv[1:5]
lines = [json.loads(l) for l in open(table_path) if l.strip()]
header, rows = lines[0], lines[1:]
gpu_name, driver, cc = [x.strip() for x in open(gpu_path).read().strip().splitlines()[0].split(",")]
if (gpu_name, driver, cc) != (header["gpu"], header["driver"], header["computeCapability"]):
    sys.exit(f"{gpu_path}: {gpu_name}, {driver}, {cc} is not the table's machine "
             f"{header['gpu']}, {header['driver']}, {header['computeCapability']}")
probe_lines = [json.loads(l) for l in open(probe_path) if l.strip()]
device, measured = probe_lines[0], probe_lines[1:]
if device.get("name") != gpu_name or device.get("computeCapability") != cc:
    sys.exit(f"{probe_path}: measured on {device.get('name')}, not {gpu_name}")
patterns = [json.loads(l) for l in open(patterns_path) if l.strip()]
if [p["name"] for p in patterns] != [m["name"] for m in measured]:
    sys.exit(f"{probe_path} does not measure the patterns of {patterns_path}, in order")
known = {r["name"] for r in rows}
set_name = patterns_path.rsplit("/", 1)[-1]
for p in patterns:
    if p["name"] in known:
        sys.exit(f"{p['name']} is already in {table_path}")
header["sets"].append(set_name)
header.setdefault("probeSets", []).append(set_name)
header["probeMethod"] = ("sets in probeSets: warpscope-probe sweep (scripts/hw/probe_measure.py), "
                         "CUPTI counters under Nsight Compute's names, one single-warp launch each")
with open(table_path, "w") as out:
    out.write(json.dumps(header) + "\n")
    for r in rows:
        out.write(json.dumps(r) + "\n")
    for p, m in zip(patterns, measured):
        row = dict(p)
        row["measured"] = {k: int(v) if v == int(v) else v for k, v in sorted(m["counters"].items())}
        out.write(json.dumps(row) + "\n")
print(f"{len(patterns)} rows from {set_name} appended to {table_path}")

#!/usr/bin/env python3
"""Turns a measure.sh output folder into the hardware table (JSON lines).

Usage: make_table.py PATTERNS.jsonl:MEASURE_DIR [PATTERNS.jsonl:MEASURE_DIR ...] OUT.jsonl
The first line of the table is a header object naming the GPU, driver and ncu version; every other
line is one pattern with the counters Nsight Compute measured for its single launch, in the order
of the pattern files given.
"""
import csv
import io
import json
import re
import sys

*inputs, out_path = sys.argv[1:]


def read_set(patterns_path, measure_dir):
    patterns = [json.loads(l) for l in open(patterns_path) if l.strip()]
    text = open(f"{measure_dir}/ncu.csv").read()
    start = text.find('"ID"')
    if start < 0:
        sys.exit("no CSV header in ncu.csv")
    rows = list(csv.DictReader(io.StringIO(text[start:])))
    by_id = {}
    for row in rows:
        value = row["Metric Value"].replace(",", "")
        if value == "n/a":
            continue
        by_id.setdefault(int(row["ID"]), {})[row["Metric Name"]] = float(value)
    if len(by_id) != len(patterns):
        sys.exit(f"{len(by_id)} profiled launches for {len(patterns)} patterns")

    gpu_line = open(f"{measure_dir}/gpu.txt").read().strip().splitlines()[0]
    ncu_text = open(f"{measure_dir}/ncu-version.txt").read()
    ncu_version = re.search(r"Version\s+(\S+)", ncu_text)
    machine = [part.strip() for part in gpu_line.split(",")]
    machine.append(ncu_version.group(1) if ncu_version else "unknown")
    measured = [{k: int(v) if v == int(v) else v for k, v in sorted(by_id[i].items())}
                for i in range(len(patterns))]
    return patterns, measured, machine


sets = [read_set(*item.split(":", 1)) for item in inputs]
machines = {tuple(machine) for _, _, machine in sets}
if len(machines) != 1:
    sys.exit(f"the sets were measured on different machines or tools: {machines}")
gpu_name, driver, cc, ncu = machines.pop()
header = {
    "format": "warpscope-hardware-table",
    "version": 1,
    "gpu": gpu_name,
    "computeCapability": cc,
    "driver": driver,
    "ncu": ncu,
    "method": "one single-warp launch per pattern (kernels/cuda/replay_kernels.cu), "
              "ncu --cache-control all --clock-control none",
    "sets": [item.split(":", 1)[0].rsplit("/", 1)[-1] for item in inputs],
}
count = 0
with open(out_path, "w") as out:
    out.write(json.dumps(header) + "\n")
    for patterns, measured, _ in sets:
        for pattern, values in zip(patterns, measured):
            row = dict(pattern)
            row["measured"] = values
            out.write(json.dumps(row) + "\n")
            count += 1
print(f"{count} rows written to {out_path}")

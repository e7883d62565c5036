#!/usr/bin/env python3
"""Joins an ldmatrix / stmatrix pattern set and its measure_ldmatrix.sh counters into a table.

Usage: make_ldmatrix_table.py PATTERNS.jsonl MEASURE_DIR OUT.jsonl
The first line of OUT is a header naming the GPU, driver, compute capability and the Nsight Compute
and compute-sanitizer versions (from MEASURE_DIR/info.txt); every other line is one pattern with
the counters ncu measured for its single launch ("measured"). Prints only the row count, so a
held-out set's numbers are read when the model's test reads them.
"""
import csv
import io
import json
import re
import sys

patterns_path, measure_dir, out_path = sys.argv[1:]
patterns = [json.loads(l) for l in open(patterns_path) if l.strip()]
base = patterns_path.rsplit("/", 1)[-1].removesuffix(".jsonl")
text = open(f"{measure_dir}/ncu-{base}.csv").read()
start = text.find('"ID"')
if start < 0:
    sys.exit(f"no CSV header in ncu-{base}.csv")
by_id = {}
for row in csv.DictReader(io.StringIO(text[start:])):
    value = row["Metric Value"].replace(",", "")
    if value != "n/a":
        by_id.setdefault(int(row["ID"]), {})[row["Metric Name"]] = float(value)
if len(by_id) != len(patterns):
    sys.exit(f"{len(by_id)} profiled launches for {len(patterns)} patterns")

info = open(f"{measure_dir}/info.txt").read()
gpu, driver, cc = [part.strip() for part in info.splitlines()[0].split(",")]
versions = re.findall(r"Version\s+(\S+)", info)
sanitizer = open(f"{measure_dir}/sanitizer.txt").read()
memcheck = re.findall(r"memcheck \S+ exit: (\d+)", sanitizer)
header = {
    "format": "warpscope-ldmatrix-table",
    "version": 1,
    "gpu": gpu,
    "computeCapability": cc,
    "driver": driver,
    "ncu": versions[0] if versions else "unknown",
    "computeSanitizer": versions[1] if len(versions) > 1 else "unknown",
    "memcheckClean": bool(memcheck) and all(code == "0" for code in memcheck),
    "method": "one single-warp launch per pattern (kernels/tools/ldmatrix_replay.cu, nvcc "
              "-arch=sm_90), ncu --cache-control all --clock-control none "
              "(scripts/hw/measure_ldmatrix.sh)",
    "set": f"{base}.jsonl",
}
with open(out_path, "w") as out:
    out.write(json.dumps(header) + "\n")
    for i, pattern in enumerate(patterns):
        row = dict(pattern)
        row["measured"] = {k: int(v) if v == int(v) else v for k, v in sorted(by_id[i].items())}
        out.write(json.dumps(row) + "\n")
print(f"{len(patterns)} rows written to {out_path}")

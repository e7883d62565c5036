#!/usr/bin/env python3
"""Measures a pattern file with warpscope-probe (one `sweep`, counters only) on a GPU machine.

Usage: probe_measure.py PROBE PATTERNS.jsonl OUT.jsonl
OUT's first line is the probe's device_info; every other line is {"name", "counters"} for one
pattern, in the order of PATTERNS. The probe's counters are Nsight Compute's (docs/protocol.md);
make_table.py turns OUT into hardware-table rows. Prints only how many patterns were measured, so
a held-out set's numbers are not seen before they are read on purpose.
"""
import json
import subprocess
import sys

probe, patterns_path, out_path = sys.argv[1:4]
patterns = [json.loads(l) for l in open(patterns_path) if l.strip()]
bare = []
for p in patterns:
    bare.append({"title": p["name"], "space": p["space"], "op": p["op"], "width": p["width"],
                 "cache": p.get("cache", "default"), "addresses": p["addresses"]})
requests = [
    {"id": 1, "op": "device_info"},
    {"id": 2, "op": "sweep", "patterns": bare, "options": {"latency": False, "counters": True}},
    {"id": 3, "op": "shutdown"},
]
text = "".join(json.dumps(r) + "\n" for r in requests)
done = subprocess.run([probe, "serve"], input=text, capture_output=True, text=True, timeout=500)
answers = {}
for line in done.stdout.splitlines():
    msg = json.loads(line)
    if "ok" in msg:
        answers[msg["id"]] = msg
for rid in (1, 2):
    if not answers.get(rid, {}).get("ok"):
        sys.exit(f"probe request {rid} failed: {answers.get(rid)}\n{done.stderr[-2000:]}")
measurements = answers[2]["result"]["measurements"]
if len(measurements) != len(patterns):
    sys.exit(f"{len(measurements)} measurements for {len(patterns)} patterns")
with open(out_path, "w") as out:
    out.write(json.dumps(answers[1]["result"]) + "\n")
    for p, m in zip(patterns, measurements):
        if not m.get("countersMeasured"):
            sys.exit(f"{p['name']}: counters not measured: {m.get('countersUnavailableReason')}")
        out.write(json.dumps({"name": p["name"], "counters": m["counters"]}) + "\n")
print(f"{patterns_path}: {len(patterns)} patterns measured by the probe")

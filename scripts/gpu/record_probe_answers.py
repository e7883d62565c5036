#!/usr/bin/env python3
"""Records warpscope-probe's answers for a few presets on a GPU machine, for the app's overlay tests.

Usage: record_probe_answers.py PROBE OUT.jsonl
Writes one header line {"device": <device_info result>, "driver": <nvidia-smi driver>,
"date": ..., "probe": <hello result>} and then one line {"preset": id, "result": <measure result>}
per preset, measured with counters, latency and (for presets with an expression) the grid run.
The answers are the probe's own, unedited; tests/data/probe_answers_h100.jsonl came from this.
"""
import datetime
import json
import subprocess
import sys

PRESETS = [
    "readsegment-offset-0", "readsegment-offset-11", "readsegment-offset-128", "cached-scattered",
    "store-three-segments", "writesegment-offset-11", "stride-2", "aos-read-x", "soa-read-x",
    "transpose-column-read", "shared-tile-row", "shared-tile-column", "shared-tile-column-padded",
    "shared-tile-column-swizzled", "shared-broadcast", "bank-offset-1",
]

probe_path, out_path = sys.argv[1:3]
presets = {p["id"]: p for p in json.load(open("resources/presets.json"))}
probe = subprocess.Popen([probe_path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
next_id = 0


def ask(request):
    global next_id
    next_id += 1
    request["id"] = next_id
    probe.stdin.write(json.dumps(request) + "\n")
    probe.stdin.flush()
    while True:
        line = json.loads(probe.stdout.readline())
        if line.get("id") == next_id and "ok" in line:
            if not line["ok"]:
                raise SystemExit(f"probe error for {request}: {line['error']}")
            return line["result"]


hello = ask({"op": "hello"})
device = ask({"op": "device_info"})
driver = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                        capture_output=True, text=True).stdout.strip()
with open(out_path, "w") as out:
    out.write(json.dumps({"device": device, "driver": driver,
                          "date": datetime.datetime.now(datetime.timezone.utc).isoformat(),
                          "probe": hello}) + "\n")
    for preset in PRESETS:
        pattern = presets[preset]["pattern"]
        grid = "source" in pattern and pattern["space"] == "global"
        result = ask({"op": "measure", "pattern": pattern,
                      "options": {"counters": True, "latency": True, "grid": grid}})
        out.write(json.dumps({"preset": preset, "result": result}) + "\n")
        print(preset, {k: v for k, v in result["counters"].items() if v},
              result.get("latency", {}).get("warmCycles", {}).get("median"),
              result.get("grid", {}).get("effectiveBandwidthGBs"))
ask({"op": "shutdown"})

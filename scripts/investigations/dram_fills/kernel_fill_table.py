#!/usr/bin/env python3
"""The grid model's L2 fills against kernel_fill.py's measurements of the designed kernels.

Usage: kernel_fill_table.py CLI KERNEL_FILL_JSONL [KERNELS_DIR]

CLI               warpscope-cli (predict-kernel gives the model's fills; no GPU needed)
KERNEL_FILL_JSONL kernel_fill.py's raw output (tests/data/kernel_fill_h100.jsonl)
KERNELS_DIR       where fill_half.json and fill_pair.json are (default: next to this script)

Prints a markdown table: per point, DRAM bytes read / output bytes as predicted (the kernels
read nothing, so every byte is a fill) and as ncu measured it (two launches, --cache-control
all) and the probe (CUPTI, cold), and the largest difference.
"""
import json
import os
import subprocess
import sys

MIB = 1 << 20


def window(size):
    if size >= MIB:
        return "%d MiB" % (size // MIB)
    return "%d KiB" % (size // 1024) if size >= 1024 else "%d B" % size


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    cli, raw = argv[1], argv[2]
    kernels_dir = argv[3] if len(argv) > 3 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "kernels")
    ncu, probe = {}, {}
    for line in open(raw):
        r = json.loads(line)
        if r.get("kind") not in ("ncu", "probe"):
            continue
        sweeps = {}
        extra = r.get("extra", [])
        for i in range(0, len(extra) - 1, 2):
            name, values = extra[i + 1].split("=")
            sweeps[name] = [int(v) for v in values.split(",")]
        points = list(zip(*[sweeps[k] for k in sorted(sweeps, reverse=True)]))
        if r["kind"] == "ncu":
            for i, point in enumerate(points):
                ncu[(r["label"], point)] = [g.get("dram__bytes_read.sum")
                                            for g in r["launches"][2 * i:2 * i + 2]]
        else:
            for i, point in enumerate(points):
                if i < len(r["answers"]) and r["answers"][i].get("counters"):
                    probe[(r["label"], point)] = r["answers"][i]["counters"].get(
                        "dram__bytes_read.sum")
    keys = sorted(ncu, key=lambda k: (k[0], k[1]))
    lines = []
    for name, point in keys:
        kernel = json.load(open(os.path.join(kernels_dir, name + ".json")))
        for i, value in enumerate(point):
            kernel["parameters"][i]["value"] = value
        lines.append(json.dumps(kernel))
    out = subprocess.run([cli, "predict-kernel"], input="\n".join(lines) + "\n",
                         capture_output=True, text=True, check=True).stdout
    predicted = [json.loads(line)["metrics"] for line in out.splitlines()]
    print("| kernel | output | d (warps) | sectors open between the halves | predicted | ncu "
          "(2 launches) | probe, cold | largest difference |")
    print("|---|---|---|---|---|---|---|---|")
    worst = 0.0
    for (name, point), m in zip(keys, predicted):
        size = point[0] * 32
        d = point[1] if len(point) > 1 else None
        pred = m["dram__bytes_read.sum"] / size
        measured = [v / size for v in ncu[(name, point)] if v is not None]
        if (name, point) in probe and probe[(name, point)] is not None:
            measured.append(probe[(name, point)] / size)
        diff = max((abs(v - pred) for v in measured), default=0.0)
        worst = max(worst, diff)
        print("| %s | %d MiB | %s | %s | %.3f | %s | %s | %.3f |" % (
            name, size // MIB, "-" if d is None else d,
            "never completed" if d is None else window(d * 256), pred,
            " / ".join("%.3f" % (v / size) for v in ncu[(name, point)] if v is not None),
            "-" if probe.get((name, point)) is None else "%.3f" % (probe[(name, point)] / size),
            diff))
    print()
    print("DRAM read as a share of the output buffer; largest difference over all points: "
          "%.3f of the output" % worst)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""The cold DRAM read of every kernel preset against the grid model: its prediction (the
footprint, plus the L2 fills its rule predicts for sectors written in part, docs/models.md), the
footprint alone and the sectors written in part, beside the probe's and ncu's measurements.

Usage: kernel_dram_table.py CLI KERNELS_JSON CHECK_JSONL DRAM_JSONL

CLI          warpscope-cli (its predict-kernel gives the model's numbers, here, no GPU needed)
KERNELS_JSON resources/kernels.json
CHECK_JSONL  kernel_check.py check's raw output (the probe's CUPTI counters of one cold launch,
             and ncu with its default --clock-control base)
DRAM_JSONL   kernel_dram.py's raw output (ncu --cache-control all, --clock-control base and
             none, two launches each)

Prints a markdown table and a verdict per preset: "ok" when every measured DRAM read is within
5 % of the prediction; otherwise whether the kernel writes sectors in part, and the extra reads as
a share of those sectors' bytes.
"""
import json
import subprocess
import sys


def model(cli, presets):
    lines = "".join(json.dumps(p["kernel"]) + "\n" for p in presets)
    out = subprocess.run([cli, "predict-kernel"], input=lines, capture_output=True, text=True,
                         check=True).stdout
    return [json.loads(line)["metrics"] for line in out.splitlines()]


def main(argv):
    if len(argv) != 5:
        print(__doc__)
        return 2
    cli, kernels_json, check_jsonl, dram_jsonl = argv[1:]
    presets = json.load(open(kernels_json))
    predicted = dict(zip((p["id"] for p in presets), model(cli, presets)))
    probe, ncu_check = {}, {}
    for line in open(check_jsonl):
        r = json.loads(line)
        probe[r["id"]] = r["answer"]["counters"].get("dram__bytes_read.sum")
        ncu_check[r["id"]] = r["ncu"].get("dram__bytes_read.sum")
    ncu = {}
    for line in open(dram_jsonl):
        r = json.loads(line)
        if r.get("kind") == "ncu" and r.get("label") == "preset":
            ncu.setdefault(r["kernel"], {})[r["clock"]] = [
                g.get("dram__bytes_read.sum") for g in r["launches"]]
    print("| preset | predicted (bytes) | of it fills | footprint | written in part (bytes) "
          "| probe, cold (CUPTI) | ncu, clocks base | ncu, clocks base (2nd run) "
          "| ncu, clocks free | verdict |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    failing = []
    for p in presets:
        kid = p["id"]
        m = predicted[kid]
        fp = m["dram__bytes_read.sum"]
        fills = 32 * m.get("warpscope__sectors_filled", 0)
        footprint = m.get("warpscope__footprint_bytes_read", fp)
        part = 32 * m["warpscope__sectors_written_in_part"]
        measured = [("probe", probe.get(kid)), ("ncu base", ncu_check.get(kid))]
        measured += [("ncu base", v) for v in ncu.get(kid, {}).get("base", [])]
        measured += [("ncu none", v) for v in ncu.get(kid, {}).get("none", [])]
        values = [v for _, v in measured if v is not None]

        def cell(v):
            return "-" if v is None else "%+.1f %%" % (100.0 * (v - fp) / fp)

        def cells(vs):
            return " / ".join(cell(v) for v in vs) or "-"

        worst = max((abs(v - fp) / fp for v in values), default=0.0)
        if worst <= 0.05:
            verdict = "ok (within %.1f %%)" % (100 * worst)
        else:
            failing.append(kid)
            extra = max(values) - fp
            verdict = ("over 5 %%: writes %s sectors in part; the largest extra read is %.1f %% "
                       "of their bytes" % (format(part // 32, ","), 100.0 * extra / part)
                       if part else "over 5 % with no sector written in part")
        print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            kid, format(int(fp), ","), format(int(fills), ","), format(int(footprint), ","),
            format(int(part), ","), cell(probe.get(kid)),
            cell(ncu_check.get(kid)), cells(ncu.get(kid, {}).get("base", [])),
            cells(ncu.get(kid, {}).get("none", [])), verdict))
    print()
    in_part = [p["id"] for p in presets if predicted[p["id"]]["warpscope__sectors_written_in_part"]]
    print("%d presets; %d write sectors in part: %s" % (len(presets), len(in_part),
                                                        ", ".join(in_part) or "none"))
    print("over 5 %% of the prediction in some measurement: %s" % (", ".join(failing) or "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

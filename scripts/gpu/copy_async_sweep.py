#!/usr/bin/env python3
"""Async copies over the element size on a GPU machine (issue 19): how much of the notes' "best
performance is achieved when using asynchronous copies with an element of size 8 or 16 bytes"
holds on this GPU.

Usage: copy_async_sweep.py PROBE OUTDIR [RUNS] [N_BYTES]

For w = 4, 8, 16 bytes, the presets copyasync-width (cp.async.ca, SASS LDGSTS, no staging
register) and copyasync-width-staged (the notes' synchronous version: ld.global into a register,
then st.shared) copy N_BYTES (default 2^28) from global memory into shared tiles. Each of RUNS
(default 5) probe processes sweeps w and measures every point: the median of 21 cold launches
(caches flushed before each) and the CUPTI counters of one more cold launch. Prints a table (the
median over the runs, their spread) and writes OUTDIR/copy_async_sweep.jsonl (every answer) and
OUTDIR/copy_async_sweep.txt. scripts/copy-async-figure.py draws the figure from the .jsonl.
"""
import json
import os
import statistics
import subprocess
import sys
import time

PRESETS = ["copyasync-width", "copyasync-width-staged"]
WIDTHS = [4, 8, 16]
COUNTERS = [
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts_cache_access.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum",
    "dram__bytes_read.sum",
]


def main():
    probe, out_dir = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    n = int(sys.argv[4]) if len(sys.argv) > 4 else 1 << 28
    os.makedirs(out_dir, exist_ok=True)
    raw = open(os.path.join(out_dir, "copy_async_sweep.jsonl"), "w")
    text = open(os.path.join(out_dir, "copy_async_sweep.txt"), "w")

    def log(line):
        print(line, flush=True)
        text.write(line + "\n")

    smi = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                         capture_output=True, text=True).stdout.strip()
    log("GPU: %s; %s UTC; n = %d bytes, %d runs" % (smi, time.strftime("%Y-%m-%d %H:%M",
                                                                        time.gmtime()), n, runs))
    times = {}  # (preset, w) -> [median ms per run]
    last = {}
    for run in range(runs):
        for preset in PRESETS:
            args = [probe, "run-kernel", preset, "--json", "--repetitions", "21", "--param",
                    "n=%d" % n, "--sweep", "w=" + ",".join(str(w) for w in WIDTHS)]
            done = subprocess.run(args, capture_output=True, text=True, timeout=300)
            lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
            if len(lines) != len(WIDTHS):
                log("FAIL %s run %d: exit %d %s" % (preset, run, done.returncode,
                                                    done.stderr.strip()[-300:]))
                return 1
            for w, line in zip(WIDTHS, lines):
                answer = json.loads(line)
                raw.write(json.dumps({"preset": preset, "w": w, "run": run, "n": n,
                                      "answer": answer}) + "\n")
                times.setdefault((preset, w), []).append(answer["timing"]["kernelMs"]["median"])
                last[(preset, w)] = answer
    log("")
    log("| kernel | w (bytes) | time, median of %d runs (ms) | spread of runs | GB/s | "
        "LDG/LDGSTS requests | sectors | STS wavefronts | LDGSTS bank conflicts | DRAM read (MB) |"
        % runs)
    log("|---|---|---|---|---|---|---|---|---|---|")
    for preset in PRESETS:
        for w in WIDTHS:
            ms = times[(preset, w)]
            med = statistics.median(ms)
            spread = 100.0 * (max(ms) - min(ms)) / med
            c = last[(preset, w)]["counters"]
            log("| %s | %d | %.4f | %.1f %% | %.0f | %s | %s | %s | %s | %.1f |" % (
                preset, w, med, spread, n / (med * 1e-3) / 1e9,
                int(c.get(COUNTERS[0], -1)), int(c.get(COUNTERS[1], -1)),
                int(c.get(COUNTERS[3], -1)), int(c.get(COUNTERS[4], 0)),
                c.get(COUNTERS[5], 0) / 1e6))
    log("")
    for w in WIDTHS:
        a = statistics.median(times[(PRESETS[0], w)])
        s = statistics.median(times[(PRESETS[1], w)])
        base = statistics.median(times[(PRESETS[0], 4)])
        log("w = %2d: async %.4f ms (%.2fx the 4-byte async copy's speed), staged %.4f ms; "
            "async / staged time %.3f" % (w, a, base / a, s, a / s))
    return 0


if __name__ == "__main__":
    sys.exit(main())

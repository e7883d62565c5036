"""What the GPU scripts (bench_probe.py, kernel_check.py; kernel_dram.py and kernel_cold_state.py
in scripts/investigations/dram_fills) share: the access counters warpscope predicts and the probe reports, reading `ncu --csv` output,
running a command with a time limit, and logging to a text file and a JSON-lines file."""
import csv
import io
import json
import os
import subprocess
import time

# The counters of one access, in the order of nsightCounterNames() (core/src/metrics.cpp).
ACCESS_METRICS = [
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
]


def csv_rows(text):
    """The rows of `ncu --csv` output; what comes before the "ID" header is ncu's own log."""
    start = text.find('"ID"')
    if start < 0:
        return []
    return list(csv.DictReader(io.StringIO(text[start:])))


def metric_value(row):
    """A row's "Metric Value" as a number (ncu may group digits with commas)."""
    return float(row["Metric Value"].replace(",", ""))


def run(args, timeout):
    """Runs a command: (exit status, stdout, stderr, seconds); 124 and a note when it timed out."""
    started = time.perf_counter()
    try:
        done = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
        return done.returncode, done.stdout, done.stderr, time.perf_counter() - started
    except subprocess.TimeoutExpired:
        return 124, "", "timed out after %d s" % timeout, time.perf_counter() - started


class Log:
    """Prints each line and keeps it in OUT_DIR/NAME.txt; `record` appends a JSON line to
    OUT_DIR/NAME.jsonl with the seconds since `started` (a time.perf_counter() value)."""

    def __init__(self, out_dir, name, started):
        self.started = started
        self.text = open(os.path.join(out_dir, name + ".txt"), "w")
        self.raw = open(os.path.join(out_dir, name + ".jsonl"), "w")

    def __call__(self, line):
        print(line, flush=True)
        self.text.write(line + "\n")
        self.text.flush()

    def record(self, **fields):
        fields["t"] = round(time.perf_counter() - self.started, 1)
        self.raw.write(json.dumps(fields) + "\n")
        self.raw.flush()

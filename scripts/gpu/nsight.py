"""What the GPU scripts (bench_probe.py, kernel_check.py) share about Nsight Compute: the access
counters warpscope predicts and the probe reports, and reading `ncu --csv` output."""
import csv
import io

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

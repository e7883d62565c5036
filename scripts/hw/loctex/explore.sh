#!/usr/bin/env bash
# Issue 19, on the GPU machine: compiles explore.cu, shows where the local array lives
# (-Xptxas -v, SASS), the ncu metrics for local and texture memory, and measures them.
# Usage (from this folder): ./explore.sh OUTDIR
set -u
out=${1:-${OUT:-/tmp/loctex}}
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv >"$out/machine.txt"
nvcc --version | tail -2 >>"$out/machine.txt"
ncu --version | tail -1 >>"$out/machine.txt"
nvcc -O3 -arch=sm_90 -Xptxas -v -o "$out/explore" explore.cu >"$out/ptxas.txt" 2>&1
cuobjdump -sass "$out/explore" | grep -E "Function|LDL|STL|TEX|LDG" >"$out/sass.txt"
ncu --query-metrics --chip gh100 2>/dev/null | grep -E "^(l1tex__t_(requests|sectors)_pipe_(lsu_mem_local|tex)|l1tex__t_sectors_pipe_tex|l1tex__m_|l1tex__f_|l1tex__t_set|l1tex__texin|l1tex__data_pipe_tex)" >"$out/query.txt"
ncu --query-metrics-mode suffix --metrics l1tex__t_sectors_pipe_tex_mem_texture,l1tex__t_requests_pipe_tex_mem_texture,l1tex__t_requests_pipe_lsu_mem_local_op_ld --chip gh100 >>"$out/query.txt" 2>&1
M=l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_local_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum,l1tex__t_requests_pipe_tex_mem_texture.sum,l1tex__t_sectors_pipe_tex_mem_texture.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_tex_mem_texture_op_tex.sum,l1tex__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,smsp__inst_executed_op_texture.sum,l1tex__texin_requests_mem_texture.sum
ncu --csv --metrics "$M" "$out/explore" all >"$out/ncu.csv" 2>"$out/ncu.err"
python3 - "$out" <<'PY'
import csv, io, sys, collections
out = sys.argv[1]
text = open(out + "/ncu.csv").read()
rows = list(csv.DictReader(io.StringIO(text[text.find('"ID"'):])))
k = collections.OrderedDict()
for r in rows:
    key = (int(r["ID"]), r["Kernel Name"])
    k.setdefault(key, {})[r["Metric Name"]] = r["Metric Value"]
with open(out + "/table.txt", "w") as f:
    for (i, name), m in k.items():
        short = {n.replace("l1tex__t_", "").replace(".sum", ""): v for n, v in m.items() if v not in ("0", "0.00")}
        line = "%3d %-40s %s" % (i, name[:40], " ".join("%s=%s" % kv for kv in short.items()))
        print(line); f.write(line + "\n")
PY

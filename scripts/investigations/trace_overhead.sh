#!/usr/bin/env bash
# Benchmark (not a test): what tracing costs. Wall time of the traced launch and of the whole
# program against an untraced run, for the notes' readOffset over 2^24 floats (trace_overhead.cu,
# ten launches) with one warp selected and with `--warps sample:256`, the traced launch first or
# fifth, and for the PyTorch program (trace_torch.py). Launches that are not traced show whether
# such kernels run at native speed. Prints a Markdown table (also OUT/overhead.md).
#   scripts/investigations/trace_overhead.sh CARRY OUT     (on the GPU machine, from the repository root)
# CARRY holds trace_overhead (nvcc -O2 -arch=sm_90 scripts/investigations/trace_overhead.cu), trace_torch.py,
# warpscope-trace and the tracer's sources (trace_build.sh builds the rest).
set -u
carry=$(realpath "${1:?CARRY}")
out=$(realpath -m "${2:?OUT}")
mkdir -p "$out"
build=/tmp/warpscope-trace-build
here=$(dirname "$(realpath "$0")")
log=$out/log.txt
runs=${RUNS:-3}
if [ ! -s "$build/libwarpscope-trace-inject.so" ] || [ ! -x "$build/warpscope-trace" ]; then
    "$here/../gpu/trace_build.sh" "$carry" "$build" "$out" || { tail -c 6000 "$log"; exit 1; }
fi
program=$carry/trace_overhead
chmod +x "$program"
n=16777216
# timed NAME RUN COMMAND...: one line of OUT/NAME.jsonl per run, the program's JSON line with the
# whole program's wall time added.
timed() {
    local name=$1 run=$2
    shift 2
    local t0=$(date +%s.%N)
    local line
    line=$(timeout -k 5 120 "$@" </dev/null 2>>"$out/$name.messages.txt" | tail -1)
    local t1=$(date +%s.%N)
    python3 -c 'import json,sys; d=json.loads(sys.argv[1] or "{}"); d["wall_s"]=float(sys.argv[2]); d["run"]=int(sys.argv[3]); print(json.dumps(d))' \
        "$line" "$(awk "BEGIN{print $t1 - $t0}")" "$run" >>"$out/$name.jsonl"
    echo "$name run $run: $line" >>"$log"
}
tracer=$build/warpscope-trace
for run in $(seq 1 "$runs"); do
    timed readoffset_native "$run" "$program" $n 10
    timed readoffset_one_warp "$run" "$tracer" --kernel readOffset --warps 0:0 -o /tmp/o1.wstrace -- "$program" $n 10
    timed readoffset_sample256 "$run" "$tracer" --kernel readOffset --warps sample:256 -o /tmp/o2.wstrace -- "$program" $n 10
    timed readoffset_one_warp_launch5 "$run" "$tracer" --kernel readOffset --launch 5 --warps 0:0 -o /tmp/o3.wstrace -- "$program" $n 10
done
for run in 1 2; do
    timed torch_native "$run" python3 "$carry/trace_torch.py"
done
timed torch_one_warp 1 "$tracer" --kernel vectorized_elementwise_kernel --warps 0:0 -o /tmp/t1.wstrace -- python3 "$carry/trace_torch.py"
timed torch_sample256 1 "$tracer" --kernel vectorized_elementwise_kernel --warps sample:256 -o /tmp/t2.wstrace -- python3 "$carry/trace_torch.py"
python3 - "$out" >"$out/overhead.md" <<'PY'
import json, statistics, sys, os
out = sys.argv[1]
def load(name):
    path = os.path.join(out, name + ".jsonl")
    return [json.loads(l) for l in open(path)] if os.path.exists(path) else []
def med(values):
    return statistics.median(values) if values else float("nan")
rows = [("readoffset_native", "readOffset 2^24, untraced", None),
        ("readoffset_one_warp", "the same, `--warps 0:0`, launch 1 traced", 0),
        ("readoffset_sample256", "the same, `--warps sample:256`, launch 1 traced", 0),
        ("readoffset_one_warp_launch5", "the same, `--warps 0:0 --launch 5`", 4)]
print("| run | traced launch: GPU / host ms | next launch ms | other launches ms (median) | whole program s |")
print("| --- | --- | --- | --- | --- |")
for name, label, traced in rows:
    runs = [r for r in load(name) if "launch_ms" in r]
    if not runs:
        print(f"| {label} | failed | | | |"); continue
    t = 0 if traced is None else traced
    gpu = med([r["launch_ms"][t] for r in runs]); host = med([r["launch_wall_ms"][t] for r in runs])
    nxt = med([r["launch_ms"][t + 1] for r in runs])
    others = med([x for r in runs for i, x in enumerate(r["launch_ms"]) if i not in (t, t + 1)])
    wall = med([r["wall_s"] for r in runs])
    first = "" if traced is not None else " (first launch, untraced)"
    print(f"| {label} | {gpu:.3f} / {host:.3f}{first} | {nxt:.3f} | {others:.4f} | {wall:.2f} |")
for name, label in [("torch_native", "PyTorch program, untraced"),
                    ("torch_one_warp", "PyTorch, `x * 2` traced, `--warps 0:0`"),
                    ("torch_sample256", "PyTorch, `x * 2` traced, `--warps sample:256`")]:
    runs = [r for r in load(name) if "ops_seconds" in r]
    if not runs:
        print(f"| {label} | failed | | | |"); continue
    ops = med([r["ops_seconds"] for r in runs]) * 1000
    wall = med([r["wall_s"] for r in runs])
    print(f"| {label} | both ops: {ops:.2f} ms | | | {wall:.2f} |")
print(f"\nreadOffset: median of {len(load('readoffset_native'))} runs each; PyTorch: median of the runs listed in OUT/*.jsonl.")
PY
cat "$out/overhead.md"

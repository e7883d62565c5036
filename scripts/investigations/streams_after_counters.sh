#!/usr/bin/env bash
# On a GPU machine: the app's order of requests in one probe process: a pattern measured with
# hardware counters (CUPTI's range profiler), then measure_streams (CUPTI's activity records for
# the timeline), then the pattern again, to show that the two CUPTI uses live in one process: the
# streams answer's timelineSource and the counters of both measurements.
# Run from a folder holding bin/warpscope-probe. Usage: streams_after_counters.sh OUTDIR
set -u
out=${1:-${OUT:-/tmp/warpscope-streams-serve}}
mkdir -p "$out"
for dir in /usr/local/cuda/targets/x86_64-linux/lib /usr/local/cuda-13.0/targets/x86_64-linux/lib \
           /usr/local/cuda/extras/CUPTI/lib64; do
    [ -d "$dir" ] && export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$dir
done
pattern='{"space": "global", "op": "load", "width": 4, "cache": "cg", "source": {"address": "(lane + 11) * 4"}}'
{
    echo "{\"id\": 1, \"op\": \"measure\", \"pattern\": $pattern, \"options\": {\"latency\": false}}"
    echo '{"id": 2, "op": "measure_streams", "options": {"streams": [1, 4], "repetitions": 3}}'
    echo "{\"id\": 3, \"op\": \"measure\", \"pattern\": $pattern, \"options\": {\"latency\": false}}"
} | bin/warpscope-probe serve > "$out/serve_after_counters.jsonl" 2> "$out/serve_after_counters.err"
echo "exit $?"
python3 - "$out/serve_after_counters.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    answer = json.loads(line)
    if "progress" in answer:
        continue
    result = answer.get("result", {})
    if "timelineSource" in result:
        run = result["runs"][-1]
        print(answer["id"], "ok" if answer["ok"] else answer["error"], result["timelineSource"],
              "ops", len(run["timeline"]), "speed-up %.2f" % run["speedup"])
    else:
        counters = result.get("counters", {})
        print(answer["id"], "ok" if answer.get("ok") else answer.get("error"),
              "countersMeasured", result.get("countersMeasured"),
              {k: v for k, v in counters.items() if "sectors_pipe_lsu_mem_global_op_ld" in k})
PY

#!/usr/bin/env python3
"""scripts/gpu/per_instruction_live.sh's driver: measure_kernel with "per_instruction": true for
every kernel preset through one `warpscope-probe serve` process, and its cost: per preset of the
first four, three requests without the option and three with it, alternating, each timed from
request to answer (cost.jsonl), the first answer with it kept (live_answers.jsonl).
Usage: per_instruction_live.py CARRY OUT [BUDGET_S]"""
import json, os, subprocess, sys, time
carry, out = sys.argv[1], sys.argv[2]
budget = float(sys.argv[3]) if len(sys.argv) > 3 else 200.0
t0 = time.time()
presets = {p["id"]: p["kernel"] for p in json.load(open(os.path.join(carry, "kernels.json")))}
env = dict(os.environ, WARPSCOPE_SASS_METRICS_LIST=os.path.join(out, "sass_metrics.tsv"))
probe = subprocess.Popen([os.path.join(carry, "bin", "warpscope-probe"), "serve"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=open(os.path.join(out, "probe_stderr.txt"), "w"), text=True, env=env)
log = open(os.path.join(out, "requests.jsonl"), "w")
next_id = [0]
def ask(request):
    next_id[0] += 1
    request["id"] = next_id[0]
    start = time.time()
    probe.stdin.write(json.dumps(request) + "\n"); probe.stdin.flush()
    while True:
        line = probe.stdout.readline()
        if not line:
            raise SystemExit("probe exited")
        answer = json.loads(line)
        if "progress" in answer:
            continue
        wall = time.time() - start
        log.write(json.dumps({"request": {k: v for k, v in request.items() if k != "kernel"},
                              "wall_s": wall, "ok": answer.get("ok")}) + "\n"); log.flush()
        return answer, wall
print(ask({"op": "hello"})[0])
info, _ = ask({"op": "device_info"})
json.dump(info, open(os.path.join(out, "device_info.json"), "w"))
answers = open(os.path.join(out, "live_answers.jsonl"), "w")
first = ["transpose-tiled", "transpose-tiled-padded", "readoffset", "transpose-naivecol"]
rest = [pid for pid in presets if pid not in first]  # every other preset, in the file's order
costs = open(os.path.join(out, "cost.jsonl"), "w")
for pid in first:
    # warm the kernel path (NVRTC, counters session) once, then alternate without/with
    a, w = ask({"op": "measure_kernel", "kernel": presets[pid], "options": {}})
    costs.write(json.dumps({"preset": pid, "mode": "first-plain", "wall_s": w}) + "\n")
    for rep in range(3):
        for mode, opts in (("plain", {}), ("per_instruction", {"per_instruction": True})):
            a, w = ask({"op": "measure_kernel", "kernel": presets[pid], "options": opts})
            pi = a.get("result", {}).get("perInstruction", {})
            costs.write(json.dumps({"preset": pid, "mode": mode, "rep": rep, "wall_s": w,
                                    "perInstructionMs": pi.get("ms"),
                                    "measured": pi.get("measured"),
                                    "reason": pi.get("unavailableReason"),
                                    "ok": a.get("ok"), "error": a.get("error")}) + "\n")
            costs.flush()
            if mode == "per_instruction" and rep == 0:
                answers.write(json.dumps({"id": pid, "answer": a.get("result"), "error": a.get("error")}) + "\n")
                answers.flush()
    a, w = ask({"op": "measure_kernel", "kernel": presets[pid],
                "options": {"per_instruction": True, "counters": False}})
    costs.write(json.dumps({"preset": pid, "mode": "per_instruction_no_counters", "wall_s": w,
                            "perInstructionMs": a.get("result", {}).get("perInstruction", {}).get("ms"),
                            "measured": a.get("result", {}).get("perInstruction", {}).get("measured"),
                            "reason": a.get("result", {}).get("perInstruction", {}).get("unavailableReason"),
                            "error": a.get("error")}) + "\n")
for pid in rest:
    if time.time() - t0 > budget:
        break
    a, w = ask({"op": "measure_kernel", "kernel": presets[pid], "options": {"per_instruction": True}})
    answers.write(json.dumps({"id": pid, "answer": a.get("result"), "error": a.get("error")}) + "\n")
    answers.flush()
ask({"op": "shutdown"})
print("done in", time.time() - t0)

#!/usr/bin/env bash
# Runs on a machine with two GPUs (the device tool's nvidia-h200-x2), from a folder holding the
# Release build's warpscope and warpscope-probe and the packed Qt runtime: the probe lists both
# devices, measures one pattern with counters on each, refuses a device that is not there; then
# the app measures the readSegment kernels of the notes on GPU 0 and GPU 1 into one session,
# saves it, and photographs the window with the prediction beside both GPUs' columns.
# Usage: scripts/gpu/two_gpus_check.sh BIN_DIR QT_RUNTIME.tar.xz OUTDIR
set -u
bin=$1
runtime=$2
out=$3
mkdir -p "$out" /tmp/warpscope-qt
tar -C /tmp/warpscope-qt -xJf "$runtime"
export LD_LIBRARY_PATH=/tmp/warpscope-qt/lib:/usr/local/cuda-13.0/targets/x86_64-linux/lib:/usr/local/cuda/extras/CUPTI/lib64
export QT_PLUGIN_PATH=/tmp/warpscope-qt/plugins QT_QPA_PLATFORM=offscreen \
    FONTCONFIG_FILE=/tmp/warpscope-qt/fonts.conf QT_FONT_DPI=96
probe=$bin/warpscope-probe
app=$bin/warpscope
nvidia-smi --query-gpu=index,name,uuid,pci.bus_id,driver_version,compute_cap,memory.total \
    --format=csv | tee "$out/machine.txt"
nvidia-smi topo -m >"$out/topo.txt" 2>&1

echo "== the probe: device_info, one pattern with counters on each device, a device not there"
addresses=$(seq -s, 0 4 124)
pattern="{\"space\":\"global\",\"op\":\"load\",\"width\":4,\"cache\":\"default\",\"addresses\":[$addresses]}"
{
    echo '{"id":1,"op":"hello"}'
    echo '{"id":2,"op":"device_info"}'
    echo '{"id":3,"op":"device_info","device":1}'
    echo "{\"id\":4,\"op\":\"measure\",\"pattern\":$pattern,\"options\":{\"latency\":false}}"
    echo "{\"id\":5,\"op\":\"measure\",\"pattern\":$pattern,\"options\":{\"latency\":false},\"device\":1}"
    echo "{\"id\":6,\"op\":\"measure\",\"pattern\":$pattern,\"device\":2}"
    # The notes' readSegment kernels (the request the app sends) on each device.
    if [ -f "$bin/kernel-request.json" ]; then
        python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))
for i, d in ((7, 0), (8, 1)):
    q = dict(r, id=i); q["device"] = d; print(json.dumps(q))' "$bin/kernel-request.json"
    fi
} | timeout 60 "$probe" serve >"$out/probe-answers.jsonl" 2>"$out/probe-stderr.txt"
echo "probe exit $?"
python3 - "$out/probe-answers.jsonl" <<'PY' || head -c 3000 "$out/probe-answers.jsonl"
import json, sys
for line in open(sys.argv[1]):
    a = json.loads(line)
    r = a.get("result", {})
    if "devices" in r:
        print("device_info", a["id"], "index", r["index"], r["name"], r["uuid"], r["busId"],
              "copy GB/s %.0f" % r["measuredCopyBandwidthGBs"])
        for d in r["devices"]:
            print("   ", d["index"], d["name"], d["uuid"], d["busId"], d["link"])
    elif "counters" in r:
        c = r["counters"]
        print("measure", a["id"], "sectors", c.get("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
              "requests", c.get("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
              "countersMeasured", r.get("countersMeasured"))
    elif "measurements" in r:
        for m in r["measurements"]:
            print("measure_kernel", a["id"], m.get("parameters"), "ms %.4f" % m["timing"]["kernelMs"]["median"],
                  "GB/s %.1f" % m["effectiveBandwidthGBs"], "sectors",
                  m["counters"].get("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"))
    elif not a.get("ok", True):
        print("error", a["id"], a["error"]["code"], a["error"].get("where"), a["error"]["message"])
PY

echo "== the app: the notes' readSegment kernels on GPU 0 then GPU 1, one session"
timeout 110 "$app" --no-settings --probe "$probe" --preset notes:readsegment --measure \
    --probe-device 0,1 --save-session "$out/two-gpus-h200.warpscope" --size 1920x1080 \
    --screenshot "$out/two-gpus-h200.png" >"$out/app.txt" 2>&1
echo "app exit $?"
tail -n 3 "$out/app.txt"
python3 - "$out/two-gpus-h200.warpscope" <<'PY'
import json, sys
session = json.load(open(sys.argv[1]))
records = json.loads(session["viewSettings"]["notes.kernelMeasurements"])
for r in records:
    m = r["measurement"]
    print(r["preset"], m["parameters"], m.get("gpuIndex"), m["gpu"], m.get("gpuUuid"),
          "driver", m.get("driver"), "probe", m.get("probeVersion"),
          "GB/s %.1f" % m.get("effectiveBandwidthGBs", 0),
          "ms %.4f" % m.get("kernelMs", {}).get("median", 0))
PY

#!/usr/bin/env python3
"""Issue 19, local and texture memory, on a GPU machine: measures the local and texture presets
with the probe (CUPTI counters, one cold launch each, and the sweep of local-same-index over i),
writes what it measured to OUTDIR/loctex_h100.jsonl and draws the guide's two figures from it as
SVG (no plotting library needed):

  local-h100.svg    local load/store sectors per request: the interleaving model beside the GPU;
  texture-h100.svg  sectors per warp of a 2-D read: texture (model and GPU) beside the same
                    addresses read as global loads, and, from scripts/hw/loctex/explore.cu's
                    table (tests/data/loctex/table.txt), the same read from a cudaArray.

Usage: loctex_figures.py PROBE OUTDIR [EXPLORE_TABLE]
       loctex_figures.py --render JSONL OUTDIR [EXPLORE_TABLE]   (the figures again from a record)
"""
import json
import os
import re
import subprocess
import sys
import time

LOCAL_LD = ("l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum",
            "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum")
LOCAL_ST = ("l1tex__t_requests_pipe_lsu_mem_local_op_st.sum",
            "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum")
TEX = ("l1tex__t_requests_pipe_tex_mem_texture.sum", "l1tex__t_sectors_pipe_tex_mem_texture.sum")
GLD = ("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
       "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")

JOBS = [
    ("local-same-index", ["--sweep", "i=0,1,5,31"]),
    ("local-lane-index", []),
    ("texture-rows", []),
    ("texture-rows-global", []),
    ("texture-tiles", []),
    ("texture-tiles-global", []),
]


def measure(probe, out_dir):
    records = []
    machine = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version",
                              "--format=csv,noheader"], capture_output=True, text=True).stdout
    for kid, extra in JOBS:
        done = subprocess.run([probe, "run-kernel", kid, "--json", "--repetitions", "5", *extra],
                              capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            print("FAIL %s: %s" % (kid, done.stderr.strip()[-400:]))
        for line in done.stdout.splitlines():
            answer = json.loads(line)
            records.append({"id": kid, "parameters": answer.get("parameters"),
                            "predicted": answer.get("predicted", {}),
                            "counters": answer.get("counters", {}),
                            "kernelMs": answer.get("timing", {}).get("kernelMs", {}).get("median"),
                            "gpu": machine.strip(),
                            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())})
    path = os.path.join(out_dir, "loctex_h100.jsonl")
    with open(path, "w") as f:
        for r in records:
            f.write(json.dumps(r) + "\n")
    return records


def per(record, pair, source):
    values = record[source]
    requests, sectors = values.get(pair[0]), values.get(pair[1])
    if not requests:
        return None
    return sectors / requests


def per_warp(record, pair, source):
    values = record[source]
    warps = record["predicted"].get("warpscope__warps")
    sectors = values.get(pair[1])
    if not warps or sectors is None:
        return None
    return sectors / warps


SHAPES = [("row 32x1", 32), ("tile 8x4", 8), ("tile 4x8", 4), ("column 1x32", 1),
          ("tile 16x2", 16)]


def explore_table(table_path):
    """Sectors per warp from explore.cu's table (1024 warps a line) for its five shapes: rows
    60-69 texture (pitched) and global load in turn, rows 70-74 texture from a cudaArray.
    Returns {shape: {"pitched": .., "global": .., "array": ..}}."""
    out = {name: {} for name, _ in SHAPES}
    if not table_path or not os.path.exists(table_path):
        return out
    for line in open(table_path):
        m = re.match(r"\s*(\d+) (texKernel|globalKernel).*?sectors_pipe_"
                     r"(?:tex_mem_texture|lsu_mem_global_op_ld)=([\d,]+)", line)
        if not m or not 60 <= int(m.group(1)) <= 74:
            continue
        row, value = int(m.group(1)), int(m.group(3).replace(",", "")) / 1024
        if row >= 70:
            out[SHAPES[row - 70][0]]["array"] = value
        else:
            kind = "pitched" if m.group(2) == "texKernel" else "global"
            out[SHAPES[(row - 60) // 2][0]][kind] = value
    return out


def quad_rule(width, pitch=4096):
    """The model's texture sectors for one warp reading `width` texels per row (docs/models.md):
    per quad of lanes, its distinct 32-byte sectors."""
    total = 0
    for quad in range(8):
        sectors = {((lane // width) * pitch + (lane % width) * 4) // 32
                   for lane in range(quad * 4, quad * 4 + 4)}
        total += len(sectors)
    return total


def svg_bars(title, subtitle, groups, series, path, unit):
    """groups: list of (label, [value per series]); series: list of (name, colour)."""
    width, height = 1120, 560
    left, right, top, bottom = 90, 30, 90, 110
    plot_w, plot_h = width - left - right, height - top - bottom
    top_value = max([v for _, vs in groups for v in vs if v is not None] + [1])
    scale = plot_h / (top_value * 1.15)
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="DejaVu Sans, sans-serif">' % (width, height),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="34" font-size="22" font-weight="bold">%s</text>' % (left, title),
           '<text x="%d" y="60" font-size="14" fill="#444">%s</text>' % (left, subtitle)]
    step = 1
    while top_value / step > 8:
        step *= 2
    tick = 0
    while tick <= top_value * 1.15:
        y = top + plot_h - tick * scale
        out.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>'
                   % (left, left + plot_w, y, y))
        out.append('<text x="%d" y="%.1f" font-size="12" text-anchor="end">%g</text>'
                   % (left - 6, y + 4, tick))
        tick += step
    out.append('<text x="22" y="%d" font-size="13" transform="rotate(-90 22 %d)" '
               'text-anchor="middle">%s</text>' % (top + plot_h // 2, top + plot_h // 2, unit))
    group_w = plot_w / max(1, len(groups))
    bar_w = group_w * 0.8 / max(1, len(series))
    for g, (label, values) in enumerate(groups):
        x0 = left + g * group_w + group_w * 0.1
        for s, value in enumerate(values):
            if value is None:
                continue
            h = value * scale
            x = x0 + s * bar_w
            out.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"/>'
                       % (x, top + plot_h - h, bar_w - 2, h, series[s][1]))
            out.append('<text x="%.1f" y="%.1f" font-size="12" text-anchor="middle">%g</text>'
                       % (x + bar_w / 2 - 1, top + plot_h - h - 4, round(value, 2)))
        lines = label.split("\n")
        for i, text in enumerate(lines):
            out.append('<text x="%.1f" y="%d" font-size="13" text-anchor="middle">%s</text>'
                       % (left + g * group_w + group_w / 2, top + plot_h + 20 + 16 * i, text))
    out.append('<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="#000"/>'
               % (left, left + plot_w, top + plot_h, top + plot_h))
    lx = left
    for name, colour in series:
        out.append('<rect x="%d" y="%d" width="14" height="14" fill="%s"/>'
                   % (lx, height - 30, colour))
        out.append('<text x="%d" y="%d" font-size="13">%s</text>' % (lx + 20, height - 19, name))
        lx += 30 + 8 * len(name)
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def render(records, out_dir, table_path):
    gpu = records[0]["gpu"] if records else "?"
    groups = []
    for r in records:
        if not r["id"].startswith("local"):
            continue
        label = r["id"].replace("local-", "")
        if r["id"] == "local-same-index":
            label += "\ni = %s" % (r.get("parameters") or {}).get("i", "?")
        groups.append((label, [per(r, LOCAL_ST, "predicted"), per(r, LOCAL_ST, "counters"),
                               per(r, LOCAL_LD, "predicted"), per(r, LOCAL_LD, "counters")]))
    svg_bars("Local memory: sectors per request", "a per-thread array, interleaved by 4-byte "
             "words: the model's rule beside CUPTI on " + gpu.split(",")[0],
             groups, [("store: model", "#9ecae1"), ("store: GPU", "#3182bd"),
                      ("load: model", "#fdae6b"), ("load: GPU", "#e6550d")],
             os.path.join(out_dir, "local-h100.svg"), "sectors per request")
    by_id = {r["id"]: r for r in records}
    explored = explore_table(table_path)
    groups = []
    for shape, name in (("rows", "row 32x1"), ("tiles", "tile 8x4")):
        t, g = by_id.get("texture-" + shape), by_id.get("texture-" + shape + "-global")
        groups.append(("%s\n(texture-%s)" % (name, shape), [
            per_warp(t, TEX, "predicted") if t else None,
            per_warp(t, TEX, "counters") if t else None,
            per_warp(g, GLD, "counters") if g else None,
            explored[name].get("array")]))
    for name, width in SHAPES[2:]:
        e = explored[name]
        groups.append((name + "\n(explore.cu)", [quad_rule(width), e.get("pitched"),
                                                  e.get("global"), e.get("array")]))
    svg_bars("Texture against global loads: sectors per warp",
             "tex2D over pitched memory (model: per-quad sectors), the same addresses as "
             "global loads, a cudaArray; " + gpu.split(",")[0], groups,
             [("texture, pitched: model", "#a1d99b"), ("texture, pitched: GPU", "#31a354"),
              ("global load: GPU", "#756bb1"), ("texture, cudaArray: GPU", "#e6550d")],
             os.path.join(out_dir, "texture-h100.svg"), "L1TEX sectors per warp")


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "--render":
        records = [json.loads(line) for line in open(sys.argv[2])]
        render(records, sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else None)
        return 0
    probe, out_dir = sys.argv[1], sys.argv[2]
    os.makedirs(out_dir, exist_ok=True)
    records = measure(probe, out_dir)
    render(records, out_dir, sys.argv[3] if len(sys.argv) > 3 else None)
    for r in records:
        print("%-22s %-10s local st %s/%s  local ld %s/%s  tex %s/%s  gld %s/%s" % (
            r["id"], json.dumps(r.get("parameters")),
            *[fmt for pair in (LOCAL_ST, LOCAL_LD, TEX, GLD) for fmt in (
                "%s=%s" % (r["predicted"].get(pair[1]), r["counters"].get(pair[1])),
                "%s=%s" % (r["predicted"].get(pair[0]), r["counters"].get(pair[0])))]))
    return 0


if __name__ == "__main__":
    sys.exit(main())

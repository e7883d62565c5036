#!/usr/bin/env python3
"""The async-copy element-size figure for docs/guide: time and bandwidth of copyasync-width
(cp.async, LDGSTS) beside copyasync-width-staged (a register in between) for w = 4, 8, 16 bytes,
from what scripts/gpu/copy_async_sweep.py measured (tests/data/copy_async_sweep_h100.jsonl), with
the counters of each point under its bars. Writes SVG (plain Python, no plotting library) and,
where ImageMagick's `convert` exists, PNG.

Usage: scripts/copy-async-figure.py [JSONL] [OUT_STEM]
  (default: tests/data/copy_async_sweep_h100.jsonl, docs/guide/figures/copy-async-width-h100)
"""
import json
import os
import shutil
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PRESETS = [("copyasync-width", "async copy (cp.async, no register)", "#2b6cb0"),
           ("copyasync-width-staged", "staged: load to a register, store to shared", "#c05621")]
WIDTHS = [4, 8, 16]


def write_png_with_matplotlib(path, med, counters, n, runs, device):
    """The same figure as a PNG, where matplotlib is installed (the GPU machine has it)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, ax = plt.subplots(figsize=(10, 6.2), dpi=100)
    step = 0.38
    for pi, (preset, label, colour) in enumerate(PRESETS):
        xs = [i + (pi - 0.5) * step for i in range(len(WIDTHS))]
        ts = [med[(preset, w)] for w in WIDTHS]
        bars = ax.bar(xs, ts, step * 0.9, color=colour, label=label)
        for bar, t in zip(bars, ts):
            ax.annotate("%.4f ms\n%.0f GB/s" % (t, n / (t * 1e-3) / 1e9),
                        (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                        ha="center", va="bottom", fontsize=9)
    labels = []
    for w in WIDTHS:
        c = counters[(PRESETS[0][0], w)]
        labels.append("w = %d bytes\nasync: %d requests, %d sectors\nasync / staged time %.2f" % (
            w, c.get("l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts_cache_access.sum", -1),
            c.get("l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access.sum", -1),
            med[(PRESETS[0][0], w)] / med[(PRESETS[1][0], w)]))
    ax.set_xticks(range(len(WIDTHS)))
    ax.set_xticklabels(labels, fontsize=9)
    ax.set_ylabel("kernel time (ms)")
    ax.set_ylim(0, max(med.values()) * 1.25)
    ax.set_title("Async copies over the element size on the H100: %d MiB into shared tiles\n"
                 "median of %d runs, each the median of 21 cold launches (%s)"
                 % (n >> 20, runs, device or "NVIDIA H100"), fontsize=11)
    ax.legend(loc="upper right", fontsize=9)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return True


def main():
    source = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        ROOT, "tests", "data", "copy_async_sweep_h100.jsonl")
    stem = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
        ROOT, "docs", "guide", "figures", "copy-async-width-h100")
    rows = [json.loads(line) for line in open(source) if line.strip()]
    times, counters, device, n = {}, {}, "", 0
    for r in rows:
        key = (r["preset"], r["w"])
        times.setdefault(key, []).append(r["answer"]["timing"]["kernelMs"]["median"])
        counters[key] = r["answer"]["counters"]
        n = r["n"]
        device = r["answer"].get("device", {}).get("name", device) or device
    runs = max(len(v) for v in times.values())
    med = {k: statistics.median(v) for k, v in times.items()}
    width, height = 1000, 620
    left, top, plot_h, plot_w = 90, 90, 330, 860
    top_ms = max(med.values()) * 1.15
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="DejaVu Sans, sans-serif" font-size="14">' % (width, height),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="34" font-size="20" font-weight="bold">Async copies over the element '
           'size on the H100: time to copy %d MiB into shared tiles</text>' % (left - 60,
                                                                               n >> 20),
           '<text x="%d" y="60" fill="#444">median of %d runs, each the median of 21 cold '
           'launches; measured with warpscope-probe (scripts/gpu/copy_async_sweep.py)</text>'
           % (left - 60, runs)]
    # Axis and grid lines.
    steps = 5
    for i in range(steps + 1):
        v = top_ms * i / steps
        y = top + plot_h - plot_h * i / steps
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>'
                   % (left, y, left + plot_w, y))
        out.append('<text x="%d" y="%.1f" text-anchor="end" fill="#444">%.3f</text>'
                   % (left - 8, y + 5, v))
    out.append('<text x="22" y="%d" transform="rotate(-90 22 %d)" text-anchor="middle" '
               'fill="#444">kernel time (ms)</text>' % (top + plot_h // 2, top + plot_h // 2))
    group = plot_w / len(WIDTHS)
    bar = group / 4
    for gi, w in enumerate(WIDTHS):
        gx = left + gi * group
        for pi, (preset, _, colour) in enumerate(PRESETS):
            t = med[(preset, w)]
            h = plot_h * t / top_ms
            x = gx + group / 2 - bar + pi * bar
            y = top + plot_h - h
            out.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"/>'
                       % (x + 3, y, bar - 6, h, colour))
            out.append('<text x="%.1f" y="%.1f" text-anchor="middle" font-size="13">%.4f</text>'
                       % (x + bar / 2, y - 6, t))
            gbs = n / (t * 1e-3) / 1e9
            out.append('<text x="%.1f" y="%.1f" text-anchor="middle" font-size="12" '
                       'fill="#444">%.0f GB/s</text>' % (x + bar / 2, top + plot_h + 20, gbs))
        out.append('<text x="%.1f" y="%d" text-anchor="middle" font-weight="bold">w = %d bytes'
                   '</text>' % (gx + group / 2, top + plot_h + 44, w))
        c = counters[(PRESETS[0][0], w)]
        s = counters[(PRESETS[1][0], w)]
        lines = ["async: %d requests, %d sectors" % (
                     c.get("l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts_cache_access.sum", -1),
                     c.get("l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access.sum", -1)),
                 "staged: %d requests, %d sectors" % (
                     s.get("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", -1),
                     s.get("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", -1)),
                 "async / staged time: %.2f" % (med[(PRESETS[0][0], w)] / med[(PRESETS[1][0], w)])]
        for li, text in enumerate(lines):
            out.append('<text x="%.1f" y="%d" text-anchor="middle" font-size="12" fill="#333">'
                       '%s</text>' % (gx + group / 2, top + plot_h + 66 + 18 * li, text))
    ly = height - 48
    for pi, (_, label, colour) in enumerate(PRESETS):
        x = left + pi * 430
        out.append('<rect x="%d" y="%d" width="16" height="16" fill="%s"/>' % (x, ly - 13,
                                                                             colour))
        out.append('<text x="%d" y="%d">%s</text>' % (x + 24, ly, label))
    out.append('<text x="%d" y="%d" fill="#444" font-size="12">%s</text>'
               % (left - 60, height - 14, "GPU: " + (device or "NVIDIA H100")))
    out.append("</svg>")
    os.makedirs(os.path.dirname(stem), exist_ok=True)
    open(stem + ".svg", "w").write("\n".join(out) + "\n")
    print(stem + ".svg")
    if write_png_with_matplotlib(stem + ".png", med, counters, n, runs, device):
        print(stem + ".png")
        return 0
    # A PNG beside it where a converter is installed (rsvg-convert, else ImageMagick).
    for command in (["rsvg-convert", "-o", stem + ".png", stem + ".svg"],
                    ["convert", "-density", "96", stem + ".svg", stem + ".png"]):
        if shutil.which(command[0]) and subprocess.run(command).returncode == 0:
            print(stem + ".png")
            break
    else:
        print("no SVG converter worked here: SVG only", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

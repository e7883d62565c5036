#!/usr/bin/env python3
"""Draws the constant-memory sweep (docs/guide/figures/constant-sweep-h100.svg) from what
constant_sweep.py measured (constant_sweep.jsonl): per number of distinct addresses per warp,
the grid model's constant-cache requests (a line), the requests the GPU's counters give
(idc__requests.sum - LDC instructions + the constant loads' warp instructions: crosses) and the
kernel's median time (bars, right axis). Plain SVG written by hand: no plotting library needed on
the GPU machine.

Usage: constant_figure.py constant_sweep.jsonl OUT.svg
"""
import json
import sys


def main(argv):
    if len(argv) != 3:
        print(__doc__)
        return 2
    points = []
    device = ""
    for line in open(argv[1]):
        a = json.loads(line)
        a = a.get("answer", a)  # {"id", "answer"} records, or bare answers
        p, c = a["predicted"], a["counters"]
        measured = None
        if "warpscope__constant_extra_requests" in c:
            measured = c["warpscope__constant_extra_requests"] + p["warpscope__constant_requests"]
        points.append((a["parameters"]["distinct"], p["warpscope__constant_addresses"], measured,
                       a["timing"]["kernelMs"]["median"] * 1000.0))
        device = a.get("device", {}).get("name", device)
    points.sort()
    width, height = 1280, 720
    left, right, top, bottom = 110, 110, 90, 120
    pw, ph = width - left - right, height - top - bottom
    max_requests = max(p[1] for p in points) * 1.1
    max_time = max(p[3] for p in points) * 1.1
    n = len(points)

    def x(i):
        return left + (i + 0.5) * pw / n

    def y_left(v):
        return top + ph - v / max_requests * ph

    def y_right(v):
        return top + ph - v / max_time * ph

    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="DejaVu Sans, sans-serif" font-size="15">' % (width, height),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="36" font-size="20" font-weight="bold">Constant memory (%s): a warp\'s '
           'distinct addresses, one after another</text>' % (left, device.replace("NVIDIA ", "")),
           '<text x="%d" y="62" fill="#444">constant-divergent preset: 2^24 threads, each warp '
           'reads (lane %% distinct) * 4 of a __constant__ array; time = median of 21 launches'
           '</text>' % left]
    # Grid and axes.
    for k in range(6):
        v = max_requests / 1.1 * k / 5
        yy = y_left(v)
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>' % (
            left, yy, left + pw, yy))
        out.append('<text x="%d" y="%.1f" text-anchor="end" fill="#1f4e9c">%.1f M</text>' % (
            left - 8, yy + 5, v / 1e6))
        t = max_time / 1.1 * k / 5
        out.append('<text x="%d" y="%.1f" fill="#b15d00">%.0f µs</text>' % (
            left + pw + 8, y_right(t) + 5, t))
    out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#333"/>' % (
        left, top, pw, ph))
    # Bars: time.
    bar = pw / n * 0.6
    for i, (d, model, measured, us) in enumerate(points):
        out.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#f6c27a" '
                   'stroke="#b15d00"><title>distinct %d: %.2f µs</title></rect>' % (
                       x(i) - bar / 2, y_right(us), bar, top + ph - y_right(us), d, us))
        if d in (1, 2, 4, 8, 16, 24, 32) or n <= 12:
            out.append('<text x="%.1f" y="%d" text-anchor="middle">%d</text>' % (
                x(i), top + ph + 20, d))
    # Line: the model; crosses: the counters.
    path = " ".join("%s%.1f,%.1f" % ("M" if i == 0 else "L", x(i), y_left(p[1]))
                    for i, p in enumerate(points))
    out.append('<path d="%s" fill="none" stroke="#1f4e9c" stroke-width="3"/>' % path)
    for i, (d, model, measured, us) in enumerate(points):
        out.append('<circle cx="%.1f" cy="%.1f" r="4.5" fill="#1f4e9c"/>' % (x(i), y_left(model)))
        if measured is not None:
            cx, cy = x(i), y_left(measured)
            out.append('<path d="M%.1f,%.1f L%.1f,%.1f M%.1f,%.1f L%.1f,%.1f" stroke="black" '
                       'stroke-width="2"/>' % (cx - 7, cy - 7, cx + 7, cy + 7, cx - 7, cy + 7,
                                               cx + 7, cy - 7))
    out.append('<text x="%d" y="%d" text-anchor="middle">distinct addresses per warp '
               '(1 = broadcast)</text>' % (left + pw / 2, top + ph + 48))
    out.append('<text transform="translate(30,%d) rotate(-90)" text-anchor="middle" '
               'fill="#1f4e9c">constant-cache requests, whole grid</text>' % (top + ph / 2))
    out.append('<text transform="translate(%d,%d) rotate(90)" text-anchor="middle" '
               'fill="#b15d00">kernel time</text>' % (width - 30, top + ph / 2))
    # Legend.
    ly = height - 30
    out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#1f4e9c" stroke-width="3"/>'
               % (left, ly - 5, left + 30, ly - 5))
    out.append('<text x="%d" y="%d">grid model: one request per distinct address of each warp'
               '</text>' % (left + 38, ly))
    out.append('<path d="M%d,%d L%d,%d M%d,%d L%d,%d" stroke="black" stroke-width="2"/>' % (
        left + 520, ly - 11, left + 532, ly + 1, left + 520, ly + 1, left + 532, ly - 11))
    out.append('<text x="%d" y="%d">measured: idc__requests − LDC instructions + warps</text>'
               % (left + 540, ly))
    out.append('<rect x="%d" y="%d" width="14" height="14" fill="#f6c27a" stroke="#b15d00"/>'
               % (left + 980, ly - 12))
    out.append('<text x="%d" y="%d">kernel time</text>' % (left + 1000, ly))
    out.append("</svg>")
    open(argv[2], "w").write("\n".join(out) + "\n")
    print("constant_figure: %s (%d points)" % (argv[2], n))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

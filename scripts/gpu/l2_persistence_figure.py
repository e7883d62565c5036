#!/usr/bin/env python3
"""Draws the guide's L2 persistence figure as SVG from a measure_l2_persistence answer (plain
Python, no plotting library, so that it runs on the GPU machine in the same call as the
measurement): left, the share of the region's reads served by L2 against the window size, one curve per hitRatio and
one without a window, beside the model: its predictions (modelRegionHitKind "prediction": the
window holds the whole region, the notes' rule) as ringed crosses, its estimates (no documented
rule) dashed; right, the time per launch.
Usage: l2_persistence_figure.py ANSWER.json OUT.svg"""
import json
import math
import sys

COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#000000"]


def series(points):
    groups = {}
    for p in points:
        key = ("none", -1.0) if not p["window"] else (f"hitRatio {p['hitRatio']:.2f}", p["hitRatio"])
        listed = (not p["window"]) or not p["tuned"] or round(p["hitRatio"], 6) in (0.25, 0.5, 0.75, 1.0)
        if listed:
            groups.setdefault(key, []).append(p)
        if p["window"] and p["tuned"]:
            groups.setdefault(("tuned hitRatio", 2.0), []).append(p)
    return sorted(groups.items(), key=lambda item: item[0][1])


def nice_step(top):
    """A tick step of 1, 2 or 5 times a power of ten giving four to eight ticks up to `top`."""
    step = 10 ** math.floor(math.log10(top / 5))
    for factor in (1, 2, 5, 10):
        if top / (step * factor) <= 8:
            return step * factor
    return step * 10


def predicted(p):
    """The model's region share is a prediction (answers before the field: estimate)."""
    return p.get("modelRegionHitKind") == "prediction"


def ringed_cross(x, y, colour):
    return (f'<g stroke="{colour}" stroke-width="1.5" fill="none"><circle cx="{x:.1f}" cy="{y:.1f}" r="5.5"/>'
            f'<line x1="{x - 5.5:.1f}" y1="{y:.1f}" x2="{x + 5.5:.1f}" y2="{y:.1f}"/>'
            f'<line x1="{x:.1f}" y1="{y - 5.5:.1f}" x2="{x:.1f}" y2="{y + 5.5:.1f}"/></g>')


def panel(out, x0, y0, w, h, groups, value, model, ymax, ylabel, xmax, set_aside):
    sx = lambda x: x0 + w * x / xmax
    sy = lambda y: y0 + h - h * y / ymax
    out.append(f'<rect x="{x0}" y="{y0}" width="{w}" height="{h}" fill="none" stroke="#444"/>')
    step = nice_step(ymax)
    for i in range(0, int(ymax / step) + 1):
        y = step * i
        out.append(f'<line x1="{x0}" y1="{sy(y):.1f}" x2="{x0 + w}" y2="{sy(y):.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{x0 - 6}" y="{sy(y) + 4:.1f}" text-anchor="end">{y:g}</text>')
    for x in range(0, int(xmax) + 1, 8):
        out.append(f'<text x="{sx(x):.1f}" y="{y0 + h + 16}" text-anchor="middle">{x}</text>')
    out.append(f'<text x="{x0 + w / 2}" y="{y0 + h + 34}" text-anchor="middle">region = window size (num_bytes), MiB</text>')
    out.append(f'<text transform="translate({x0 - 44},{y0 + h / 2}) rotate(-90)" text-anchor="middle">{ylabel}</text>')
    xs = set_aside / 1048576
    out.append(f'<line x1="{sx(xs):.1f}" y1="{y0}" x2="{sx(xs):.1f}" y2="{y0 + h}" stroke="#D55E00" stroke-dasharray="2,3"/>')
    out.append(f'<text x="{sx(xs) + 4:.1f}" y="{y0 + 14}" fill="#D55E00">set aside {xs:g} MiB</text>')
    for index, ((name, _), pts) in enumerate(groups):
        colour = COLOURS[6] if name == "none" else COLOURS[index % 6]
        pts = sorted(pts, key=lambda p: p["windowBytes"])
        coords = [(sx(p["windowBytes"] / 1048576), sy(value(p))) for p in pts]
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in coords)
        out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for x, y in coords:
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{colour}"/>')
        if not model:
            continue
        # The model: estimates dashed with hollow markers, broken where a prediction stands;
        # predictions as ringed crosses.
        runs = [[]]
        for p in pts:
            x, y = sx(p["windowBytes"] / 1048576), sy(model(p))
            if predicted(p):
                out.append(ringed_cross(x, y, colour))
                runs.append([])
            else:
                runs[-1].append((x, y))
        for run in runs:
            if len(run) > 1:
                path = " ".join(f"{x:.1f},{y:.1f}" for x, y in run)
                out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="1.2" '
                           f'stroke-dasharray="5,4"/>')
            for x, y in run:
                out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5" fill="white" stroke="{colour}"/>')


def main():
    answer = json.load(open(sys.argv[1]))
    if "result" in answer:
        answer = answer["result"]
    points = answer["points"]
    groups = series(points)
    xmax = max(p["windowBytes"] for p in points) / 1048576 * 1.05
    tmax = max(p["maxMs"] for p in points) * 1.1
    tmax = nice_step(tmax) * math.ceil(tmax / nice_step(tmax))
    W, H = 1200, 590
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="20" y="24" font-size="15" font-weight="bold">The L2 persistence window on {answer["device"]}: '
           f'L2 {answer["l2Bytes"] / 1048576:g} MiB, {answer["setAsideBytes"] / 1048576:g} MiB set aside</text>',
           f'<text x="20" y="42">A region re-read while {answer["streamBytes"] / 1073741824:g} GiB stream through L2 '
           f'({answer["streamPerRegion"]} streaming bytes per region byte); left the region\'s reads served by L2, right the time.</text>']
    panel(out, 80, 60, 480, 390, groups, lambda p: p.get("regionHitPct", 0.0), lambda p: p["modelRegionHitPct"],
          100, "region's reads served by L2, % (solid: measured)", xmax, answer["setAsideBytes"])
    panel(out, 680, 60, 480, 390, groups, lambda p: p["medianMs"], None, tmax,
          "time per launch, ms (median)", xmax, answer["setAsideBytes"])
    for index, ((name, _), _) in enumerate(groups):
        colour = COLOURS[6] if name == "none" else COLOURS[index % 6]
        x = 80 + 180 * index
        out.append(f'<line x1="{x}" y1="515" x2="{x + 24}" y2="515" stroke="{colour}" stroke-width="2"/>')
        out.append(f'<text x="{x + 30}" y="519">{"no window" if name == "none" else name}</text>')
    out.append(ringed_cross(86, 540, "#000000"))
    out.append('<text x="98" y="544">model: prediction (the window holds the whole region: the notes\' rule, '
               'exact on the H100)</text>')
    out.append('<line x1="700" y1="540" x2="724" y2="540" stroke="#000000" stroke-width="1.2" stroke-dasharray="5,4"/>')
    out.append('<text x="730" y="544">model: estimate (no documented rule)</text>')
    out.append('<text x="80" y="575">Served share = 1 - (dram__bytes_read.sum - streamed bytes) / region bytes read (CUPTI); '
               f'medians of {answer["repetitions"]} launches. Tuned hitRatio = min(1, set-aside / size).</text>')
    out.append("</svg>")
    open(sys.argv[2], "w").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()

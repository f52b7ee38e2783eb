#!/usr/bin/env python3
"""Draws columns of a Markdown table as an SVG line chart: the first column named is the x axis
(log2: message sizes or peer counts), each further one a line.

Usage:
    scripts/plot-table.py FILE --columns "X,Y1,Y2,..." [--after TEXT] [--labels "a,b,..."]
                          [--title T] [--xlabel L] [--ylabel L] [--logy] --svg OUT

FILE is any Markdown with tables: a benchmark's own output (bench-out/*.md of scripts/bench-shm.sh,
scripts/bench-mpi.sh, scripts/bench-eqa-memory.sh) or the record in docs/notes/benchmark-history.md.
The table taken is the first one whose header has every named column, after the first line that
contains TEXT when --after is given. A cell's first number is its value ("0.241 (57.1)" is 0.241,
"23,432" is 23432); sizes such as "8 B", "64 KiB" and "1 MiB" are read as bytes; a cell without a
number leaves that point out. --logy draws the y axis in decades (for figures that span several).
Standard library only; exit code 2 with one line on stderr for bad usage or no such table.
"""
import math
import re
import sys
from xml.sax.saxutils import escape

W, H = 640, 400
LEFT, RIGHT, BOTTOM = 72, 20, 52
FONT = "Helvetica, Arial, DejaVu Sans, sans-serif"
COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf"]
UNITS = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}


class Usage(Exception):
    """Bad usage or unusable input: one line on stderr, exit code 2."""


def cells(line):
    return [c.strip().strip("`*").strip() for c in line.strip().strip("|").split("|")]


def value(text):
    """The cell's first number, a size with its unit in bytes, or None."""
    m = re.match(r"\s*([0-9][0-9,]*(?:\.[0-9]+)?)\s*(B|KiB|MiB|GiB)?\b", text)
    if not m:
        return None
    v = float(m.group(1).replace(",", ""))
    return v * UNITS[m.group(2)] if m.group(2) else v


def find_table(lines, columns, after):
    start = 0
    if after:
        start = next((i for i, l in enumerate(lines) if after in l), None)
        if start is None:
            raise Usage(f"no line contains {after!r}")
    for i in range(start, len(lines) - 1):
        if not lines[i].lstrip().startswith("|") or not re.match(r"\s*\|[\s:|-]+\|\s*$", lines[i + 1]):
            continue
        header = cells(lines[i])
        if all(c in header for c in columns):
            rows = []
            for line in lines[i + 2:]:
                if not line.lstrip().startswith("|"):
                    break
                rows.append(cells(line))
            return header, rows
    raise Usage(f"no table with the columns {', '.join(columns)}" + (f" after {after!r}" if after else ""))


def fmt_size(b):
    for unit, scale in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if b >= scale and b % scale == 0:
            return f"{int(b // scale)} {unit}"
    return f"{b:g} B"


def fmt_y(v):
    for unit, scale in (("M", 1e6), ("k", 1e3)):
        if v >= scale and v >= 1e4:
            return f"{v / scale:g}{unit}"
    return f"{v:g}"


def chart(title, xlabel, ylabel, xs, series, logy, size_axis):
    pw, top = W - LEFT - RIGHT, 44 + 18 * ((len(series) + 2) // 3)
    ph = H - top - BOTTOM
    lx = [math.log2(x) for x in xs]
    lo, hi = min(lx), max(lx)
    pad = (hi - lo) * 0.04 if hi > lo else 1.0
    sx = lambda x: LEFT + (math.log2(x) - lo + pad) / (hi - lo + 2 * pad) * pw
    ys = [y for pts in series.values() for _, y in pts]
    if logy:
        a, b = math.floor(math.log10(min(ys))), math.ceil(math.log10(max(ys)))
        b = b if b > a else a + 1
        yticks = [10.0 ** k for k in range(a, b + 1)]
        sy = lambda y: top + ph - (math.log10(y) - a) / (b - a) * ph
    else:
        t = max(ys) * 1.05
        mag = 10 ** math.floor(math.log10(t / 5))
        step = next(m * mag for m in (1, 2, 2.5, 5, 10) if t / (m * mag) <= 6)
        yticks = [i * step for i in range(math.ceil(t / step - 1e-9) + 1)]
        sy = lambda y: top + ph - y / yticks[-1] * ph
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{W}" height="{H}" '
           f'viewBox="0 0 {W} {H}" font-family="{FONT}" font-size="12" fill="#222">',
           f'<title>{escape(title)}</title>',
           f'<rect x="0" y="0" width="{W}" height="{H}" fill="#ffffff"/>',
           f'<text x="{W / 2}" y="24" text-anchor="middle" font-size="15" font-weight="bold">{escape(title)}</text>']
    for v in yticks:
        y = sy(v)
        out.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + pw}" y2="{y:.1f}" stroke="#e3e3e3"/>')
        out.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{fmt_y(v)}</text>')
    last = -1e9
    for x in xs:
        px = sx(x)
        label = fmt_size(x) if size_axis else f"{x:g}"
        out.append(f'<line x1="{px:.1f}" y1="{top + ph}" x2="{px:.1f}" y2="{top + ph + 5}" stroke="#222"/>')
        if px - last >= 6.5 * len(label) + 8:            # a label that would overlap the last one is left out
            out.append(f'<text x="{px:.1f}" y="{top + ph + 18}" text-anchor="middle" font-size="11">{escape(label)}</text>')
            last = px
    out.append(f'<path d="M{LEFT},{top} V{top + ph} H{LEFT + pw}" fill="none" stroke="#222"/>')
    out.append(f'<text x="{LEFT + pw / 2}" y="{H - 12}" text-anchor="middle" font-size="13">{escape(xlabel)}</text>')
    out.append(f'<text transform="translate(18,{top + ph / 2}) rotate(-90)" text-anchor="middle" '
               f'font-size="13">{escape(ylabel)}</text>')
    for k, (label, pts) in enumerate(series.items()):
        colour = COLOURS[k % len(COLOURS)]
        line = " ".join(f"{sx(x):.1f},{sy(y):.1f}" for x, y in pts)
        out.append(f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="2"/>')
        out.extend(f'<circle cx="{sx(x):.1f}" cy="{sy(y):.1f}" r="3.5" fill="{colour}"/>' for x, y in pts)
        lx0, ly0 = LEFT + (k % 3) * (pw // 3), 44 + 18 * (k // 3)
        out.append(f'<line x1="{lx0}" y1="{ly0}" x2="{lx0 + 26}" y2="{ly0}" stroke="{colour}" stroke-width="2"/>')
        out.append(f'<text x="{lx0 + 32}" y="{ly0 + 4}">{escape(label)}</text>')
    out.append("</svg>\n")
    return "\n".join(out)


def main(argv):
    opts, args = {}, []
    it = iter(argv)
    for a in it:
        if a in ("--columns", "--after", "--labels", "--title", "--xlabel", "--ylabel", "--svg"):
            opts[a[2:]] = next(it, None)
            if opts[a[2:]] is None:
                raise Usage(f"{a} needs a value")
        elif a == "--logy":
            opts["logy"] = True
        elif a.startswith("--"):
            raise Usage(f"unknown option {a}")
        else:
            args.append(a)
    if len(args) != 1 or "columns" not in opts or "svg" not in opts:
        raise Usage("usage: plot-table.py FILE --columns X,Y1,... [--after TEXT] [--labels a,b] "
                    "[--title T] [--xlabel L] [--ylabel L] [--logy] --svg OUT")
    columns = [c.strip() for c in opts["columns"].split(",")]
    if len(columns) < 2:
        raise Usage("--columns needs the x column and at least one more")
    labels = [l.strip() for l in opts["labels"].split(",")] if "labels" in opts else columns[1:]
    if len(labels) != len(columns) - 1:
        raise Usage("--labels needs one label per y column")
    try:
        with open(args[0], encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise Usage(f"cannot read {args[0]}: {e.strerror}")
    header, rows = find_table(lines, columns, opts.get("after"))
    xi = header.index(columns[0])
    series, xs = {}, set()
    for label, col in zip(labels, columns[1:]):
        yi = header.index(col)
        pts = []
        for row in rows:
            if max(xi, yi) >= len(row):
                continue
            x, y = value(row[xi]), value(row[yi])
            if x and y and (y > 0 or not opts.get("logy")):
                pts.append((x, y))
        if pts:
            series[label] = sorted(pts)
            xs.update(x for x, _ in pts)
    if not series:
        raise Usage("the table has no numbers in those columns")
    size_axis = "size" in columns[0].lower() or any(re.search(r"\d\s*(B|KiB|MiB)\b", r[xi]) for r in rows if xi < len(r))
    svg = chart(opts.get("title", ""), opts.get("xlabel", columns[0]), opts.get("ylabel", ""),
                sorted(xs), series, opts.get("logy", False), size_axis)
    with open(opts["svg"], "w", encoding="utf-8") as f:
        f.write(svg)
    print(f"wrote {opts['svg']}: {', '.join(f'{k} ({len(v)} points)' for k, v in series.items())}", file=sys.stderr)


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except Usage as e:
        print(f"plot-table: {e}", file=sys.stderr)
        sys.exit(2)

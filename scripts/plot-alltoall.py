#!/usr/bin/env python3
"""Plots all-to-all broadcast benchmark results as SVG line charts (after the PCODE paper's figures 6-9).

Usage:
    scripts/plot-alltoall.py [--out DIR] RESULTS...     (DIR defaults to docs/img)
    scripts/plot-alltoall.py --self-test

Reads result lines of the form
    alltoall impl=pcode n=8 size=1024 rounds=1000 median_us=123.45 p99_us=456.78 samples=8000 ...
from the RESULTS files and ignores every other line. Lines with a loss=... other than 0, or with a
nack_delay_us=... (the section 6.5 experiment), are left out (separate tables); when an (impl, n, size) repeats, the later line wins. Writes
    alltoall-vs-n-<size>.svg   median time per call against N, one chart per message size
    alltoall-vs-size-n<N>.svg  median time per call against message size (log2 axis), one chart per N
Each implementation is a solid line with markers (median); the same colour dashed is its p99, cut
at the top of the axis (3x the largest median) so that one slow percentile does not flatten the rest.
Standard library only; exit code 2 with one line on stderr for bad usage or no results.
"""
import contextlib
import io
import itertools
import math
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from xml.sax.saxutils import escape

W, H = 640, 400                       # canvas size in px
LEFT, RIGHT, BOTTOM = 68, 20, 52      # plot-area margins (the top one depends on the legend)
FONT = "Helvetica, Arial, DejaVu Sans, sans-serif"
KNOWN = {"pcode": ("#1f77b4", "circle"), "tcp": ("#d62728", "square"), "jgroups": ("#2ca02c", "triangle")}
PALETTE = ["#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"]
SHAPES = ["diamond", "circle", "square", "triangle"]


class Usage(Exception):
    """Bad usage or unusable input: reported as one line on stderr, exit code 2."""


def parse(paths):
    """Returns {(impl, n, size): (median_us, p99_us or None)} from the result lines of the files."""
    results, malformed, lossy, repeated = {}, 0, 0, 0
    for path in paths:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                lines = f.readlines()
        except OSError as e:
            raise Usage(f"cannot read {path}: {e.strerror or e}")
        for line in lines:
            tokens = line.split()
            if not tokens or tokens[0] != "alltoall" or not any("=" in t for t in tokens[1:]):
                continue                                      # not a result line
            kv = dict(t.split("=", 1) for t in tokens[1:] if "=" in t)
            try:
                key = (kv["impl"], int(kv["n"]), int(kv["size"]))
                median = float(kv["median_us"])
                p99 = float(kv["p99_us"]) if "p99_us" in kv else None
                if not key[0] or key[1] < 1 or key[2] < 1 or not (0 <= median < math.inf) \
                        or (p99 is not None and not 0 <= p99 < math.inf):
                    raise ValueError
            except (KeyError, ValueError):
                malformed += 1
                continue
            try:
                lossless = float(kv.get("loss", "0").rstrip("%")) == 0
            except ValueError:
                lossless = False
            if not lossless or "nack_delay_us" in kv:         # lossy and tuning runs are separate tables
                lossy += 1
                continue
            repeated += key in results
            results[key] = (median, p99)
    for count, what in ((malformed, "skipped {} malformed result line(s)"),
                        (lossy, "left out {} result line(s) with loss other than 0 or a NACK-delay setting"),
                        (repeated, "note: {} result(s) repeat an (impl, n, size); the later line is used")):
        if count:
            print("plot-alltoall: " + what.format(count), file=sys.stderr)
    return results


def styles(impls):
    """Colour and marker per implementation: fixed for the known ones, a palette for the others."""
    out = {i: KNOWN[i] for i in KNOWN if i in impls}
    others = sorted(i for i in impls if i not in KNOWN)
    out.update((i, (PALETTE[k % len(PALETTE)], SHAPES[k % len(SHAPES)])) for k, i in enumerate(others))
    return out


def fmt_size(b):
    """20 -> '20 B', 1024 -> '1 KiB', 1536 -> '1.5 KiB', 1048576 -> '1 MiB'."""
    for unit, scale in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if b >= scale and (b % scale == 0 or b >= 10 * scale or b % (scale // 2) == 0):
            return f"{b / scale:.3g} {unit}" if b % scale else f"{b // scale} {unit}"
    return f"{b} B"


def nice_ticks(top):
    """Tick values 0, step, ... covering [0, top] with a 1/2/2.5/5 x 10^k step, about five ticks."""
    top = top if top > 0 else 1.0
    mag = 10 ** math.floor(math.log10(top / 5))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if top / (m * mag) <= 6)
    return [i * step for i in range(math.ceil(top / step - 1e-9) + 1)]


def marker(shape, x, y, colour):
    r = 4
    if shape == "circle":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r}" fill="{colour}"/>'
    if shape == "square":
        return f'<rect x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r}" height="{2 * r}" fill="{colour}"/>'
    pts = [(x, y - r - 1), (x + r + 1, y + r), (x - r - 1, y + r)] if shape == "triangle" \
        else [(x, y - r - 1), (x + r + 1, y), (x, y + r + 1), (x - r - 1, y)]
    return f'<polygon points="{" ".join(f"{a:.1f},{b:.1f}" for a, b in pts)}" fill="{colour}"/>'


def chart(path, title, xlabel, xticks, series, style):
    """Writes one SVG. xticks: [(position, label)] in axis units; series: {impl: [(pos, median, p99)]}."""
    # Legend: one row (wrapping if needed) under the title; widths estimated at ~7 px per character.
    entries = [(impl, impl) for impl in style if impl in series] + [(None, "solid: median, dashed: p99")]
    rows, x = [[]], LEFT
    for entry in entries:
        w = 34 + 7 * len(entry[1]) + 18
        if x + w > W - RIGHT and rows[-1]:
            rows.append([])
            x = LEFT
        rows[-1].append((x, entry))
        x += w
    top = 44 + 18 * len(rows)
    pw, ph = W - LEFT - RIGHT, H - top - BOTTOM
    lo, hi = min(p for p, _ in xticks), max(p for p, _ in xticks)
    pad = (hi - lo) * 0.04 if hi > lo else 1.0
    lo, hi = lo - pad, hi + pad
    # The axis is for the medians; a p99 far above them (a scheduling hiccup on a shared machine)
    # would flatten every median line, so p99 lines are cut at 3x the largest median.
    top_median = max(m for pts in series.values() for _, m, _ in pts)
    ymax = min(max(max(m, p or 0) for pts in series.values() for _, m, p in pts), 3 * top_median)
    yticks = nice_ticks(ymax * 1.05)
    sx = lambda v: LEFT + (v - lo) / (hi - lo) * pw
    sy = lambda v: top + ph - v / yticks[-1] * ph
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{W}" height="{H}" '
           f'viewBox="0 0 {W} {H}" font-family="{FONT}" font-size="12" fill="#222">',
           f'<title>{escape(title)}</title>',
           f'<rect x="0" y="0" width="{W}" height="{H}" fill="#ffffff"/>',
           f'<text x="{W / 2}" y="24" text-anchor="middle" font-size="15" font-weight="bold">{escape(title)}</text>']
    for v in yticks:                                          # horizontal grid and y tick labels
        y = sy(v)
        out.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + pw}" y2="{y:.1f}" stroke="#e3e3e3"/>')
        out.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{v:g}</text>')
    for v, label in xticks:                                   # x ticks at the values present
        x = sx(v)
        out.append(f'<line x1="{x:.1f}" y1="{top + ph}" x2="{x:.1f}" y2="{top + ph + 5}" stroke="#222"/>')
        out.append(f'<text x="{x:.1f}" y="{top + ph + 18}" text-anchor="middle">{escape(label)}</text>')
    out.append(f'<path d="M{LEFT},{top} V{top + ph} H{LEFT + pw}" fill="none" stroke="#222"/>')
    out.append(f'<text x="{LEFT + pw / 2}" y="{H - 12}" text-anchor="middle" font-size="13">{escape(xlabel)}</text>')
    out.append(f'<text transform="translate(18,{top + ph / 2}) rotate(-90)" text-anchor="middle" '
               f'font-size="13">time per call (\u00b5s)</text>')
    for impl, pts in series.items():                          # p99 first, so medians draw on top
        colour, shape = style[impl]
        pts = sorted(pts)
        p99 = " ".join(f"{sx(x):.1f},{sy(min(p, yticks[-1])):.1f}" for x, _, p in pts if p is not None)
        if p99:
            out.append(f'<polyline class="p99" points="{p99}" fill="none" stroke="{colour}" '
                       f'stroke-opacity="0.55" stroke-width="1.2" stroke-dasharray="5,4"/>')
        med = " ".join(f"{sx(x):.1f},{sy(m):.1f}" for x, m, _ in pts)
        out.append(f'<polyline class="median" points="{med}" fill="none" stroke="{colour}" stroke-width="2"/>')
        out.extend(marker(shape, sx(x), sy(m), colour) for x, m, _ in pts)
    for r, row in enumerate(rows):                            # legend
        y = 44 + 18 * r
        for x, (impl, label) in row:
            if impl is None:
                out.append(f'<line x1="{x}" y1="{y}" x2="{x + 26}" y2="{y}" stroke="#555" '
                           f'stroke-width="1.2" stroke-dasharray="5,4"/>')
            else:
                colour, shape = style[impl]
                out.append(f'<line x1="{x}" y1="{y}" x2="{x + 26}" y2="{y}" stroke="{colour}" stroke-width="2"/>')
                out.append(marker(shape, x + 13, y, colour))
            out.append(f'<text x="{x + 32}" y="{y + 4}">{escape(label)}</text>')
    out.append("</svg>\n")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out))


def plot(results, out_dir):
    """Writes every chart for the results and returns the paths written."""
    style = styles({impl for impl, _, _ in results})
    os.makedirs(out_dir, exist_ok=True)
    written = []

    def one(name, title, xlabel, keep, pos, label):
        """One chart of the results that keep(n, size) selects, at x = pos(n, size) labelled label(n, size)."""
        series, ticks = {}, set()
        for (impl, n, size), (m, p) in results.items():
            if keep(n, size):
                series.setdefault(impl, []).append((pos(n, size), m, p))
                ticks.add((pos(n, size), label(n, size)))
        written.append(os.path.join(out_dir, name))
        chart(written[-1], title, xlabel, sorted(ticks), series, style)

    for s in sorted({size for _, _, size in results}):
        one(f"alltoall-vs-n-{s}.svg", f"All-to-all broadcast, {fmt_size(s)} messages: time per call against N",
            "number of machines N", lambda n, size: size == s, lambda n, size: n, lambda n, size: str(n))
    for k in sorted({n for _, n, _ in results}):
        one(f"alltoall-vs-size-n{k}.svg", f"All-to-all broadcast, N = {k}: time per call against message size",
            "message size (log scale)", lambda n, size: n == k, lambda n, size: math.log2(size),
            lambda n, size: fmt_size(size))
    return written


def self_test():
    """Plots synthetic data (with noise lines) into a temp dir and checks every SVG; returns 0 on success."""
    ns, sizes, impls = [2, 3, 4, 8, 16], [20, 256, 1024, 8192], ["pcode", "tcp", "jgroups", "other<&>"]
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "results.txt")
        with open(data, "w") as f:
            f.write("# header line\nalltoall: starting\nalltoall impl=tcp n=x size=20 median_us=1\n")
            for impl, n, s in itertools.product(impls, ns, sizes):
                if impl != "other<&>" or n != 16:                 # "other<&>" misses N = 16
                    m = {"pcode": 45 + n, "tcp": 25 * n, "jgroups": 12 * n + 30}.get(impl, 70) + s / 512
                    f.write(f"alltoall impl={impl} n={n} size={s} rounds=10 median_us={m} p99_us={2 * m}\n")
            f.write("alltoall impl=pcode n=4 size=1024 loss=5 median_us=9999 p99_us=9999\n")
            f.write("alltoall impl=pcode n=4 size=1024 loss=0 median_us=50 p99_us=80\n")   # a repeat
        notes = io.StringIO()
        with contextlib.redirect_stderr(notes):
            results = parse([data])
        assert results[("pcode", 4, 1024)] == (50.0, 80.0), "loss=5 must be left out, the later repeat used"
        assert all(w in notes.getvalue() for w in ("1 malformed", "1 result line(s) with loss", "1 result(s)"))
        written = plot(results, os.path.join(tmp, "out"))
        expected = {f"alltoall-vs-n-{s}.svg" for s in sizes} | {f"alltoall-vs-size-n{n}.svg" for n in ns}
        assert {os.path.basename(p) for p in written} == expected, written
        for path in written:
            lines = ET.parse(path).getroot().findall("{http://www.w3.org/2000/svg}polyline")
            want = 3 if path.endswith("-n16.svg") else 4          # "other<&>" has no N = 16 point
            assert sum(pl.get("class") == "median" for pl in lines) == want, path
            assert sum(pl.get("class") == "p99" for pl in lines) == want, path
        # Bad input or usage: exit code 2, one line on stderr, no traceback.
        empty = os.path.join(tmp, "empty.txt")
        open(empty, "w").close()
        for args in ([empty], [], [os.path.join(tmp, "missing.txt")], ["--bogus", empty], [empty, "--out"]):
            r = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True, cwd=tmp)
            assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, (args, r)
    print(f"plot-alltoall: self-test passed ({len(written)} charts)")
    return 0


def main(argv):
    if argv == ["--self-test"]:
        try:
            return self_test()
        except AssertionError as e:
            print(f"plot-alltoall: self-test FAILED: {e}", file=sys.stderr)
            return 1
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    args, out_dir, files = list(argv), os.path.join("docs", "img"), []
    while args:
        arg = args.pop(0)
        if arg == "--out" and args:
            out_dir = args.pop(0)
        elif arg.startswith("-"):
            raise Usage("--out needs a directory" if arg == "--out" else f"unknown option {arg}")
        else:
            files.append(arg)
    if not files:
        raise Usage("no RESULTS files given")
    results = parse(files)
    if not results:
        raise Usage("no usable 'alltoall impl=... n=... size=... median_us=...' result lines found in "
                    + ", ".join(files))
    for path in plot(results, out_dir):
        print(path)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except Usage as e:
        print(f"plot-alltoall: {e} (usage: scripts/plot-alltoall.py [--out DIR] RESULTS...)", file=sys.stderr)
        sys.exit(2)
    except OSError as e:
        print(f"plot-alltoall: cannot write the charts: {e.strerror or e} ({e.filename})", file=sys.stderr)
        sys.exit(1)

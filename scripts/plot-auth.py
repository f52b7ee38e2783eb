#!/usr/bin/env python3
"""Summarises scripts/bench-auth.sh's results: a Markdown table and an SVG chart of the price of
authentication (this tree's figures over the untagged base's, measurement by measurement).

Usage:
    scripts/plot-auth.py RESULTS [--svg FILE]      (FILE defaults to docs/img/auth-price.svg)

RESULTS holds lines written by bench-auth.sh:
    side=base transport=udp | 8 | 2.234 | 4.812 | 12.138 | 50000 |  |
    side=auth rate=100mbit alltoall impl=pcode n=8 size=1024 rounds=2000 median_us=122.2 p99_us=1873.9 ...
For each measurement and side it takes the median over the runs of the run's median and p99; the
ratio column is auth over base of those, and the paired column the range of run k's auth median over
run k's base median. The chart draws each measurement's median ratio as a bar, with the paired range
as a whisker and a line at 1.05 (the issue's limit). Standard library only; exit 2 with one line on
stderr for bad usage or no results.
"""
import re
import statistics
import sys
from xml.sax.saxutils import escape


def parse(path):
    """{(label): {side: [(median, p99), ...]}} in file order."""
    runs = {}
    order = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"side=(\w+) (?:rate=(\S+) )?(.*)$", line.strip())
            if not m:
                continue
            side, rate, rest = m.group(1), m.group(2), m.group(3)
            if rest.startswith("transport="):
                t = re.match(r"transport=([\w-]+) \|\s*(\d+)\s*\|\s*([\d.]+)\s*\|\s*([\d.]+)\s*\|", rest)
                if not t:
                    continue
                size = int(t.group(2))
                label = "%s ping-pong %s" % (t.group(1), "64 KiB" if size == 65536 else "%d B" % size)
                value = (float(t.group(3)), float(t.group(4)))
            elif rest.startswith("alltoall "):
                kv = dict(p.split("=", 1) for p in rest.split()[1:] if "=" in p)
                label = "pcode all-to-all n=%s %s B%s" % (kv["n"], kv["size"], ", " + rate if rate else "")
                value = (float(kv["median_us"]), float(kv["p99_us"]))
            else:
                continue
            if label not in runs:
                runs[label] = {"base": [], "auth": []}
                order.append(label)
            runs[label].setdefault(side, []).append(value)
    return order, runs


def summarise(order, runs):
    rows = []
    for label in order:
        base, auth = runs[label]["base"], runs[label]["auth"]
        if not base or not auth:
            continue
        bm = statistics.median(v[0] for v in base)
        am = statistics.median(v[0] for v in auth)
        bp = statistics.median(v[1] for v in base)
        ap = statistics.median(v[1] for v in auth)
        paired = [a[0] / b[0] for a, b in zip(auth, base) if b[0] > 0]
        rows.append((label, bm, am, bp, ap, am / bm, min(paired), max(paired), len(paired)))
    return rows


def table(rows):
    out = ["| measurement | base median µs | auth median µs | ratio | paired ratios | base p99 µs | auth p99 µs | runs |",
           "|---|---:|---:|---:|---|---:|---:|---:|"]
    for label, bm, am, bp, ap, r, lo, hi, n in rows:
        out.append("| %s | %.2f | %.2f | **%.2f** | %.2f-%.2f | %.1f | %.1f | %d |" % (label, bm, am, r, lo, hi, bp, ap, n))
    return "\n".join(out)


def svg(rows):
    w, bar, gap, left, top = 720, 22, 10, 250, 40
    h = top + len(rows) * (bar + gap) + 50
    top_ratio = max(2.0, max(r[7] for r in rows) * 1.1)
    x = lambda v: left + (w - left - 30) * v / top_ratio
    s = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">' % (w, h),
         '<rect width="100%" height="100%" fill="white"/>',
         '<text x="20" y="22" font-size="14">The price of authentication: tagged over untagged, median of runs</text>']
    for i, (label, bm, am, bp, ap, r, lo, hi, n) in enumerate(rows):
        y = top + i * (bar + gap)
        colour = "#2a7" if r <= 1.05 else "#d62"
        s.append('<text x="%d" y="%d" text-anchor="end">%s</text>' % (left - 8, y + bar * 0.7, escape(label)))
        s.append('<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"/>' % (x(0), y, x(r) - x(0), bar, colour))
        s.append('<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="black"/>' % (x(lo), x(hi), y + bar / 2, y + bar / 2))
        s.append('<text x="%.1f" y="%d">%.2fx</text>' % (x(max(r, hi)) + 4, y + bar * 0.7, r))
    axis_y = top + len(rows) * (bar + gap)
    for v in [0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0]:
        if v <= top_ratio:
            s.append('<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#ccc"/>' % (x(v), x(v), top - 4, axis_y))
            s.append('<text x="%.1f" y="%d" text-anchor="middle">%g</text>' % (x(v), axis_y + 16, v))
    s.append('<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#d62" stroke-dasharray="4 3"/>' % (x(1.05), x(1.05), top - 4, axis_y))
    s.append('<text x="%.1f" y="%d" fill="#d62">1.05</text>' % (x(1.05) + 3, top - 8))
    s.append('<text x="%d" y="%d">time per operation, tagged / untagged (whisker: run-by-run range)</text>' % (left, axis_y + 36))
    s.append("</svg>")
    return "\n".join(s) + "\n"


def main(argv):
    args = argv[1:]
    out = "docs/img/auth-price.svg"
    if "--svg" in args:
        i = args.index("--svg")
        out = args[i + 1]
        del args[i:i + 2]
    if len(args) != 1:
        print("usage: scripts/plot-auth.py RESULTS [--svg FILE]", file=sys.stderr)
        return 2
    rows = summarise(*parse(args[0]))
    if not rows:
        print("plot-auth: no base and auth pairs in %s" % args[0], file=sys.stderr)
        return 2
    with open(out, "w", encoding="utf-8") as f:
        f.write(svg(rows))
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

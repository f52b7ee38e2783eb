#!/usr/bin/env python3
"""Plots the OSU-style collective latency results of scripts/bench-collectives-box.sh as SVG charts.

Usage:
    scripts/plot-collectives.py [--out DIR] RESULTS...     (DIR defaults to docs/img)
    scripts/plot-collectives.py --tables RESULTS...        (Markdown tables on stdout, no charts)

Reads result lines of the form
    coll impl=openmpi op=bcast n=8 size=256 avg_us=.. median_us=.. p99_us=.. iters=.. samples=..
and ignores every other line; when an (impl, op, n, size) repeats, the later line wins. Writes
    coll-<op>-n<N>.svg      median time per call against message size (log2 axis), one per op and N
    coll-barrier.svg        median time per barrier against N
    coll-bcast-vs-n.svg     bcast at 256 B and 4 KiB against N (the growth the issue bounds): Open MPI,
                            cohort-auto and cohort-bcast only, so that the lines stay readable
with the chart style of scripts/plot-alltoall.py (solid median, dashed p99), which it reuses.
--tables prints, per operation and N, the median (p99) of every implementation by size, and the
ratios of Cohort's default (cohort-auto) to Open MPI and to MPJ Express, for docs/benchmarks.md.
Standard library only; exit code 2 with one line on stderr for bad usage or no results.
"""
import importlib.util
import math
import os
import sys

_spec = importlib.util.spec_from_file_location(
    "plot_alltoall", os.path.join(os.path.dirname(os.path.abspath(__file__)), "plot-alltoall.py"))
base = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(base)


def parse(paths):
    """Returns {(impl, op, n, size): (median_us, p99_us)} from the coll result lines of the files."""
    results, malformed = {}, 0
    for path in paths:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                lines = f.readlines()
        except OSError as e:
            raise base.Usage(f"cannot read {path}: {e.strerror or e}")
        for line in lines:
            tokens = line.split()
            if not tokens or tokens[0] != "coll":
                continue
            kv = dict(t.split("=", 1) for t in tokens[1:] if "=" in t)
            try:
                key = (kv["impl"], kv["op"], int(kv["n"]), int(kv["size"]))
                median, p99 = float(kv["median_us"]), float(kv["p99_us"])
                if not (0 <= median < math.inf and 0 <= p99 < math.inf) or key[2] < 1 or key[3] < 0:
                    raise ValueError
            except (KeyError, ValueError):
                malformed += 1
                continue
            results[key] = (median, p99)
    if malformed:
        print(f"plot-collectives: skipped {malformed} malformed result line(s)", file=sys.stderr)
    return results


def plot(results, out_dir):
    style = base.styles({impl for impl, _, _, _ in results})
    os.makedirs(out_dir, exist_ok=True)
    written = []

    def one(name, title, xlabel, keep, pos, label, impls=None):
        series, ticks = {}, set()
        for (impl, op, n, size), (m, p) in results.items():
            if keep(op, n, size) and (impls is None or impl in impls):
                tag = impl if name != "coll-bcast-vs-n.svg" else f"{impl} {base.fmt_size(size)}"
                series.setdefault(tag, []).append((pos(n, size), m, p))
                ticks.add((pos(n, size), label(n, size)))
        if not series:
            return
        for tag in series:
            if tag not in style:
                style.update(base.styles(set(style) | {tag}))
        written.append(os.path.join(out_dir, name))
        base.chart(written[-1], title, xlabel, sorted(ticks), series, style)

    ops = sorted({op for _, op, _, _ in results if op != "barrier"})
    for op in ops:
        for k in sorted({n for _, o, n, _ in results if o == op}):
            one(f"coll-{op}-n{k}.svg", f"{op}, N = {k}: time per call against message size",
                "message size (log scale)", lambda o, n, size, op=op, k=k: o == op and n == k and size > 0,
                lambda n, size: math.log2(size), lambda n, size: base.fmt_size(size))
    one("coll-barrier.svg", "barrier: time per call against N", "number of hosts N",
        lambda o, n, size: o == "barrier", lambda n, size: n, lambda n, size: str(n))
    one("coll-bcast-vs-n.svg", "bcast at 256 B and 4 KiB: time per call against N", "number of hosts N",
        lambda o, n, size: o == "bcast" and size in (256, 4096), lambda n, size: n, lambda n, size: str(n),
        impls={"openmpi", "cohort-auto", "cohort-bcast"})
    return written


IMPL_ORDER = ["openmpi", "mpj", "cohort-p2p", "cohort-bcast", "cohort-auto"]


def tables(results):
    """Markdown: one table per (op, N), sizes as rows, medians (p99) and ratios as columns."""
    impls = sorted({i for i, _, _, _ in results}, key=lambda i: (IMPL_ORDER + [i]).index(i))
    out = []
    for op in sorted({o for _, o, _, _ in results}):
        for n in sorted({k for _, o, k, _ in results if o == op}):
            out.append(f"**{op}, N = {n}**: median (p99) in µs\n")
            head = ["size"] + impls + ["auto / Open MPI", "auto / MPJ"]
            out.append("| " + " | ".join(head) + " |")
            out.append("|" + "---:|" * len(head))
            for size in sorted({z for _, o, k, z in results if o == op and k == n}):
                row = [base.fmt_size(size) if size else "-"]
                for i in impls:
                    r = results.get((i, op, n, size))
                    row.append(f"{r[0]:.0f} ({r[1]:.0f})" if r else "")
                a = results.get(("cohort-auto", op, n, size))
                for other in ("openmpi", "mpj"):
                    o = results.get((other, op, n, size))
                    row.append(f"{a[0] / o[0]:.2f}" if a and o and o[0] > 0 else "")
                out.append("| " + " | ".join(row) + " |")
            out.append("")
    return "\n".join(out)


def main(argv):
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    args, out_dir, files, want_tables = list(argv), os.path.join("docs", "img"), [], False
    while args:
        arg = args.pop(0)
        if arg == "--tables":
            want_tables = True
        elif arg == "--out" and args:
            out_dir = args.pop(0)
        elif arg.startswith("-"):
            raise base.Usage("--out needs a directory" if arg == "--out" else f"unknown option {arg}")
        else:
            files.append(arg)
    if not files:
        raise base.Usage("no RESULTS files given")
    results = parse(files)
    if not results:
        raise base.Usage("no usable 'coll impl=... op=... n=... size=... median_us=... p99_us=...' lines in "
                         + ", ".join(files))
    if want_tables:
        print(tables(results))
        return 0
    for path in plot(results, out_dir):
        print(path)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except base.Usage as e:
        print(f"plot-collectives: {e} (usage: scripts/plot-collectives.py [--out DIR] RESULTS...)", file=sys.stderr)
        sys.exit(2)
    except OSError as e:
        print(f"plot-collectives: cannot write the charts: {e.strerror or e} ({e.filename})", file=sys.stderr)
        sys.exit(1)

#!/usr/bin/env python3
"""Markdown tables of scripts/bench-mpi.sh's results (issue 9), for docs/benchmarks.md.

Usage: scripts/lib/bench-mpi-table.py RESULTS.txt > RESULTS.md

Reads the lines
    osu impl=.. op=latency|bw|bcast|allreduce n=.. buffer=.. size=.. median_us=.. p99_us=.. [mibps=.. mibps_p99=..] ... idle=.. rep=..
and ignores every other line. For every figure (impl, idle, op, n, buffer, size) it takes the
median over the repetitions of the run's median and p99 (latency, collectives: microseconds) or of
its MiB/s over the median and over the p99 window (bw). A table per op, n, buffer kind and Cohort
idle strategy: one column per implementation (Open MPI's and MPJ's runs have no idle strategy and
appear in every idle table), "median (p99)", then the ratios the issue's targets are about:
  mpi/cohort     cohort-mpi over Cohort's own API, same idle strategy (target: at most 1.05);
  mpi/ompi       cohort-mpi over the Open MPI Java bindings (latency: at most 1; bw: above 1);
  mpj/mpi        MPJ Express over cohort-mpi (latency: at least 2; bw: the inverse, cohort-mpi / MPJ,
                 at least 2);
  cmpj/mpj       cohort-mpj over MPJ Express, when cohort-mpj ran.
Latency ratios are of medians (time: below 1 is the first faster); bandwidth ratios of MiB/s
(above 1 is the first faster). Under each table, the range of mpi/cohort. Standard library only.
"""
import collections
import statistics
import sys

IMPLS = ["cohort", "cohort-mpi", "ompi-java", "mpj", "cohort-mpj"]


def parse(path):
    runs = collections.defaultdict(list)  # key -> [(a, b)] one per repetition
    header = []
    with open(path) as f:
        for line in f:
            if line.startswith("# ") and not line.startswith("# FAILED"):
                header.append(line[2:].strip())
            if not line.startswith("osu "):
                continue
            kv = dict(p.split("=", 1) for p in line.split()[1:] if "=" in p)
            op = kv["op"]
            if op == "bw":
                fig = (float(kv["mibps"]), float(kv["mibps_p99"]))
            else:
                fig = (float(kv["median_us"]), float(kv["p99_us"]))
            key = (op, int(kv["n"]), kv["buffer"], kv["impl"], kv.get("idle", "-"), int(kv["size"]))
            runs[key].append(fig)
    return header, {k: (statistics.median(a for a, _ in v), statistics.median(b for _, b in v), len(v))
                    for k, v in runs.items()}


def fmt(x):
    return f"{x:.0f}" if x >= 100 else f"{x:.1f}" if x >= 10 else f"{x:.2f}" if x >= 1 else f"{x:.3f}"


def size_name(s):
    if s >= 1 << 20 and s % (1 << 20) == 0:
        return f"{s >> 20} MiB"
    if s >= 1024 and s % 1024 == 0:
        return f"{s >> 10} KiB"
    return f"{s} B"


def main(argv):
    if len(argv) != 2:
        print("usage: bench-mpi-table.py RESULTS.txt", file=sys.stderr)
        return 2
    header, figs = parse(argv[1])
    if not figs:
        print(f"bench-mpi-table: no result lines in {argv[1]}", file=sys.stderr)
        return 2
    out = ["Results of `scripts/bench-mpi.sh`: " + "; ".join(header), ""]
    ops = ["latency", "bw", "bcast", "allreduce"]
    groups = sorted({(k[0], k[1], k[2]) for k in figs}, key=lambda g: (ops.index(g[0]), g[1], g[2]))
    for op, n, buffer in groups:
        idles = sorted({k[4] for k in figs if k[:3] == (op, n, buffer) and k[4] != "-"}) or ["-"]
        for idle in idles:
            def get(impl, size):
                own = figs.get((op, n, buffer, impl, idle, size))
                return own if own is not None else figs.get((op, n, buffer, impl, "-", size))

            impls = [i for i in IMPLS if any(get(i, k[5]) for k in figs if k[:3] == (op, n, buffer))]
            sizes = sorted({k[5] for k in figs if k[:3] == (op, n, buffer)})
            bw = op == "bw"
            unit = "MiB/s over the median window (over the p99 window)" if bw else "median (p99) in µs"
            what = {"latency": "half round trip", "bw": "64-message windows", "bcast": "bcast from rank 0",
                    "allreduce": "allreduce of doubles, SUM"}[op]
            kind = "arrays" if buffer == "array" else "direct ByteBuffers"
            out.append(f"**{op}, N = {n}, {kind}, Cohort idle {idle}** ({what}): {unit}")
            out.append("")
            ratios = [("mpi/cohort", "cohort-mpi", "cohort"), ("mpi/ompi", "cohort-mpi", "ompi-java"),
                      ("mpi/mpj", "cohort-mpi", "mpj") if bw else ("mpj/mpi", "mpj", "cohort-mpi"),
                      ("cmpj/mpj", "cohort-mpj", "mpj")]
            ratios = [r for r in ratios if r[1] in impls and r[2] in impls]
            out.append("| size | " + " | ".join(impls) + " | " + " | ".join(r[0] for r in ratios) + " | reps |")
            out.append("|---:|" + "---:|" * (len(impls) + len(ratios)) + "---:|")
            compat = []
            for s in sizes:
                cells, reps = [], set()
                for i in impls:
                    f = get(i, s)
                    cells.append(f"{fmt(f[0])} ({fmt(f[1])})" if f else "")
                    if f:
                        reps.add(f[2])
                rc = []
                for name, a, b in ratios:
                    fa, fb = get(a, s), get(b, s)
                    if fa and fb and fb[0] > 0:
                        rc.append(f"{fa[0] / fb[0]:.2f}")
                        if name == "mpi/cohort":
                            compat.append((fa[0] / fb[0], s))
                    else:
                        rc.append("")
                out.append(f"| {size_name(s)} | " + " | ".join(cells) + " | " + " | ".join(rc)
                           + " | " + ",".join(str(x) for x in sorted(reps)) + " |")
            out.append("")
            if compat:
                lo, hi = min(compat), max(compat)
                good = (lambda r: r >= 1 / 1.05) if bw else (lambda r: r <= 1.05)
                out.append(f"mpi/cohort from {lo[0]:.2f} ({size_name(lo[1])}) to {hi[0]:.2f} ({size_name(hi[1])}); "
                           f"within 5 % at {sum(1 for r, _ in compat if good(r))} of {len(compat)} sizes.")
                out.append("")
    failed = []
    with open(argv[1]) as f:
        failed = [line.strip() for line in f if line.startswith("# FAILED")]
    if failed:
        out.append("Failed runs: " + "; ".join(failed))
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

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
(above 1 is the first faster). Under each table, the range of mpi/cohort.

When the run was probed (lines "probe end_ms=.. rtt_ns=..", CoreDistanceProbe), every result line
whose end_ms and span_ms place it in time gets the machine's mode while it was taken: "fast" when
every probe in its span timed a round trip between processors 0 and 1 under FAST_NS, "slow" when
every one timed FAST_NS or more, "mixed" otherwise (a span shorter than the probe's period takes
the nearest probe within one period). A last section then gives the point-to-point figures at
N = 2 with arrays per mode: the median over the repetitions taken in that mode, how many there
were, and the ratio to MPJ Express within the mode. Standard library only.
"""
import bisect
import collections
import statistics
import sys

IMPLS = ["cohort", "cohort-mpi", "ompi-java", "mpj", "cohort-mpj"]
# The round trip that separates the modes: on the machine of docs/benchmarks.md, 100-230 ns while
# the two processors share a cache, 350-600 ns while they do not.
FAST_NS = 300
PROBE_PERIOD_MS = 200


def mode_of(kv, probes, times):
    """fast, slow, mixed, or None: the machine's mode while the line's samples were taken.

    probes: (end_ms, rtt_ns) sorted by time; times: their end_ms alone, for bisect."""
    if not probes or "end_ms" not in kv or "span_ms" not in kv:
        return None
    end = int(kv["end_ms"])
    start = end - int(kv["span_ms"])
    lo, hi = bisect.bisect_left(times, start), bisect.bisect_right(times, end)
    rtts = [r for _, r in probes[lo:hi]]
    if not rtts:
        mid = (start + end) / 2
        near = [probes[i] for i in (lo - 1, lo) if 0 <= i < len(probes)]
        near = min(near, key=lambda p: abs(p[0] - mid))
        if abs(near[0] - mid) > PROBE_PERIOD_MS:
            return None
        rtts = [near[1]]
    if all(r < FAST_NS for r in rtts):
        return "fast"
    if all(r >= FAST_NS for r in rtts):
        return "slow"
    return "mixed"


def parse(path):
    runs = collections.defaultdict(list)  # key -> [(a, b)] one per repetition
    modes = collections.defaultdict(list)  # key -> [(mode, a)] one per repetition
    header = []
    probes = []
    with open(path) as f:
        lines = f.readlines()
    for line in lines:
        if line.startswith("probe "):
            kv = dict(p.split("=", 1) for p in line.split()[1:] if "=" in p)
            try:
                probes.append((int(kv["end_ms"]), int(kv["rtt_ns"])))
            except (KeyError, ValueError):
                print(f"bench-mpi-table: skipping a malformed probe line: {line.strip()[:100]}", file=sys.stderr)
    probes.sort()
    times = [t for t, _ in probes]
    for line in lines:
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
        mode = mode_of(kv, probes, times)
        if mode:
            modes[key].append((mode, fig[0]))
    figs = {k: (statistics.median(a for a, _ in v), statistics.median(b for _, b in v), len(v))
            for k, v in runs.items()}
    return header, figs, modes, probes


def fmt(x):
    return f"{x:.0f}" if x >= 100 else f"{x:.1f}" if x >= 10 else f"{x:.2f}" if x >= 1 else f"{x:.3f}"


def size_name(s):
    if s >= 1 << 20 and s % (1 << 20) == 0:
        return f"{s >> 20} MiB"
    if s >= 1024 and s % 1024 == 0:
        return f"{s >> 10} KiB"
    return f"{s} B"


def mode_tables(modes, probes):
    """The point-to-point figures at N = 2 with arrays, per machine mode, beside MPJ Express's."""
    out = []
    rtts = sorted(r for _, r in probes)
    slow = sum(1 for r in rtts if r >= FAST_NS)
    counts = collections.Counter(m for v in modes.values() for m, _ in v)
    out.append(f"**By the machine's mode** ({len(rtts)} probes of the round trip between processors 0 and 1,"
               f" {slow} of them {FAST_NS} ns or more, median {statistics.median(rtts)} ns; result lines taken"
               f" fast {counts['fast']}, slow {counts['slow']}, mixed {counts['mixed']}). Per mode: the median over"
               " the repetitions taken in it (how many), and MPJ Express over cohort-mpi in time (latency) or"
               " cohort-mpi over MPJ in MiB/s (bw) within the mode.")
    out.append("")
    for op in ("latency", "bw"):
        idles = sorted({k[4] for k in modes if k[0] == op and k[1] == 2 and k[2] == "array" and k[4] != "-"})
        for idle in idles:
            def med(impl, size, mode):
                v = [x for m, x in modes.get((op, 2, "array", impl, idle if impl.startswith("cohort") else "-", size), [])
                     if m == mode]
                return (statistics.median(v), len(v)) if v else None

            sizes = sorted({k[5] for k in modes if k[0] == op and k[1] == 2 and k[2] == "array"})
            if not any(med("mpj", s, m) for s in sizes for m in ("fast", "slow")):
                continue
            unit = "MiB/s" if op == "bw" else "median µs"
            out.append(f"*{op}, N = 2, arrays, Cohort idle {idle}, {unit} by mode*")
            out.append("")
            out.append("| size | cohort-mpi fast | cohort-mpi slow | mpj fast | mpj slow | ratio fast | ratio slow |")
            out.append("|---:|---:|---:|---:|---:|---:|---:|")
            for s in sizes:
                cells, ratios = [], []
                for impl in ("cohort-mpi", "mpj"):
                    for mode in ("fast", "slow"):
                        f = med(impl, s, mode)
                        cells.append(f"{fmt(f[0])} ({f[1]})" if f else "")
                for mode in ("fast", "slow"):
                    a, b = med("cohort-mpi", s, mode), med("mpj", s, mode)
                    if a and b and a[0] > 0 and b[0] > 0:
                        ratios.append(f"{a[0] / b[0]:.2f}" if op == "bw" else f"{b[0] / a[0]:.2f}")
                    else:
                        ratios.append("")
                out.append(f"| {size_name(s)} | " + " | ".join(cells) + " | " + " | ".join(ratios) + " |")
            out.append("")
    return out


def main(argv):
    if len(argv) != 2:
        print("usage: bench-mpi-table.py RESULTS.txt", file=sys.stderr)
        return 2
    header, figs, modes, probes = parse(argv[1])
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
    if modes:
        out.extend(mode_tables(modes, probes))
    failed = []
    with open(argv[1]) as f:
        failed = [line.strip() for line in f if line.startswith("# FAILED")]
    if failed:
        out.append("Failed runs: " + "; ".join(failed))
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

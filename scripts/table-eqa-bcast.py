#!/usr/bin/env python3
"""Turns runs of scripts/bench-collectives-box.sh (op bcast, one file per link rate) into the
Markdown tables of docs/benchmarks.md's EQA section: EQA's bcast beside the PCODE domain's, Cohort's
binomial tree over TCP, Open MPI and MPJ Express.

Usage:
    scripts/table-eqa-bcast.py RESULTS...

Each file's header line "# peers=... rate=R" names its rate (full where there is none). Prints, per
rate, a table of medians in microseconds by N and size (p99 in brackets), with EQA over Open MPI;
then, per rate and size, EQA's growth from N = 2 to N = 8 (the EQA paper's +16 %); then the processor
time per bcast summed over all peers (cpu_us: call and barrier) at the largest N of each rate; and,
where the files hold the memory runs' lines ("# impl=... n=N: cohort: ...'s eqa domain: rank 0 held at
most B B for retransmission (shared buffer, ..."), the sender's retransmission memory by N, shared
buffer against one buffer per channel.
Standard library only; exit code 2 with one line on stderr for bad usage or no results.
"""
import re
import sys

# Cohort's bcast over each domain is forced (@bcast_domain) and its barrier left to AUTO, which picks
# the same point-to-point barrier as p2p's, so that the loops differ in the bcast alone.
IMPLS = [("cohort-auto:eqa@bcast_domain", "EQA"), ("cohort-auto@bcast_domain", "PCODE domain"),
         ("cohort-p2p", "binomial tree, TCP"),
         ("openmpi", "Open MPI"), ("mpj", "MPJ Express")]


class Usage(Exception):
    """Bad usage or unusable input: one line on stderr, exit code 2."""


def fmt_size(b):
    for unit, k in (("KiB", 1 << 10), ("B", 1)):
        if b >= k and b % k == 0:
            return f"{b // k} {unit}"
    return f"{b} B"


MEMORY = re.compile(r"# impl=\S+ op=bcast n=(\d+): .*eqa domain: rank 0 held at most (\d+) B for retransmission"
                    r" \((shared|per-channel) buffer")


def parse(paths):
    """Returns ({rate: {(impl, n, size): {field: value}}}, {(design, n): bytes}) from the files' lines."""
    runs, memory = {}, {}
    for path in paths:
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                lines = f.read().splitlines()
        except OSError as e:
            raise Usage(f"cannot read {path}: {e.strerror or e}")
        rate = "full"
        for line in lines:
            m = MEMORY.match(line)
            if m:
                memory[(m.group(3), int(m.group(1)))] = int(m.group(2))
                continue
            m = re.match(r"# peers=.* rate=(\S+)", line)
            if m:
                rate = m.group(1)
            if not line.startswith("coll ") or " op=bcast " not in line:
                continue
            f = dict(kv.split("=", 1) for kv in line.split()[1:] if "=" in kv)
            try:
                key = (f["impl"], int(f["n"]), int(f["size"]))
                runs.setdefault(rate, {})[key] = {k: float(f[k]) for k in ("median_us", "p99_us", "cpu_us") if k in f}
            except (KeyError, ValueError):
                continue
    if not runs and not memory:
        raise Usage("no bcast result lines in " + ", ".join(paths))
    return runs, memory


def cell(r, digits=1):
    if r is None:
        return "-"
    return f"{r['median_us']:,.{digits}f} ({r['p99_us']:,.{digits}f})"


def main(argv):
    if not argv or any(a.startswith("-") for a in argv):
        raise Usage("usage: table-eqa-bcast.py RESULTS...")
    runs, memory = parse(argv)
    order = sorted(runs, key=lambda r: (r == "full", float(re.sub(r"[^0-9.]", "", r) or 0)))
    for rate in order:
        res = runs[rate]
        present = [(i, name) for i, name in IMPLS if any(k[0] == i for k in res)]
        print(f"\nbcast, median (p99) in µs, links at {rate if rate != 'full' else 'full rate'}:\n")
        print("| N | size | " + " | ".join(name for _, name in present) + " | EQA / Open MPI |")
        print("|---:|---:|" + "---:|" * len(present) + "---:|")
        for n, size in sorted({(k[1], k[2]) for k in res}):
            row = [cell(res.get((i, n, size))) for i, _ in present]
            eqa, ompi = res.get((IMPLS[0][0], n, size)), res.get(("openmpi", n, size))
            ratio = f"{eqa['median_us'] / ompi['median_us']:.2f}" if eqa and ompi else "-"
            print(f"| {n} | {fmt_size(size)} | " + " | ".join(row) + f" | {ratio} |")
    print("\nEQA's growth from N = 2 to N = 8 (median at 8 over median at 2):\n")
    print("| rate | size | EQA | Open MPI | binomial tree, TCP |")
    print("|---|---:|---:|---:|---:|")
    for rate in order:
        res = runs[rate]
        for size in sorted({k[2] for k in res}):
            def growth(impl):
                a, b = res.get((impl, 2, size)), res.get((impl, 8, size))
                return f"{b['median_us'] / a['median_us']:.2f}" if a and b else "-"
            print(f"| {rate} | {fmt_size(size)} | {growth(IMPLS[0][0])} | {growth('openmpi')} | {growth('cohort-p2p')} |")
    print("\nprocessor time per bcast and barrier, all peers together, µs (cpu_us), at each rate's largest N:\n")
    for rate in order:
        res = runs[rate]
        n = max(k[1] for k in res)
        present = [(i, name) for i, name in IMPLS if any(k[0] == i and k[1] == n for k in res)]
        print(f"{rate}, N = {n}:\n")
        print("| size | " + " | ".join(name for _, name in present) + " |")
        print("|---:|" + "---:|" * len(present))
        for size in sorted({k[2] for k in res if k[1] == n}):
            vals = []
            for i, _ in present:
                r = res.get((i, n, size))
                vals.append(f"{r['cpu_us']:,.0f}" if r and r.get("cpu_us", -1) >= 0 else "-")
            print(f"| {fmt_size(size)} | " + " | ".join(vals) + " |")
        print()
    if memory:
        print("the sender's retransmission memory, 64 KiB bcasts, bytes (EQA paper 4.2):\n")
        print("| N | shared buffer (EQA) | one buffer per channel | shared / per-channel |")
        print("|---:|---:|---:|---:|")
        for n in sorted({k[1] for k in memory}):
            a, b = memory.get(("shared", n)), memory.get(("per-channel", n))
            ratio = f"{a / b:.3f}" if a and b else "-"
            print(f"| {n} | {f'{a:,}' if a is not None else '-'} | {f'{b:,}' if b is not None else '-'} | {ratio} |")


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except Usage as e:
        print(f"table-eqa-bcast: {e}", file=sys.stderr)
        sys.exit(2)

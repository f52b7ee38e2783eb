#!/usr/bin/env bash
# EQA's bcast in real jobs on the cluster in a box (issue 44), beside the PCODE domain's bcast,
# Cohort's binomial tree over TCP, Open MPI 4.1.4 and MPJ Express 0.44: scripts/bench-collectives-box.sh
# once per link rate (10 Mb/s and 100 Mb/s per host, the regime of the EQA paper's cluster, then
# full rate), one peer per host, then the sender's retransmission memory in real jobs (EQA's shared
# buffer against one buffer per channel). Needs root (the box).
#
#   scripts/bench-eqa-box.sh [--peers "2 4 8"] [--sizes 8,1024,16384,65536] [--rates full,100mbit,10mbit]
#                            [--memory-peers "2 4 8 16"] [--out DIR]
#
# Iterations shrink as the links slow (a 64 KiB bcast takes 50 ms and more at 10 Mb/s): full rate
# 500 timed after 200 warm-up and 2000 pre-warm calls, 100 Mb/s 200/50/500, 10 Mb/s 60/15/200. Each
# rate's lines go to DIR/bcast-RATE.txt (default DIR: bench-out/eqa-box-<time>), the memory runs'
# to DIR/memory-shared.txt and DIR/memory-per-channel.txt; at the end
# scripts/table-eqa-bcast.py prints the tables of docs/benchmarks.md from them.
set -euo pipefail
cd "$(dirname "$0")/.."
peers="2 4 8" sizes=8,1024,16384,65536 rates=full,100mbit,10mbit memory_peers="2 4 8 16" out=""
die() { echo "bench-eqa-box: $*" >&2; exit 2; }
while (($#)); do
  case $1 in
    --peers | --sizes | --rates | --memory-peers | --out) (($# >= 2)) || die "$1 needs a value" ;;
  esac
  case $1 in
    --peers) peers=$2; shift ;;
    --sizes) sizes=$2; shift ;;
    --rates) rates=$2; shift ;;
    --memory-peers) memory_peers=$2; shift ;;
    --out) out=$2; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
  shift
done
for r in ${rates//,/ }; do [[ $r =~ ^(full|[1-9][0-9]*(kbit|mbit|gbit))$ ]] || die "--rates wants full or a link speed such as 100mbit, not '$r'"; done
out=${out:-bench-out/eqa-box-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"
failed=0
for r in ${rates//,/ }; do
  case $r in
    full) it=(--iters 500 --warmup 200 --prewarm 2000) ;;
    10mbit) it=(--iters 60 --warmup 15 --prewarm 200) ;;
    *) it=(--iters 200 --warmup 50 --prewarm 500) ;;
  esac
  rate=()
  [[ $r == full ]] || rate=(--rate "$r")
  scripts/bench-collectives-box.sh --ops bcast --impls openmpi,mpj,cohort --modes p2p,auto@bcast_domain,auto:eqa@bcast_domain \
    --peers "$peers" --sizes "$sizes" "${it[@]}" "${rate[@]}" --timeout 1200 --out "$out/bcast-$r.txt" || failed=1
done
# The sender's retransmission memory: rank 0 bcasts 64 KiB 300 times; --verbose says what its domain held.
for design in shared per_channel; do
  BENCH_COHORT_JVM_OPTS="-Dcohort.eqa.bufferDesign=$design" scripts/bench-collectives-box.sh --ops bcast --impls cohort \
    --modes auto:eqa@bcast_domain --peers "$memory_peers" --sizes 65536 --iters 300 --warmup 0 --prewarm 0 --timeout 600 \
    --out "$out/memory-${design/_/-}.txt" || failed=1
done
scripts/table-eqa-bcast.py "$out"/bcast-*.txt "$out"/memory-*.txt | tee "$out/tables.md"
exit "$failed"

#!/usr/bin/env bash
# How late a waiting peer sees a message that comes after a pause (docs/notes/benchmark-history.md, "Waking a
# waiting peer"): io.cohort.bench.IdleWakeJob, 2 peers on this host, rank 0 pausing GAP ms before
# each send. Three variants, run alternately so machine noise hits each alike:
#   shm-doorbell  shared memory, the receiver sleeping on its doorbell (the default);
#   shm-timer     shared memory with -Dcohort.shm.doorbell=false: the receiver parks on a timer
#                 (what every shared-memory peer did before the doorbell);
#   tcp           TCP, the receiver sleeping in its selector (the kernel's own wake-up, the baseline).
# Then, to show the doorbell costs busy peers nothing, the 8-byte shared-memory ping-pong
# (OsuStyleJob latency, backoff) and the 4-peer allreduce, doorbell on and off, alternately.
#
#   scripts/bench-idle-wake.sh [--runs 3] [--rounds 100] [--gap 20]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
runs=3 rounds=100 gap=20
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --gap) gap=$2; shift 2 ;;
    *) echo "usage: $0 [--runs K] [--rounds R] [--gap MILLIS]" >&2; exit 2 ;;
  esac
done
cd "$root"
./cohort run -n 2 --example hello >/dev/null   # builds on first use; not timed
[ -d cohort-bench/target/classes/io/cohort/bench ] || mvn -q package -DskipTests -pl cohort-bench -am
bench=cohort-bench/target/classes
for ((i = 1; i <= runs; i++)); do
  ./cohort run -n 2 --transport shm -cp "$bench" io.cohort.bench.IdleWakeJob "$rounds" "$gap" shm-doorbell | grep '^idle-wake'
  ./cohort run -n 2 --transport shm --jvm-opt -Dcohort.shm.doorbell=false -cp "$bench" \
    io.cohort.bench.IdleWakeJob "$rounds" "$gap" shm-timer | grep '^idle-wake'
  ./cohort run -n 2 --transport tcp -cp "$bench" io.cohort.bench.IdleWakeJob "$rounds" "$gap" tcp | grep '^idle-wake'
done
for ((i = 1; i <= runs; i++)); do
  for bell in true false; do
    ./cohort run -n 2 --transport shm --jvm-opt -Dcohort.shm.doorbell=$bell -cp "$bench" io.cohort.bench.OsuStyleJob \
      latency --sizes 8,1024 --impl "doorbell=$bell" | grep '^osu'
    ./cohort run -n 4 --transport shm --jvm-opt -Dcohort.shm.doorbell=$bell -cp "$bench" io.cohort.bench.OsuStyleJob \
      allreduce --sizes 8 --iters 2000 --warmup 500 --prewarm-seconds 1 --impl "doorbell=$bell" | grep '^osu'
  done
done

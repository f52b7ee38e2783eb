#!/usr/bin/env bash
# The PCODE paper's all-to-all broadcast benchmark (sections 6.2-6.5) on the cluster in a box: one
# peer per host (network namespace), all hosts on one bridge. Needs root (it makes the box).
#
#   scripts/bench-alltoall-box.sh [--quick] [--rounds R] [--peers "2 3 4 8 16"] [--sizes 20,256,1024,8192]
#                                 [--rate 100mbit] [--out FILE]
#
# For each N: one job runs PCODE (the job's broadcast domain, UDP multicast) and the paper's TCP
# baseline (Cohort's TCP transport, a multicast = N-1 sends) side by side, size by size; then a
# second job runs JGroups (NAKACK2 over UDP multicast) doing the same exchange. Then, at N = 8 and
# 1 KiB, PCODE under 1% and 5% kernel loss on every host (nftables), and the request-NACK delay
# experiment (section 6.5). Every line is "alltoall impl=... n=... size=... median_us=... ...";
# all of them go to FILE (default bench-out/alltoall-box-<time>.txt), and the plots to docs/img
# (scripts/plot-alltoall.py). --quick: N = 2, 4; 20 B and 1 KiB; 200 rounds; no loss runs.
# --rate R gives every host a NIC of speed R (cluster-in-a-box --rate: a token bucket on what it
# sends), so the medium, not the shared CPUs, limits the exchange as on the paper's Ethernet; its
# lines carry rate=R, its plots go to docs/img/rate-R, and the loss and NACK-delay runs are skipped.
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=1000 peers="2 3 4 8 16" sizes=20,256,1024,8192 out="" quick=0 rate=""
while (($#)); do
  case $1 in
    --quick) quick=1 rounds=200 peers="2 4" sizes=20,1024 ;;
    --rounds) rounds=$2; shift ;;
    --peers) peers=$2; shift ;;
    --sizes) sizes=$2; shift ;;
    --out) out=$2; shift ;;
    --rate) rate=$2; shift ;;
    *) echo "bench-alltoall-box: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done
[[ $(id -u) == 0 ]] || { echo "bench-alltoall-box: needs root to make the cluster in a box" >&2; exit 2; }
max=0
for n in $peers; do ((n > max)) && max=$n; done
if [[ -z "$out" ]]; then mkdir -p bench-out; out="bench-out/alltoall-box-$(date +%Y%m%d-%H%M%S).txt"; fi

mvn -q -pl cohort-bench -am package -DskipTests
jar=$(ls cohort-bench/target/cohort-bench-*.jar | grep -v -- '-sources' | head -n1)
cp="$PWD/$jar:$PWD/cohort-bench/target/lib/*"

box=pcb
scripts/cluster-in-a-box up "$max" --name "$box" --owner $$ ${rate:+--rate "$rate"} >/dev/null
trap 'scripts/cluster-in-a-box down --name "$box" >/dev/null' EXIT
hosts() { local h="" i; for ((i = 1; i <= $1; i++)); do h+="${h:+,}$box$i"; done; echo "$h"; }
# One peer per host; a fixed heap so GC sizing does not differ between runs; --idle park, the TCP
# baseline's best setting here (8-16 peers share 2 cores; backoff's spinning costs them 20-50%).
# JGroups prints a line on every member: rank 0's is kept, as ours are printed by rank 0.
job() {
  local n=$1; shift
  ./cohort run -n "$n" --hosts "$(hosts "$n")" --launch-agent netns --transport tcp --idle park --jvm-opt -Xms256m \
    --jvm-opt -Xmx256m "$@" | grep '^alltoall ' | grep -v ' rank=[1-9]' | sed "s/\$/${rate:+ rate=$rate}/" | tee -a "$out"
}

{ echo "# $(date -u +%FT%TZ) $(nproc) CPUs, $(uname -r), $(java -version 2>&1 | head -n1)"; } >>"$out"
for n in $peers; do
  job "$n" -cp "$cp" io.cohort.bench.AllToAllJob --sizes "$sizes" --rounds "$rounds"
  job "$n" -cp "$cp" io.cohort.bench.JGroupsAllToAll --sizes "$sizes" --rounds "$rounds"
done
if ((quick == 0)) && [[ -z "$rate" ]]; then
  for loss in 1 5; do
    scripts/cluster-in-a-box loss "$loss" --name "$box" >/dev/null
    job 8 -cp "$cp" io.cohort.bench.AllToAllJob --impls pcode --sizes 1024 --rounds "$rounds" --label "loss=$loss"
  done
  scripts/cluster-in-a-box loss 0 --name "$box" >/dev/null
  for delay in 0 200 1000 5000; do
    job 8 --jvm-opt "-Dcohort.bcast.requestNackDelayMicros=$delay" -cp "$cp" io.cohort.bench.AllToAllJob \
      --impls pcode --sizes 1024 --rounds "$rounds" --label "nack_delay_us=$delay"
  done
fi
scripts/plot-alltoall.py --out "docs/img${rate:+/rate-$rate}" "$out" 2>/dev/null || echo "(no plots: scripts/plot-alltoall.py is missing or failed)"
echo "Results written to $out"

#!/usr/bin/env bash
# Start-up across hosts (issue 7): the time from running `cohort run` to the first barrier passed by
# an 8-peer job, on one host (this machine, shared memory) and across 4 hosts of the cluster in a box
# (2 peers per host, TCP between hosts, an io-manager per host started by `ip netns exec`), run
# alternately so machine noise hits both; then the same across hosts placed by a load server
# (--partition), when --partition is given. Needs root (it makes the box).
#
#   scripts/bench-startup-box.sh [--runs 20] [--peers 8] [--hosts 4] [--out FILE]
#
# Prints a Markdown table of medians and p99 (ms) and the ratio of medians across/one host.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=20 peers=8 nhosts=4 out=""
while (($#)); do
  case $1 in
    --runs) runs=$2; shift ;;
    --peers) peers=$2; shift ;;
    --hosts) nhosts=$2; shift ;;
    --out) out=$2; shift ;;
    *) echo "bench-startup-box: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done
[[ $(id -u) == 0 ]] || { echo "bench-startup-box: needs root to make the cluster in a box" >&2; exit 2; }

mvn -q -pl cohort-bench -am package -DskipTests
jar=$(ls cohort-bench/target/cohort-bench-*.jar | grep -v -- '-sources' | head -n1)
cp="$PWD/$jar:$PWD/cohort-bench/target/lib/*"
./cohort run -n 2 -cp "$cp" io.cohort.bench.FirstBarrierJob >/dev/null   # builds the distribution; not timed

box=stb
scripts/cluster-in-a-box up "$nhosts" --name "$box" --owner $$ >/dev/null
work=$(mktemp -d)
trap 'scripts/cluster-in-a-box down --name "$box" >/dev/null; rm -rf "$work"' EXIT
hosts=""; for ((i = 1; i <= nhosts; i++)); do hosts+="${hosts:+,}$box$i"; done

now_ms() { date +%s%3N; }
# One timed run: launch to rank 0's first_barrier_epoch_ms line, in ms, appended to $1.
timed() {
  local file=$1; shift
  local t0 line
  t0=$(now_ms)
  line=$(./cohort run -n "$peers" "$@" -cp "$cp" io.cohort.bench.FirstBarrierJob | grep '^first_barrier_epoch_ms=')
  echo $(( ${line#first_barrier_epoch_ms=} - t0 )) >> "$file"
}
: > "$work/one.ms"; : > "$work/across.ms"
for _ in $(seq "$runs"); do
  timed "$work/one.ms"
  timed "$work/across.ms" --hosts "$hosts" --launch-agent netns
done

stat() { # median and p99 (nearest rank) of a file of integers
  sort -n "$1" | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; i=int(0.99*NR+0.999); if(i<1)i=1; printf "%s %s\n", m, a[i]}'
}
read -r om op < <(stat "$work/one.ms")
read -r am ap < <(stat "$work/across.ms")
ratio=$(awk -v a="$am" -v o="$om" 'BEGIN {printf "%.2f", a / o}')
table=$(cat <<MD
| $peers-peer job, launch to first barrier passed | median ms | p99 ms | runs |
|---|---:|---:|---:|
| one host (shared memory) | $om | $op | $runs |
| $nhosts hosts of the cluster in a box (--hosts, netns agent, TCP between hosts) | $am | $ap | $runs |
| ratio across / one host (median) | $ratio | | |
MD
)
echo "$table"
if [ -n "$out" ]; then echo "$table" > "$out"; echo "written to $out" >&2; fi

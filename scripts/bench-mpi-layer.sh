#!/usr/bin/env bash
# The mpi layer's own cost per call (docs/benchmarks.md, "MPI for Java: the mpi layer's own cost"): one job of 2
# peers over shared memory, busy-spinning, runs each operation through Cohort's API and through
# cohort-mpi.jar in alternating blocks (MpiLayerCost, in cohort-bench/src/main/java-mpi-layer), so
# that machine noise hits both alike; each run prints the best and the median block of each.
#
#   scripts/bench-mpi-layer.sh [--runs 3] [--sizes 8,1024] [--blocks 120]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
runs=3 sizes=8,1024 blocks=120
die() { echo "bench-mpi-layer: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --runs | --sizes | --blocks) [ $# -ge 2 ] || die "$1 needs a value" ;;&
    --runs) runs=$2; shift 2 ;;
    --sizes) sizes=$2; shift 2 ;;
    --blocks) blocks=$2; shift 2 ;;
    *) die "unknown argument '$1'; usage: scripts/bench-mpi-layer.sh [--runs K] [--sizes 8,1024] [--blocks B]" ;;
  esac
done
[[ $runs =~ ^[1-9][0-9]*$ && $blocks =~ ^[1-9][0-9]*$ && $sizes =~ ^[0-9]+(,[0-9]+)*$ ]] \
  || die "--runs and --blocks want whole numbers of at least 1, --sizes a comma-separated list of byte counts"
cd "$root"
./cohort run -n 2 --example hello >/dev/null   # builds the distribution on first use; not timed
lib=cohort-dist/target/cohort/lib
classes=$(mktemp -d)
trap 'rm -rf "$classes"' EXIT
javac --release 17 -cp "$lib/cohort-mpi.jar:$lib/cohort-core.jar" -d "$classes" \
  cohort-bench/src/main/java-mpi-layer/MpiLayerCost.java
echo "# $(date -u +%FT%TZ) $(nproc) CPUs, $(java -version 2>&1 | head -1)"
for ((i = 1; i <= runs; i++)); do
  for size in ${sizes//,/ }; do
    for what in pingpong coll reduce osu; do
      ./cohort run -n 2 --transport shm --idle busy-spin -cp "$lib/cohort-mpi.jar:$classes" MpiLayerCost \
        "$what" "$size" "$blocks" | grep '^mpi-layer' | sed "s/^/run $i: /"
    done
  done
done

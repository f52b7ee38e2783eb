#!/usr/bin/env bash
# Shared-memory benchmark (issue 3): Cohort's shm transport between two peer processes beside
# Open MPI's shared-memory path (vader) and two floors, all in one run of this script:
#   - the floors: a two-thread ping-pong over two bare ShmRings, and a single-threaded 1 MiB copy;
#   - Cohort: `cohort run -n 2 --transport shm --idle busy-spin ... ProcessPingPong`;
#   - Open MPI 4.1: cohort-bench/src/main/c/mpi_pingpong.c (the same measurements, written against
#     mpi.h) under `mpirun -np 2 --mca btl self,vader`.
# Cohort and Open MPI are run alternately, --reps times each, so machine noise hits both; the
# table reports the median over the repetitions of each size's median / p99 / streaming rate.
# Also times the alltoall example with 8 peers over shm and over tcp (default idle strategy).
#
#   scripts/bench-shm.sh [--reps 3] [--sizes 8,64,...] [--out FILE]
#
# Installs openmpi-bin and libopenmpi-dev from Debian's packages if mpicc is missing (needs root).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
reps=3 sizes="8,64,512,4096,32768,65536,262144,1048576,4194304" out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --reps) reps=$2; shift 2 ;;
    --sizes) sizes=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "usage: $0 [--reps N] [--sizes 8,64,...] [--out FILE]" >&2; exit 2 ;;
  esac
done

if ! command -v mpicc >/dev/null 2>&1; then
  echo "installing Open MPI (openmpi-bin libopenmpi-dev)..." >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openmpi-bin libopenmpi-dev >/dev/null
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$root" && mvn -q -B package -DskipTests -pl cohort-bench,cohort-dist -am) >/dev/null
mpicc -O2 -o "$work/mpi_pingpong" "$root/cohort-bench/src/main/c/mpi_pingpong.c"
bench_cp="$root/cohort-bench/target/classes:$(ls "$root"/cohort-bench/target/lib/HdrHistogram-*.jar | head -n1)"

"$root/cohort" run -n 2 --example hello >/dev/null   # builds on first use; not timed

echo "floors..." >&2
java -cp "$bench_cp:$root/cohort-core/target/classes" io.cohort.bench.SharedMemoryFloor > "$work/floor.md"

for r in $(seq "$reps"); do
  echo "repetition $r of $reps..." >&2
  "$root/cohort" run -n 2 --transport shm --idle busy-spin -cp "$bench_cp" io.cohort.bench.ProcessPingPong \
    --sizes "$sizes" | grep '^| [0-9]' > "$work/cohort-$r.txt"
  mpirun -np 2 --oversubscribe --mca btl self,vader "$work/mpi_pingpong" ${sizes//,/ } 2>/dev/null \
    | grep '^| [0-9]' > "$work/mpi-$r.txt"
done

# Median of the repetitions, per size and column (columns: size median p99 mean samples MiB/s).
merge() {
  cat "$work"/"$1"-*.txt | awk -F'|' '{gsub(/ /, ""); for (c = 3; c <= 7; c++) v[$2, c, ++n[$2, c]] = $c; sizes[$2] = 1}
    END {
      for (s in sizes) {
        line = s
        for (c = 3; c <= 7; c++) {
          k = n[s, c]; for (i = 1; i <= k; i++) a[i] = v[s, c, i]
          for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
          line = line "|" a[int((k + 1) / 2)]
        }
        print line
      }
    }' | sort -t'|' -k1,1n
}
merge cohort > "$work/cohort.txt"
merge mpi > "$work/mpi.txt"

table=$(
  echo "Half round trip in µs, median of $reps repetitions of (median, p99) over the samples; ratio = Cohort / Open MPI median; streaming in MiB/s (rank 0 sends back to back, rank 1 receives)."
  echo
  echo "| size B | Cohort median | Cohort p99 | Open MPI median | Open MPI p99 | ratio | samples | Cohort MiB/s streaming | Open MPI MiB/s streaming |"
  echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  join -t'|' "$work/cohort.txt" "$work/mpi.txt" | awk -F'|' '{
    ratio = ($7 > 0) ? sprintf("%.2f", $2 / $7) : ""
    printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $7, $8, ratio, $5, $6, $11 }'
  echo
  cat "$work/floor.md"
)

echo "alltoall example, 8 peers x 1000 rounds, shm vs tcp..." >&2
a2a() {
  local t0 t1
  t0=$(date +%s%N); "$root/cohort" run -n 8 --transport "$1" --example alltoall 1000 >/dev/null; t1=$(date +%s%N)
  echo $(( (t1 - t0) / 1000000 ))
}
shm_ms=() tcp_ms=()
for r in $(seq "$reps"); do shm_ms+=("$(a2a shm)"); tcp_ms+=("$(a2a tcp)"); done
med() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
table="$table

| alltoall, 8 peers, 1000 rounds (whole command, ms) | runs | median |
|---|---|---:|
| shm | ${shm_ms[*]} | $(med "${shm_ms[@]}") |
| tcp | ${tcp_ms[*]} | $(med "${tcp_ms[@]}") |"

echo "$table"
if [ -n "$out" ]; then echo "$table" > "$out"; echo "written to $out" >&2; fi

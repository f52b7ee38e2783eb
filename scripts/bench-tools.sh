#!/usr/bin/env bash
# Benchmarks of the parallel tools (docs/benchmarks.md, "Tools"), ours beside a baseline in one run:
#
#  1. Profiling overhead: the alltoall example (P peers, R rounds) plain, with --profile (the summary
#     mode), with --profile --profile-mode=full (a Flight Recorder recording of every call) and with a
#     Flight Recorder that records nothing (the floor of any JFR-based profiler), run alternately so
#     machine noise hits each: the time of the program's main (TimedMain) and the whole job's wall
#     time (each peer's profiler start and its file's writing included).
#  2. `cohort stacks` on a job of S hung peers, against the JDK's own way of getting the same
#     stacks: `jcmd PID Thread.print` on every peer, all started at once.
#
#   scripts/bench-tools.sh [--peers 4] [--rounds 20000] [--runs 10] [--variants off,on,jfr,full]
#                          [--stack-peers 16] [--stack-runs 20] [--out DIR]
# --variants picks the profiling variants (off = plain, on = summary, jfr = an empty Flight Recorder,
# full = --profile-mode=full); off and on are always run. --stack-runs 0 skips part 2.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
peers=4 rounds=20000 runs=10 variants=off,on,jfr,full stack_peers=16 stack_runs=20 out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --peers) peers=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --variants) variants=$2; shift 2 ;;
    --stack-peers) stack_peers=$2; shift 2 ;;
    --stack-runs) stack_runs=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "usage: $0 [--peers N] [--rounds R] [--runs K] [--variants off,on,jfr,full] [--stack-peers S] [--stack-runs K] [--out DIR]" >&2; exit 2 ;;
  esac
done
cd "$root"
out=${out:-bench-out/tools-$(date +%Y%m%dT%H%M%S)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
launcher=""
cleanup() {
  [ -n "$launcher" ] && kill -TERM "$launcher" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

./cohort run -n 2 --example hello >/dev/null   # builds on first use; not timed
lib=$root/cohort-dist/target/cohort/lib
machine="$(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1), Linux $(uname -r), $(java -version 2>&1 | sed -n 2p)"
echo "machine: $machine" | tee "$out/machine.txt"

now_ms() { date +%s%3N; }
stat() { # median and p99 (nearest rank) of a file of integers
  sort -n "$1" | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; i=int(0.99*NR+0.999); if(i<1)i=1; printf "%s %s\n", m, a[i]}'
}

# --- 1. Profiling overhead --------------------------------------------------------------------------
# The unmodified alltoall example, run through TimedMain (cohort-bench), which prints how long the
# example's main took on rank 0; the whole job's wall time is taken too.
mvn -q -pl cohort-bench -am package -DskipTests
bench_jar=$(ls "$root"/cohort-bench/target/cohort-bench-*.jar | grep -v -- '-sources' | head -n1)
a2a_cp="$bench_jar:$lib/cohort-examples.jar"
one_run() { # variant [--profile=DIR]: appends the job's wall ms and the program's ms
  local v=$1; shift
  local t0 t1
  t0=$(now_ms)
  ./cohort run -n "$peers" "$@" -cp "$a2a_cp" io.cohort.bench.TimedMain io.cohort.examples.AllToAll "$rounds" \
    >/dev/null 2>"$work/run.err"
  t1=$(now_ms)
  echo $((t1 - t0)) >> "$out/alltoall-$v-job.ms"
  sed -n 's/^timed_main_ms=//p' "$work/run.err" >> "$out/alltoall-$v-main.ms"
}
# The floor of any profiler built on the Flight Recorder: a recording with no event enabled at all.
cat > "$work/empty.jfc" <<'XML'
<?xml version="1.0" encoding="UTF-8"?>
<configuration version="2.0" label="nothing"></configuration>
XML
rm -f "$out"/alltoall-*.ms
has() { [[ ,$variants, == *,$1,* ]]; }
for _ in $(seq "$runs"); do
  one_run off
  rm -rf "$work/prof"
  one_run on --profile="$work/prof"
  if has jfr; then one_run jfr --jvm-opt=-XX:StartFlightRecording=settings="$work/empty.jfc"; fi
  if has full; then rm -rf "$work/full"; one_run full --profile="$work/full" --profile-mode=full; fi
done
prof_kib=$(du -sk "$work/prof" | awk '{print $1}')
./cohort prof "$work/prof" > "$out/alltoall-profile.txt"
read -r offm offp < <(stat "$out/alltoall-off-main.ms")
read -r onm onp < <(stat "$out/alltoall-on-main.ms")
read -r offj offjp < <(stat "$out/alltoall-off-job.ms")
read -r onj onjp < <(stat "$out/alltoall-on-job.ms")
ratio=$(awk -v a="$onm" -v b="$offm" 'BEGIN {printf "%.3f", a / b}')
jratio=$(awk -v a="$onj" -v b="$offj" 'BEGIN {printf "%.3f", a / b}')
# Each profiled run beside the plain run just before it: the median of those ratios leans less on
# the machine's slow drifts than the ratio of two medians does.
pratio=$(paste "$out/alltoall-off-main.ms" "$out/alltoall-on-main.ms" | awk '{print $2 / $1}' | sort -n \
  | awk '{a[NR]=$1} END {printf "%.3f", (NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2}')
extra=""
if has full; then
  full_kib=$(du -sk "$work/full" | awk '{print $1}')
  ./cohort prof "$work/full" > "$out/alltoall-profile-full.txt"
  read -r fullm fullp < <(stat "$out/alltoall-full-main.ms")
  read -r fullj fulljp < <(stat "$out/alltoall-full-job.ms")
  fullratio=$(awk -v a="$fullm" -v b="$offm" 'BEGIN {printf "%.3f", a / b}')
  fulljratio=$(awk -v a="$fullj" -v b="$offj" 'BEGIN {printf "%.2f", a / b}')
  extra+="| the program with \`--profile --profile-mode=full\` ($full_kib KiB of recordings) | $fullm | $fullp | $runs |
| ratio full / plain, the program (median) | $fullratio | | |
| ratio full / plain, the whole job (median) | $fulljratio | | |
"
fi
if has jfr; then
  read -r jfrm jfrp < <(stat "$out/alltoall-jfr-main.ms")
  fratio=$(awk -v a="$jfrm" -v b="$offm" 'BEGIN {printf "%.3f", a / b}')
  extra+="| the program with a Flight Recorder running that records nothing (the floor of a JFR-based profiler) | $jfrm | $jfrp | $runs |
| ratio JFR-with-nothing / plain, the program (median) | $fratio | | |
"
fi

# --- 2. cohort stacks on a hung job -----------------------------------------------------------------
stacks_rows=""
if [ "$stack_runs" -gt 0 ]; then
  cat > "$work/Hung.java" <<'JAVA'
import io.cohort.Cohort;
import io.cohort.Communicator;

/** Every peer waits for a message nobody sends; rank 0 says when all are in place. */
public class Hung {
    public static void main(String[] args) {
        try (Communicator world = Cohort.init()) {
            world.barrier();
            if (world.rank() == 0) {
                System.out.println("ready");
            }
            world.recv(Communicator.ANY_SOURCE, 99);
        }
    }
}
JAVA
  javac -cp "$lib/cohort-core.jar" -d "$work" "$work/Hung.java"
  mkfifo "$work/hung.out"
  ./cohort run -n "$stack_peers" -cp "$work" Hung > "$work/hung.out" 2>"$work/hung.err" </dev/null &
  launcher=$!
  read -r -t 120 line < "$work/hung.out" || { echo "the hung job did not start; see $work/hung.err" >&2; exit 1; }
  [ "$line" = ready ] || { echo "unexpected line from the hung job: $line" >&2; exit 1; }
  cat "$work/hung.out" > /dev/null &   # keep the pipe drained
  mapfile -t pids < <(pgrep -f "io.cohort.wireup.PeerMain Hung")
  [ "${#pids[@]}" -eq "$stack_peers" ] || { echo "found ${#pids[@]} peers, expected $stack_peers" >&2; exit 1; }
  ./cohort stacks > "$out/stacks.txt"   # first run, shown in docs; not timed
  : > "$out/stacks.ms"; : > "$out/jcmd.ms"
  for _ in $(seq "$stack_runs"); do
    t0=$(now_ms); ./cohort stacks >/dev/null; echo $(($(now_ms) - t0)) >> "$out/stacks.ms"
    t0=$(now_ms)
    jcmds=()
    for p in "${pids[@]}"; do jcmd "$p" Thread.print >/dev/null & jcmds+=($!); done
    wait "${jcmds[@]}"
    echo $(($(now_ms) - t0)) >> "$out/jcmd.ms"
  done
  kill -TERM "$launcher" 2>/dev/null || true
  wait "$launcher" 2>/dev/null || true
  launcher=""
  read -r sm sp < <(stat "$out/stacks.ms")
  read -r jm jp < <(stat "$out/jcmd.ms")
  sratio=$(awk -v a="$sm" -v b="$jm" 'BEGIN {printf "%.2f", a / b}')
  stacks_rows="| \`cohort stacks\` on $stack_peers hung peers (a CLI JVM start included) | $sm | $sp | $stack_runs |
| \`jcmd PID Thread.print\` on the same $stack_peers peers, all at once (unmerged) | $jm | $jp | $stack_runs |
| ratio cohort stacks / jcmd (median) | $sratio | | target: cohort stacks ≤ 2000 ms |
"
fi

table=$(cat <<MD
Machine: $machine.

| what | median ms | p99 ms | runs |
|---|---:|---:|---:|
| the alltoall example's \`main\`, $peers peers, $rounds rounds: plain | $offm | $offp | $runs |
| the same with \`--profile\` (summary mode, $prof_kib KiB of profiles) | $onm | $onp | $runs |
| **ratio profiled / plain, the program (median)** | **$ratio** | | target ≤ 1.05 |
| the whole job (\`cohort run\` to exit): plain | $offj | $offjp | $runs |
| the whole job with \`--profile\` (summary mode, its files written at exit) | $onj | $onjp | $runs |
| **ratio profiled / plain, the whole job (median)** | **$jratio** | | target ≤ 1.05 |
| median of each profiled run over the plain run before it, the program | $pratio | | |
${extra}${stacks_rows}
MD
)
echo "$table" | tee "$out/table.md"

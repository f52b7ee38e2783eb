#!/usr/bin/env bash
# OSU-style collective latency (issue 6) on the cluster in a box, one peer per host (network
# namespace), all hosts on one bridge: bcast, allgather, allreduce and barrier, Cohort beside Open MPI
# and MPJ Express, all in one run of this script. Needs root (it makes the box and installs peers).
#
#   scripts/bench-collectives-box.sh [--quick] [--peers "2 4 8"] [--sizes 8,32,...] [--ops bcast,allgather,allreduce,barrier]
#                                    [--impls openmpi,mpj,cohort] [--modes p2p,bcast,auto] [--iters N] [--warmup N] [--prewarm N]
#                                    [--mtu M] [--rate R] [--timeout S] [--out FILE]
#
# For each N and operation, one after the other on the same box:
#   - openmpi: cohort-bench/src/main/c/osu_coll.c built with mpicc, mpirun in the root namespace with
#     one rank per host; mpirun reaches the hosts through an rsh agent (generated here) that runs its
#     daemon under `ip netns exec HOST`; btl tcp,self on the box's subnet only;
#   - mpj: cohort-bench/src/main/java-mpj/MpjColl.java against Debian's libmpj-java (MPJ Express 0.44,
#     niodev), one `ip netns exec HOST java ... MpjColl RANK CONF niodev` per host, wired together by
#     MpjRendezvous (same directory), which plays mpjrun's part in niodev's start-up exchange;
#   - cohort: `cohort run --hosts ... --launch-agent netns --transport tcp --collectives MODE` of
#     io.cohort.bench.CollectiveLatencyJob, once per mode (p2p, bcast, auto). A mode may name the
#     broadcast domain's protocol, `bcast:eqa` (--bcast-protocol eqa; pcode is the default), and
#     algorithms to force, `auto@barrier_domain+bcast_linear` (cohort.collectives.algorithms), so
#     variants run side by side in one run; their lines say impl=cohort-bcast:eqa,
#     impl=cohort-auto@barrier_domain+...
# Every implementation prints, for each size (barrier: size=0),
#   coll impl=openmpi|mpj|cohort-MODE op=.. n=.. size=.. avg_us=.. median_us=.. p99_us=.. loop_us=.. cpu_us=.. iters=.. samples=..
# avg_us is what OSU reports (each rank's mean over the timed iterations, averaged over the ranks);
# median and p99 are over the samples of all ranks (iters x N); loop_us is rank 0's wall time per
# timed iteration, the call and its barrier together; cpu_us is the processor time of all ranks
# together per timed iteration (each process's own clock before and after the loop, summed): where
# 8-16 peers share 2 processors, the fair figure of what an operation costs. Each iteration is one timed call
# followed by an untimed barrier; warm-up iterations first (default 1000 per size, 2000 timed), and
# before any size a pre-warm pass: --prewarm calls (default 5000, 30000 where N exceeds the cores;
# the same for all three) shared out over the sizes, each size in turn. The Java peers' JIT compiles
# every size's path there, which C needs not, and which 200 warm-up calls did not reach (the first
# size measured twice as slow as the second); a pass at the first size only left a bcast beyond one
# datagram, on another path than the short ones, still warming when measured. All lines go
# to FILE (default bench-out/collectives-box-<time>.txt). A run that fails or hangs (--timeout,
# default 900 s) leaves a "# FAILED ..." line, the others go on, and the script exits 1 at the end.
#
# Fairness on a small machine: all peers (and Open MPI's daemons) share its cores, so every
# implementation gives the core away while it waits: Cohort --idle park; Open MPI
# mpi_yield_when_idle=1, which it would set itself if it knew the hosts share cores (each namespace
# looks like a whole machine to it); MPJ's niodev blocks in a selector anyway. Open MPI's yield still
# polls when nothing else wants the core (N = 2 on two cores), where Cohort's park sleeps in the
# kernel: BENCH_COHORT_IDLE=yield|backoff measures Cohort polling too (docs/notes/benchmark-history.md, "Idle
# strategies at N = 2 in the box"). Open MPI spinning (BENCH_OMPI_YIELD=0; auto = only
# when N exceeds the cores) was far worse here even at N = 2 with other work on the machine: 2 ms
# medians and 10 ms p99s where yielding gave 30-70 us. Java peers get the same fixed heap.
#
# BENCH_COHORT_JVM_OPTS="-Dcohort.bcast.x=y ..." passes settings to every Cohort peer, and
# BENCH_COHORT_ARGS=--counters makes its peers add their domain counters to FILE (experiments).
#
# --mtu M gives every link of the box frames of M bytes (cluster-in-a-box up --mtu; default 1500),
# for all implementations alike: 9000 is a cluster network with jumbo frames. --rate R (10mbit,
# 100mbit, ...) limits what each host sends (cluster-in-a-box up --rate): the links of the EQA
# paper's cluster were 10 Mb/s Ethernet.
#
# --quick: N = 2, 4; 8 B and 4 KiB; 200 iterations after 100 warm-up ones (1000 pre-warm). --impls openmpi,mpj skips
# Cohort (whose collectives API CollectiveLatencyJob needs may not exist yet).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
case ":$PATH:" in *:/usr/sbin:*) ;; *) PATH="$PATH:/usr/sbin:/sbin" ;; esac

peers="2 4 8" sizes=8,32,128,256,1024,4096,16384,65536 ops=bcast,allgather,allreduce,barrier
impls=openmpi,mpj,cohort modes=p2p,bcast,auto iters=2000 warmup=1000 prewarm=5000 limit=900 out="" mtu="" rate="" prewarm_given=0
ompi_yield=${BENCH_OMPI_YIELD:-1} # 0, 1, or auto: yield only when N exceeds the cores
[[ $ompi_yield =~ ^(0|1|auto)$ ]] || { echo "bench-collectives-box: BENCH_OMPI_YIELD must be 0, 1 or auto" >&2; exit 2; }
die() { echo "bench-collectives-box: $*" >&2; exit 2; }
while (($#)); do
  case $1 in
    --peers | --sizes | --ops | --impls | --modes | --iters | --warmup | --prewarm | --timeout | --out | --mtu | --rate)
      (($# >= 2)) || die "$1 needs a value" ;;
  esac
  case $1 in
    --quick) peers="2 4" sizes=8,4096 iters=200 warmup=100 prewarm=1000 prewarm_given=1 ;;
    --peers) peers=$2; shift ;;
    --sizes) sizes=$2; shift ;;
    --ops) ops=$2; shift ;;
    --impls) impls=$2; shift ;;
    --modes) modes=$2; shift ;;
    --iters) iters=$2; shift ;;
    --warmup) warmup=$2; shift ;;
    --prewarm) prewarm=$2 prewarm_given=1; shift ;;
    --timeout) limit=$2; shift ;;
    --out) out=$2; shift ;;
    --mtu) mtu=$2; shift ;;
    --rate) rate=$2; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
  shift
done
[[ $(id -u) == 0 ]] || die "needs root (the cluster in a box, ip netns exec, apt-get)"
[[ $sizes =~ ^[0-9]+(,[0-9]+)*$ ]] || die "--sizes wants numbers separated by commas, not '$sizes'"
[[ $iters =~ ^[1-9][0-9]*$ && $warmup =~ ^[0-9]+$ && $prewarm =~ ^[0-9]+$ && $limit =~ ^[1-9][0-9]*$ ]] || die "--iters, --warmup, --prewarm and --timeout want whole numbers"
for o in ${ops//,/ }; do [[ $o =~ ^(bcast|allgather|allreduce|barrier)$ ]] || die "unknown op '$o'"; done
for i in ${impls//,/ }; do [[ $i =~ ^(openmpi|mpj|cohort)$ ]] || die "unknown impl '$i' (openmpi, mpj, cohort)"; done
for m in ${modes//,/ }; do [[ $m =~ ^(p2p|bcast|auto)(:(pcode|eqa))?(@[a-z0-9_]+(\+[a-z0-9_]+)*)?$ ]] || die "unknown collectives mode '$m' (p2p, bcast, auto, optionally :pcode or :eqa, optionally @algorithm+algorithm)"; done
max=0
for n in $peers; do
  [[ $n =~ ^[0-9]+$ ]] && ((n >= 2)) || die "--peers wants numbers of at least 2, not '$n'"
  ((n > max)) && max=$n
done
has() { [[ ",$impls," == *",$1,"* ]]; }
if [[ -z "$out" ]]; then mkdir -p bench-out; out="bench-out/collectives-box-$(date +%Y%m%d-%H%M%S).txt"; fi
heap=(-Xms256m -Xmx256m)
cores=$(nproc)

work=$(mktemp -d /tmp/bench-collectives.XXXXXX)
box=pcc
box_up=0
cleanup() {
  local rc=$?
  # Anything this script started in the background (a rendezvous, MPJ ranks of a failed run).
  local p
  for p in $(jobs -p); do kill "$p" 2>/dev/null || true; done
  ((box_up)) && { scripts/cluster-in-a-box down --name "$box" >/dev/null || echo "bench-collectives-box: could not remove box $box" >&2; }
  rm -rf "$work"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- peers: install and build (into $work, never into the tree) --------------------------------
install() { echo "installing $* from Debian's packages..." >&2; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null; }
if has openmpi; then
  command -v mpicc >/dev/null && command -v mpirun >/dev/null || install openmpi-bin libopenmpi-dev
  mpicc -O2 -o "$work/osu_coll" cohort-bench/src/main/c/osu_coll.c
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
if has mpj; then
  [[ -f /usr/share/java/mpj.jar && -f /usr/share/java/log4j-1.2.jar ]] || install libmpj-java
  # MPI.Init reads $MPJ_HOME/conf/mpjexpress.conf, and MPJ wants its jars and log4j in one lib/.
  mkdir -p "$work/mpj-home/lib" "$work/mpj-home/conf" "$work/mpj-classes"
  for j in /usr/share/mpj/lib/*.jar /usr/share/java/log4j-1.2.jar; do ln -s "$(readlink -f "$j")" "$work/mpj-home/lib/$(basename "$j")"; done
  cp /usr/share/mpj/conf/mpjexpress.conf "$work/mpj-home/conf/"
  mpj_cp="$work/mpj-home/lib/mpj.jar:$work/mpj-home/lib/log4j-1.2.jar:$work/mpj-classes"
  javac -nowarn -d "$work/mpj-classes" -cp "$mpj_cp" cohort-bench/src/main/java-mpj/MpjColl.java cohort-bench/src/main/java-mpj/MpjRendezvous.java \
    cohort-bench/src/main/java/io/cohort/bench/ProcessCpu.java
fi
if has cohort; then
  mvn -q -pl cohort-core,cohort-bench -am package -DskipTests
  jar=$(ls cohort-bench/target/cohort-bench-*.jar | grep -v -- '-sources' | head -n1)
  cohort_cp="$root/$jar:$root/cohort-bench/target/lib/*"
fi

# ---- the box ------------------------------------------------------------------------------------
box_up=1
scripts/cluster-in-a-box up "$max" --name "$box" --owner $$ ${mtu:+--mtu "$mtu"} ${rate:+--rate "$rate"} >"$work/box.txt"
bridge_ip=$(awk '$1 == "box" {sub(/\/.*/, "", $5); print $5}' "$work/box.txt")
subnet=$(awk '$1 == "box" {split($5, a, "/"); sub(/\.[0-9]+$/, ".0", a[1]); print a[1] "/" a[2]}' "$work/box.txt")
mapfile -t host_names < <(awk '$1 == "host" {print $2}' "$work/box.txt")
mapfile -t host_ips < <(awk '$1 == "host" {print $3}' "$work/box.txt")
((${#host_ips[@]} == max)) && [[ -n $bridge_ip ]] || { echo "bench-collectives-box: unexpected output of cluster-in-a-box up:" >&2; cat "$work/box.txt" >&2; exit 1; }

# Open MPI's rsh agent: `agent HOST COMMAND...` runs COMMAND in HOST's namespace, as ssh would on a
# host. Each host gets its own TMPDIR: Open MPI's session directory is named after the hostname,
# which all namespaces share, and daemons sharing it crash (hwloc's shared topology).
{
  echo '#!/bin/sh'
  echo 'host=$1; shift'
  echo 'case $host in'
  for ((i = 0; i < max; i++)); do echo "  ${host_ips[i]}|${host_names[i]}) ns=${host_names[i]} ;;"; done
  echo '  *) echo "ompi-agent: $host is not a host of the box" >&2; exit 1 ;;'
  echo 'esac'
  echo "mkdir -p '$work'/tmp-\$ns && TMPDIR='$work'/tmp-\$ns && export TMPDIR"
  echo 'exec ip netns exec "$ns" sh -c "$*"'
} >"$work/ompi-agent"
chmod +x "$work/ompi-agent"

failed=0
# run LABEL COMMAND...: rank 0's "coll " lines to $out; anything else to a log shown on failure. A
# command is stopped after --timeout seconds; a shell function (mpj_job) limits its own processes.
run() {
  local label=$1; shift
  local log="$work/run.log" rc=0
  if declare -F "$1" >/dev/null; then
    "$@" >"$log.out" 2>"$log" || rc=$?
  else
    timeout --kill-after=10 "$limit" "$@" >"$log.out" 2>"$log" || rc=$?
  fi
  grep '^coll ' "$log.out" | tee -a "$out" || true
  grep -h '^coll-counters ' "$log" "$log.out" >>"$out" || true
  # Cohort's own account of its choices (--verbose): which machines, which algorithm at which size.
  grep -h '^cohort: .* peers on .* machine\|^cohort: .* uses ' "$log" | sed 's/^/# /' >>"$out" || true
  # Over EQA (--verbose), what rank 0's domain held at most: the sender's retransmission memory.
  grep -h "eqa domain: rank 0 held at most" "$log" | sed "s/^/# $label: /" >>"$out" || true
  if ((rc != 0)); then
    failed=1
    echo "# FAILED $label (exit $rc$( ((rc == 124)) && echo ", timed out after ${limit}s"))" | tee -a "$out"
    { grep -v '^coll ' "$log.out" || true; cat "$log"; } | tail -n 25 | sed 's/^/    /' >&2
  fi
}
# args OP N: the programs' options. With more peers than cores and no --prewarm given, the pre-warm
# is 30000 calls: 8 JVMs compiling on 2 cores were still in C2 after 5000 (docs/notes/benchmark-history.md).
args() {
  local p=$prewarm
  ((prewarm_given == 0 && $2 > cores && p < 30000)) && p=30000
  echo "$1" --sizes "$sizes" --iters "$iters" --warmup "$warmup" --prewarm "$p"
}

openmpi() { # openmpi N OP
  local n=$1 i yield=0
  : >"$work/hostfile"
  for ((i = 0; i < n; i++)); do echo "${host_ips[i]} slots=1" >>"$work/hostfile"; done
  case $ompi_yield in auto) ((n > cores)) && yield=1 ;; *) yield=$ompi_yield ;; esac
  # shellcheck disable=SC2046
  run "impl=openmpi op=$2 n=$n" mpirun -np "$n" --hostfile "$work/hostfile" --map-by node \
    --mca plm_rsh_agent "$work/ompi-agent" --mca plm_rsh_no_tree_spawn 1 \
    --mca btl tcp,self --mca btl_tcp_if_include "$subnet" --mca oob_tcp_if_include "$subnet" \
    --mca mpi_yield_when_idle "$yield" "$work/osu_coll" $(args "$2" "$n")
}

# One niodev process per host, started directly in its namespace. CONF is what mpjrun would hand it;
# MpjRendezvous (in the root namespace, on the bridge) answers its start-up exchange.
mpj_job() { # mpj_job N OP   (run by `run`, so its exit status and output are checked)
  local n=$1 op=$2 r pids=() rv rc=0 waited=0
  rm -f "$work/mpj-port"
  java -cp "$mpj_cp" MpjRendezvous "$bridge_ip" "$n" "$work/mpj-port" 60 2>>"$work/mpj-rendezvous.log" &
  rv=$!
  until [[ -s "$work/mpj-port" ]]; do
    kill -0 "$rv" 2>/dev/null || { echo "MpjRendezvous did not start" >&2; return 1; }
    ((waited++ < 300)) || { echo "MpjRendezvous wrote no port within 30 s" >&2; return 1; }
    sleep 0.1
  done
  local conf="#Number of Processes;$n;#Protocol Switch Limit;131072;#Server Name;$bridge_ip;#Server Port;$(cat "$work/mpj-port")"
  for ((r = 0; r < n; r++)); do
    # shellcheck disable=SC2046
    MPJ_HOME="$work/mpj-home" timeout --kill-after=10 "$limit" ip netns exec "${host_names[r]}" java "${heap[@]}" -cp "$mpj_cp" MpjColl "$r" "$conf" niodev \
      $(args "$op" "$n") >"$work/mpj.$r.out" 2>&1 &
    pids+=($!)
  done
  wait "$rv" || { rc=1; echo "MpjRendezvous failed: $(tail -n 1 "$work/mpj-rendezvous.log")" >&2; }
  for r in "${!pids[@]}"; do
    if ((rc != 0)); then kill "${pids[r]}" 2>/dev/null || true; fi
    local st=0
    wait "${pids[r]}" || st=$?
    if ((st != 0)); then
      ((rc != 0)) || echo "MPJ rank $r on ${host_names[r]} exited with $st$( ((st == 124)) && echo " (timed out)")" >&2
      rc=1
    fi
  done
  cat "$work/mpj.0.out"
  for ((r = 1; r < n; r++)); do grep -v '^coll ' "$work/mpj.$r.out" >&2 || true; done
  return "$rc"
}
mpj() { run "impl=mpj op=$2 n=$1" mpj_job "$1" "$2"; }

cohort() { # cohort N OP MODE[:PROTOCOL][@ALGORITHM+ALGORITHM]
  local hosts="" i o extra=() mode=${3%%@*} protocol=pcode
  [[ $mode == *:* ]] && { protocol=${mode#*:}; mode=${mode%%:*}; }
  for ((i = 0; i < $1; i++)); do hosts+="${hosts:+,}${host_names[i]}"; done
  for o in ${BENCH_COHORT_JVM_OPTS:-}; do extra+=(--jvm-opt "$o"); done
  extra+=(--bcast-protocol "$protocol")
  [[ $3 == *@* ]] && extra+=(--jvm-opt "-Dcohort.collectives.algorithms=$(tr + , <<<"${3#*@}")")
  # shellcheck disable=SC2046
  run "impl=cohort-$3 op=$2 n=$1" ./cohort run -n "$1" --hosts "$hosts" --launch-agent netns --transport tcp --verbose \
    --collectives "$mode" --idle "${BENCH_COHORT_IDLE:-park}" --jvm-opt "${heap[0]}" --jvm-opt "${heap[1]}" "${extra[@]}" \
    -cp "$cohort_cp" io.cohort.bench.CollectiveLatencyJob $(args "$2" "$1") ${BENCH_COHORT_ARGS:-}
}

{
  echo "# $(date -u +%FT%TZ) $cores CPUs, $(uname -r), $(java -version 2>&1 | head -n1)"
  has openmpi && echo "# $(mpirun --version 2>/dev/null | head -n1)"
  has mpj && echo "# MPJ Express $(dpkg-query -W -f '${Version}' libmpj-java 2>/dev/null) niodev"
  echo "# peers=\"$peers\" sizes=$sizes ops=$ops impls=$impls iters=$iters warmup=$warmup prewarm=$prewarm$( ((prewarm_given)) || echo " (30000 above the cores)") mtu=${mtu:-1500} rate=${rate:-full}"
} | tee -a "$out"
for n in $peers; do
  for op in ${ops//,/ }; do
    has openmpi && openmpi "$n" "$op"
    has mpj && mpj "$n" "$op"
    if has cohort; then for m in ${modes//,/ }; do cohort "$n" "$op" "$m"; done; fi
  done
done
echo "Results written to $out"
exit "$failed"

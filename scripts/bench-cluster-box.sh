#!/usr/bin/env bash
# The cluster on a cluster in a box (issue 7's two targets), in one run: failure detection of the
# cohortd daemons, and the start-up of an 8-peer job across 4 hosts against one host. Needs root (it
# makes the box and runs daemons in its network namespaces).
#
#   scripts/bench-cluster-box.sh [--runs 20] [--stop-trials 5] [--ttl-trials 3] [--poll-ms 5] [--out DIR]
#
# Setup: a 4-host box (scripts/cluster-in-a-box up 4 --name cbx --owner $$, removed on exit), a cluster
# key (cohort admin keygen) and a database: members cbx1..4 at the box's addresses, 2 CPUs each (so 2
# job slots), load servers cbx1 and cbx2, partition all = every member, and NO daemon.* tokens: the
# defaults a user gets (update every 2 s, TTL 10 s, heartbeat 500 ms, ring time-out 2 s). Each daemon
# reads its load from a file of zeros (--loadavg; the namespaces share the kernel's /proc/loadavg).
#
# 1. Failure detection: io.cohort.bench.FailureDetectionProbe (cohort-bench) starts a cohortd in every
#    host (ip netns exec HOST bin/cohortd ...) and polls the load servers' table in-process
#    (DaemonClient.status) every --poll-ms:
#      kill: R trials (--runs), SIGKILL to one member's daemon, rotating over all four members, load
#            servers included (a dead load server's table is not asked; the other one answers), time
#            until the table shows it down; the daemon is restarted and the cluster settles between trials;
#      stop: SIGSTOP instead (sockets stay open, heartbeats stop: a hung or cut-off host), so only the
#            ring time-out finds it;
#      ttl:  an nftables rule in a non-load-server member's namespace drops its outgoing UDP updates
#            (its TCP ring links stay), time until not-responding, against daemon.ttl.
# 2. Start-up: the same daemons started again by this script; then R rounds, each running once, in an
#    order rotated every round, `cohort run -n 8 -cp ... io.cohort.bench.FirstBarrierJob`:
#      one host (this machine, the root namespace; shared memory), one host with --transport tcp (a
#      reference: separates the transport's share of the difference from the hosts'), 4 hosts by hand (--hosts cbx1,..,cbx4 --launch-agent
#      netns), 4 hosts through the partition (--partition all --mode virtual --launch-agent netns
#      --cluster-db DB --key KEY: asks a load server, registers the job with every member's daemon,
#      applies the partition's scheduling). Time = rank 0's first_barrier_epoch_ms - the time just
#      before `cohort run` was started (namespaces share the machine's clock). Also the CPU time (user
#      + sys) of the whole run, every process of the job on every host (they are all descendants that
#      are waited for), from bash's `times`: on 2 cores it shows what the extra wall time is made of.
#
# Writes DIR (default bench-out/cluster-box-<time>/): tables.md (the Markdown tables), probe.txt (one
# line per trial), startup-*.ms and .cpu (raw times), cohortd-*.log. p99 is by nearest rank (with 20 samples,
# the maximum). Slurm is not installed or measured here.
set -euo pipefail
cd "$(dirname "$0")/.."
case ":$PATH:" in *:/usr/sbin:*) ;; *) PATH="$PATH:/usr/sbin:/sbin" ;; esac
runs=20 stop_trials=5 ttl_trials=3 poll_ms=5 out="" peers=8 nhosts=4 box=cbx
die() { echo "bench-cluster-box: $*" >&2; exit 2; }
while (($#)); do
  case $1 in
    --runs | --stop-trials | --ttl-trials | --poll-ms | --out) (($# >= 2)) || die "$1 needs a value" ;;
  esac
  case $1 in
    --runs) runs=$2; shift ;;
    --stop-trials) stop_trials=$2; shift ;;
    --ttl-trials) ttl_trials=$2; shift ;;
    --poll-ms) poll_ms=$2; shift ;;
    --out) out=$2; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
  shift
done
[[ $(id -u) == 0 ]] || die "needs root to make the cluster in a box"
for v in "$runs" "$stop_trials" "$ttl_trials" "$poll_ms"; do [[ $v =~ ^[0-9]+$ ]] || die "'$v' is not a whole number"; done
out=${out:-bench-out/cluster-box-$(date +%Y%m%dT%H%M%S)}
mkdir -p "$out"
out=$(cd "$out" && pwd)

mvn -q -pl cohort-bench -am package -DskipTests
jar=$(ls cohort-bench/target/cohort-bench-*.jar | grep -v -- '-sources' | head -n1)
cp="$PWD/$jar:$PWD/cohort-bench/target/lib/*"
./cohort run -n 2 -cp "$cp" io.cohort.bench.FirstBarrierJob >/dev/null   # builds the distribution; not timed
home=$PWD/cohort-dist/target/cohort
java=$(command -v java)

scripts/cluster-in-a-box up "$nhosts" --name "$box" --owner $$ > "$out/box.txt"
pids=()
cleanup() {
  local p
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  scripts/cluster-in-a-box down --name "$box" >/dev/null || true
}
trap cleanup EXIT

# The database: the box's hosts and addresses, daemon defaults.
db=$out/cluster.db key=$out/cluster.key
rm -f "$key"
./cohort admin keygen "$key" >/dev/null
hosts=""
{
  echo "cluster = box"; echo "version = 1"; echo "default_partition = all"; echo "load_servers = ${box}1, ${box}2"
  while read -r kind name address _; do
    [[ $kind == host ]] || continue
    echo "member.$name.address = $address"; echo "member.$name.cpus = 2"
    hosts+="${hosts:+,}$name"
    printf '0.00 0.00 0.00 1/100 1\n' > "$out/loadavg-$name"
  done < "$out/box.txt"
  echo "partition.all.members = *"
} > "$db"
./cohort db validate --cluster-db "$db" >/dev/null

machine="$(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1), Linux $(uname -r), $(java -version 2>&1 | sed -n 2p)"
echo "machine: $machine" | tee "$out/machine.txt"

# --- 1. Failure detection ---------------------------------------------------------------------------
java -Djava.net.preferIPv4Stack=true -cp "$cp" io.cohort.bench.FailureDetectionProbe --cluster-db "$db" --key "$key" \
  --cohortd "$home/bin/cohortd" --loadavg-dir "$out" --log-dir "$out" --trials "$runs" --stop-trials "$stop_trials" \
  --ttl-trials "$ttl_trials" --poll-ms "$poll_ms" | tee "$out/probe.txt"

# --- 2. Start-up ------------------------------------------------------------------------------------
for h in ${hosts//,/ }; do
  JAVA_HOME=$(dirname "$(dirname "$(readlink -f "$java")")") ip netns exec "$h" "$home/bin/cohortd" --cluster-db "$db" --key "$key" \
    --loadavg "$out/loadavg-$h" </dev/null >>"$out/cohortd-$h.log" 2>&1 &
  pids+=($!)
  disown  # killed by cleanup; no job-control line about it
done
up=0
for _ in $(seq 120); do
  up=$(./cohort status --cluster-db "$db" --key "$key" 2>/dev/null | awk '$1 == "all" && $3 == "up"' | wc -l) || true
  ((up == nhosts)) && break
  sleep 0.5
done
((up == nhosts)) || die "the daemons did not all come up for the start-up runs; see $out/cohortd-*.log"
# One untimed partition run with --verbose: where the peers went (the daemons log nothing per job).
./cohort run -n "$peers" --partition all --mode virtual --launch-agent netns --cluster-db "$db" --key "$key" --verbose \
  -cp "$cp" io.cohort.bench.FirstBarrierJob 2>&1 >/dev/null | grep 'scheduled at' | sort > "$out/placement.txt" || true
echo "placement of the partition run: $(awk '{sub(/\)$/, "", $7); print $7}' "$out/placement.txt" | sort | uniq -c | awk '{printf "%s%s x%s", (NR>1?", ":""), $2, $1}')"

now_ms() { date +%s%3N; }
cpu_ms() { # user + sys CPU of this shell's finished children so far, ms, into variable $1 (bash's `times`,
  # second line; run in this shell, not in a $(...) subshell, whose own children would start from zero)
  times > "$out/.times"
  printf -v "$1" '%d' "$(tail -n1 "$out/.times" | awk '{t=0; for (i=1;i<=2;i++) {split($i, a, /[ms]/); t+=a[1]*60000+a[2]*1000}; printf "%d", t}')"
}
timed() { # variant cohort-run-args...: launch to rank 0's first barrier, ms, appended to startup-VARIANT.ms;
  local v=$1; shift #                  the run's CPU time (every process of the job, on every host) to startup-VARIANT.cpu
  local t0 c0 c1 line
  cpu_ms c0
  t0=$(now_ms)
  line=$(./cohort run -n "$peers" "$@" -cp "$cp" io.cohort.bench.FirstBarrierJob | grep '^first_barrier_epoch_ms=')
  echo $((${line#first_barrier_epoch_ms=} - t0)) >> "$out/startup-$v.ms"
  cpu_ms c1
  echo $((c1 - c0)) >> "$out/startup-$v.cpu"
}
variant() {
  case $1 in
    0) timed one ;;
    1) timed one-tcp --transport tcp ;;
    2) timed hosts --hosts "$hosts" --launch-agent netns ;;
    3) timed partition --partition all --mode virtual --launch-agent netns --cluster-db "$db" --key "$key" ;;
  esac
}
for v in one one-tcp hosts partition; do : > "$out/startup-$v.ms"; : > "$out/startup-$v.cpu"; done
for ((r = 0; r < runs; r++)); do
  for k in 0 1 2 3; do variant $(((r + k) % 4)); done
done

# --- Tables -----------------------------------------------------------------------------------------
stat() { # median and p99 (nearest rank) of a file of integers
  sort -n "$1" | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; i=int(0.99*NR+0.999); if(i<1)i=1; printf "%s %s %s\n", m, a[i], NR}'
}
field() { # kind key: a value of the probe's summary line
  sed -n "s/^summary $1 .*\b$2=\([0-9.]*\).*/\1/p" "$out/probe.txt"
}
settings=$(sed -n 's/^settings //p' "$out/probe.txt")
row() { # label kind
  printf '| %s | %s | %s | %s | %s |\n' "$1" "$(field "$2" median_ms)" "$(field "$2" p99_ms)" "$(field "$2" max_ms)" "$(field "$2" n)"
}
read -r om op on < <(stat "$out/startup-one.ms")
read -r tm tp tn < <(stat "$out/startup-one-tcp.ms")
read -r hm hp hn < <(stat "$out/startup-hosts.ms")
read -r pm pp pn < <(stat "$out/startup-partition.ms")
cpu() { stat "$out/startup-$1.cpu" | awk '{print $1}'; }
ratio() { awk -v a="$1" -v o="$om" 'BEGIN {printf "%.2f", a / o}'; }
{
  echo "Machine: $machine. Daemon settings (database defaults): $settings."
  echo
  echo "| failure, detected by a load server's table | median ms | p99 ms | max ms | trials |"
  echo "|---|---:|---:|---:|---:|"
  row "daemon killed (SIGKILL) to \`down\`, all members rotated" kill
  row "... of which a load server was the victim" kill_load_server
  row "... of which another member was the victim" kill_other_member
  row "daemon stopped (SIGSTOP: sockets open, silent) to \`down\`" stop
  row "outgoing UDP updates dropped (nftables) to \`not-responding\`" ttl
  row "... age of its last update at that moment (daemon.ttl 10000)" ttl_last_update_age
  echo "| reference: Slurm, SlurmdTimeout=30, slurmd killed to DOWN (issue 7; not measured in this run) | about 50 000 | | | |"
  echo
  echo "| $peers-peer job, launch to first barrier passed | median ms | p99 ms | runs | ratio of medians to one host | median CPU ms (all processes) |"
  echo "|---|---:|---:|---:|---:|---:|"
  echo "| one host (shared memory, the default) | $om | $op | $on | 1.00 | $(cpu one) |"
  echo "| one host, --transport tcp (reference: the transport the hosts use) | $tm | $tp | $tn | $(ratio "$tm") | $(cpu one-tcp) |"
  echo "| $nhosts hosts by hand (--hosts, netns agent, TCP between hosts) | $hm | $hp | $hn | $(ratio "$hm") | $(cpu hosts) |"
  echo "| $nhosts hosts through the partition (--partition all --mode virtual) | $pm | $pp | $pn | $(ratio "$pm") | $(cpu partition) |"
} > "$out/tables.md"
echo
cat "$out/tables.md"
echo
echo "bench-cluster-box: results in $out" >&2

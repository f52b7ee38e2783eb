#!/usr/bin/env bash
# The price of authentication (issue 42): this tree beside a build of BASE, the last commit whose
# frames carried no tags, in one run, alternating base and this tree run by run (B A B A ...), so
# that the machine's slow and fast spells fall on both alike.
#
#   scripts/bench-auth.sh [--base REV] [--runs K] [--rounds R] [--rate R] [--out FILE] [--skip-box]
#
# 1. The udp transport's ping-pong at 8 B and 64 KiB between two peer processes (ProcessPingPong):
#    every datagram is tagged and checked. On loopback (one 64 KiB datagram: its two hashes add up in
#    full) and between two hosts of the box (Ethernet-sized datagrams: sending, hashing and checking
#    overlap, as between real hosts).
# 2. The same over shared memory and over tcp, which authenticate at start-up only (a ring file of the
#    job's own, a handshake): they must read the same.
# 3. PCODE's all-to-all at N = 8 and 1 KiB on the cluster in a box (one peer per namespace host;
#    AllToAllJob --impls pcode): every datagram is tagged and checked. Needs root; --skip-box leaves it.
#    --rate R also runs it with every host's NIC at R (cluster-in-a-box --rate), where the medium, not
#    8 JVMs on 2 processors, sets the pace, as on a cluster with a processor per peer.
#
# Every result line is appended to FILE (default bench-out/auth-<time>.txt) with side=base or side=auth:
# ProcessPingPong's "| size | median | p99 | mean | samples | MiB/s |" rows and AllToAllJob's lines.
# BASE is built once in a detached worktree under bench-out/ (git-ignored), then reused.
set -euo pipefail
cd "$(dirname "$0")/.."

base=52f279b runs=5 rounds=2000 out="" skip_box=0 rate=""
while (($#)); do
  case $1 in
    --base) base=$2; shift ;;
    --runs) runs=$2; shift ;;
    --rounds) rounds=$2; shift ;;
    --out) out=$2; shift ;;
    --rate) rate=$2; shift ;;
    --skip-box) skip_box=1 ;;
    *) echo "bench-auth: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done
mkdir -p bench-out
[[ -n "$out" ]] || out="bench-out/auth-$(date +%Y%m%d-%H%M%S).txt"

# --- the two builds ---------------------------------------------------------------------------------
here=$PWD
basedir="$here/bench-out/auth-base-$(git rev-parse --short "$base")"
if [[ ! -d "$basedir" ]]; then
  git worktree add -q --detach "$basedir" "$base"
fi
if [[ ! -f "$basedir/cohort-dist/target/cohort/lib/cohort-cli.jar" ]]; then
  (cd "$basedir" && mvn -q package -DskipTests)
fi
mvn -q package -DskipTests
benchcp() { local jar; jar=$(ls "$1"/cohort-bench/target/cohort-bench-*.jar | grep -v -- '-sources' | head -n1); echo "$jar:$1/cohort-bench/target/lib/*"; }

{ echo "# $(date -u +%FT%TZ) $(nproc) CPUs, $(uname -r), $(java -version 2>&1 | head -n1); base=$base auth=$(git rev-parse --short HEAD)"; } >>"$out"

# --- 1 and 2: ping-pong between two peer processes --------------------------------------------------
pingpong() { # DIR SIDE TRANSPORT [HOSTS]
  local where=()
  [[ -z "${4:-}" ]] || where=(--hosts "$4" --launch-agent netns)
  (cd "$1" && ./cohort run -n 2 "${where[@]}" --transport "$3" -cp "$(benchcp "$1")" io.cohort.bench.ProcessPingPong \
    --sizes 8,65536) | grep '^| [0-9]' | sed "s/^/side=$2 transport=$3${4:+-2hosts} /" >>"$out"
}

# --- 3: PCODE's all-to-all on the box -----------------------------------------------------------------------
box=pab
if ((skip_box == 0)); then
  [[ $(id -u) == 0 ]] || { echo "bench-auth: the box needs root; give --skip-box" >&2; exit 2; }
  scripts/cluster-in-a-box up 8 --name "$box" --owner $$ >/dev/null
  trap 'scripts/cluster-in-a-box down --name "$box" >/dev/null; scripts/cluster-in-a-box down --name "${box}r" >/dev/null' EXIT
  if [[ -n "$rate" ]]; then
    scripts/cluster-in-a-box up 8 --name "${box}r" --owner $$ --rate "$rate" >/dev/null
  fi
fi
alltoall() { # DIR SIDE [BOX]
  local b=${3:-$box} hosts
  hosts=$(seq -f "$b%g" 1 8 | paste -sd, -)
  (cd "$1" && ./cohort run -n 8 --hosts "$hosts" --launch-agent netns --idle park --jvm-opt -Xms256m --jvm-opt -Xmx256m \
    -cp "$(benchcp "$1")" io.cohort.bench.AllToAllJob --impls pcode --sizes 1024 --rounds "$rounds") \
    | grep '^alltoall ' | grep -v ' rank=[1-9]' | sed "s/^/side=$2 ${3:+rate=$rate }/" >>"$out"
}

for ((k = 1; k <= runs; k++)); do
  for side in base auth; do
    dir=$([[ $side == base ]] && echo "$basedir" || echo "$here")
    for t in udp shm tcp; do pingpong "$dir" "$side" "$t"; done
    ((skip_box == 1)) || pingpong "$dir" "$side" udp "${box}1,${box}2"
    ((skip_box == 1)) || alltoall "$dir" "$side"
    ((skip_box == 1)) || [[ -z "$rate" ]] || alltoall "$dir" "$side" "${box}r"
  done
  echo "bench-auth: run $k of $runs done" >&2
done
echo "bench-auth: results in $out" >&2

#!/usr/bin/env bash
# Builds cohort-bench and runs the PCODE paper's all-to-all broadcast benchmark in one JVM:
# PCODE over loopback multicast beside Cohort's TCP transport, per call = round time / N.
#   scripts/bench-alltoall.sh            N = 2,3,4,8 x 20 B..8 KiB, 1000 rounds (several minutes on 2 cores)
#   scripts/bench-alltoall.sh --quick    smoke run (seconds; numbers not meaningful)
# Extra arguments go to AllToAllBroadcastBenchmark (--rounds R, --peers 2,4, --sizes 20,1024,
# --fault SPEC, --out FILE). JAVA_OPTS adds JVM options, e.g. -Dcohort.bcast.requestNackDelayMicros=200.
set -euo pipefail
cd "$(dirname "$0")/.."

mvn -q -pl cohort-bench -am package -DskipTests

out=""
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  if [[ "${args[i]}" == "--out" ]]; then out="${args[i+1]:-}"; fi
done
if [[ -z "$out" ]]; then
  mkdir -p bench-out
  out="bench-out/alltoall-$(date +%Y%m%d-%H%M%S).md"
  args+=(--out "$out")
fi

jar=$(ls cohort-bench/target/cohort-bench-*.jar | grep -v -- '-sources' | head -n1)
cp="$jar:cohort-bench/target/lib/*"
java -Djava.net.preferIPv4Stack=true -Xms512m -Xmx512m ${JAVA_OPTS:-} \
  -cp "$cp" io.cohort.bench.AllToAllBroadcastBenchmark "${args[@]}"

echo "All-to-all table written to $out"

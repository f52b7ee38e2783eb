#!/usr/bin/env bash
# Builds cohort-bench and runs the point-to-point ping-pong benchmark (Cohort TCP vs raw NIO).
#   scripts/bench-pingpong.sh            full run (about 3-4 minutes on 2 cores)
#   scripts/bench-pingpong.sh --quick    smoke run (a few seconds; numbers not meaningful)
#   scripts/bench-pingpong.sh --udp      Cohort over udp beside tcp, clean and with 1% / 5% loss
#                                        (--udp-datagram 1472: Ethernet-sized datagrams)
# Extra arguments go to PingPongBenchmark (--out FILE, --reps N). JAVA_OPTS adds JVM options.
# The Markdown table is written to bench-out/ (git-ignored) unless --out is given.
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
  out="bench-out/pingpong-$(date +%Y%m%d-%H%M%S).md"
  args+=(--out "$out")
fi

jar=$(ls cohort-bench/target/cohort-bench-*.jar | grep -v -- '-sources' | head -n1)
cp="$jar:cohort-bench/target/lib/*"
# Fixed heap so that GC sizing does not differ between runs; IPv4 loopback like the tests.
java -Djava.net.preferIPv4Stack=true -Xms1g -Xmx1g ${JAVA_OPTS:-} \
  -cp "$cp" io.cohort.bench.PingPongBenchmark "${args[@]}"

echo "Ping-pong tables written to $out"

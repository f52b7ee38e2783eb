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
. scripts/lib/bench-java.sh

run_java_bench pingpong 1g io.cohort.bench.PingPongBenchmark "$@"

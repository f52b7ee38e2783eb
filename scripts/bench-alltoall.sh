#!/usr/bin/env bash
# Builds cohort-bench and runs the PCODE paper's all-to-all broadcast benchmark in one JVM:
# PCODE over loopback multicast beside Cohort's TCP transport, per call = round time / N.
#   scripts/bench-alltoall.sh            N = 2,3,4,8 x 20 B..8 KiB, 1000 rounds (several minutes on 2 cores)
#   scripts/bench-alltoall.sh --quick    smoke run (seconds; numbers not meaningful)
# Extra arguments go to AllToAllBroadcastBenchmark (--rounds R, --peers 2,4, --sizes 20,1024,
# --fault SPEC, --out FILE). JAVA_OPTS adds JVM options, e.g. -Dcohort.bcast.requestNackDelayMicros=200.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/bench-java.sh

run_java_bench alltoall 512m io.cohort.bench.AllToAllBroadcastBenchmark "$@"

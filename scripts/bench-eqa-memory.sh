#!/usr/bin/env bash
# Builds cohort-bench and prints the EQA memory report: buffer bytes per peer for N = 2..128
# in-JVM peers on loopback UDP, EQA's shared retransmission buffer against one buffer per
# channel, beside the paper's M_save(n) = 0.386(1 - 1/n); with --latency also Push-Pull against
# Simple Broadcast latency ratios by message length. Quick (tens of seconds on 2 cores).
#   scripts/bench-eqa-memory.sh [--peers 2,4,8] [--length 32768] [--messages 2] [--latency]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/bench-java.sh

run_java_bench eqa-memory 512m io.cohort.bench.EqaMemoryReport "$@"

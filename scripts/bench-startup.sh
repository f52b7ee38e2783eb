#!/usr/bin/env bash
# Start-up benchmark: `cohort run -n N --example hello` end to end, against N plain hello-world JVMs
# started in parallel (the floor: what N JVM start-ups cost on this machine). The two are run
# alternately so machine noise hits both. Prints a Markdown table; --out FILE also writes it there.
#
#   scripts/bench-startup.sh [--peers 8] [--runs 20] [--out FILE]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
peers=8 runs=20 out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --peers) peers=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "usage: $0 [--peers N] [--runs R] [--out FILE]" >&2; exit 2 ;;
  esac
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/PlainHello.java" <<'JAVA'
public class PlainHello {
    public static void main(String[] args) throws Exception {
        System.out.println("hello from pid " + ProcessHandle.current().pid() + " on "
                + java.net.InetAddress.getLocalHost().getHostName());
    }
}
JAVA
javac -d "$work" "$work/PlainHello.java"
"$root/cohort" run -n 2 --example hello >/dev/null   # builds on first use; not timed

now() { date +%s%N; }
plain() {
  local pids=()
  for _ in $(seq "$peers"); do java -cp "$work" PlainHello >/dev/null & pids+=($!); done
  wait "${pids[@]}"
}
cohort_hello() { "$root/cohort" run -n "$peers" --example hello >/dev/null; }

: > "$work/plain.ms"; : > "$work/cohort.ms"
for _ in $(seq "$runs"); do
  t0=$(now); plain; t1=$(now); echo $(( (t1 - t0) / 1000000 )) >> "$work/plain.ms"
  t0=$(now); cohort_hello; t1=$(now); echo $(( (t1 - t0) / 1000000 )) >> "$work/cohort.ms"
done

stat() { # median and p99 (nearest rank) of a file of integers
  sort -n "$1" | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; i=int(0.99*NR+0.999); if(i<1)i=1; printf "%s %s\n", m, a[i]}'
}
read -r pm pp < <(stat "$work/plain.ms")
read -r cm cp < <(stat "$work/cohort.ms")
ratio=$(awk -v c="$cm" -v p="$pm" 'BEGIN {printf "%.2f", c / p}')
table=$(cat <<MD
| what | median ms | p99 ms | runs |
|---|---:|---:|---:|
| $peers plain \`java\` hello-world JVMs started in parallel | $pm | $pp | $runs |
| \`cohort run -n $peers --example hello\` (controller, io-manager, $peers peers, wire-up, close) | $cm | $cp | $runs |
| ratio cohort / plain (median) | $ratio | | |
MD
)
echo "$table"
if [ -n "$out" ]; then echo "$table" > "$out"; echo "written to $out" >&2; fi

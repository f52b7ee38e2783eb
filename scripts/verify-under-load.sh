#!/usr/bin/env bash
# Runs the README's test command several times in a row while stress-ng keeps every processor busy,
# and prints each run's wall time and result: the check that `mvn verify` passes on a loaded machine.
#
#   scripts/verify-under-load.sh [RUNS] [CPU-WORKERS]     (defaults: 5 runs, 2 workers)
#
# Needs stress-ng (Debian's package of that name). Exits 0 if every run passed, 1 otherwise; each
# run's log is kept in bench-out/verify-under-load/ (ignored by git).
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
workers=${2:-2}
command -v stress-ng >/dev/null || { echo "verify-under-load: needs stress-ng (apt-get install stress-ng)" >&2; exit 2; }
out=bench-out/verify-under-load
mkdir -p "$out"
stress-ng --cpu "$workers" --quiet &
stress=$!
trap 'kill "$stress" 2>/dev/null; wait "$stress" 2>/dev/null' EXIT
failed=0
for i in $(seq 1 "$runs"); do
  start=$(date +%s)
  if mvn -B verify >"$out/run-$i.log" 2>&1; then result=passed; else result=FAILED; failed=1; fi
  printf 'run %d of %d: %s in %d s (load %s)\n' "$i" "$runs" "$result" "$(( $(date +%s) - start ))" \
    "$(cut -d' ' -f1-3 /proc/loadavg)"
done
exit "$failed"

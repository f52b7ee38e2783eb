#!/usr/bin/env bash
# Model-checks the Promela model of PCODE's protocol P1 (cohort-core/src/test/promela/pcode_p1.pml)
# with spin: the safety run checks the assertions (correct delivery; every request returned by
# the end of the program) over every interleaving and loss pattern, the liveness run checks
# "<> every processor finished" under weak fairness, and a deliberately broken variant must fail,
# which shows the checks can fail at all.
#
#   scripts/check-promela.sh              # the CI run: about half a minute
#   scripts/check-promela.sh --thorough   # liveness on the whole 5-call program, 2 losses: ~4 min
#
# Needs spin and gcc (Debian packages spin, gcc). Exit status 0 = all checks passed.
set -euo pipefail
cd "$(dirname "$0")/.."
model=cohort-core/src/test/promela/pcode_p1.pml
thorough=0
case "${1:-}" in
  "") ;;
  --thorough) thorough=1 ;;
  *) echo "usage: scripts/check-promela.sh [--thorough]" >&2; exit 2 ;;
esac
for tool in spin gcc; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "check-promela: $tool is not installed; run: apt-get install spin gcc" >&2
    exit 2
  fi
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$model" "$work/model.pml"
cd "$work"

# check NAME EXPECT SPIN_DEFINES CC_DEFINES PAN_FLAGS: EXPECT is pass or fail.
check() {
  local name=$1 expect=$2 sdefs=$3 cdefs=$4 flags=$5
  rm -f pan pan.* model.pml.trail
  spin $sdefs -a model.pml >spin.log 2>&1 || { cat spin.log; echo "check-promela: spin could not read the model" >&2; exit 1; }
  gcc -O2 -DMEMLIM=4096 $cdefs -o pan pan.c 2>gcc.log || { cat gcc.log; exit 1; }
  local started=$SECONDS
  ./pan -m400000 $flags >pan.log 2>&1 || true
  local errors states
  errors=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' pan.log | head -n 1)
  states=$(sed -n 's/^ *\([0-9.e+]*\) states, stored.*/\1/p' pan.log | head -n 1)
  if [ -z "$errors" ]; then
    cat pan.log
    echo "check-promela: $name: the verifier did not finish" >&2
    exit 1
  fi
  if { [ "$expect" = pass ] && [ "$errors" != 0 ]; } || { [ "$expect" = fail ] && [ "$errors" = 0 ]; }; then
    grep -E "violated|cycle|error" pan.log | head -n 5
    [ -f model.pml.trail ] && spin -t -p -g model.pml | tail -n 40
    echo "check-promela: $name: expected to $expect, got $errors errors" >&2
    exit 1
  fi
  printf '%-58s %s (%s states, %ss)\n' "$name" "$( [ "$expect" = pass ] && echo ok || echo 'ok, the violation was found')" "$states" "$((SECONDS - started))"
}

check "safety: correct delivery, 5 calls, 2 losses" pass "-DK=5 -DMAXLOSS=2" "-DNOCLAIM" ""
if [ $thorough = 1 ]; then
  check "liveness: <> all finished, 5 calls, 2 losses" pass "-DK=5 -DMAXLOSS=2" "" "-a -f"
else
  check "liveness: <> all finished, 3 calls, 1 loss" pass "-DK=3 -DMAXLOSS=1" "" "-a -f"
fi
check "mutant without a sent buffer fails liveness" fail "-DK=3 -DMAXLOSS=1 -DMUTANT_DISCARD_AT_ONCE" "" "-a -f"

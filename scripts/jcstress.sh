#!/usr/bin/env bash
# Runs the jcstress tests of cohort-jcstress (ShmRing's publication, CasLock, a request's completion
# and its wake-up) and fails if any of them saw a FORBIDDEN outcome or errored.
#
#   scripts/jcstress.sh                # the CI run, a short mode: about two minutes on 2 cores
#   scripts/jcstress.sh -m default     # any jcstress options instead of the short mode's (-h lists them)
#
# The short mode runs each test under C2 only (-sc false -jvmArgs -XX:-TieredCompilation: no
# interpreter, C1 or split-compilation variants), 5 iterations of 500 ms per fork; jcstress runs
# two forks per test. Without options of its own jcstress tries every compiler mix and VM option
# it finds: 28 forks per test even in -m quick, 7 minutes for one test on a loaded 2-core machine.
#
# Builds target/jcstress.jar first (mvn -pl cohort-jcstress -am package, tests skipped). The report
# (HTML, the raw results and the whole log) goes to cohort-jcstress/target/jcstress-results/.
# Exit status 0 = every test ran and saw only ACCEPTABLE outcomes.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

short=0
if [ $# -eq 0 ]; then
  short=1
  set -- -m quick -sc false -iters 5 -time 500 -jvmArgs "-XX:-TieredCompilation"
fi

mvn -q -B -pl cohort-jcstress -am package -DskipTests
jar="$root/cohort-jcstress/target/jcstress.jar"
results="$root/cohort-jcstress/target/jcstress-results"
rm -rf "$results"
mkdir -p "$results"
log="$results/jcstress.log"
# The annotation processor lists every test it generated a runner for.
tests=$(cat "$root/cohort-jcstress/target/classes/META-INF/TestList" 2>/dev/null | grep -c '^JCTEST' || true)
if [ "$tests" -eq 0 ]; then
  echo "jcstress: the build generated no tests (no META-INF/TestList); was the annotation processor run?" >&2
  exit 1
fi

started=$SECONDS
status=0
# jcstress writes its raw results (jcstress-results-*.bin.gz) into the working directory. A hung
# fork is not expected (no test waits without a bound), but CI must never wait forever for one.
(cd "$results" && timeout --kill-after=30s 20m java -jar "$jar" -v -r "$results/report" "$@") >"$log" 2>&1 || status=$?

# The summary, with every test's outcomes and their counts (the progress lines stay in the log).
summary=$(sed -n '/^RUN RESULTS:/,$p' "$log")
printf '%s\n' "$summary" | grep -v '^Exception in thread\|^[[:space:]]*at org\.openjdk' || true
# One line per test in the summary: "....... [OK] io.cohort.jcstress.Name", or [FAILED], [ERROR]...
passed=$(printf '%s\n' "$summary" | grep -c '^\.* *\[OK\] ' || true)
failed=$(printf '%s\n' "$summary" | grep '^\.* *\[[A-Z ]*\] ' | grep -vc '\[OK\]' || true)
if [ -z "$summary" ]; then
  tail -n 40 "$log"
  echo "jcstress: the run did not finish (exit status $status); log: $log" >&2
  [ "$status" -ne 0 ] || status=1
elif [ "$status" -ne 0 ] || [ "$failed" -ne 0 ]; then
  echo "jcstress: FORBIDDEN outcomes or errors (exit status $status); report: $results/report/index.html" >&2
  [ "$status" -ne 0 ] || status=1
elif [ "$short" = 1 ] && [ "$passed" -ne "$tests" ]; then
  echo "jcstress: $passed of the $tests tests in the jar passed; the others did not run" >&2
  status=1
fi
echo "jcstress: the run took $((SECONDS - started)) s"
echo "jcstress: $passed passed, $failed failed"
exit "$status"

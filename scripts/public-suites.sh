#!/usr/bin/env bash
# Runs well-known public Java MPI programs and test suites, unmodified, on Cohort's two MPI layers
# (issue 9): each is fetched as Debian's source package of the library it was written for (with
# `apt-get source`, scripts/lib/debian-source.sh), its checksum checked, compiled against our jar and
# started with `cohort run`.
#
#   - ompi-examples: Open MPI 4.1.4's examples/Hello.java and Ring.java (the Open MPI Java bindings
#     API) on lib/cohort-mpi.jar;
#   - mpj-tests: MPJ Express 0.44's test/mpi, the mpiJava test suite (IBM's MPI test cases ported to
#     Java: pt2pt, ccl, comm, group, topo, dtyp, env and their Object variants) on lib/cohort-mpj.jar;
#   - jgf: the Java Grande Forum MPJ benchmarks from the same package (section 1 micro-benchmarks,
#     section 2 kernels and section 3 applications, size A; each kernel validates its own result).
#
#   scripts/public-suites.sh [--suites ompi-examples,mpj-tests,jgf] [--np "2 4"] [--only REGEX]
#                            [--timeout SECONDS] [--out DIR]
#
# Nothing fetched is kept in the repository: sources are cached under ${COHORT_PUBLIC_CACHE:-
# ~/.cache/cohort/public} and unpacked into a temporary directory. A source tarball not in the cache
# comes from the Debian mirror this machine's apt uses; where apt has no deb-src entry, root gets one
# added for the run and removed afterwards (scripts/lib/debian-source.sh says how), and anyone else
# is told which entry to add. The MPJ tests and the JGF benchmarks report failures by printing them
# (ERROR, Validation failed) rather than by their exit status, so a run passes when `cohort run`
# exits 0 within the time-out and no line of its output reports an error. Each test's output goes
# to DIR/<suite>/<np>/<class>.out and the verdicts to DIR/results.txt (default DIR:
# bench-out/public-suites-<time>). Exits 1 if any run failed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
suites="ompi-examples,mpj-tests,jgf" nps="2 4" only="" timeout=120 out=""
while [ $# -gt 0 ]; do
  case "$1" in
    --suites) suites=$2; shift 2 ;;
    --np) nps=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    *) echo "usage: $0 [--suites ompi-examples,mpj-tests,jgf] [--np \"2 4\"] [--only REGEX] [--timeout S] [--out DIR]" >&2; exit 2 ;;
  esac
done
cd "$root"
out=${out:-bench-out/public-suites-$(date +%Y%m%dT%H%M%S)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cache=${COHORT_PUBLIC_CACHE:-$HOME/.cache/cohort/public}
mkdir -p "$cache"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Debian's source packages (those of Debian 12), their upstream tarballs, and the SHA-256 sums the
# packages' .dsc files give.
. "$root/scripts/lib/debian-source.sh"
OMPI_SRC=openmpi OMPI_VER=4.1.4-3 OMPI_TAR=openmpi_4.1.4.orig.tar.xz
OMPI_SHA=ddaee7dbdb01eb4fab1fda5b5e03e8bbff026711806c095c1f39bb410f99f263
MPJ_SRC=mpj MPJ_VER=0.44+dfsg-4 MPJ_TAR=mpj_0.44+dfsg.orig.tar.xz
MPJ_SHA=75ab5bbb2e40359c75cb30222b6d85d2ba0d1291a0fcef0c6b0b4f465436bb75

fetch() { # SOURCE_PACKAGE VERSION FILE SHA256: FILE into the cache once, checked every time
  local pkg=$1 ver=$2 file=$cache/$3 sha=$4
  if [ ! -f "$file" ]; then
    echo "fetching $pkg $ver's source with apt-get source" >&2
    debian_source "$pkg" "$ver" "$cache" --tar-only || { echo "could not fetch $3" >&2; exit 1; }
    [ -f "$file" ] || { echo "apt-get source $pkg=$ver did not bring $3" >&2; exit 1; }
  fi
  if [ "$(sha256sum "$file" | cut -d' ' -f1)" != "$sha" ]; then
    echo "$file does not have the SHA-256 Debian's .dsc gives; delete it and run again" >&2
    exit 1
  fi
}

./cohort run -n 1 --example hello >/dev/null   # builds Cohort on first use
lib=$root/cohort-dist/target/cohort/lib

# Our runner (not part of any suite): starts a test class the way its suite's driver does, through
# its main if it has one, else through its constructor taking the program's arguments.
mkdir -p "$work/runner"
cat > "$work/runner/SuiteMain.java" <<'JAVA'
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;

public class SuiteMain {
    public static void main(String[] args) throws Throwable {
        Class<?> c = Class.forName(args[0]);
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        try {
            Method m = null;
            try {
                m = c.getMethod("main", String[].class);
            } catch (NoSuchMethodException e) {
                // not every test has a main: the suite's driver calls the constructor
            }
            if (m != null && Modifier.isStatic(m.getModifiers())) {
                m.invoke(null, (Object) rest);
            } else {
                c.getConstructor(String[].class).newInstance((Object) rest);
            }
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
JAVA
javac -d "$work/runner" "$work/runner/SuiteMain.java"

results=$out/results.txt
: > "$results"
failed=0
# Lines by which these suites report a failure on their output.
error_lines='ERROR|Error|error:|Exception|FAILED|[Ff]ailed|Validation failed|wrong|WRONG'

run_one() { # SUITE NP CLASSPATH CLASS [EXPECT_REGEX]: one job, its verdict appended to results.txt
  local suite=$1 np=$2 cp=$3 cls=$4 expect=${5:-} want=0
  # A test that checks MPI_Abort ends the job with the code it passes (env/abort.java: 5).
  [ "$cls" = mpi.env.abort ] && want=5
  local dir=$out/$suite/$np
  mkdir -p "$dir"
  local log=$dir/$cls.out rc=0 verdict=PASS reason=""
  local t0; t0=$(date +%s%3N)
  ./cohort run -n "$np" --timeout "$timeout" -cp "$cp:$work/runner" SuiteMain "$cls" >"$log" 2>&1 </dev/null || rc=$?
  local ms=$(( $(date +%s%3N) - t0 ))
  if [ "$rc" = 124 ]; then
    verdict=FAIL reason="timed out after ${timeout}s"
  elif [ "$rc" != "$want" ]; then
    verdict=FAIL reason="exit $rc: $(grep -m1 -E "$error_lines|cohort:" "$log" | cut -c1-160)"
  elif [ "$want" = 0 ] && grep -qE "$error_lines" "$log"; then
    verdict=FAIL reason="$(grep -m1 -E "$error_lines" "$log" | cut -c1-160)"
  elif [ -n "$expect" ] && ! grep -qE "$expect" "$log"; then
    verdict=FAIL reason="output lacks /$expect/"
  fi
  [ "$verdict" = PASS ] || failed=$((failed + 1))
  printf '%s\t%s\tnp=%s\t%s\t%sms\t%s\n' "$verdict" "$suite" "$np" "$cls" "$ms" "$reason" | tee -a "$results"
}

selected() { [ -z "$only" ] || [[ $1 =~ $only ]]; }

compile_all() { # JAR SRC_ROOT OUT_DIR FILE...: compiles what compiles; prints the classes left out, one line each
  local jar=$1 src=$2 dest=$3; shift 3
  local files=("$@") round
  mkdir -p "$dest"
  for round in 1 2 3 4 5 6; do
    if javac -nowarn -encoding ISO-8859-1 -cp "$jar" -d "$dest" "${files[@]}" >"$work/javac.log" 2>&1; then
      return 0
    fi
    # Leave out every file javac reported an error in, and try again with the rest.
    mapfile -t bad < <(grep -oE "^[^ :]+\.java:[0-9]+: error" "$work/javac.log" | cut -d: -f1 | sort -u)
    [ "${#bad[@]}" -gt 0 ] || { cat "$work/javac.log" >&2; return 1; }
    for b in "${bad[@]}"; do
      echo "NOT COMPILED ${b#"$src"/}: $(grep -m1 -A0 "^$b:[0-9]*: error" "$work/javac.log" | sed 's/^[^ ]* error: //' | cut -c1-120)"
    done
    local keep=() f
    for f in "${files[@]}"; do
      printf '%s\n' "${bad[@]}" | grep -qxF "$f" || keep+=("$f")
    done
    files=("${keep[@]}")
  done
  return 1
}

IFS=, read -r -a suite_list <<< "$suites"
for suite in "${suite_list[@]}"; do
  case "$suite" in
    ompi-examples)
      fetch "$OMPI_SRC" "$OMPI_VER" "$OMPI_TAR" "$OMPI_SHA"
      tar -xJf "$cache/$OMPI_TAR" -C "$work" openmpi-4.1.4/examples/Hello.java openmpi-4.1.4/examples/Ring.java
      jar=$lib/cohort-mpi.jar
      mkdir -p "$work/ompi-classes"
      javac -cp "$jar" -d "$work/ompi-classes" "$work"/openmpi-4.1.4/examples/*.java
      for np in $nps; do
        selected Hello && run_one ompi-examples "$np" "$jar:$work/ompi-classes" Hello "Hello world from rank $((np - 1)) of $np"
        selected Ring && run_one ompi-examples "$np" "$jar:$work/ompi-classes" Ring "Process 0 exiting"
      done
      ;;
    mpj-tests|jgf)
      jar=$lib/cohort-mpj.jar
      [ -f "$jar" ] || { echo "$jar is missing: build Cohort with the cohort-mpj module" >&2; exit 1; }
      fetch "$MPJ_SRC" "$MPJ_VER" "$MPJ_TAR" "$MPJ_SHA"
      [ -d "$work/mpj-v0_44" ] || tar -xJf "$cache/$MPJ_TAR" -C "$work" mpj-v0_44/test
      src=$work/mpj-v0_44/test
      if [ "$suite" = mpj-tests ]; then dirs=(mpi); else dirs=(jgf_mpj_benchmarks); fi
      mapfile -t files < <(cd "$src" && find "${dirs[@]}" -name '*.java' | sort | sed "s|^|$src/|")
      # Some tests import MPJ Express's device packages (mpjdev, mpjbuf) without using them; an
      # empty class in each lets them compile. Tests that do use those packages stay uncompiled.
      for pkg in mpjdev mpjbuf; do
        mkdir -p "$work/stubs/$pkg"
        printf 'package %s;\n/** Placeholder: lets tests that import this MPJ Express package compile. */\nfinal class CohortPlaceholder {\n}\n' \
          "$pkg" > "$work/stubs/$pkg/CohortPlaceholder.java"
        files+=("$work/stubs/$pkg/CohortPlaceholder.java")
      done
      classes=$work/$suite-classes
      compile_all "$jar" "$src" "$classes" "${files[@]}" | tee -a "$out/$suite-not-compiled.txt" >&2 || true
      if [ "$suite" = mpj-tests ]; then
        # The tests the suite's own driver (test/TestSuite.java) runs, in its order, where they compiled.
        mapfile -t tests < <(grep -oE "^[[:space:]]*(mpi\.[a-zA-Z_.]+\.)?[A-Za-z_0-9]+ [a-zA-Z_0-9]+ *= *new +[a-zA-Z_0-9.]+\( *args *\)" "$src/TestSuite.java" \
          | sed -E 's/.*new +([a-zA-Z_0-9.]+)\( *args *\)/\1/' | awk '!seen[$0]++')
        for t in "${tests[@]}"; do
          cls=$(cd "$classes" && find . -name "${t##*.}.class" | sed 's|^\./||; s|\.class$||; s|/|.|g' | grep -E "(^|\.)${t//./\\.}$" | grep -v '^mpjdev\|^xdev' | head -n1 || true)
          [ -n "$cls" ] || continue
          selected "$cls" || continue
          for np in $nps; do run_one mpj-tests "$np" "$jar:$classes" "$cls"; done
        done
      else
        # Section 3's JGFAllSizeA would run MonteCarlo first, whose input file (conf/hitData) is not
        # in MPJ Express's source package, so it cannot run anywhere from it; the other two run alone.
        for cls in jgf_mpj_benchmarks.section1.JGFAll jgf_mpj_benchmarks.section2.JGFAllSizeA \
                   jgf_mpj_benchmarks.section3.JGFMolDynBenchSizeA jgf_mpj_benchmarks.section3.JGFRayTracerBenchSizeA; do
          [ -f "$classes/${cls//.//}.class" ] || continue
          selected "$cls" || continue
          for np in $nps; do run_one jgf "$np" "$jar:$classes" "$cls"; done
        done
      fi
      ;;
    *) echo "unknown suite '$suite' (ompi-examples, mpj-tests, jgf)" >&2; exit 2 ;;
  esac
done

pass=$(grep -c '^PASS' "$results" || true)
total=$(wc -l < "$results")
echo "public suites: $pass of $total runs passed; verdicts in $results" >&2
[ "$failed" = 0 ]

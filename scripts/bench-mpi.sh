#!/usr/bin/env bash
# MPI for Java (issue 9): the `mpi` layers beside Cohort's own API, the Open MPI Java bindings and MPJ
# Express, on one host over shared memory, all in one run of this script. The same OSU-style loops
# (latency: ping-pong; bw: windows of 64 messages and an ack; bcast and allreduce: one timed call and
# an untimed barrier) run on:
#   - cohort      Cohort's own API: io.cohort.bench.OsuStyleJob under `cohort run --transport shm`;
#   - cohort-mpi  cohort-bench/src/main/java-ompi/Osu*.java compiled against cohort-mpi.jar, under
#                 `cohort run --transport shm` with the same options;
#   - ompi-java   the same sources compiled against the Open MPI Java bindings' mpi.jar, under
#                 `mpirun --mca btl self,vader --bind-to none` (Debian's Open MPI 4.1.4 and its
#                 libmpi_java.so; Debian ships no mpi.jar, so this script builds it from Open MPI's
#                 source, once, into bench-out/ompi-java/mpi.jar);
#   - mpj         cohort-bench/src/main/java-mpj/MpjOsu*.java (mpiJava 1.2) on MPJ Express 0.44
#                 (Debian's libmpj-java), multicore device (ranks as threads of one JVM, started
#                 through its MulticoreStarter as mpjrun -dev multicore would);
#   - cohort-mpj  the same MpjOsu*.java on cohort-mpj.jar under `cohort run --transport shm`, when
#                 cohort-dist/target/cohort/lib/cohort-mpj.jar exists.
# Cohort's variants run once per idle strategy (--idles; busy-spin and the default, backoff); at N
# greater than the cores only the default (backoff) runs (spinning peers on shared cores measure the
# scheduler). Every repetition runs every variant once, the variants' order rotated from one
# repetition to the next, so that machine noise hits them all; the tables give, per figure, the
# median over the repetitions.
#
#   scripts/bench-mpi.sh [--quick] [--reps N] [--parts latency,bw,coll] [--impls cohort,cohort-mpi,ompi-java,mpj,cohort-mpj]
#                        [--idles busy-spin,backoff] [--buffers array,direct] [--peers "2 4"] [--timeout S] [--out FILE]
#                        [--no-probe]
#
# Results: every program's lines, tagged with idle= and rep=, go to FILE (default
# bench-out/mpi-<time>.txt), and Markdown tables of them (scripts/lib/bench-mpi-table.py) to FILE
# with .md in place of .txt. A run that fails or hangs (--timeout, default 900 s) leaves a
# "# FAILED ..." line; the others go on and the script exits 1 at the end.
#
# Installs openmpi-bin, libopenmpi-dev and libmpj-java if missing (needs root then). The bindings'
# sources come from Debian's openmpi_4.1.4.orig.tar.xz (bench-out/ompi-java/, else the cache of
# scripts/public-suites.sh, else /tmp/pub/, else `apt-get source` from the machine's own Debian
# mirror, scripts/lib/debian-source.sh), checked against the SHA-256 in openmpi_4.1.4-3.dsc; once
# mpi.jar is built no network is needed. Nothing fetched or generated goes into the source tree.
#
# The machine's state: on a virtual machine the host moves the guest's processors between its cores,
# and copies between processes run 3-5x slower while the two sit on cores that share no cache. So,
# unless --no-probe, CoreDistanceProbe (cohort-bench) runs through the whole run, pinned to
# processors 0 and 1 by taskset: every 200 ms it times a cache line's round trip between them
# (about 0.2 % of each processor) and its "probe" lines join FILE; the tables then also give the
# point-to-point figures per mode (scripts/lib/bench-mpi-table.py). It needs taskset and two
# processors; without them the run goes on unprobed.
#
# BENCH_COHORT_RUN_ARGS="--collectives p2p" adds options to every `cohort run` (Cohort, cohort-mpi,
# cohort-mpj alike), for experiments; the default run uses Cohort's defaults.
# BENCH_IDLES_OVERSUB=1 runs every --idles strategy also at N above the cores (experiments: how
# spinning or yielding peers fare when they share cores); without it only backoff runs there.
#
# --quick: one repetition, fewer sizes and iterations, 0.3 s of JIT warm-up: a smoke run (a few
# minutes), figures not meaningful. The full run: 3 repetitions, sizes 1 B - 4 MiB and 8 B - 64 KiB,
# 2 s of JIT warm-up per program (5 s x N / cores where N exceeds the cores: 10 s at N = 4 on 2).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

reps=3 parts=latency,bw,coll impls=cohort,cohort-mpi,ompi-java,mpj,cohort-mpj idles=busy-spin,backoff
buffers=array,direct peers="2 4" limit=900 out="" quick=0 probe=1
die() { echo "bench-mpi: $*" >&2; exit 2; }
while (($#)); do
  case $1 in
    --reps | --parts | --impls | --idles | --buffers | --peers | --timeout | --out) (($# >= 2)) || die "$1 needs a value" ;;
  esac
  case $1 in
    --quick) quick=1 reps=1 ;;
    --no-probe) probe=0 ;;
    --reps) reps=$2; shift ;;
    --parts) parts=$2; shift ;;
    --impls) impls=$2; shift ;;
    --idles) idles=$2; shift ;;
    --buffers) buffers=$2; shift ;;
    --peers) peers=$2; shift ;;
    --timeout) limit=$2; shift ;;
    --out) out=$2; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1'; usage: scripts/bench-mpi.sh [--quick] [--reps N] [--parts ..] [--impls ..] [--idles ..] [--buffers ..] [--peers \"2 4\"] [--timeout S] [--out FILE] [--no-probe] (see --help)" ;;
  esac
  shift
done
[[ $reps =~ ^[1-9][0-9]*$ && $limit =~ ^[1-9][0-9]*$ ]] || die "--reps and --timeout want whole numbers of at least 1"
for p in ${parts//,/ }; do [[ $p =~ ^(latency|bw|coll)$ ]] || die "unknown part '$p' (latency, bw, coll)"; done
for i in ${impls//,/ }; do [[ $i =~ ^(cohort|cohort-mpi|ompi-java|mpj|cohort-mpj)$ ]] || die "unknown impl '$i'"; done
for i in ${idles//,/ }; do [[ $i =~ ^(busy-spin|yield|backoff|park)$ ]] || die "unknown idle strategy '$i'"; done
for b in ${buffers//,/ }; do [[ $b =~ ^(array|direct)$ ]] || die "unknown buffer kind '$b' (array, direct)"; done
for n in $peers; do [[ $n =~ ^[0-9]+$ ]] && ((n >= 2)) || die "--peers wants numbers of at least 2, not '$n'"; done
has() { [[ ",$impls," == *",$1,"* ]]; }
part() { [[ ",$parts," == *",$1,"* ]]; }

if ((quick)); then
  p2p_sizes=1,64,1024,16384,262144,4194304
  lat_args=(--iters 2000 --warmup 200 --iters-large 200 --warmup-large 20)
  bw_args=(--iters 50 --warmup 5 --iters-large 10 --warmup-large 2)
  coll_sizes=8,1024,65536
  coll_args=(--iters 200 --warmup 20 --iters-large 200 --warmup-large 20)
  prewarm=0.3
else
  p2p_sizes=$(awk 'BEGIN {for (s = 1; s <= 4194304; s *= 2) printf "%s%d", (s > 1 ? "," : ""), s}')
  lat_args=(--iters 10000 --warmup 1000 --iters-large 1000 --warmup-large 100)
  bw_args=(--iters 200 --warmup 20 --iters-large 50 --warmup-large 5)
  coll_sizes=8,32,128,256,1024,4096,16384,65536
  coll_args=(--iters 1000 --warmup 100 --iters-large 1000 --warmup-large 100)
  prewarm=2
fi
if [[ -z "$out" ]]; then mkdir -p bench-out; out="bench-out/mpi-$(date +%Y%m%d-%H%M%S).txt"; fi
md="${out%.txt}.md"
[[ "$md" != "$out" ]] || md="$out.md"
cores=$(nproc)
heap=512m

work=$(mktemp -d /tmp/bench-mpi.XXXXXX)
probes=()
cleanup() {
  ((${#probes[@]} == 0)) || kill "${probes[@]}" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# ---- the peers: Debian's packages ----------------------------------------------------------------
install() {
  [[ $(id -u) == 0 ]] || die "$* missing; install them (apt-get install $*) or run as root"
  echo "installing $* from Debian's packages..." >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}
if has ompi-java; then
  command -v mpirun >/dev/null || install openmpi-bin libopenmpi-dev
  ompi_libdir=$(dirname "$(dpkg -L libopenmpi-dev 2>/dev/null | grep '/libmpi_java\.so$' | head -n1)")
  [[ -f $ompi_libdir/libmpi_java.so ]] || { install libopenmpi-dev; ompi_libdir=$(dirname "$(dpkg -L libopenmpi-dev | grep '/libmpi_java\.so$' | head -n1)"); }
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
if has mpj; then
  [[ -f /usr/share/mpj/lib/mpj.jar && -f /usr/share/mpj/lib/starter.jar && -f /usr/share/java/log4j-1.2.jar ]] || install libmpj-java
fi

# ---- the Open MPI Java bindings' mpi.jar, built once from Open MPI's source -----------------------
# Debian builds libmpi_java.so (in libopenmpi3, with libmpi_java.so in libopenmpi-dev) but ships no
# mpi.jar. Its classes are plain Java in ompi/mpi/java/java/ of the source (none is generated from a
# template in 4.1.4), compiled as Open MPI's Makefile.am does: javac over all of them, then a jar.
ompi_jar=bench-out/ompi-java/mpi.jar
build_ompi_jar() {
  local cache=bench-out/ompi-java tarball=openmpi_4.1.4.orig.tar.xz dsc=openmpi_4.1.4-3.dsc
  mkdir -p "$cache"
  local f missing=()
  for f in $tarball $dsc; do
    [[ -s $cache/$f ]] && continue
    # The cache of scripts/public-suites.sh, or a copy left in /tmp/pub, saves the download.
    local d
    for d in "${COHORT_PUBLIC_CACHE:-$HOME/.cache/cohort/public}" /tmp/pub; do
      if [[ -s $d/$f ]]; then cp "$d/$f" "$cache/$f"; continue 2; fi
    done
    missing+=("$f")
  done
  if ((${#missing[@]})); then
    echo "fetching ${missing[*]} with apt-get source..." >&2
    . "$root/scripts/lib/debian-source.sh"
    debian_source openmpi 4.1.4-3 "$cache" --tar-only --dsc-only || die "could not fetch ${missing[*]}"
    for f in "${missing[@]}"; do [[ -s $cache/$f ]] || die "apt-get source openmpi=4.1.4-3 did not bring $f"; done
  fi
  local want got
  want=$(awk '/^Checksums-Sha256:/ {on = 1; next} /^[^ ]/ {on = 0} on && $3 == "'$tarball'" {print $1}' "$cache/$dsc")
  got=$(sha256sum "$cache/$tarball" | cut -d' ' -f1)
  [[ -n $want && $want == "$got" ]] || die "$cache/$tarball has SHA-256 $got, but $dsc says '${want:-nothing}'; delete both and re-run"
  tar -xJf "$cache/$tarball" -C "$work" openmpi-4.1.4/ompi/mpi/java/java
  local src=$work/openmpi-4.1.4/ompi/mpi/java/java
  if compgen -G "$src/*.java.in" >/dev/null; then die "$src has .java.in templates this script does not know how to fill"; fi
  mkdir -p "$work/ompi-classes"
  javac --release 17 -nowarn -Xlint:none -d "$work/ompi-classes" "$src"/*.java 2>"$work/ompi-javac.log" || { cat "$work/ompi-javac.log" >&2; die "javac failed on Open MPI's Java sources"; }
  jar cf "$ompi_jar.part" -C "$work/ompi-classes" . && mv "$ompi_jar.part" "$ompi_jar"
  echo "$got  $tarball (Open MPI's ompi/mpi/java/java/*.java, javac --release 17)" >"$cache/mpi.jar.source"
  echo "built $ompi_jar" >&2
}
if has ompi-java; then
  [[ -s $ompi_jar ]] || build_ompi_jar
  libver=$(dpkg-query -W -f '${Version}' libopenmpi3 2>/dev/null || true)
  [[ $libver == 4.1.4* ]] || echo "bench-mpi: warning: libopenmpi3 is '$libver', mpi.jar is built from 4.1.4" >&2
fi

# ---- Cohort and the benchmark programs (into $work, never into the tree) --------------------------
mvn -q -pl cohort-bench,cohort-dist -am package -DskipTests
./cohort run -n 2 --example hello >/dev/null   # the launcher's own up-to-date check; not timed
lib=$root/cohort-dist/target/cohort/lib
bench=$root/cohort-bench/target/classes        # OsuStyleJob and OsuFigures (shared by every program)
ompi_src=(cohort-bench/src/main/java-ompi/*.java)
mpj_src=(cohort-bench/src/main/java-mpj/MpjOsu*.java)
compile() { # DIR CLASSPATH SOURCES...
  local dir=$1 cp=$2; shift 2
  mkdir -p "$dir"
  javac --release 17 -nowarn -d "$dir" -cp "$cp:$bench" "$@"
}
has cohort-mpi && compile "$work/cohort-mpi" "$lib/cohort-mpi.jar" "${ompi_src[@]}"
has ompi-java && compile "$work/ompi-java" "$root/$ompi_jar" "${ompi_src[@]}"
if has mpj; then
  # MPJ wants its jars and log4j in one $MPJ_HOME/lib (its starter names them there).
  mkdir -p "$work/mpj-home/lib" "$work/mpj-home/conf"
  for j in /usr/share/mpj/lib/*.jar /usr/share/java/log4j-1.2.jar; do ln -s "$(readlink -f "$j")" "$work/mpj-home/lib/$(basename "$j")"; done
  cp /usr/share/mpj/conf/mpjexpress.conf "$work/mpj-home/conf/"
  compile "$work/mpj" "$work/mpj-home/lib/mpj.jar" "${mpj_src[@]}"
fi
cohort_mpj=0
if has cohort-mpj && [[ -f $lib/cohort-mpj.jar ]]; then
  compile "$work/cohort-mpj" "$lib/cohort-mpj.jar" "${mpj_src[@]}"
  cohort_mpj=1
fi

# ---- one run ---------------------------------------------------------------------------------------
failed=0
# run LABEL TAGS COMMAND...: the program's "osu " lines, with TAGS appended, to $out.
run() {
  local label=$1 tags=$2 rc=0; shift 2
  echo "  $label" >&2
  timeout --kill-after=10 "$limit" "$@" >"$work/run.out" 2>"$work/run.err" || rc=$?
  { grep '^osu ' "$work/run.out" || true; } | sed "s/\$/ $tags/" >>"$out"
  # MPJ's multicore starter exits 0 when a rank throws (it prints the trace and calls exit(0)).
  if ((rc == 0)) && [[ $label == *" mpj "* ]] && grep -qE 'Exception|Error' "$work/run.err"; then rc=1; fi
  if ((rc != 0)) || ! grep -q '^osu ' "$work/run.out"; then
    failed=1
    echo "# FAILED $label (exit $rc$( ((rc == 124)) && echo ", timed out after ${limit}s"))" | tee -a "$out" >&2
    { grep -v '^osu ' "$work/run.out" || true; cat "$work/run.err"; } | tail -n 25 | sed 's/^/    /' >&2
  fi
}

# prog PART: the Open MPI-API program, its mpiJava twin and the Cohort-API operation for a part.
ompi_main() { case $1 in latency) echo OsuLatency ;; bw) echo OsuBandwidth ;; *) echo OsuCollLatency ;; esac; }
mpj_main() { case $1 in latency) echo MpjOsuLatency ;; bw) echo MpjOsuBandwidth ;; *) echo MpjOsuCollLatency ;; esac; }

# variant V PART N BUFFER OP REP; V is impl[/idle]. ARGS: the program's options for this part.
variant() {
  local v=$1 part=$2 n=$3 buffer=$4 op=$5 r=$6 impl=${1%%/*} idle=-
  [[ $v == */* ]] && idle=${v#*/}
  local sizes args opcmd=()
  case $part in
    latency) sizes=$p2p_sizes args=("${lat_args[@]}") ;;
    bw) sizes=$p2p_sizes args=("${bw_args[@]}") ;;
    coll) sizes=$coll_sizes args=("${coll_args[@]}"); opcmd=("$op") ;;
  esac
  # With more peers than cores every JVM compiles on a fraction of a core: 2 s left Cohort's four
  # JVMs at N = 4 still in C2 (medians 4-20x their steady state), so the pre-warm grows to 5 s per
  # peer per core there (N = 4 on 2 cores: 10 s), for every Java implementation alike.
  local warm=$prewarm
  if ((n > cores && !quick)); then warm=$(awk -v n="$n" -v c="$cores" -v p="$prewarm" 'BEGIN { w = 5 * n / c; print (w > p ? w : p) }'); fi
  args+=(--impl "$impl" --buffer "$buffer" --sizes "$sizes" --prewarm-seconds "$warm")
  local tags="idle=$idle rep=$r" label="rep $r: $impl ${op} n=$n buffer=$buffer idle=$idle"
  local crun=(./cohort run -n "$n" --transport shm --idle "$idle" --jvm-opt "-Xms$heap" --jvm-opt "-Xmx$heap")
  # shellcheck disable=SC2206
  crun+=(${BENCH_COHORT_RUN_ARGS:-})
  case $impl in
    cohort)
      run "$label" "$tags" "${crun[@]}" -cp "$bench" io.cohort.bench.OsuStyleJob "$op" "${args[@]}" ;;
    cohort-mpi)
      run "$label" "$tags" "${crun[@]}" -cp "$lib/cohort-mpi.jar:$work/cohort-mpi:$bench" "$(ompi_main "$part")" "${opcmd[@]}" "${args[@]}" ;;
    cohort-mpj)
      run "$label" "$tags" "${crun[@]}" -cp "$lib/cohort-mpj.jar:$work/cohort-mpj:$bench" "$(mpj_main "$part")" "${opcmd[@]}" "${args[@]}" ;;
    ompi-java)
      # --bind-to none: a rank bound to one core would share it with its JVM's JIT and GC threads;
      # Cohort's and MPJ's processes are not bound either. Open MPI yields when oversubscribed.
      run "$label" "$tags" mpirun -np "$n" --oversubscribe --bind-to none --mca btl self,vader \
        java "-Xms$heap" "-Xmx$heap" -Djava.library.path="$ompi_libdir" -cp "$root/$ompi_jar:$work/ompi-java:$bench" \
        "$(ompi_main "$part")" "${opcmd[@]}" "${args[@]}" ;;
    mpj)
      # The multicore device: one JVM, the ranks as threads, each loading the program through its own
      # class loader (what `mpjrun -np N -dev multicore` starts, without mpjrun's extra JVM).
      local L=$work/mpj-home/lib
      run "$label" "$tags" env MPJ_HOME="$work/mpj-home" java "-Xms$((512 * n))m" "-Xmx$((512 * n))m" \
        -cp "$L/smpdev.jar:$L/xdev.jar:$L/mpjbuf.jar:$L/loader2.jar:$L/starter.jar:$L/mpiExp.jar:$L/log4j-1.2.jar" \
        runtime.starter.MulticoreStarter "$work/mpj" "$n" smpdev useLocalLoader "$bench" "$(mpj_main "$part")" "${opcmd[@]}" "${args[@]}" ;;
  esac
}

# The variants of one measurement: Cohort's per idle strategy (only the last, the default, at N above
# the cores), Open MPI and MPJ once; MPJ and cohort-mpj have arrays only, Cohort's allreduce too.
variants() { # PART N BUFFER OP
  local part=$1 n=$2 buffer=$3 op=$4 i list=()
  local cidles=${idles//,/ }
  if ((n > cores)) && [[ -z ${BENCH_IDLES_OVERSUB:-} ]]; then cidles=backoff; fi   # the default; spinning peers on shared cores measure the scheduler
  for i in $cidles; do
    has cohort && ! [[ $op == allreduce && $buffer == direct ]] && list+=("cohort/$i")
    has cohort-mpi && list+=("cohort-mpi/$i")
    has cohort-mpj && ((cohort_mpj)) && [[ $buffer == array ]] && list+=("cohort-mpj/$i")
  done
  has ompi-java && list+=(ompi-java)
  has mpj && [[ $buffer == array ]] && list+=(mpj)
  echo "${list[@]}"
}

{
  echo "# $(date -u +%FT%TZ) $cores CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1), Linux $(uname -r), $(java -version 2>&1 | sed -n 2p)"
  has ompi-java && echo "# $(mpirun --version 2>/dev/null | head -n1), Java bindings built from its source (bench-out/ompi-java/mpi.jar), btl self,vader"
  has mpj && echo "# MPJ Express $(dpkg-query -W -f '${Version}' libmpj-java 2>/dev/null), multicore device"
  has cohort-mpj && ((cohort_mpj == 0)) && echo "# cohort-mpj: $lib/cohort-mpj.jar does not exist; skipped"
  echo "# reps=$reps parts=$parts impls=$impls idles=$idles buffers=$buffers peers=\"$peers\" quick=$quick prewarm=${prewarm}s (above the cores 5 s x N / cores)${BENCH_COHORT_RUN_ARGS:+ cohort-run-args=\"$BENCH_COHORT_RUN_ARGS\"}"
} | tee -a "$out"

# The machine's state through the run (see the top): the probe's lines go to FILE at the end.
if ((probe)); then
  if ((cores >= 2)) && command -v taskset >/dev/null; then
    pjava=(java -XX:+UseSerialGC -Xmx16m -cp "$bench" io.cohort.bench.CoreDistanceProbe)
    taskset -c 1 "${pjava[@]}" follow "$work/probe.line" 200 >"$work/probe.err" 2>&1 &
    probes+=($!)
    taskset -c 0 "${pjava[@]}" lead "$work/probe.line" 200 >"$work/probe.out" 2>&1 &
    probes+=($!)
  else
    echo "bench-mpi: no probe of the processors' distance (it needs taskset and two processors); the run goes on" >&2
  fi
fi

start=$(date +%s)
for ((r = 1; r <= reps; r++)); do
  echo "repetition $r of $reps..." >&2
  measurements=()
  for p in latency bw; do
    part "$p" || continue
    for b in ${buffers//,/ }; do measurements+=("$p 2 $b $p"); done
  done
  if part coll; then
    for n in $peers; do for op in bcast allreduce; do measurements+=("coll $n array $op"); done; done
  fi
  for m in "${measurements[@]}"; do
    # shellcheck disable=SC2086
    read -ra vs <<<"$(variants $m)"
    ((${#vs[@]})) || continue
    k=$(((r - 1) % ${#vs[@]}))   # rotate the order per repetition
    for ((i = 0; i < ${#vs[@]}; i++)); do
      # shellcheck disable=SC2086
      variant "${vs[(i + k) % ${#vs[@]}]}" $m "$r"
    done
  done
done
echo "# took $(($(date +%s) - start)) s" | tee -a "$out"
if ((${#probes[@]})); then
  kill "${probes[@]}" 2>/dev/null || true
  wait "${probes[@]}" 2>/dev/null || true
  probes=()
  grep '^probe ' "$work/probe.out" >>"$out" \
    || echo "bench-mpi: the probe printed nothing: $(cat "$work/probe.out" "$work/probe.err" | head -c 400)" >&2
fi

python3 scripts/lib/bench-mpi-table.py "$out" >"$md" || { echo "bench-mpi: the tables could not be made from $out" >&2; failed=1; }
echo "Results: $out, tables: $md" >&2
exit "$failed"

# Sourced by the scripts/bench-*.sh that run a Java benchmark class from cohort-bench.
#   run_java_bench NAME HEAP MAINCLASS ARGS...
# Builds cohort-bench, adds "--out bench-out/NAME-<time>.md" unless ARGS give --out, runs MAINCLASS
# with HEAP (-Xms/-Xmx) and JAVA_OPTS, and says where the Markdown went. Run from the repository root.
run_java_bench() {
  local name=$1 heap=$2 main=$3
  shift 3
  mvn -q -pl cohort-bench -am package -DskipTests
  local out="" args=("$@") i
  for ((i = 0; i < ${#args[@]}; i++)); do
    if [[ "${args[i]}" == "--out" ]]; then out="${args[i+1]:-}"; fi
  done
  if [[ -z "$out" ]]; then
    mkdir -p bench-out
    out="bench-out/$name-$(date +%Y%m%d-%H%M%S).md"
    args+=(--out "$out")
  fi
  local jar
  jar=$(ls cohort-bench/target/cohort-bench-*.jar | grep -v -- '-sources' | head -n1)
  # Fixed heap so that GC sizing does not differ between runs; IPv4 loopback like the tests.
  java -Djava.net.preferIPv4Stack=true -Xms"$heap" -Xmx"$heap" ${JAVA_OPTS:-} \
    -cp "$jar:cohort-bench/target/lib/*" "$main" "${args[@]}"
  echo "Tables written to $out"
}

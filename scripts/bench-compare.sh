#!/usr/bin/env bash
# Benchmarks one or more checkouts of sf2loki with the same instrument, every phase in a JVM of
# its own, the checkouts interleaved phase by phase (so both see the same machine load).
#
#   scripts/bench-compare.sh [options] OUTDIR CHECKOUT [CHECKOUT...]
#
# CHECKOUT is a directory holding a checkout (e.g. a `git worktree` of an old commit). The script
# only uses what the bench module has had since commit 9379d16: the JMH stage benchmarks
# (CsvParseBench, ShapeBench, EncodeBench) and `EndToEnd --phases X`, so old and new commits run
# the same measurement. Per checkout and round it writes OUTDIR/<name>/<phase>-<round>.log and
# finally OUTDIR/summary.txt.
#
# Phases (--phases, default c,a,b,d,f):
#   c  stage-sum limit: `org.openjdk.jmh.Main` on the four ELF-path stages, --forks forked JVMs
#      per stage, --iterations warm-up and measured iterations of 1 s; sum ± sqrt(sum of squared
#      99.9 % half-widths)
#   a  EndToEnd --phases a (in-process ELF rows/s; a warm-up run, then --repeat runs)
#   b  EndToEnd --phases b (real LokiHttpSink to a discard receiver JVM)
#   d  EndToEnd --phases d (Pub/Sub against the simulator JVM)
#   f  EndToEnd --phases f (push latency p50/p99; its own JVM, fresh heap)
# An error printed as 0 means JMH had too few samples for one (--quick).
# Options: --phases LIST, --rounds N (1), --repeat N (3), --forks N (3), --iterations N (5),
#   --rows-per-file N (100000), --pubsub-events N (300000), --latency-seconds N (10),
#   --no-build (use the checkouts' existing target/), --quick (forks 1, iterations 2, repeat 1,
#   rows-per-file 20000, pubsub-events 30000, latency-seconds 3: a smoke run, not a measurement).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=select-jdk.sh
. "$here/select-jdk.sh"

phases=c,a,b,d,f rounds=1 repeat=3 forks=3 iterations=5 rows=100000 events=300000 latency=10
build=1
while [ $# -gt 0 ]; do
  case "$1" in
    --phases) phases=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --forks) forks=$2; shift 2 ;;
    --iterations) iterations=$2; shift 2 ;;
    --rows-per-file) rows=$2; shift 2 ;;
    --pubsub-events) events=$2; shift 2 ;;
    --latency-seconds) latency=$2; shift 2 ;;
    --no-build) build=0; shift ;;
    --quick) forks=1 iterations=2 repeat=1 rows=20000 events=30000 latency=3; shift ;;
    -h|--help) sed -n '2,25p' "$0"; exit 0 ;;
    --*) echo "unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -ge 2 ] || { sed -n '2,25p' "$0" >&2; exit 2; }
out=$1; shift
mkdir -p "$out"
out=$(cd "$out" && pwd)

flags=(--enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow)
stages='io\.sf2loki\.bench\.(CsvParseBench\.csvToRows|ShapeBench\.rowToEntry|EncodeBench\.protobuf|EncodeBench\.snappyJava)$'

declare -a dirs names
for c in "$@"; do
  d=$(cd "$c" && pwd)
  n=$(basename "$d")@$(git -C "$d" rev-parse --short HEAD 2>/dev/null || echo unknown)
  dirs+=("$d"); names+=("$n")
  mkdir -p "$out/$n"
  if [ "$build" = 1 ]; then
    echo "== build $n"
    (cd "$d" && ./mvnw -B -o -q -pl sf2loki-bench -am package -DskipTests -Djacoco.skip=true \
      -Dspotless.check.skip=true) > "$out/$n/build.log" 2>&1 \
      || { echo "build failed for $n, see $out/$n/build.log" >&2; exit 1; }
  fi
done

cp_of() { echo "$1/sf2loki-bench/target/sf2loki-bench-0.1.0-SNAPSHOT.jar:$1/sf2loki-bench/target/lib/*"; }

run_phase() { # dir name phase round
  local d=$1 n=$2 ph=$3 r=$4 log="$out/$2/$3-$4.log" cp
  cp=$(cp_of "$d")
  echo "== $n phase $ph round $r (load $(cut -d' ' -f1-3 /proc/loadavg))"
  case "$ph" in
    c) java "${flags[@]}" -cp "$cp" org.openjdk.jmh.Main "$stages" -f "$forks" -wi "$iterations" \
         -w 1s -i "$iterations" -r 1s -jvmArgsAppend "${flags[*]}" \
         -rf json -rff "$out/$n/c-$r.json" > "$log" 2>&1 ;;
    a|b|d|f) java "${flags[@]}" -cp "$cp" io.sf2loki.bench.EndToEnd --phases "$ph" \
         --repeat "$repeat" --rows-per-file "$rows" --pubsub-events "$events" \
         --latency-seconds "$latency" > "$log" 2>&1 ;;
    *) echo "unknown phase $ph" >&2; return 2 ;;
  esac
}

for r in $(seq 1 "$rounds"); do
  for ph in ${phases//,/ }; do
    for i in "${!dirs[@]}"; do
      run_phase "${dirs[$i]}" "${names[$i]}" "$ph" "$r" \
        || { echo "phase $ph failed for ${names[$i]}, see $out/${names[$i]}/$ph-$r.log" >&2; exit 1; }
    done
  done
done

{
  echo "bench-compare $(date -u +%FT%TZ) phases=$phases rounds=$rounds repeat=$repeat forks=$forks iterations=$iterations rows-per-file=$rows pubsub-events=$events"
  for n in "${names[@]}"; do
    echo "## $n"
    for f in "$out/$n"/c-*.json; do
      [ -e "$f" ] || continue
      jq -r '[.[] | {n: (.benchmark | split(".") | .[-2:] | join(".")),
                    s: .primaryMetric.score,
                    e: (.primaryMetric.scoreError | if type == "number" then . else 0 end)}]
             | (.[] | "  (c) \(.n): \(.s * 10 | round / 10) ± \(.e * 10 | round / 10) ns/row"),
               "  (c) stage-sum limit: \((map(.s) | add) * 10 | round / 10) ± \((map(.e * .e) | add | sqrt) * 10 | round / 10) ns/row = \(1e9 / (map(.s) | add) | round) rows/s"' "$f"
    done
    grep -h -E '^E2E \((a\) in-process|b\) HTTP to receiver JVM|f\) latency)|^PS-E2E summary' \
      "$out/$n"/[abdf]-*.log 2>/dev/null | sed 's/^/  /' || true
  done
} | tee "$out/summary.txt"

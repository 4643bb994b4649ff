#!/usr/bin/env bash
# Ratios between JMH benchmarks on a host whose speed drifts: single forks of each benchmark run back
# to back, round after round, and each round's ratio to the first benchmark is taken within that round.
# On a shared or virtualised host, forks minutes apart can differ by 1.5x or more in host speed, which
# biases ratios of JMH's usual per-benchmark fork groups; the median of per-round ratios does not
# carry that bias (docs/PERFORMANCE.md, "Rounds of paired forks").
#
#   scripts/jmh-rounds.sh [--rounds N] [--cpu C] [--models "panda tree-32"] REFERENCE BENCHMARK...
#   e.g. scripts/jmh-rounds.sh --rounds 8 --cpu 1 --models "panda puma560 tree-32" \
#          InverseDynamicsBenchmark.rnea InverseDynamicsBenchmark.rneaAndTorqueDerivative
#
# Benchmarks are Class.method; a model is a file name under config/robots/ without .yaml, or the
# path of a robot description (e.g. benchmarks/models/chain-28.yaml). Each fork
# runs 5 x 1 s warm-up and 5 x 1 s measurement with -prof gc. --cpu pins every fork to that CPU with
# taskset. Output: one line per fork (round, model, benchmark, ns/op, error, B/op), then per model
# and benchmark the median ns/op and the median and spread of the per-round ratios. The jar
# (benchmarks/target/benchmarks.jar) is built when missing; rebuild it after changing the code.
set -euo pipefail

model_path() {
    if [[ "$1" == */* || "$1" == *.yaml || "$1" == *.urdf ]]; then echo "$1"; else echo "config/robots/$1.yaml"; fi
}

rounds=5
cpu=""
models="panda tree-32"
while [[ $# -gt 0 ]]; do
    case "$1" in
        --rounds) rounds="$2"; shift 2 ;;
        --cpu) cpu="$2"; shift 2 ;;
        --models) models="$2"; shift 2 ;;
        -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
        --*) echo "jmh-rounds: unknown option $1" >&2; exit 2 ;;
        *) break ;;
    esac
done
if [[ $# -lt 2 ]]; then
    echo "jmh-rounds: give a reference benchmark and at least one other (Class.method)" >&2
    exit 2
fi
if ! [[ "$rounds" =~ ^[1-9][0-9]*$ ]]; then
    echo "jmh-rounds: --rounds must be a positive integer, got '$rounds'" >&2
    exit 2
fi

cd "$(dirname "$0")/.."
jar=benchmarks/target/benchmarks.jar
if [[ ! -f "$jar" ]]; then
    ./mvnw -B -q package -pl benchmarks -am -DskipTests
fi
pin=()
if [[ -n "$cpu" ]]; then
    pin=(taskset -c "$cpu")
fi

results=$(mktemp)
trap 'rm -f "$results"' EXIT
for round in $(seq 1 "$rounds"); do
    for model in $models; do
        for benchmark in "$@"; do
            out=$(${pin[@]+"${pin[@]}"} java -jar "$jar" "${benchmark}\$" -p model="$(model_path "$model")" \
                -f 1 -wi 5 -i 5 -w 1 -r 1 -prof gc 2>&1) || { echo "$out" >&2; exit 1; }
            score=$(echo "$out" | awk -v b="$benchmark" '$1 == b { print $(NF-3), $(NF-1) }')
            bytes=$(echo "$out" | awk '$1 ~ /gc\.alloc\.rate\.norm$/ { print $(NF-3) }')
            if [[ -z "$score" ]]; then
                echo "$out" >&2
                echo "jmh-rounds: no score for $benchmark on $model" >&2
                exit 1
            fi
            line="$round $model $benchmark $score ${bytes:-?}"
            echo "$line" | tee -a "$results"
        done
    done
done

echo
echo "model benchmark: median ns/op; per-round ratio to $1: median [min, max] (every round)"
awk -v ref="$1" '
    { score[$1, $2, $3] = $4; models[$2] = 1; benchmarks[$3] = 1; if ($1 > last) last = $1 }
    function median(a, n,    i, j, t) {
        for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    END {
        for (m in models) for (b in benchmarks) {
            n = 0; k = 0; list = ""
            for (r = 1; r <= last; r++) if ((r, m, b) in score) {
                s[++n] = score[r, m, b]
                if ((r, m, ref) in score) { x = score[r, m, b] / score[r, m, ref]; q[++k] = x; list = list sprintf(" %.2f", x) }
            }
            if (n == 0) continue
            lo = 1e300; hi = 0
            for (i = 1; i <= k; i++) { if (q[i] < lo) lo = q[i]; if (q[i] > hi) hi = q[i] }
            printf "%s %s: %.1f ns/op", m, b, median(s, n)
            if (b != ref && k > 0) printf "; ratio %.3f [%.2f, %.2f] (%s )", median(q, k), lo, hi, list
            printf "\n"
            delete s; delete q
        }
    }' "$results" | sort

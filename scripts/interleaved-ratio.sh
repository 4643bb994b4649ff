#!/usr/bin/env bash
# The derivatives-to-RNEA ratio (or, with --workload, the mass matrix's or the Cholesky forward
# dynamics') of several revisions of nectl side by side in one JVM
# (org.nectl.bench.InterleavedRatio): each revision's benchmarks jar is built in a temporary git
# worktree, then all are loaded in their own class loaders and measured round after round, so
# every revision sees the same host state. Code layout moves a revision's ratio by a few percent
# between class loaders: compare revisions over --repeat runs (docs/PERFORMANCE.md).
#
#   scripts/interleaved-ratio.sh [--rounds N] [--batch N] [--repeat N] [--cpu C] [--models "panda tree-32"]
#       [--workload derivatives|mass-matrix|cholesky|torque-derivative|recursive-fd|control-tick] REV...
#   e.g. scripts/interleaved-ratio.sh --cpu 1 --repeat 2 HEAD~1 HEAD
#
# REV is any git revision; WORKTREE stands for the uncommitted working tree. A model is a file name
# under config/robots/ without .yaml, or the path of a robot description
# (e.g. benchmarks/models/chain-28.yaml).
set -euo pipefail

model_path() {
    if [[ "$1" == */* || "$1" == *.yaml || "$1" == *.urdf ]]; then echo "$1"; else echo "config/robots/$1.yaml"; fi
}

rounds=150
batch=10000
repeat=1
cpu=""
models="panda tree-32"
workload=derivatives
while [[ $# -gt 0 ]]; do
    case "$1" in
        --rounds) rounds="$2"; shift 2 ;;
        --batch) batch="$2"; shift 2 ;;
        --repeat) repeat="$2"; shift 2 ;;
        --cpu) cpu="$2"; shift 2 ;;
        --models) models="$2"; shift 2 ;;
        --workload) workload="$2"; shift 2 ;;
        -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
        --*) echo "interleaved-ratio: unknown option $1" >&2; exit 2 ;;
        *) break ;;
    esac
done
if [[ $# -lt 1 ]]; then
    echo "interleaved-ratio: give at least one revision" >&2
    exit 2
fi
case "$workload" in
    derivatives|mass-matrix|cholesky|torque-derivative|recursive-fd|control-tick) ;;
    *) echo "interleaved-ratio: --workload is derivatives, mass-matrix, cholesky, torque-derivative, recursive-fd or control-tick, got '$workload'" >&2; exit 2 ;;
esac
for number in "$rounds" "$batch" "$repeat"; do
    if ! [[ "$number" =~ ^[1-9][0-9]*$ ]]; then
        echo "interleaved-ratio: --rounds, --batch and --repeat take positive integers, got '$number'" >&2
        exit 2
    fi
done

cd "$(dirname "$0")/.."
root=$(pwd)
# the runner is the working tree's build, whatever revisions it compares
./mvnw -B -q package -pl benchmarks -am -DskipTests >&2
work=$(mktemp -d)
trap 'for t in "$work"/tree-*; do [[ -d "$t" ]] && git -C "$root" worktree remove --force "$t"; done; rm -rf "$work"' EXIT

jars=()
index=0
for rev in "$@"; do
    index=$((index + 1))
    if [[ "$rev" == WORKTREE ]]; then
        source="$root"
    else
        source="$work/tree-$index"
        git worktree add -q --detach "$source" "$rev"
        (cd "$source" && ./mvnw -B -q package -pl benchmarks -am -DskipTests) >&2
    fi
    jar="$work/$index-$(echo "$rev" | tr '/~^' '___').jar"
    cp "$source/benchmarks/target/benchmarks.jar" "$jar"
    jars+=("$jar")
done

runner="$work/runner.jar"
cp "$root/benchmarks/target/benchmarks.jar" "$runner"
pin=()
if [[ -n "$cpu" ]]; then
    pin=(taskset -c "$cpu")
fi
for run in $(seq 1 "$repeat"); do
    for model in $models; do
        ${pin[@]+"${pin[@]}"} java -XX:+UseParallelGC -Dnectl.workload="$workload" -cp "$runner" org.nectl.bench.InterleavedRatio \
            "$(model_path "$model")" "$rounds" "$batch" "${jars[@]}"
    done
done

#!/usr/bin/env bash
# Planner gateway fuzzing against the real-time service (issue 7): runs the service (realtime loop,
# embedded media driver, planner gateway with the development keys) and the simulated Panda twice
# with identical settings: once under `nectl fuzz` (>= 10^6 fuzzed datagrams, every reply checked),
# then once without fuzzing for the same wall time as the baseline; prints the fuzz report and the
# deadline misses of both runs with the load average. Not part of the default tests: takes minutes.
# Usage: scripts/fuzz.sh [datagrams=1000000] [port=47650]
# Environment: NECTL_LOOP_CORE=CPU and NECTL_LOOP_PRIORITY=P pin the control loop and give it a
# SCHED_FIFO priority in both runs (docs/DEPLOYMENT.md, "Real-time host set-up"); NECTL_FUZZ_SEED.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
count="${1:-1000000}"
port="${2:-47650}"
# The services make their driver directories /dev/shm/nectl-fuzz-PID-NAME; the clean-up removes them
# only because none was there before (a leftover of an earlier run with the same process id).
if compgen -G "/dev/shm/nectl-fuzz-$$-*" > /dev/null; then
    echo "fuzz: /dev/shm/nectl-fuzz-$$-* already exists (not this run's); remove it or run again" >&2
    exit 2
fi
work="$(mktemp -d /tmp/nectl-fuzz.XXXXXX)"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$work" /dev/shm/nectl-fuzz-$$-*
}
trap cleanup EXIT

scripts/nectl --version >/dev/null   # builds the jar on first use
echo "host: $(nproc) CPUs, $(lscpu | sed -n 's/^Model name: *//p')"

# Same deployment for both runs; supervision tolerant of a simulator preempted on a small shared host
# (as nectl demo), so that a starved simulator does not end the run in FAULT.
deployment() {
    cat > "$work/$1.yaml" <<YAML
model: $root/config/robots/panda.yaml
mode: realtime
period_us: 1000
aeron:
  embedded_driver: true
  dir: /dev/shm/nectl-fuzz-$$-$1
planner:
  bind: 127.0.0.1:$port
  keys: $root/config/deploy/keys/development.keys
supervision:
  heartbeat_timeout_ms: 1000
  max_missing_states: 1000
YAML
    [ -z "${NECTL_LOOP_CORE:-}" ] || echo "core: $NECTL_LOOP_CORE" >> "$work/$1.yaml"
    [ -z "${NECTL_LOOP_PRIORITY:-}" ] || echo "realtime_priority: $NECTL_LOOP_PRIORITY" >> "$work/$1.yaml"
}

# start_service NAME: service and simulated arm in the background, logs in $work/NAME-*.log
start_service() {
    deployment "$1"
    scripts/nectl run --config "$work/$1.yaml" > "$work/$1-service.log" 2>&1 &
    service_pid=$!
    pids+=("$service_pid")
    for _ in $(seq 1 600); do
        grep -q "^nectl run:" "$work/$1-service.log" && break
        kill -0 "$service_pid" 2>/dev/null || { cat "$work/$1-service.log"; exit 1; }
        sleep 0.1
    done
    scripts/nectl sim --aeron-dir "/dev/shm/nectl-fuzz-$$-$1" --mode realtime \
        --initial-q 0,-0.785,0,-2.356,0,1.571,0.785 > "$work/$1-sim.log" 2>&1 &
    sim_pid=$!
    pids+=("$sim_pid")
}

# stop_service NAME: SIGTERM (the service prints its summary; a background job ignores SIGINT), then the simulator
stop_service() {
    kill -TERM "$service_pid"
    wait "$service_pid" || true
    kill "$sim_pid" 2>/dev/null || true
    wait "$sim_pid" 2>/dev/null || true
}

summary() {
    local log="$work/$1-service.log"
    local ticks misses overruns
    ticks="$(sed -n 's/^  ticks \([0-9]*\),.*/\1/p' "$log")"
    misses="$(sed -n 's/^  deadline misses \([0-9]*\),.*/\1/p' "$log")"
    overruns="$(sed -n 's/.*overruns \([0-9]*\),.*/\1/p' "$log")"
    echo "$1: ticks $ticks, deadline misses $misses ($(awk "BEGIN { printf \"%.2f\", 1000 * $misses / $ticks }") per 1000 ticks)," \
        "overruns $overruns, load average at end: $2"
    grep -E "control loop|tick compute|planner datagrams|final state" "$log" | sed 's/^/    /'
}

echo "== fuzz run: $count datagrams at 127.0.0.1:$port while the loop runs at 1 kHz"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
start_service fuzz
sleep 2
start_ns=$(date +%s%N)
set +e
scripts/nectl fuzz --target "127.0.0.1:$port" --count "$count" --probe-every 100 --seed "${NECTL_FUZZ_SEED:-1}" \
    --model config/robots/panda.yaml --key-file config/deploy/keys/development.keys | tee "$work/fuzz.log"
fuzz_status=${PIPESTATUS[0]}
set -e
elapsed_s=$(( ($(date +%s%N) - start_ns) / 1000000000 + 1 ))
fuzz_load="$(cut -d' ' -f1-3 /proc/loadavg)"
stop_service fuzz

echo "== baseline run: the same service and simulator for ${elapsed_s} s without fuzzing"
start_service baseline
sleep 2
sleep "$elapsed_s"
baseline_load="$(cut -d' ' -f1-3 /proc/loadavg)"
stop_service baseline

echo "== result (fuzzer exit status $fuzz_status: 0 = every reply as the protocol requires)"
summary fuzz "$fuzz_load"
summary baseline "$baseline_load"
exit "$fuzz_status"

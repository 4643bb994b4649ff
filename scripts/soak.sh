#!/usr/bin/env bash
# Soak run (not part of the default tests): the controller service in realtime mode at 1 kHz, the
# simulated Panda in its own process (its periods locked to the loop's ticks), and one planner
# process sending the demo move (each joint out and back; enable once, then a move every 4.5 s)
# for --duration seconds. After --warmup seconds it
# takes a baseline; at the end it reports deadline misses and overruns over the measured window,
# heap growth after warm-up (live heap after a full GC at both ends: none expected), young/full GCs,
# controller faults and events (none expected), and the service's own summary (tick percentiles).
#
#   scripts/soak.sh [--duration S] [--warmup S] [--period-us US] [--max-missing-states N]
#                   [--heartbeat-timeout-ms MS] [--sim-watchdog-ms MS] [--amplitude RAD]
#                   [--core CPU] [--priority P] [--sim-core CPU] [--nice N] [--out DIR]
#
# Defaults: 3600 s, 30 s warm-up, 1000 us, the shipped supervision (max_missing_states 2,
# heartbeat_timeout_ms 50, the simulated drives' 20 ms watchdog), demo moves of 0.3 rad, no
# pinning, default scheduling, output in a fresh /tmp/nectl-soak.* directory (--out: a new or empty
# directory, refused otherwise, so that the soak replaces none but its own files). --core pins the control
# loop to that CPU and runs everything else the script starts on the other CPUs, as isolcpus would
# on the control PC. --priority gives the
# control loop a SCHED_FIFO priority (root or CAP_SYS_NICE, real-time throttling off: see
# docs/DEPLOYMENT.md); --nice runs the service and the simulator at that nice value (e.g. -20, so
# that other work on the host does not starve the media driver and the simulator); with
# --sim-core the simulator's adapter thread is pinned and parks between periods. When cyclictest
# (Debian package rt-tests) is installed, the host is qualified first: 20 s of cyclictest at the
# period on every CPU, at the loop's priority, reported with the run. Exit status 0 when the run ended with no
# fault event, no command refused by the loop, not in FAULT, and no live-heap growth beyond
# --heap-slack-kb (default 512 KiB, for the agents' bookkeeping); 1 otherwise; 2 on bad options.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
nectl="$root/scripts/nectl"

duration=3600
warmup=30
period_us=1000
missing=2
heartbeat_ms=50
sim_watchdog_ms=20
amplitude=0.3
core=-1
priority=0
sim_core=-1
nice_value=0
heap_slack_kb=512
out=""
args=("$@")
while [ $# -gt 0 ]; do
  case "$1" in
    --duration) duration="$2"; shift 2 ;;
    --warmup) warmup="$2"; shift 2 ;;
    --period-us) period_us="$2"; shift 2 ;;
    --max-missing-states) missing="$2"; shift 2 ;;
    --heartbeat-timeout-ms) heartbeat_ms="$2"; shift 2 ;;
    --sim-watchdog-ms) sim_watchdog_ms="$2"; shift 2 ;;
    --amplitude) amplitude="$2"; shift 2 ;;
    --core) core="$2"; shift 2 ;;
    --priority) priority="$2"; shift 2 ;;
    --sim-core) sim_core="$2"; shift 2 ;;
    --nice) nice_value="$2"; shift 2 ;;
    --heap-slack-kb) heap_slack_kb="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n '2,28p' "$0"; exit 0 ;;
    *) echo "soak: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
for n in "$duration" "$warmup" "$period_us" "$missing" "$heap_slack_kb" "$priority" "$heartbeat_ms" "$sim_watchdog_ms"; do
  [[ "$n" =~ ^[0-9]+$ ]] || { echo "soak: options take whole numbers, got '$n'" >&2; exit 2; }
done
[ "$duration" -gt "$warmup" ] || { echo "soak: --duration must exceed --warmup" >&2; exit 2; }

# With --core the control loop's CPU is kept for the loop alone, as isolcpus would on the control PC:
# everything this script starts runs on the other CPUs, and the loop thread pins itself to --core.
if [ "$core" != "-1" ] && [ -z "${NECTL_SOAK_CONFINED:-}" ]; then
  others=$(seq 0 $(( $(nproc --all) - 1 )) | grep -vx "$core" | paste -sd, -)
  [ -n "$others" ] || { echo "soak: --core $core leaves no CPU for the rest" >&2; exit 2; }
  export NECTL_SOAK_CONFINED="$others"
  exec taskset -c "$others" "$0" "${args[@]}"
fi

# --out must be new or empty: everything the script then writes or replaces there is its own.
if [ -n "$out" ]; then
  if [ -L "$out" ] || { [ -e "$out" ] && ! [ -d "$out" ]; } || { [ -d "$out" ] && [ -n "$(ls -A "$out")" ]; }; then
    echo "soak: --out $out must be a new or empty directory (not a link): the soak writes its files there" >&2
    exit 2
  fi
  mkdir -p "$out"
else
  out="$(mktemp -d /tmp/nectl-soak.XXXXXX)"
fi
aeron_dir="/dev/shm/nectl-soak-$$"
# The service makes the driver directory; the clean-up below removes it only if it was not there before.
if [ -e "$aeron_dir" ] || [ -L "$aeron_dir" ]; then
  echo "soak: $aeron_dir already exists (not this run's); remove it or run again" >&2
  exit 2
fi
port="$(python3 -c 'import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
ready="0,-0.7853981633974483,0,-2.356194490192345,0,1.5707963267948966,0.7853981633974483"

# The shipped realtime deployment, on a private driver directory and port, with the chosen period,
# supervision and core.
sed -e "s#^model: .*#model: $root/config/robots/panda.yaml#" \
    -e "s#^period_us: .*#period_us: $period_us#" \
    -e "s#^  embedded_driver: true#  embedded_driver: true\n  dir: $aeron_dir#" \
    -e "s#^  bind: .*#  bind: 127.0.0.1:$port#" \
    -e "s#^  max_missing_states: .*#  max_missing_states: $missing#" \
    -e "s#^  heartbeat_timeout_ms: .*#  heartbeat_timeout_ms: $heartbeat_ms#" \
    -e "s#^  keys: .*#  keys: $root/config/deploy/keys/development.keys#" \
    "$root/config/deploy/sim-panda.yaml" > "$out/soak.yaml"
[ "$core" = "-1" ] || echo "core: $core" >> "$out/soak.yaml"
[ "$priority" = "0" ] || echo "realtime_priority: $priority" >> "$out/soak.yaml"
sim_idle=YIELDING
[ "$sim_core" = "-1" ] || sim_idle=PARKING
[[ "$nice_value" =~ ^-?[0-9]+$ ]] || { echo "soak: --nice takes a whole number, got '$nice_value'" >&2; exit 2; }

pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  # The service deletes its driver's files on SIGTERM; this is for a service that died. Not a link
  # (checked at the start, and rm does not follow links inside).
  [ -L "$aeron_dir" ] || rm -rf "$aeron_dir"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

"$nectl" --version >/dev/null 2>&1 || true   # builds the jar once, before anything is timed
# Host qualification: how late a SCHED_FIFO thread wakes at the control period on each CPU, with
# nothing of the soak running yet.
host_latency="cyclictest not installed (Debian package rt-tests): host not qualified"
if command -v cyclictest > /dev/null 2>&1; then
  cpus=$(seq -s, 0 $(( $(nproc --all) - 1 )))
  taskset -c "$cpus" cyclictest -m -q -p "$([ "$priority" = "0" ] && echo 80 || echo "$priority")" -t "$(nproc --all)" -a "$cpus" \
    -i "$period_us" -D 20 -h 100000 > "$out/cyclictest.txt" 2>&1 || true
  host_latency=$(python3 - "$out/cyclictest.txt" "$period_us" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1]) if l[:1].isdigit()]
period = int(sys.argv[2])
parts = []
for cpu in range(len(rows[0]) - 1 if rows else 0):
    total = sum(int(r[cpu + 1]) for r in rows)
    late = lambda us: sum(int(r[cpu + 1]) for r in rows if int(r[0]) > us)
    worst = max((int(r[0]) for r in rows if int(r[cpu + 1]) > 0), default=0)
    parts.append(f"CPU {cpu}: {late(period // 2)} of {total} wake-ups over half a period late, {late(2 * period)} over 2 periods, worst {worst} us")
print("; ".join(parts) if parts else "cyclictest gave no histogram")
PY
) || host_latency="cyclictest failed, see $out/cyclictest.txt"
fi
nice -n "$nice_value" "$nectl" run --config "$out/soak.yaml" > "$out/service.log" 2>&1 &
service=$!
pids+=("$service")
for _ in $(seq 1 600); do [ -f "$aeron_dir/cnc.dat" ] && break; sleep 0.1; done
[ -f "$aeron_dir/cnc.dat" ] || { echo "soak: the service did not start, see $out/service.log" >&2; exit 1; }

nice -n "$nice_value" "$nectl" sim --model "$root/config/robots/panda.yaml" --aeron-dir "$aeron_dir" --mode realtime \
  --period-us "$period_us" --initial-q "$ready" --core "$sim_core" --idle "$sim_idle" --watchdog-ms "$sim_watchdog_ms" \
  > "$out/sim.log" 2>&1 &
pids+=("$!")
"$nectl" monitor --aeron-dir "$aeron_dir" --quiet --events-csv "$out/events.csv" \
  --duration $((duration + 60)) > "$out/monitor.log" 2>&1 &
monitor=$!
pids+=("$monitor")

# Planner: one process that stays up for the whole run (as a real planner does), enabling once and
# then sending the demo move (4 s, from and back to the ready pose) every 4.5 s. It stops at the
# first move not acknowledged.
planner() {
  "$nectl" plan --target "127.0.0.1:$port" --key-file "$root/config/deploy/keys/development.keys" --enable --demo --duration 4 \
    --amplitude "$amplitude" --start "$ready" --repeat $(( (duration * 10) / 45 )) --every 4.5 >> "$out/planner.log" 2>&1 || true
}
# One Telemetry sample as CSV: the counters at that moment.
sample() {
  "$nectl" monitor --aeron-dir "$aeron_dir" --quiet --count 1 --duration 10 --csv "$1" --force > /dev/null 2>&1 || true
}
field() {
  awk -F, -v name="$2" 'NR==1 { for (i = 1; i <= NF; i++) if ($i == name) c = i } NR==2 { print $c }' "$1"
}

# The ENABLE needs a measured state: wait until the simulator's states reach the loop.
for _ in $(seq 1 60); do
  sample "$out/probe.csv"
  [ "$(field "$out/probe.csv" jointStateSequence 2>/dev/null || echo 0)" -gt 100 ] 2>/dev/null && break
done
planner &
pids+=("$!")
# Live heap after a full GC, KiB, and the GC counts: "used ygc fgc".
heap() {
  jcmd "$service" GC.run > /dev/null 2>&1 || true
  jstat -gc "$service" | awk 'NR==2 { printf "%d %d %d\n", $3 + $4 + $6 + $8, $13, $15 }'
}

sleep "$warmup"
read -r heap0 ygc0 fgc0 <<< "$(heap)"
sample "$out/start.csv"
sleep $((duration - warmup))
sample "$out/end.csv"
read -r heap1 ygc1 fgc1 <<< "$(heap)"
kill -TERM "$service" 2>/dev/null || true
wait "$service" 2>/dev/null || true
kill -TERM "$monitor" 2>/dev/null || true
wait "$monitor" 2>/dev/null || true

misses=$(( $(field "$out/end.csv" deadlineMissCount) - $(field "$out/start.csv" deadlineMissCount) ))
overruns=$(( $(field "$out/end.csv" overrunCount) - $(field "$out/start.csv" overrunCount) ))
ticks=$(( $(field "$out/end.csv" tickCount) - $(field "$out/start.csv" tickCount) ))
missing_states=$(( $(field "$out/end.csv" missingStateCount) - $(field "$out/start.csv" missingStateCount) ))
state=$(field "$out/end.csv" state)
fault_events=$(awk -F, 'NR > 1 && $4 == "FAULT"' "$out/events.csv" | wc -l)
refused=$(awk -F, 'NR > 1 && $4 == "COMMAND_REJECTED"' "$out/events.csv" | wc -l)
events=$(( $(wc -l < "$out/events.csv") - 1 ))
moves=$(grep -c '^trajectory .* accepted' "$out/planner.log" || true)
failed=$(grep -c '^trajectory ' "$out/planner.log" || true)
failed=$((failed - moves))
growth=$((heap1 - heap0))
{
  echo "nectl soak: $duration s at $period_us us, warm-up $warmup s, max_missing_states $missing, heartbeat_timeout_ms $heartbeat_ms, simulated drives' watchdog $sim_watchdog_ms ms, host $(nproc --all) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "  host before the run (cyclictest, 20 s, SCHED_FIFO): $host_latency"
  echo "  loop: $(grep -h -m1 -o 'control loop .*' "$out/service.log")"
  echo "  simulator: $(grep -h -m1 -o 'adapter thread .*' "$out/sim.log"), idle $sim_idle; service and simulator at nice $nice_value"
  echo "  measured window: $ticks ticks, $misses deadline misses, $overruns overruns, $missing_states ticks without a new JointState"
  echo "  planner: $moves demo moves of $amplitude rad sent and acknowledged, $failed not acknowledged; the loop refused $refused commands"
  echo "  live heap after full GC: $heap0 KiB after warm-up, $heap1 KiB at the end, growth $growth KiB; young GCs $((ygc1 - ygc0)), full GCs $((fgc1 - fgc0)) (2 forced)"
  echo "  final state $state, $events controller events, $fault_events FAULT events (details: $out/events.csv)"
  sed -n '/nectl run summary/,$p' "$out/service.log" | sed 's/^/  /'
  echo "  output: $out"
} | tee "$out/report.txt"
[ "$fault_events" -eq 0 ] && [ "$refused" -eq 0 ] && [ "$growth" -le "$heap_slack_kb" ] && [ "$state" != "FAULT" ]

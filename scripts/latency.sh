#!/usr/bin/env bash
# Hardware link latency (adapter <-> controller over Aeron IPC), see docs/PERFORMANCE.md.
# Usage: scripts/latency.sh [messages=N] [warmup=N] [joints=N]
set -euo pipefail
cd "$(dirname "$0")/.."
jar=benchmarks/target/benchmarks.jar
if [[ ! -f "$jar" ]]; then
    ./mvnw -B -q -o package -pl benchmarks -am -DskipTests
fi
echo "host: $(nproc) CPUs, $(lscpu | sed -n 's/^Model name: *//p'); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
exec java -XX:+UseParallelGC \
    --add-opens java.base/jdk.internal.misc=ALL-UNNAMED --add-opens java.base/java.nio=ALL-UNNAMED \
    --add-opens java.base/sun.nio.ch=ALL-UNNAMED \
    -cp "$jar" org.nectl.bench.HardwareLinkLatency "$@"

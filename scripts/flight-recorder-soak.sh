#!/usr/bin/env bash
# The flight recorder's acceptance run (not part of the default tests): FlightRecorderServiceTest's
# lockstep check for 10 minutes of controller time at 1 kHz (600 001 ticks, an emergency stop
# half-way): every tick recorded with contiguous tick numbers, each recorded sample bit-identical to
# the live one, the events and the fault mark, the CSV export equal to nectl monitor's CSV of the
# same run, and the MCAP export read back by @mcap/core under Node with every message present.
# The recording takes about 1.3 GB in the test's scratch directory (deleted afterwards), the MCAP
# file about as much; the live samples are kept in the test's heap (about 1 GB).
#
#   scripts/flight-recorder-soak.sh [--minutes M]
#
# Default 10 minutes. Exit status: Maven's (0 when the check passed).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
minutes=10
while [ $# -gt 0 ]; do
    case "$1" in
        --minutes) minutes="$2"; shift 2 ;;
        *) echo "flight-recorder-soak.sh: unknown option $1 (--minutes M)" >&2; exit 2 ;;
    esac
done
case "$minutes" in
    ''|*[!0-9]*) echo "flight-recorder-soak.sh: --minutes must be a whole number, got '$minutes'" >&2; exit 2 ;;
esac
cd "$root"
exec ./mvnw -B test -pl controller-service -am \
    -Dtest='FlightRecorderServiceTest#recordsEveryTickAndReplaysItBitForBitWithTheFaultMarked' \
    -Dsurefire.failIfNoSpecifiedTests=false \
    -Dnectl.recorder.steps=$((minutes * 60000))

#!/usr/bin/env bash
# The unit file against systemd itself: `systemd-analyze verify` must be clean and the offline
# security exposure must stay at 2.0 or lower (0 is best, 10 worst).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
daemon="$root/.build/debug/wodclockd"
[ -x "$daemon" ] || { echo "build first: $daemon is missing"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# verify checks that ExecStart= and friends exist, so point them at the built binary.
sed "s|/usr/local/bin/wodclockd|$daemon|g" "$root/systemd/wodclockd.service" > "$tmp/wodclockd.service"
if ! out=$(systemd-analyze verify "$tmp/wodclockd.service" 2>&1); then
  echo "$out"; echo "systemd-analyze verify failed"; exit 1
fi
if [ -n "$out" ]; then echo "$out"; echo "systemd-analyze verify printed warnings"; exit 1; fi
exposure=$(systemd-analyze security --offline=yes "$tmp/wodclockd.service" 2>/dev/null \
  | sed -n 's/.*Overall exposure level for wodclockd.service: \([0-9.]*\).*/\1/p')
echo "systemd-analyze security exposure: $exposure"
[ -n "$exposure" ] || { echo "no exposure figure"; exit 1; }
awk -v e="$exposure" 'BEGIN { exit !(e <= 2.0) }' || { echo "exposure $exposure is above 2.0"; exit 1; }
# The wake-up benchmark measures with the unit's scheduling policy: the two must agree.
unit_policy=$(sed -n 's/^CPUSchedulingPolicy=//p' "$root/systemd/wodclockd.service")
unit_priority=$(sed -n 's/^CPUSchedulingPriority=//p' "$root/systemd/wodclockd.service")
bench_priority=$(sed -n 's/.*static let servicePriority: Int32 = \([0-9]*\)$/\1/p' \
  "$root/Sources/wodclock-bench/WakeupBenchmark.swift")
echo "unit CPUSchedulingPolicy=$unit_policy priority $unit_priority, benchmark $bench_priority"
[ "$unit_policy" = fifo ] && [ -n "$unit_priority" ] && [ "$unit_priority" = "$bench_priority" ] \
  || { echo "the unit's scheduling and the benchmark's differ"; exit 1; }

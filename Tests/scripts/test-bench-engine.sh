#!/usr/bin/env bash
# `wodclock-bench engine` runs every mode's plan to the end of its loop: a plan the engine
# refuses (one grew past the 48 hours a workout may last) fails here rather than on the day the
# figures are taken. Checks that it ran, not how fast: the figures belong to the benchmark.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bench="$root/.build/debug/wodclock-bench"
[ -x "$bench" ] || { echo "build first: swift build" >&2; exit 1; }
output=$("$bench" engine)
for mode in for_time amrap emom intervals tabata tempo sequence; do
  for figure in advance snapshot; do
    grep -Eq "^$mode\.$figure [0-9.]+ ns$" <<<"$output" \
      || { echo "no $mode.$figure figure in:"; echo "$output"; exit 1; } >&2
  done
done

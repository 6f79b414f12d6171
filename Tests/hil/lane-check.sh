#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs inside the gpio-sim VM (gpio-sim-vm.sh, run by run.sh, in the daemon check's boot): the
# real static wodclockd with eight lane buttons (gpio-button, `lane finish N` on a press,
# `lane undo N` on a long press) on the eight lines of the simulated chip, free once the daemon
# check is over.
#
# A finish is the workout's time at the press's edge, as the kernel stamped it. The check does
# not compare that with a clock of its own within a tolerance: lane-press writes each line's pull
# between two CLOCK_MONOTONIC readings, and gpio-sim raises the edge inside that write, so the
# edge's timestamp lies between them. The workout's time on that clock comes from the daemon
# itself: the subscribe stream's `start` cue says on its CLOCK_MONOTONIC when the workout's time
# was zero (`due_ms`). Each recorded finish (whole milliseconds, truncated) must then lie in
# [floor(before - start), ceil(after - start)], widened by the microsecond `due_ms` is rounded to.
#
# Pressed: all eight within 10 ms (one lane-press call); a long press takes a finish back and a
# press finishes the lane again; the daemon is killed with SIGKILL between two presses and
# started again: every finish before the kill is still there (the lane journal, fsynced before
# the reply), and the press after it is recorded. Prints PASS/FAIL lines; exits non-zero when
# any check failed.
set -u
fail=0
ok() { echo "PASS: $*"; }
ko() { echo "FAIL: $*"; fail=$((fail + 1)); }
B=0
S=$GPIO_SIM_SYSFS
LABEL=$GPIO_SIM_LABEL
SOCK=/tmp/lanes.sock
LOG=/tmp/lanes-wodclockd.log
EVENTS=/tmp/lanes-events
STATE=/tmp/lanes-state

{
  cat <<YAML
defaults:
  preset: race
  count_in: 3s
  cues: {countdown: false, halfway: false, last_ten_seconds: false, rounds_remaining: []}
presets:
  race: {mode: for_time, cap: 20m}
heats:
  lanes: 8
inputs:
  - type: gpio-button
    buttons:
YAML
  for n in 1 2 3 4 5 6 7 8; do
    echo "      - {line: $((n - 1)), chip: $LABEL, control: lane$n, debounce: 5ms, long_press: 800ms}"
  done
  echo "controls:"
  for n in 1 2 3 4 5 6 7 8; do
    echo "  lane$n: {press: lane finish $n, long_press: lane undo $n}"
  done
  echo "outputs:"
  echo "  - type: log"
} >/tmp/lanes.yaml

ctl() { wodclockctl --socket "$SOCK" "$@"; }
# Lane N's field F (finish_s or state) from the status JSON; "null" when there is none.
lane_field() {
  ctl --json status 2>/dev/null | tr -d '\n' | sed 's/"lane" *:/\n&/g' \
    | awk -v n="$1" -v f="$2" -F, '
      /^"lane" *:/ { split($1, a, ":"); if (a[2] + 0 != n) next
        for (i = 1; i <= NF; i++) if ($i ~ "\"" f "\" *:") {
          v = $i; sub(/^[^:]*: */, "", v); gsub(/"/, "", v); print v; exit } }'
}
# Lane N's finish in whole milliseconds, or "null".
finish_ms() {
  lane_field "$1" finish_s | awk '$1 == "null" || $1 == "" { print "null"; next } { printf "%d\n", $1 * 1000 + 0.5 }'
}
# Waits (at most 10 s) until lane N's state is STATE.
wait_state() {
  i=0
  while [ $i -lt 200 ] && [ "$(lane_field "$1" state)" != "$2" ]; do sleep 0.05; i=$((i + 1)); done
  [ "$(lane_field "$1" state)" = "$2" ]
}
start_daemon() {
  wodclockd --config /tmp/lanes.yaml --socket "$SOCK" --state-dir "$STATE" 2>>"$LOG" &
  daemon=$!
  i=0
  while [ $i -lt 300 ] && ! ctl status >/dev/null 2>&1; do sleep 0.1; i=$((i + 1)); done
  ctl status >/dev/null 2>&1
}
# Checks lane N's recorded finish against its press's bracket (line "OFFSET BEFORE AFTER" in
# FILE); prints the figures bench-style and appends "lane error_low error_high" to /tmp/lanes-errors.
check_bracket() {
  n=$1 file=$2 what=$3
  got=$(finish_ms "$n")
  line=$(awk -v o=$((n - 1)) '$1 == o' "$file")
  set -- $line
  verdict=$(awk -v b="$2" -v a="$3" -v s="$START_MS" -v got="$got" 'BEGIN {
      if (got == "null") { print "none"; exit }
      lo = (b / 1e6 - s) - 0.001; hi = (a / 1e6 - s) + 0.001
      flo = int(lo); if (flo > lo) flo -= 1
      chi = int(hi); if (chi < hi) chi += 1
      printf "%s %d %d %.3f %.3f\n", (got >= flo && got <= chi) ? "in" : "out", flo, chi, got - (b / 1e6 - s), got - (a / 1e6 - s) }')
  set -- $verdict
  if [ "$1" = in ]; then
    ok "$what: lane $n finished at $got ms, within its edge's bracket [$2, $3] ms"
  elif [ "$1" = none ]; then
    ko "$what: lane $n has no finish"
  else
    ko "$what: lane $n finished at $got ms, outside its edge's bracket [$2, $3] ms"
  fi
}

for line in 0 1 2 3 4 5 6 7; do sim-pull -b $B $line up; done
: >"$LOG"
wodclockd --check-config --config /tmp/lanes.yaml && ok "lane config checks" || ko "lane config check"
start_daemon && ok "daemon with eight lane buttons answers" || { ko "daemon did not start"; cat "$LOG"; exit 1; }
ctl --json watch >"$EVENTS" 2>/dev/null &
watcher=$!
i=0
while [ $i -lt 100 ] && [ ! -s "$EVENTS" ]; do sleep 0.05; i=$((i + 1)); done
ctl start >/dev/null || ko "wodclockctl start"
# The workout's zero on the daemon's CLOCK_MONOTONIC: the start cue's due_ms.
i=0
while [ $i -lt 300 ] && ! grep -q '"name" *: *"start"' "$EVENTS"; do sleep 0.05; i=$((i + 1)); done
START_MS=$(grep '"name" *: *"start"' "$EVENTS" | head -n 1 | sed 's/.*"due_ms" *: *\([0-9.]*\).*/\1/')
case "$START_MS" in
  [0-9]*) ok "the start cue says the workout's zero: $START_MS ms on CLOCK_MONOTONIC" ;;
  *) ko "no start cue with due_ms in the event stream"; cat "$EVENTS"; exit 1 ;;
esac
i=0
while [ $i -lt 100 ] && ! ctl status 2>/dev/null | grep -q running; do sleep 0.05; i=$((i + 1)); done
ctl status | grep -q running && ok "the workout runs" || ko "status after start: $(ctl status)"

# All eight at once: one write after the other, then released together. The eight writes must
# fall within 10 ms; an emulated machine now and then stalls one write for longer, and then the
# finishes are checked all the same and taken back, and the eight pressed again (at most 5 times).
attempt=1
while :; do
  lane-press "$S" tap 0 1 2 3 4 5 6 7 >/tmp/lanes-all || ko "lane-press tap"
  span=$(awk 'NR == 1 { first = $2 } { last = $3 } END { printf "%.3f", (last - first) / 1e6 }' /tmp/lanes-all)
  for n in 1 2 3 4 5 6 7 8; do
    wait_state $n finished || ko "lane $n state: $(lane_field $n state)"
    check_bracket $n /tmp/lanes-all "eight at once"
  done
  if awk -v s="$span" 'BEGIN { exit !(s < 10) }'; then
    ok "eight presses written within $span ms (attempt $attempt)"
    break
  fi
  echo "the eight presses took $span ms (attempt $attempt): taken back, pressed again"
  if [ $attempt -ge 5 ]; then ko "in 5 attempts, the eight presses never fell within 10 ms"; break; fi
  for n in 1 2 3 4 5 6 7 8; do ctl lane undo $n >/dev/null || ko "wodclockctl lane undo $n"; done
  for n in 1 2 3 4 5 6 7 8; do wait_state $n working || ko "lane $n not taken back"; done
  attempt=$((attempt + 1))
done

# Undo with a long press: held until the daemon shows the finish taken back (decided at 800 ms
# while the button is down), then released; then finish again with a press.
sim-pull -b $B 2 down
wait_state 3 working && [ "$(finish_ms 3)" = null ] && ok "a long press on lane 3 took its finish back" \
  || ko "lane 3 after the long press: $(lane_field 3 state) $(finish_ms 3)"
sim-pull -b $B 2 up
lane-press "$S" tap 2 >/tmp/lanes-refinish
wait_state 3 finished || ko "lane 3 not finished again"
check_bracket 3 /tmp/lanes-refinish "re-finish"

# A SIGKILL between two presses: lane 6 taken back, the daemon killed, started again, lane 6
# pressed once it answers. Every finish from before the kill must still be there.
sim-pull -b $B 5 down
wait_state 6 working && ok "lane 6 taken back before the kill" || ko "lane 6 not taken back"
sim-pull -b $B 5 up
before=""
for n in 1 2 3 4 5 7 8; do before="$before $n:$(finish_ms $n)"; done
kill -9 $daemon; wait $daemon 2>/dev/null
kill $watcher 2>/dev/null; wait $watcher 2>/dev/null
start_daemon && ok "daemon answers again after SIGKILL" || { ko "daemon did not restart"; cat "$LOG"; exit 1; }
after=""
for n in 1 2 3 4 5 7 8; do after="$after $n:$(finish_ms $n)"; done
[ "$before" = "$after" ] && ok "every finish survived the SIGKILL:$after" \
  || ko "finishes before the kill:$before, after the restart:$after"
lane-press "$S" tap 5 >/tmp/lanes-afterkill
wait_state 6 finished || ko "lane 6 not finished after the restart: $(lane_field 6 state)"
check_bracket 6 /tmp/lanes-afterkill "after the restart"

# The results, read back as CSV: a header and the eight lanes.
ctl results --csv >/tmp/lanes.csv 2>&1 || ko "wodclockctl results --csv failed: $(cat /tmp/lanes.csv)"
cat /tmp/lanes.csv
rows=$(awk 'NR > 1 && NF' /tmp/lanes.csv | wc -l)
head -n 1 /tmp/lanes.csv | grep -q '^division,place,athlete,heat,lane,score,time_s,tiebreak_s$' \
  && [ "$rows" -eq 8 ] && ok "results CSV: the header and 8 rows" || ko "results CSV has $rows rows"
for n in 1 2 3 4 5 6 7 8; do
  want=$(finish_ms $n | awk '{ printf "%.3f", $1 / 1000 }')
  awk -F, -v n=$n -v w="$want" 'NR > 1 && $5 == n && sprintf("%.3f", $7) == w { found = 1 } END { exit !found }' \
    /tmp/lanes.csv || ko "lane $n's time_s in the CSV is not its finish $want"
done

kill $daemon; wait $daemon 2>/dev/null
echo "--- lane daemon log"; grep -v '^$' "$LOG" | tail -n 60
echo "lane check: $fail failed"
[ $fail -eq 0 ]

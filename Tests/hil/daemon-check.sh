#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs inside the gpio-sim VM (gpio-sim-vm.sh, run by run.sh): the real static wodclockd with a
# gpio-button on the named line at offset 3 and a gpio-buzzer on offset 5 of the simulated chip.
# A press played with `sim-pull` must reach the daemon as an action (wodclockctl status and the
# log), a long press must do the long action, and the buzzer line's `sim-value` must be high and
# low at the times of a known pattern (gpio-testing.md §2, "Driving and observing lines": an
# output's sim_gpioN/value is what the program drives). Prints PASS/FAIL lines; exits non-zero
# when any check failed.
set -u
fail=0
ok() { echo "PASS: $*"; }
ko() { echo "FAIL: $*"; fail=$((fail + 1)); }
S=$GPIO_SIM_SYSFS
SOCK=/tmp/wodclock.sock
LOG=/tmp/wodclockd.log
# What a TCG VM can hold: its timers wake tens of milliseconds late under load (50 ms seen).
TOLERANCE_MS=${TOLERANCE_MS:-100}

cat >/tmp/wodclock.yaml <<YAML
defaults:
  preset: hil
  count_in: 0s
  cues: {countdown: false, halfway: false, last_ten_seconds: false, rounds_remaining: []}
presets:
  hil: {mode: amrap, time: 10m}
controls:
  start: {press: toggle, long_press: reset}
inputs:
  - type: gpio-button
    buttons:
      - {line: wodclock-button, control: start, long_press: 800ms}
outputs:
  - type: log
  - type: gpio-buzzer
    line: 5
    chip: $GPIO_SIM_LABEL
    patterns: {segment_start: [400ms, 200ms, 400ms]}
YAML

ctl() { wodclockctl --socket "$SOCK" "$@"; }
state() { ctl status 2>/dev/null | tr '\n' ' '; }

# The button rests high (pull-up, a button to ground), as the daemon's pull-up would hold it.
sim-pull 3 up
wodclockd --check-config --config /tmp/wodclock.yaml && ok "config checks" || ko "config check"
wodclockd --config /tmp/wodclock.yaml --socket "$SOCK" --state-dir /tmp/state 2>"$LOG" &
daemon=$!
i=0
while [ $i -lt 300 ] && ! ctl status >/dev/null 2>&1; do sleep 0.1; i=$((i + 1)); done
ctl status >/dev/null 2>&1 && ok "daemon answers on its socket" || { ko "daemon did not start"; cat "$LOG"; exit 1; }
[ "$(sim-value 5)" = 0 ] && ok "buzzer line is low after start-up" || ko "buzzer line high at start-up"
echo "status: $(state)"

# A short press: START toggles the idle clock into a running workout, whose segment start plays
# the pattern on the buzzer line; sampled from outside, as sim-value reads it.
wodclock-gpio-check --sample "$S/sim_gpio5/value" 4 >/tmp/samples &
sampler=$!
# Under TCG the sampler takes a while to start: press only once it has read the line.
i=0
while [ $i -lt 100 ] && ! grep -q CHANGE /tmp/samples 2>/dev/null; do sleep 0.05; i=$((i + 1)); done
sleep 0.2
sim-pull 3 down; sleep 0.15; sim-pull 3 up
wait $sampler
cat /tmp/samples
grep -q 'action=toggle' "$LOG" && ok "press reached the daemon as action=toggle" || ko "no toggle in the log"
case "$(state)" in *running*) ok "wodclockctl status: running" ;; *) ko "status after press: $(state)" ;; esac
# CHANGE lines: 0 at start, then 1 0 1 0. Durations between them: on, off, on.
set -- $(awk '/^CHANGE/ { print $2 }' /tmp/samples)
if [ $# -eq 5 ]; then
  on1=$(($3 - $2)); off=$(($4 - $3)); on2=$(($5 - $4))
  echo "buzzer pattern measured: on ${on1} ms, off ${off} ms, on ${on2} ms (configured 400/200/400, tolerance ${TOLERANCE_MS} ms)"
  within() { d=$(($1 - $2)); [ ${d#-} -le "$TOLERANCE_MS" ]; }
  within $on1 400 && within $off 200 && within $on2 400 && ok "buzzer on/off/on times" || ko "buzzer times $on1/$off/$on2"
else
  ko "expected 5 CHANGE lines (low, high, low, high, low), got $#"
fi

# A long press: held 1.5 s, past the 800 ms threshold; reset brings the clock back to idle.
sim-pull 3 down; sleep 1.5; sim-pull 3 up; sleep 0.3
grep -q 'action=reset' "$LOG" && ok "long press reached the daemon as action=reset" || ko "no reset in the log"
case "$(state)" in *idle*) ok "wodclockctl status: idle after the long press" ;; *) ko "status after long press: $(state)" ;; esac
[ "$(grep -c 'action=toggle' "$LOG")" = 1 ] && ok "the long press fired no short press" || ko "extra toggles in the log"

# Killed while the horn sounds: ExecStopPost's --safe-outputs drives the line off.
sim-pull 3 down; sleep 0.15; sim-pull 3 up
i=0
while [ $i -lt 50 ] && [ "$(sim-value 5)" != 1 ]; do sleep 0.02; i=$((i + 1)); done
[ "$(sim-value 5)" = 1 ] && ok "buzzer on before SIGKILL" || ko "buzzer never came on"
kill -9 $daemon; wait $daemon 2>/dev/null
wodclockd --safe-outputs --config /tmp/wodclock.yaml && ok "--safe-outputs exits 0" || ko "--safe-outputs failed"
[ "$(sim-value 5)" = 0 ] && ok "buzzer line low after --safe-outputs" || ko "buzzer line still high"

echo "--- daemon log"; cat "$LOG"
echo "daemon check: $fail failed"
[ $fail -eq 0 ]

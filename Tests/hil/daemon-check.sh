#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs inside the gpio-sim VM (gpio-sim-vm.sh, run by run.sh): the real static wodclockd with a
# gpio-button on the named line at offset 3 and a gpio-buzzer on offset 5 of the simulated chip.
# A press played with `sim-pull` must reach the daemon as an action (wodclockctl status and the
# log), a long press must do the long action, and the buzzer line's `sim-value` must be high and
# low at the times of a known pattern (gpio-testing.md §2, "Driving and observing lines": an
# output's sim_gpioN/value is what the program drives). Prints PASS/FAIL lines; exits non-zero
# when any check failed.
#
# Then `wodclockd --safe-outputs`, what the unit's ExecStopPost= runs after a SIGKILL, for the
# buzzer, then for active-low signal lamps, a TM1637 and a shift register on all 8 lines of the
# chip (free once the daemon is killed). gpio-sim returns a released line to its pull, where a
# Raspberry Pi's pin keeps the level last driven, so a line read after --safe-outputs has exited
# proves nothing. Instead the kernel's gpio_value trace events (include/trace/events/gpio.h;
# gpiolib emits one for every level it drives, after the active-low inversion) record every
# level --safe-outputs drove: each line must end at its inactive level, the displays must have
# been sent blank and off. Each line's pull is first set to its active level, as a Pi would
# keep a horn sounding after the kill.
set -u
fail=0
ok() { echo "PASS: $*"; }
ko() { echo "FAIL: $*"; fail=$((fail + 1)); }
S=$GPIO_SIM_SYSFS
SOCK=/tmp/wodclock.sock
LOG=/tmp/wodclockd.log

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
  # The figures are printed; what is checked is the pattern's shape, each beep longer than the
  # gap between them as configured, whatever the emulator's timers do to a few milliseconds
  # (the edges' lateness is wodclock-bench's figure, measured against a bare timerfd loop).
  echo "buzzer pattern measured: on ${on1} ms, off ${off} ms, on ${on2} ms (configured 400/200/400)"
  [ "$on1" -gt "$off" ] && [ "$on2" -gt "$off" ] && [ "$off" -gt 0 ] \
    && ok "buzzer on/off/on: two beeps, each longer than the gap" \
    || ko "buzzer times $on1/$off/$on2"
else
  ko "expected 5 CHANGE lines (low, high, low, high, low), got $#"
fi

# A long press: held 1.5 s, past the 800 ms threshold; reset brings the clock back to idle.
sim-pull 3 down; sleep 1.5; sim-pull 3 up; sleep 0.3
grep -q 'action=reset' "$LOG" && ok "long press reached the daemon as action=reset" || ko "no reset in the log"
case "$(state)" in *idle*) ok "wodclockctl status: idle after the long press" ;; *) ko "status after long press: $(state)" ;; esac
[ "$(grep -c 'action=toggle' "$LOG")" = 1 ] && ok "the long press fired no short press" || ko "extra toggles in the log"

# The levels --safe-outputs drives, from the kernel's trace (see the top of this file).
TRACE=/sys/kernel/tracing
mount -t tracefs nodev "$TRACE" 2>/dev/null || true
echo 1 >"$TRACE/events/gpio/gpio_value/enable" || ko "no gpio_value trace events"
trace_clear() { echo >"$TRACE/trace"; }
# The first global GPIO number of the chip labelled $1 (the trace names lines by it).
gpio_base() {
  for c in /sys/class/gpio/gpiochip*; do [ "$(cat "$c/label")" = "$1" ] && cat "$c/base"; done
}
# Every level driven on global line $1 since trace_clear, oldest first: "1 0".
levels() {
  awk -v n="$1" '{ for (i = 1; i < NF; i++) if ($i == "gpio_value:" && $(i + 1) == n && $(i + 2) == "set") print $(i + 3) }' \
    "$TRACE/trace" | tr '\n' ' ' | sed 's/ $//'
}
last_level() { levels "$1" | awk '{ print $NF }'; }
base=$(gpio_base "$GPIO_SIM_LABEL")

# Killed while the horn sounds: ExecStopPost's --safe-outputs drives the line off.
sim-pull 3 down; sleep 0.15; sim-pull 3 up
i=0
while [ $i -lt 50 ] && [ "$(sim-value 5)" != 1 ]; do sleep 0.02; i=$((i + 1)); done
[ "$(sim-value 5)" = 1 ] && ok "buzzer on before SIGKILL" || ko "buzzer never came on"
kill -9 $daemon; wait $daemon 2>/dev/null
# What a Pi's pin does after the kill: it keeps the horn on.
sim-pull 5 up
[ "$(sim-value 5)" = 1 ] && ok "the released horn line stays high (its pull plays the Pi's kept level)" \
  || ko "the released horn line reads $(sim-value 5)"
trace_clear
wodclockd --safe-outputs --config /tmp/wodclock.yaml >/tmp/safe.out 2>&1 && ok "--safe-outputs exits 0" \
  || ko "--safe-outputs failed: $(cat /tmp/safe.out)"
cat /tmp/safe.out
echo "buzzer line levels driven by --safe-outputs: '$(levels $((base + 5)))'"
[ "$(last_level $((base + 5)))" = 0 ] && ok "--safe-outputs drove the buzzer line low" \
  || ko "--safe-outputs did not drive the buzzer line low"
grep -q "output 'gpio-buzzer' (gpio-buzzer): off: line 5 driven low" /tmp/safe.out \
  && ok "--safe-outputs says the buzzer is off" || ko "no word of the buzzer from --safe-outputs"
sim-pull 5 down

# Lamps on an active-low relay board (lit while low: off is high), a TM1637 and a shift register
# with /OE on a GPIO line (low: outputs on), on the chip's 8 lines, each pulled to its active
# level.
cat >/tmp/safe.yaml <<YAML
presets:
  hil: {mode: amrap, time: 10m}
outputs:
  - {type: gpio-signal, id: lamps, chip: $GPIO_SIM_LABEL, active_low: true, lines: {work: 0, rest: 1}}
  - {type: tm1637, id: timer, chip: $GPIO_SIM_LABEL, clk: 2, dio: 3}
  - {type: shift-register, id: big, chip: $GPIO_SIM_LABEL, data: 4, clock: 5, latch: 6, output_enable: 7}
YAML
for line in 0 1 7; do sim-pull $line down; done
trace_clear
wodclockd --safe-outputs --config /tmp/safe.yaml >/tmp/safe.out 2>&1 && ok "--safe-outputs exits 0 for lamps and displays" \
  || ko "--safe-outputs failed: $(cat /tmp/safe.out)"
cat /tmp/safe.out
for line in 0 1; do
  [ "$(last_level $((base + line)))" = 1 ] && ok "--safe-outputs drove active-low lamp line $line high (off)" \
    || ko "lamp line $line levels: '$(levels $((base + line)))'"
done
# TM1637 transfers (bytes between START and STOP, one per line): a bit is DIO at each rising CLK,
# nine clocks a byte (the ninth is the acknowledge), and STOP's own rising CLK is left over.
tm1637_transfers() {
  awk -v clk=$((base + 2)) -v dio=$((base + 3)) '
    { n = ""; for (i = 1; i < NF; i++) if ($i == "gpio_value:" && $(i + 2) == "set") { n = $(i + 1); v = $(i + 3) } }
    n == dio {
      if (c == 1 && d == 1 && v == 0) { open = 1; bits = "" }
      else if (c == 1 && d == 0 && v == 1 && open) {
        out = ""
        for (b = 0; b + 9 <= length(bits); b += 9) {
          byte = 0; weight = 1
          for (k = 0; k < 8; k++) { byte += substr(bits, b + k + 1, 1) * weight; weight *= 2 }
          out = out sprintf("%02x ", byte)
        }
        print out; open = 0
      }
      d = v
    }
    n == clk { if (open && c == 0 && v == 1) bits = bits d; c = v }
  ' "$TRACE/trace" | sed 's/ $//'
}
transfers=$(tm1637_transfers | tr '\n' '|')
echo "TM1637 transfers: $transfers"
case "$transfers" in
  *"c0 00 00 00 00|80|") ok "--safe-outputs wrote the TM1637 blank and turned it off (0x80)" ;;
  *) ko "TM1637 not blanked and off: '$transfers'" ;;
esac
# The shift register: the 32 bits (4 digits) on DATA at the last rising CLK edges before each
# rising LATCH are what the outputs show.
latched=$(awk -v data=$((base + 4)) -v clock=$((base + 5)) -v latch=$((base + 6)) '
    { n = ""; for (i = 1; i < NF; i++) if ($i == "gpio_value:" && $(i + 2) == "set") { n = $(i + 1); v = $(i + 3) } }
    n == data { d = v }
    n == clock { if (c == 0 && v == 1) bits = bits d; c = v }
    n == latch { if (l == 0 && v == 1) shown = substr(bits, length(bits) - 31); l = v }
    END { print shown }
  ' "$TRACE/trace")
[ "$latched" = 00000000000000000000000000000000 ] && ok "--safe-outputs latched a blank shift-register chain" \
  || ko "shift-register chain latched '$latched'"
[ "$(last_level $((base + 7)))" = 1 ] && ok "--safe-outputs drove /OE high (outputs off)" \
  || ko "/OE levels: '$(levels $((base + 7)))'"
for line in 0 1 7; do sim-pull $line down; done

# A chip the user may not open: named with the reason and the group to join, exit 69.
cat >/tmp/denied.yaml <<YAML
presets:
  hil: {mode: amrap, time: 10m}
outputs:
  - {type: gpio-buzzer, id: horn, line: 0, chip: /dev/$GPIO_SIM_CHIP}
YAML
mode=$(stat -c %a "/dev/$GPIO_SIM_CHIP")
chmod 600 "/dev/$GPIO_SIM_CHIP"
# util-linux's setpriv (run.sh brings it), by path: busybox sh prefers its own applet.
/usr/local/bin/setpriv --reuid=65534 --regid=65534 --clear-groups wodclockd --safe-outputs --config /tmp/denied.yaml \
  >/tmp/safe.out 2>&1
rc=$?
cat /tmp/safe.out
[ $rc = 69 ] && ok "--safe-outputs exits 69 when a chip is denied" || ko "--safe-outputs exit status $rc for a denied chip"
grep -q "^wodclockd: output 'horn' (gpio-buzzer): cannot drive to its safe state: cannot open /dev/$GPIO_SIM_CHIP: Permission denied (EACCES)" /tmp/safe.out \
  && grep -q "^hint: .*(gpio" /tmp/safe.out && ok "the denied chip is named with the reason and a hint" \
  || ko "no reason or hint for the denied chip"
chmod "$mode" "/dev/$GPIO_SIM_CHIP"

echo "--- daemon log"; cat "$LOG"
echo "daemon check: $fail failed"
[ $fail -eq 0 ]

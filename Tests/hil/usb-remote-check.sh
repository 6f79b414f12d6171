#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs inside the test VM (gpio-sim-vm.sh, busybox sh): the real wodclockd with a usb-remote
# input against virtual USB keyboards made through /dev/uinput (uinput-keys.c).
#
# usage: usb-remote-check.sh udev|rescan
#   udev    udevd runs (gpio-sim-vm.sh --udev): the new keyboard must be found through the
#           libudev monitor
#   rescan  no udevd: found by the plugin's backoff rescans
# Checks: found by name, grabbed (EVIOCGRAB), keys mapped to actions (a press, a long press
# with the input core's auto-repeat ignored), the removal logged once, a new one picked up;
# then, on a second daemon, a numeric keypad composing workouts (README, "Composing a workout
# on a keypad"): 1 4 AMRAP Enter loads amrap 14, and over the running workout a second
# composition takes Enter twice.
set -u
mode=$1
pass=0
fail=0
ok() { echo "PASS: $*"; pass=$((pass + 1)); }
ko() { echo "FAIL: $*"; fail=$((fail + 1)); }
sock=/tmp/wodclockd.sock
log=/tmp/wodclockd.log
name="Wodclock Test Clicker"
# Key codes (include/uapi/linux/input-event-codes.h): KEY_2 3, KEY_F5 63, and the keypad's.
KEY_2=3
KEY_F5=63
KEY_KP0=82
KEY_KP1=79
KEY_KP2=80
KEY_KP4=75
KEY_KPSLASH=98
KEY_KPPLUS=78
KEY_KPENTER=96

json() { wodclockctl --socket "$sock" --json status 2>/dev/null; }
field() { json | sed -n "s/.*\"$1\": *\"\([^\"]*\)\".*/\1/p"; }
# wait_for PATTERN COUNT SECONDS: until the log has COUNT lines matching PATTERN.
# count PATTERN: how many log lines match (0 while the log does not exist yet).
count() { n=$(grep -c "$1" "$log" 2>/dev/null); echo "${n:-0}"; }
wait_for() {
  i=0
  while [ "$(count "$1")" -lt "$2" ] && [ $i -lt $(($3 * 10)) ]; do
    sleep 0.1
    i=$((i + 1))
  done
  [ "$(count "$1")" -ge "$2" ]
}
# expect FIELD VALUE WHAT: polls the status for up to 3 s.
expect() {
  i=0
  while [ "$(field "$1")" != "$2" ] && [ $i -lt 30 ]; do
    sleep 0.1
    i=$((i + 1))
  done
  v=$(field "$1")
  [ "$v" = "$2" ] && ok "$3 ($1=$v)" || ko "$3 ($1=$v, expected $2)"
}
node_of() {  # the event node of the device named $1, from /proc/bus/input/devices
  awk -v n="N: Name=\"$1\"" '$0 == n { found = 1 } found && /^H: Handlers=/ {
    for (i = 2; i <= NF; i++) if ($i ~ /^event/) { print "/dev/input/" $i; exit } }' /proc/bus/input/devices
}

mkdir -p /tmp/state
cat >/tmp/remote.yaml <<YAML
defaults:
  preset: first
  count_in: 0s
presets:
  first:
    mode: amrap
    time: 12m
  second:
    mode: for_time
    cap: 10m
inputs:
  - type: usb-remote
    id: clicker
    device: $name
    profile: presenter
    long_press: 600ms
    keys:
      KEY_1: preset 1
      KEY_2: preset 2
YAML
: >"$log"   # exists before the first poll, whatever the shell's start-up order
wodclockd --config /tmp/remote.yaml --socket "$sock" --state-dir /tmp/state >"$log" 2>&1 &
daemon=$!
wait_for "ready" 1 30 || ko "the daemon did not start"
wait_for "remote not found" 1 5 && ok "a missing remote is reported at start" \
  || ko "no 'remote not found' line"

# The first clicker: created, then driven step by step as the checks release it.
rm -f /tmp/go*
uinput-keys "$name" 1d6b 0104 wait:/tmp/go1 tap:$KEY_2 wait:/tmp/go2 tap:$KEY_F5 \
  wait:/tmp/go3 hold:$KEY_F5:1500 wait:/tmp/go4 &
keys=$!
if wait_for "remote connected" 1 15; then ok "found by name: $(grep 'remote connected' "$log")"
else ko "the clicker was not found"; fi
node=$(node_of "$name")
grep "remote connected" "$log" | grep -q "nodes=$node " && ok "only its node $node is used" \
  || ko "nodes in the log are not $node"
uinput-keys --grabbed "$node" && ok "$node is grabbed (EVIOCGRAB: EBUSY for others)" \
  || ko "$node is not grabbed"
touch /tmp/go1
expect preset second "KEY_2 loads preset 2"
touch /tmp/go2
expect state running "KEY_F5 press toggles: running"
touch /tmp/go3
expect state idle "KEY_F5 held 1.5 s (auto-repeating) is a long press: reset"
[ "$(grep -c 'action=toggle' "$log")" = 1 ] && ok "auto-repeat while held did not toggle" \
  || ko "toggles: $(grep -c 'action=toggle' "$log")"
touch /tmp/go4
wait "$keys"
wait_for "remote disconnected" 1 10 && ok "the removal is reported" || ko "no removal line"
sleep 1
[ "$(grep -c 'remote disconnected' "$log")" = 1 ] && ok "the removal is reported once" \
  || ko "removal lines: $(grep -c 'remote disconnected' "$log")"

# A new clicker with the same name: picked up again.
uinput-keys "$name" 1d6b 0104 wait:/tmp/go5 tap:$KEY_F5 wait:/tmp/go6 &
keys=$!
if wait_for "remote connected" 2 20; then
  line=$(grep "remote connected" "$log" | tail -1)
  ok "picked up again: $line"
  case "$mode" in
    udev) echo "$line" | grep -q "via=hotplug" && ok "through the udev monitor" || ko "not via hotplug" ;;
    rescan) echo "$line" | grep -q "via=rescan" && ok "through rescans (no udevd)" || ko "not via rescan" ;;
  esac
else
  ko "the new clicker was not picked up"
fi
touch /tmp/go5
expect state running "the new clicker's KEY_F5 toggles: running"
touch /tmp/go6
wait "$keys"

kill "$daemon"
wait "$daemon"
echo "--- daemon log"
cat "$log"

# A numeric keypad with the keypad profile, on a daemon of its own: / is AMRAP, + For Time.
sock=/tmp/keypad.sock
log=/tmp/keypad.log
keypad="Wodclock Test Keypad"
mkdir -p /tmp/keypad-state
cat >/tmp/keypad.yaml <<YAML
defaults:
  preset: first
  count_in: 0s
presets:
  first:
    mode: amrap
    time: 12m
inputs:
  - type: usb-remote
    id: keypad
    device: $keypad
    profile: keypad
YAML
: >"$log"
wodclockd --config /tmp/keypad.yaml --socket "$sock" --state-dir /tmp/keypad-state >"$log" 2>&1 &
daemon=$!
wait_for "ready" 1 30 || ko "the keypad's daemon did not start"
rm -f /tmp/kp*
uinput-keys "$keypad" 04d9 1203 wait:/tmp/kp1 \
  tap:$KEY_KP1 tap:$KEY_KP4 tap:$KEY_KPSLASH tap:$KEY_KPENTER wait:/tmp/kp2 \
  tap:$KEY_KPENTER wait:/tmp/kp3 \
  tap:$KEY_KP2 tap:$KEY_KP0 tap:$KEY_KPPLUS tap:$KEY_KPENTER wait:/tmp/kp4 \
  tap:$KEY_KPENTER wait:/tmp/kp5 &
keys=$!
wait_for "remote connected" 1 15 && ok "the keypad is found" || ko "the keypad was not found"
touch /tmp/kp1
expect preset "amrap 14" "1 4 / Enter loads the composed workout"
expect workout "amrap 14" "the status carries it as written"
expect state idle "the composed workout waits to be started"
touch /tmp/kp2
expect state running "Enter again starts it"
touch /tmp/kp3
# The second composition's first Enter: logged, and nothing replaced.
wait_for "load waits for a second press" 1 5 && ok "2 0 + Enter over a running workout waits" \
  || ko "no 'load waits for a second press' line"
expect preset "amrap 14" "the first Enter replaces nothing"
expect state running "the running workout goes on"
touch /tmp/kp4
expect preset "for time cap 20" "the second Enter within 5 s replaces it"
expect state idle "the replacing workout waits to be started"
touch /tmp/kp5
wait "$keys"
kill "$daemon"
wait "$daemon"
echo "--- keypad daemon log"
cat "$log"
echo "usb-remote ($mode): $pass passed, $fail failed"
[ "$fail" -eq 0 ]

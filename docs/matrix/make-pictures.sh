#!/usr/bin/env bash
# Makes the README's pictures of the LED matrix with the real wodclockd and wodclockctl: a
# daemon without a matrix output runs the presets below (ten times faster, so an interesting
# moment comes soon), and `wodclockctl snapshot --size WxH --scale 8` draws each preview.
# Run from anywhere after `swift build`; writes docs/matrix/*.png. Then the pictures of a
# workout composed on a keypad (docs/composing-*.png, see the end), and a workout's movement
# line, and a heat's call-up and lanes. PARTS="matrix", "composing", "whiteboard" or "heats"
# makes only those.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin="${BIN:-$root/.build/debug}"
out="$root/docs/matrix"
work=$(mktemp -d)
daemon=""
cleanup() {
  if [ -n "$daemon" ]; then kill "$daemon" 2>/dev/null || true; wait "$daemon" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
parts=${PARTS:-matrix composing whiteboard heats}
if [[ " $parts " == *" matrix "* ]]; then
cat > "$work/wodclock.yaml" <<'YAML'
defaults:
  preset: emom-10
  count_in: 0s
presets:
  emom-10:
    mode: emom
    interval: 1:00
    rounds: 10
  tabata:
    mode: tabata
  squat-tempo:
    mode: tempo
    tempo: 3-1-1-0
    reps: 6
    sets: 3
outputs:
  - type: log
YAML
"$bin/wodclockd" --config "$work/wodclock.yaml" --socket "$work/sock" --state-dir "$work/state" \
  --speed 10 2>"$work/daemon.log" &
daemon=$!
ctl() { "$bin/wodclockctl" --socket "$work/sock" "$@" >/dev/null; }
for _ in $(seq 100); do ctl version 2>/dev/null && break; sleep 0.05; done

# The clock on a 32×16 panel: the idle screen. Its colon blinks: of four pictures 0.3 s apart
# the one with the most LEDs lit is kept (--json prints the reply the PNG was made from; each
# LED is four base64 characters, AAAA when dark).
most=-1
for _ in 1 2 3 4; do
  lit=$("$bin/wodclockctl" --socket "$work/sock" --json snapshot --size 32x16 --scale 8 \
    --png "$work/clock.png" | sed 's/.*"rgb_base64":"\([^"]*\)".*/\1/' | fold -w4 |
    grep -vc '^AAAA$' || true)
  if [ "$lit" -gt "$most" ]; then most=$lit; cp "$work/clock.png" "$out/clock-32x16.png"; fi
  sleep 0.3
done

# An EMOM on 64×32: round 3 of 10, 23 seconds into the minute.
ctl start
ctl next
ctl next
sleep 2.3
ctl snapshot --size 64x32 --scale 8 --png "$out/emom-64x32.png"

# Tabata on 128×64: the third work interval, 6 seconds in.
ctl load tabata
ctl start
for _ in 1 2 3 4; do ctl next; done
sleep 0.6
ctl snapshot --size 128x64 --scale 8 --png "$out/tabata-128x64.png"

# Tempo on 64×32: the pacing dot 2 s into the 3 s lowering of the first rep.
ctl load squat-tempo
ctl start
sleep 0.2
ctl snapshot --size 64x32 --scale 8 --png "$out/tempo-64x32.png"
ls -l "$out"/*.png
fi

# The movement line of a workout with a whiteboard: the interval's movement under the digits on
# 128×64, and the rest's "next: …" on 128×32, scrolling through its place beside the digits.
if [[ " $parts " == *" whiteboard "* ]]; then
cat > "$work/whiteboard.yaml" <<'YAML'
defaults:
  preset: burpees-and-swings
  count_in: 0s
presets:
  burpees-and-swings:
    mode: intervals
    work: 40s
    rest: 20s
    rounds: 4
    whiteboard: [10 burpees, 15 kettlebell swings 24/16 kg]
outputs:
  - type: log
YAML
"$bin/wodclockd" --config "$work/whiteboard.yaml" --socket "$work/wsock" \
  --state-dir "$work/wstate" --speed 10 2>"$work/whiteboard.log" &
daemon=$!
wctl() { "$bin/wodclockctl" --socket "$work/wsock" "$@" >/dev/null; }
for _ in $(seq 100); do wctl version 2>/dev/null && break; sleep 0.05; done
wctl start
sleep 1.2
wctl snapshot --size 128x64 --scale 8 --png "$out/whiteboard-work-128x64.png"
wctl next
sleep 0.4
wctl snapshot --size 128x32 --scale 8 --png "$out/whiteboard-rest-128x32.png"
kill "$daemon"; wait "$daemon" 2>/dev/null || true; daemon=""
ls -l "$out"/whiteboard-*.png
fi

# A throwdown's heat: the call-up (HEAT 1, the countdown to its start, the athletes in turn)
# and the finished lanes in turn under the digits.
if [[ " $parts " == *" heats "* ]]; then
cat > "$work/heats.yaml" <<'YAML'
presets:
  open:
    mode: for_time
    cap: 10m
heats:
  transition: 10s
outputs:
  - type: log
YAML
printf '%s\n' heat,lane,athlete,division '1,1,Anna Berg,Rx' '1,2,"Okafor, Ben",Rx' \
  '1,3,Cleo Marsh,Scaled' '2,1,Dana Whitfield,Rx' > "$work/heats.csv"
"$bin/wodclockd" --config "$work/heats.yaml" --socket "$work/hsock" --state-dir "$work/hstate" \
  2>"$work/heats.log" &
daemon=$!
hctl() { "$bin/wodclockctl" --socket "$work/hsock" "$@" >/dev/null; }
for _ in $(seq 100); do hctl version 2>/dev/null && break; sleep 0.05; done
hctl heats load "$work/heats.csv"
hctl heats next
sleep 2
hctl snapshot --size 64x32 --scale 8 --png "$out/heat-callup-64x32.png"
# The transition (10 s) and the count-in (10 s), then lanes 3 and 1 finish.
sleep 21
hctl lane finish 3
sleep 1.3
hctl lane finish 1
hctl snapshot --size 64x32 --scale 8 --png "$out/heat-lanes-64x32.png"
kill "$daemon"; wait "$daemon" 2>/dev/null || true; daemon=""
ls -l "$out"/heat-*.png
fi

# Composing on a keypad: only a keypad composes, so this part runs where a virtual one can be
# plugged in, the hardware-in-the-loop VM (Tests/hil/gpio-sim-vm.sh, as `make hil`: root, a few
# minutes): uinput makes the keypad, i2c-stub takes an HT16K33 backpack's writes. The matrix
# picture is wodclockctl's snapshot; the 7-segment ones are drawn from the display RAM the
# daemon wrote, bit by bit (segment-picture.py).
[[ " $parts " == *" composing "* ]] || exit 0
vm_bin="$root/.build/hil-v1/debug"
for product in wodclockd wodclockctl; do
  (cd "$root" && "${SWIFT:-swift}" build --scratch-path .build/hil-v1 -c debug --product "$product" \
    --static-swift-stdlib -Xswiftc -warnings-as-errors)
done
mkdir -p "$root/.build/hil-usb"
cc -static -O2 -Wall -Werror -o "$root/.build/hil-usb/uinput-keys" "$root/Tests/hil/uinput-keys.c"
"$root/Tests/hil/gpio-sim-vm.sh" --timeout 300 -m 768 --i2c-stub 0x70 --quiet --log "$root/.build/composing-vm.log" \
  -b "$vm_bin/wodclockd" -b "$vm_bin/wodclockctl" -b "$root/.build/hil-usb/uinput-keys" \
  -b "$root/docs/matrix/composing-in-vm.sh" -- composing-in-vm.sh
python3 "$root/docs/matrix/segment-picture.py" "$root/.build/composing-vm.log" "$root/docs" \
  a14.png=composing-matrix.png a14.ht16k33=composing-7segment-a14.png \
  e10x1.ht16k33=composing-7segment-e10x1.png e10x1.png=composing-matrix-emom.png

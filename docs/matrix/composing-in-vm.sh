#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs inside the test VM (Tests/hil/gpio-sim-vm.sh --i2c-stub 0x70, busybox sh), for
# make-pictures.sh: the real wodclockd with the keypad profile on a virtual USB keypad
# (/dev/uinput, Tests/hil/uinput-keys.c) and an HT16K33 backpack on i2c-stub. While `A 14` and
# then `E 10×1` are composed on the keypad, it prints the matrix preview (wodclockctl snapshot,
# a PNG in base64) and the backpack's display RAM as the daemon wrote it (i2cdump), between
# "=== NAME" and "=== end" lines.
set -u
sock=/tmp/wodclockd.sock
log=/tmp/wodclockd.log
keypad="Wodclock Picture Keypad"
bus=${I2C_STUB_BUS#/dev/i2c-}
# Key codes (include/uapi/linux/input-event-codes.h).
KP0=82 KP1=79 KP4=75 KPSLASH=98 KPMINUS=74 KPASTERISK=55 BACKSPACE=14
mkdir -p /tmp/state
cat >/tmp/keypad.yaml <<YAML
defaults:
  preset: fran
  count_in: 0s
presets:
  fran:
    mode: for_time
    cap: 10m
inputs:
  - type: usb-remote
    device: $keypad
    profile: keypad
outputs:
  - type: ht16k33
    bus: $I2C_STUB_BUS
    address: "0x70"
    layout: "MM:SS"
YAML
: >"$log"
wodclockd --config /tmp/keypad.yaml --socket "$sock" --state-dir /tmp/state >"$log" 2>&1 &
daemon=$!
shoot() {  # shoot NAME: the matrix preview and the backpack's RAM, once the keys are in
  sleep 1
  wodclockctl --socket "$sock" snapshot --size 64x32 --scale 8 --png "/tmp/$1.png"
  echo "=== $1.png"
  base64 "/tmp/$1.png"
  echo "=== end"
  echo "=== $1.ht16k33"
  i2cdump -f -y -r 0x00-0x0f "$bus" 0x70 b
  echo "=== end"
}
rm -f /tmp/shot*
uinput-keys "$keypad" 04d9 1203 wait:/tmp/shot0 tap:$KP1 tap:$KP4 tap:$KPSLASH wait:/tmp/shot1 \
  tap:$BACKSPACE tap:$BACKSPACE tap:$BACKSPACE \
  tap:$KP1 tap:$KP0 tap:$KPASTERISK tap:$KP1 tap:$KPMINUS wait:/tmp/shot2 &
keys=$!
i=0
until grep -q "remote connected" "$log" || [ $i -gt 300 ]; do sleep 0.1; i=$((i + 1)); done
touch /tmp/shot0
shoot a14
touch /tmp/shot1
sleep 1
shoot e10x1
touch /tmp/shot2
wait "$keys"
kill "$daemon"
wait "$daemon"
echo "--- daemon log"
cat "$log"

#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs inside the test VM (gpio-sim-vm.sh --usb-serial, busybox sh): the real wodclockd with a
# serial-matrix output on a real USB serial port, /dev/ttyACM0 (cdc_acm) of a CDC-ACM gadget on
# dummy_hcd. The gadget's side, /dev/ttyGS0, plays the LED controller and keeps what arrives.
#
# usage: serial-matrix-check.sh udev|rescan
#   udev    udevd runs (gpio-sim-vm.sh --udev): the port is named by its /dev/serial/by-id link
#           and, replugged, must be found through the libudev monitor (via=monitor)
#   rescan  no udevd: named by USB id and serial, found again by retries (via=retry)
# Checks: Adalight frames arrive; the port is claimed (a second opener who is not root gets
# EBUSY, and may open it once the daemon is gone); an unplug (the gadget unbound) is logged once
# while the daemon, the clock and the log output carry on; the replug is found the expected way
# and frames arrive again; a reload that restarts the output leaks no descriptor and the output
# still finds its controller after it; the matrix is left dark at exit.
set -u
mode=$1
pass=0
fail=0
ok() { echo "PASS: $*"; pass=$((pass + 1)); }
ko() { echo "FAIL: $*"; fail=$((fail + 1)); }
sock=/tmp/matrix.sock
log=/tmp/matrix.log
received=/tmp/matrix-frames.bin
config=/tmp/matrix.yaml
case "$mode" in
  udev) device=$USB_SERIAL_BY_ID way=monitor ;;
  rescan) device=usb:$USB_SERIAL_ID way=retry ;;
  *) echo "usage: serial-matrix-check.sh udev|rescan" >&2; exit 2 ;;
esac

# count PATTERN: how many log lines match. wait_for PATTERN COUNT SECONDS.
count() { n=$(grep -c "$1" "$log" 2>/dev/null); echo "${n:-0}"; }
wait_for() {
  i=0
  while [ "$(count "$1")" -lt "$2" ] && [ $i -lt $(($3 * 10)) ]; do
    sleep 0.1
    i=$((i + 1))
  done
  [ "$(count "$1")" -ge "$2" ]
}
# frames [dark]: how many whole Adalight frames of 32x16 LEDs arrived ("Ada", LEDs - 1 = 0x01ff,
# checksum 0x01 ^ 0xff ^ 0x55 = 0xab, then 3 bytes per LED); with "dark", whether the last one
# is all zeros (yes/no).
frames() {
  od -An -v -tu1 "$received" 2>/dev/null | awk -v want="${1:-count}" '
    BEGIN { split("65 100 97 1 255 171", header, " "); matched = 0; left = 0; n = 0 }
    {
      for (i = 1; i <= NF; i++) {
        b = $i + 0
        if (left > 0) {
          if (b != 0) lit = 1
          left--
          if (left == 0) { n++; lastlit = lit }
          continue
        }
        if (b == header[matched + 1]) matched++; else matched = (b == 65) ? 1 : 0
        if (matched == 6) { matched = 0; left = 512 * 3; lit = 0 }
      }
    }
    END { if (want == "dark") print (n > 0 && !lastlit) ? "yes" : "no"; else print n }'
}
wait_frames() {  # wait_frames COUNT SECONDS: until COUNT whole frames arrived in all
  i=0
  while [ "$(frames)" -lt "$1" ] && [ $i -lt $(($2 * 10)) ]; do
    sleep 0.1
    i=$((i + 1))
  done
  [ "$(frames)" -ge "$1" ]
}
elapsed() { wodclockctl --socket "$sock" --json status 2>/dev/null | sed -n 's/.*"elapsed_s": *\([0-9.]*\).*/\1/p'; }
# Whether user nobody can open the port (TIOCEXCL stops only openers without CAP_SYS_ADMIN;
# the mode is opened up first, as a replugged port gets a new node). util-linux's setpriv, put
# in the VM by run.sh, by its path: busybox's own setpriv applet cannot change users.
opens_for_nobody() {
  chmod 0666 "$USB_SERIAL_HOST"
  /usr/local/bin/setpriv --reuid=65534 --regid=65534 --clear-groups \
    sh -c "exec 3<>$USB_SERIAL_HOST" 2>/tmp/open.err
}
check_claim() {
  if opens_for_nobody; then
    ko "user nobody opened the claimed port"
  else
    grep -q "busy" /tmp/open.err && ok "the port is claimed: $(cat /tmp/open.err)" \
      || ko "the second open failed otherwise: $(cat /tmp/open.err)"
  fi
}
sockets() { ls -l "/proc/$1/fd" 2>/dev/null | grep -c 'socket:'; }
unplug_and_replug() {  # unplug_and_replug NUMBER: the NUMBER-th unplug of this run
  usb-unplug
  if wait_for "controller lost" "$1" 10; then
    ok "unplug $1 is reported: $(grep 'controller lost' "$log" | tail -1)"
  else
    ko "unplug $1 is not reported"
  fi
  kill -0 "$daemon" 2>/dev/null && ok "the daemon is still up" || ko "the daemon is gone"
  # The clock and the other outputs never notice.
  before=$(elapsed)
  wodclockctl --socket "$sock" pause >/dev/null 2>&1
  wait_for "state=paused" "$1" 5 && ok "the log output still shows the clock (paused)" \
    || ko "the log output did not show the pause"
  wodclockctl --socket "$sock" resume >/dev/null 2>&1
  after=$(elapsed)
  awk -v a="${before:-0}" -v b="${after:-0}" 'BEGIN { exit !(b > a) }' \
    && ok "the clock runs on ($before s, then $after s)" || ko "the clock stopped at $before s"
  # Away for a while: the retries say nothing more.
  sleep 2
  [ "$(count 'controller lost')" = "$1" ] && ok "the loss is reported once" \
    || ko "loss lines: $(count 'controller lost')"
  seen=$(frames)
  usb-plug
  if wait_for "controller back" "$1" 20; then
    line=$(grep "controller back" "$log" | tail -1)
    echo "$line" | grep -q "via=$way" && ok "replug $1 found via $way: $line" \
      || ko "replug $1 not found via $way: $line"
  else
    ko "replug $1 was not found"
  fi
  wait_frames $((seen + 2)) 10 && ok "frames arrive again ($(($(frames) - seen)) since the replug)" \
    || ko "no frames after the replug"
}

# The controller's side: keeps every byte. The gadget's tty hangs up when it is unbound, so it
# is opened again after each unplug.
: >"$received"
(
  while :; do
    { stty raw -echo 2>/dev/null; cat; } <"$USB_SERIAL_GADGET" >>"$received" 2>/dev/null
    sleep 0.1
  done
) &
peer=$!

write_config() {  # write_config KEEPALIVE
  cat >"$config" <<YAML
defaults:
  preset: hil
  count_in: 0s
presets:
  hil: {mode: amrap, time: 10m}
outputs:
  - type: log
  - type: serial-matrix
    id: wall
    device: $device
    baud: 1000000
    width: 32
    height: 16
    startup_delay: 500ms
    keepalive: $1
YAML
}
write_config 1s
: >"$log"
wodclockd --check-config --config "$config" >/dev/null 2>&1 && ok "config checks ($device)" \
  || ko "config check failed"
wodclockd --config "$config" --socket "$sock" --state-dir /tmp/matrix-state >"$log" 2>&1 &
daemon=$!
wait_for "ready" 1 30 || ko "the daemon did not start"
grep -q "not available" "$log" && ko "the port was not opened at start"
wodclockctl --socket "$sock" start >/dev/null 2>&1
wait_frames 3 10 && ok "Adalight frames arrive on the gadget side ($(frames))" \
  || ko "no frames arrived ($(frames))"

check_claim

unplug_and_replug 1

# A reload that changes the output restarts it: its descriptors (the monitor with udevd) are
# replaced, not leaked, and it still finds its controller.
held=$(sockets "$daemon")
write_config 900ms
kill -HUP "$daemon"
wait_for "reloaded" 1 10 && ok "reloaded" || ko "no reload"
wait_for "output started plugin=wall" 2 10 && ok "the output restarted" || ko "no output restart"
[ "$(sockets "$daemon")" = "$held" ] && ok "sockets before and after the reload: $held" \
  || ko "sockets: $held before the reload, $(sockets "$daemon") after"
unplug_and_replug 2
check_claim

kill "$daemon"
wait "$daemon"
sleep 0.5
[ "$(frames dark)" = yes ] && ok "the matrix is left dark" || ko "the last frame is not dark"
# A real port's tty is released with its last descriptor, and the claim with it.
opens_for_nobody && ok "user nobody opens the port once the daemon is gone" \
  || ko "the port is still refused: $(cat /tmp/open.err)"
kill "$peer" 2>/dev/null
echo "--- daemon log"
cat "$log"
echo "serial-matrix ($mode): $pass passed, $fail failed"
[ "$fail" -eq 0 ]

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The hardware-in-the-loop suite: the GPIO layer against a real kernel GPIO chip (gpio-sim in a
# QEMU VM, see gpio-sim-vm.sh), once built with libgpiod API v1 (Debian 12's libgpiod-dev) and
# once with API v2 (built from source by build-libgpiod-v2.sh). In the same VM boot, the real
# wodclockd runs with gpio-button and gpio-buzzer on the simulated chip, and --safe-outputs is
# checked for the buzzer, signal lamps and 7-segment lines (daemon-check.sh); then eight lane
# buttons are pressed, all at once, taken back, and across a SIGKILL, each finish checked
# against its edge's timestamp (lane-check.sh, with lane-press.c), and `wodclock-bench lanes`
# prints the finishes' error against their edges, eight lanes pressed at once, as figures.
# Each variant also runs the 7-segment drivers (wodclock-segment-check): TM1637, shift-register
# and MAX7219 waveforms read back from gpio-sim, and the HT16K33 through i2c-dev against
# i2c-stub. The usb variant runs the usb-remote input: the real wodclockd against virtual USB
# keyboards (/dev/uinput), once with udevd running (hotplug through the libudev monitor) and
# once without (backoff rescans), and a virtual numeric keypad composing workouts, see
# usb-remote-check.sh; in the same two boots, a serial-matrix
# output on a real USB serial port (a CDC-ACM gadget on dummy_hcd) that is unplugged and plugged
# back, found again through the monitor or by retries, see serial-matrix-check.sh.
# The sound variant plays clicks at absolute deadlines through ALSAPlayback to the snd-aloop
# loopback card and records them back (wodclock-sound-check), beside the same in a bare C loop
# (alsa-click-floor.c, the floor), printing onset minus deadline for both; a volume control is
# lowered and restored as ducking does; then the card is unplugged mid-play and plugged back,
# and playing must resume by reopening. In the same boot, `wodclock-bench speaker` runs the
# release wodclockd with a speaker output on the card: every cue heard, each nearest its own
# instant (the lateness is a figure, beside its goal of 30 ms), a pause before a cue silences it, the music's control ducked and restored, the card
# unplugged mid-workout and plugged back; it prints onset minus cue instant beside the C floor
# and the daemon's peak RSS. Then `wodclock-bench speaker-voice` plays a Tabata's count-in with
# the English voice (espeak-ng brought into the VM with --voice): each spoken cue must be heard
# nearest its instant and as long as the synthesizer's line within 20%.
#
# Usage: Tests/hil/run.sh [v1] [v2] [usb] [sound]      (default: all four)
# Environment: SWIFT (default swift), HIL_CONFIGURATION (default debug).
#
# A VM that cannot boot is a failure, never a skip: the exit status is non-zero whenever a
# variant did not report its own success.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
SWIFT=${SWIFT:-swift}
configuration=${HIL_CONFIGURATION:-debug}
variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(v1 v2 usb sound)

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# The simulated chip: 8 lines, a named button input at offset 3 and a named output at 5; the lane
# check, run last, uses all 8 as lane buttons.
vm_args=(--line-name 0:3=wodclock-button --line-name 0:5=wodclock-horn)
check_args=(--button wodclock-button --button-offset 3 --output 5 --spare 6)
# The 7-segment check: 16 lines (TM1637 on 0-1, shift register on 2-5, MAX7219 on 8-10) and an
# i2c-stub chip at the HT16K33's default address.
segment_vm_args=(--banks 16 --i2c-stub 0x70)

start=$(now)
Tests/hil/gpio-sim-vm.sh --prepare
echo "hil: VM cache ready ($(since "$start") s)"

results=()
status=0
# The usb-remote and serial-matrix checks: one build of the daemon (on v1's scratch path,
# sharing its objects), a static uinput helper, and two VM runs, each running both checks.
run_usb() {
  local scratch=.build/hil-v1 product start rc udev
  start=$(now)
  for product in wodclockd wodclockctl; do
    "$SWIFT" build --scratch-path "$scratch" -c "$configuration" --product "$product" \
      --static-swift-stdlib -Xswiftc -warnings-as-errors
  done
  mkdir -p .build/hil-usb
  cc -static -O2 -Wall -Werror -o .build/hil-usb/uinput-keys Tests/hil/uinput-keys.c
  echo "hil: built usb ($(since "$start") s)"
  for udev in udev rescan; do
    start=$(now)
    rc=0
    # util-linux's setpriv (with its libraries): the serial-matrix check opens the claimed port
    # as another user, which busybox's setpriv cannot do.
    Tests/hil/gpio-sim-vm.sh --timeout 300 -m 768 --usb-serial \
      $([ "$udev" = udev ] && echo --udev) \
      -b "$scratch/$configuration/wodclockd" -b "$scratch/$configuration/wodclockctl" \
      -b .build/hil-usb/uinput-keys -b /usr/bin/setpriv -b Tests/hil/usb-remote-check.sh \
      -b Tests/hil/serial-matrix-check.sh -- \
      "usb-remote-check.sh $udev; remote=\$?; serial-matrix-check.sh $udev; matrix=\$?;
       echo \"hil: usb-remote check \$remote, serial-matrix check \$matrix\";
       [ \$remote -eq 0 ] && [ \$matrix -eq 0 ]" || rc=$?
    if [ "$rc" -eq 0 ]; then
      results+=("PASS usb-$udev ($(since "$start") s)")
    else
      results+=("FAIL usb-$udev (exit status $rc, $(since "$start") s)")
      status=1
    fi
  done
}

# The sound check: the release build `make release` makes (the sound check, the daemon and the
# bench among its products; a release build whatever HIL_CONFIGURATION says, as the daemon
# ships: a debug build's slower loop underruns under emulation), the same one `make deb`
# packages, so CI builds it once; the C floor linked with libasound, and one VM run. Every
# click must be found within 50 ms of its deadline, every cue nearest its own instant; the
# lateness figures are printed, not asserted (an emulated CPU's timing on a busy machine says
# little about a Pi's).
run_sound() {
  local built=.build/release start rc
  start=$(now)
  make -s release SWIFT="$SWIFT"
  mkdir -p .build/hil-sound
  cc -O2 -Wall -Werror -o .build/hil-sound/alsa-click-floor Tests/hil/alsa-click-floor.c -lasound
  echo "hil: built sound ($(since "$start") s)"
  start=$(now)
  rc=0
  Tests/hil/gpio-sim-vm.sh --timeout 540 -m 768 --sound --voice \
    -b "$built/wodclock-sound-check" -b "$built/wodclockd" \
    -b "$built/wodclock-bench" -b .build/hil-sound/alsa-click-floor -- \
    "alsa-click-floor; floor=\$?; wodclock-sound-check --mixer --replug; check=\$?;
     wodclock-bench speaker; speaker=\$?; wodclock-bench speaker-voice; voice=\$?;
     echo \"hil: sound floor \$floor, sound check \$check, speaker \$speaker, voice \$voice\";
     [ \$floor -eq 0 ] && [ \$check -eq 0 ] && [ \$speaker -eq 0 ] && [ \$voice -eq 0 ]" \
    || rc=$?
  if [ "$rc" -eq 0 ]; then
    results+=("PASS sound ($(since "$start") s)")
  else
    results+=("FAIL sound (exit status $rc, $(since "$start") s)")
    status=1
  fi
}

for variant in "${variants[@]}"; do
  if [ "$variant" = usb ]; then run_usb; continue; fi
  if [ "$variant" = sound ]; then run_sound; continue; fi
  case "$variant" in
    v1) pc_path="" ;;
    v2) pc_path=$(Tests/hil/build-libgpiod-v2.sh) ;;
    *) echo "hil: unknown variant $variant (v1, v2, usb or sound)" >&2; exit 2 ;;
  esac
  scratch=".build/hil-$variant"
  # --static-swift-stdlib keeps the VM image small: no 80 MB of Swift runtime libraries to copy.
  start=$(now)
  for product in wodclock-gpio-check wodclock-segment-check wodclockd wodclockctl wodclock-bench; do
    PKG_CONFIG_PATH="$pc_path" "$SWIFT" build --scratch-path "$scratch" -c "$configuration" \
      --product "$product" --static-swift-stdlib -Xswiftc -warnings-as-errors
  done
  built="$scratch/$configuration"
  segment_binary="$built/wodclock-segment-check"
  echo "hil: built $variant ($(since "$start") s)"
  start=$(now)
  rc=0
  mkdir -p "$scratch/hil-tools"
  cc -static -O2 -Wall -Werror -o "$scratch/hil-tools/lane-press" Tests/hil/lane-press.c
  # One boot for the three checks; each runs even when one before it failed.
  Tests/hil/gpio-sim-vm.sh --timeout 300 -m 1024 -b "$built/wodclock-gpio-check" \
    -b "$built/wodclockd" -b "$built/wodclockctl" -b /usr/bin/setpriv \
    -b "$built/wodclock-bench" -b "$scratch/hil-tools/lane-press" \
    -f Tests/hil/daemon-check.sh:/hil/daemon-check.sh \
    -f Tests/hil/lane-check.sh:/hil/lane-check.sh "${vm_args[@]}" -- \
    "wodclock-gpio-check ${check_args[*]}; layer=\$?; sh /hil/daemon-check.sh; daemon=\$?;
     sh /hil/lane-check.sh; lanes=\$?; wodclock-bench lanes; bench=\$?;
     echo \"hil: layer check \$layer, daemon check \$daemon, lane check \$lanes, lanes bench \$bench\";
     [ \$layer -eq 0 ] && [ \$daemon -eq 0 ] && [ \$lanes -eq 0 ] && [ \$bench -eq 0 ]" \
    || rc=$?
  if [ "$rc" -eq 0 ]; then
    results+=("PASS $variant ($(since "$start") s)")
  else
    results+=("FAIL $variant (exit status $rc, $(since "$start") s)")
    status=1
  fi
  start=$(now)
  rc=0
  Tests/hil/gpio-sim-vm.sh --timeout 180 -b "$segment_binary" "${segment_vm_args[@]}" -- \
    wodclock-segment-check || rc=$?
  if [ "$rc" -eq 0 ]; then
    results+=("PASS $variant 7-segment ($(since "$start") s)")
  else
    results+=("FAIL $variant 7-segment (exit status $rc, $(since "$start") s)")
    status=1
  fi
done
for line in "${results[@]}"; do echo "hil: $line"; done
exit "$status"

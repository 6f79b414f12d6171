#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Writes docs/sound/tabata-first-minute.opus: the real wodclockd's speaker output (the standard
# cues and the English voice) playing a Tabata's first minute (the 10 s count-in, two rounds of
# 20 s work and the first 10 s rest's start), as a gym hears it.
#
# How: in the hardware-in-the-loop VM (Tests/hil/gpio-sim-vm.sh --sound --voice), the release
# daemon plays to the snd-aloop loopback card and `wodclock-bench speaker-voice` records the
# card's capture side (checking each spoken cue's onset and length on the way), then writes a
# WAV file; the VM has no shared folder, so the file leaves it through a second serial port
# (--output), byte for byte. Here it is encoded with opusenc (Debian's opus-tools) to a small
# file for the README. A documentation tool: `make hil` does not run it.
#
# Usage: scripts/record-tabata.sh [OUTPUT]      (default docs/sound/tabata-first-minute.opus)
# Environment: SWIFT (default swift). Needs root, as the VM script does.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
SWIFT=${SWIFT:-swift}
output=${1:-docs/sound/tabata-first-minute.opus}
command -v opusenc >/dev/null || apt-get install -y --no-install-recommends opus-tools
scratch=.build/hil-v1
for product in wodclockd wodclock-bench; do
  "$SWIFT" build --scratch-path "$scratch" -c release --product "$product" \
    --static-swift-stdlib -Xswiftc -warnings-as-errors
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# 62 s: the first minute and the rest's bell and "Rest" at 1:00.
Tests/hil/gpio-sim-vm.sh --timeout 300 -m 768 --sound --voice --output "$work/tabata.wav" \
  -b "$scratch/release/wodclockd" -b "$scratch/release/wodclock-bench" -- \
  'wodclock-bench --seconds 62 --record /tmp/tabata.wav speaker-voice; status=$?;
   cat /tmp/tabata.wav >"$GPIO_SIM_VM_OUTPUT"; exit $status'
mkdir -p "$(dirname "$output")"
# Speech and signals: 24 kbit/s mono keeps the minute under 200 KB and the voice clear.
opusenc --quiet --bitrate 24 --title "wodclock: a Tabata's first minute" "$work/tabata.wav" \
  "$output"
echo "record-tabata: wrote $output ($(wc -c <"$output") bytes)"

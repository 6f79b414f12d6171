#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Writes Sources/wodclockd/hot-functions.order: the functions the daemon runs, which the release
# link places together at the start of its code.
#
# Why: the kernel maps a program's code in 64 KB windows around each page it touches (fault-
# around), so code that runs now and then, scattered over 6 MB of text, keeps most of that text
# resident. Packed together, the code that runs fills about 2 MB (measured: the daemon with a
# web server and 5 display clients peaked at 11.7 MB before, 9.7 MB after). Functions missing
# from the list (new code, a path the scenario does not take) still work: they are placed after
# the list, as the linker would place them anyway. Regenerate after larger changes.
#
# How: the release daemon runs under valgrind's callgrind through a scenario that takes the
# daemon's everyday paths (start, the web pages and their event streams, a speaker and its
# voice, workouts of each mode run fast with --speed, the control commands, a reload), and the functions callgrind saw run
# are listed. Needs valgrind and curl (Debian packages) and a release build.
#
# Usage: scripts/order-functions.sh [BUILT_DIR]      (default .build/release)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
built=${1:-$root/.build/release}
out=$root/Sources/wodclockd/hot-functions.order
for tool in valgrind curl python3 nm strip; do
  command -v "$tool" >/dev/null || { echo "order-functions: needs $tool" >&2; exit 69; }
done

work=$(mktemp -d)
trap 'kill "$daemon" 2>/dev/null || true; [ -n "${KEEP_WORK:-}" ] || rm -rf "$work"' EXIT
port=$((20000 + RANDOM % 20000))
cat >"$work/profile.yaml" <<EOF
clock:
  format: 24h
  seconds: true
web:
  listen: "127.0.0.1:$port"
  pin: "4821"
presets:
  tabata:
    mode: tabata
  emom:
    mode: emom
    interval: 0:20
    rounds: 3
  amrap:
    mode: amrap
    time: 1m
  for-time:
    mode: for_time
    cap: 1m
outputs:
  - type: log
  # ALSA's null device plays nothing, but the speaker's paths run (fed on a timer there).
  - type: speaker
    device: "null"
EOF

# valgrind cannot read the toolchain's DWARF 5; the symbol table is all it needs.
cp "$built/wodclockd" "$work/wodclockd"
strip --strip-debug "$work/wodclockd"
ctl() { "$built/wodclockctl" --socket "$work/sock" "$@" >/dev/null || true; }
web() { curl -s --compressed --max-time 10 "$@" >/dev/null || true; }

valgrind --tool=callgrind --demangle=no --dump-instr=no --callgrind-out-file="$work/callgrind" \
  "$work/wodclockd" --config "$work/profile.yaml" --socket "$work/sock" \
  --state-dir "$work/state" --speed 20 >"$work/daemon.log" 2>&1 &
daemon=$!
for _ in $(seq 100); do [ -S "$work/sock" ] && break; sleep 0.2; done
[ -S "$work/sock" ] || { cat "$work/daemon.log" >&2; exit 70; }

base=http://127.0.0.1:$port
# The web server starts after the control socket: wait until it answers.
for _ in $(seq 100); do curl -sf --max-time 2 "$base/api/status" >/dev/null && break; sleep 0.2; done
for _ in 1 2 3 4 5; do curl -sN --max-time 60 "$base/api/events" >/dev/null & done
for page in / /display.js /common.js /style.css /remote /remote.js /exercises.json \
  /api/status /api/presets /api/history "/api/explain?text=amrap%2014" /missing; do
  web "$base$page"
done
web -c "$work/cookies" -H 'Content-Type: application/json' -H "Origin: $base" \
  -d '{"pin": "4821"}' "$base/api/login"
web -b "$work/cookies" -H 'Content-Type: application/json' -H "Origin: $base" \
  -d '{"command": "status"}' "$base/api/command"
for preset in tabata emom amrap for-time; do
  ctl load "$preset"
  ctl start
  sleep 3
  ctl pause
  ctl resume
  ctl next
  ctl previous
  ctl lap
  ctl status
  sleep 3
  ctl finish
  ctl reset
done
ctl run "tempo 31X0 3x2 rest 10s"
ctl start
sleep 4
ctl mute
ctl mute
ctl reset
ctl run "21-15-9 for time cap 10"
ctl again
ctl presets
ctl recent
ctl history
ctl schedule
ctl stats
ctl version
ctl reload
kill -HUP "$daemon"
sleep 3
kill -TERM "$daemon"
wait "$daemon" || true
wait

# callgrind names a function once, as fn=(id) name or cfn=(id) name (a callee), and by its id
# after that; the functions that ran are those with fn= lines (their own costs).
nm --defined-only "$built/wodclockd" | awk '$2 ~ /^[tTwW]$/ { print $3 }' >"$work/defined"
python3 - "$work/callgrind" "$work/defined" "$out" <<'EOF'
import re, sys
callgrind, defined, out = sys.argv[1:]
names, ran = {}, []
for line in open(callgrind, errors="replace"):
    match = re.match(r"^(c?fn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
    if not match:
        continue
    kind, number, name = match.groups()
    if name:
        names[number] = name
    if kind == "fn":
        ran.append(number)
known = set(open(defined).read().split())
listed = [names[n] for n in dict.fromkeys(ran) if names.get(n) in known]
with open(out, "w") as file:
    file.write("\n".join(listed) + "\n")
print(f"order-functions: {len(listed)} functions in {out}")
EOF
# The build does not see the list as an input of the link: remove the program so that the next
# build links it again.
rm -f "$built/wodclockd"
echo "order-functions: run make release to link the daemon with the new list"

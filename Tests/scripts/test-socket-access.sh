#!/usr/bin/env bash
# `wodclockctl` as an owner's own login user against a daemon whose socket is closed to them,
# as the service's is (/run/wodclock 0750 and the socket 0660, both of the daemon's group): it
# names the group and says how to join it, and once joined, that the login must start again;
# a socket with no daemon behind it is called stale; no socket at all, not running. Real users,
# groups and logins (runuser, setpriv): needs root, skipped without it.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin="$root/.build/debug"
. "$root/Tests/scripts/daemon-support.sh"
[ -x "$bin/wodclockd" ] && [ -x "$bin/wodclockctl" ] || { echo "build first: swift build" >&2; exit 1; }
if [ "$(id -u)" -ne 0 ] || ! command -v runuser >/dev/null || ! command -v setpriv >/dev/null; then
  echo "skipped: needs root, runuser and setpriv to make a user and a group"; exit 0
fi
user=wodclock-test-owner
group=wodclock-test-clock
tmp=$(mktemp -d)
daemon=
cleanup() {
  [ -n "$daemon" ] && kill "$daemon" 2>/dev/null && wait "$daemon" 2>/dev/null
  userdel "$user" 2>/dev/null || true
  groupdel "$group" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
userdel "$user" 2>/dev/null || true
groupdel "$group" 2>/dev/null || true
groupadd "$group"
useradd --no-create-home --shell /usr/sbin/nologin "$user"
chmod 0755 "$tmp"
mkdir "$tmp/run"
chgrp "$group" "$tmp/run"
chmod 0750 "$tmp/run"
socket="$tmp/run/wodclockd.sock"
cat > "$tmp/wodclock.yaml" <<YAML
daemon:
  socket_group: $group
presets:
  amrap: "amrap 14"
outputs:
  - type: log
YAML
start_daemon "$bin" "$tmp/wodclock.yaml" "$socket" "$tmp"

failures=0
# expect NAME STATUS PATTERN COMMAND...: the command exits with STATUS and its stderr matches.
expect() {
  local name=$1 status=$2 pattern=$3; shift 3
  local out code=0
  out=$("$@" 2>&1 >/dev/null) || code=$?
  if [ "$code" -eq "$status" ] && grep -qE "$pattern" <<<"$out"; then
    echo "ok: $name"
  else
    echo "FAIL: $name: exit $code (wanted $status), said:"; echo "$out"
    failures=$((failures + 1))
  fi
}
ctl=("$bin/wodclockctl" --socket "$socket" status)
as_user() { runuser -u "$user" -- "$@"; }
# The login as it was before `adduser`: the user's own ids and no supplementary groups.
as_old_login() {
  setpriv --reuid="$(id -u "$user")" --regid="$(id -g "$user")" --clear-groups -- "$@"
}

expect "a user outside the group is told which group and how to join it" 77 \
  "open to group '$group' \(directory $tmp/run, mode 0750\), and user '$user' is not in it" \
  as_user "${ctl[@]}"
expect "the hint is the command to run" 77 "hint: .*sudo adduser $user $group.*log out and in" \
  as_user "${ctl[@]}"
# Without --socket, the places looked in (here the runtime directory's) count a socket behind
# a closed directory as there, not as none.
if [ ! -e /run/wodclock/wodclockd.sock ]; then
  expect "without --socket, a socket behind a closed directory is not taken for none" 77 \
    "not in it" runuser -u "$user" -- env XDG_RUNTIME_DIR="$tmp/run" "$bin/wodclockctl" status
fi
usermod -aG "$group" "$user"
expect "joined, the login that started before is told to start again" 77 \
  "was added to group '$group', but this login started before.*" as_old_login "${ctl[@]}"
expect "a new login has the group and reaches the daemon" 0 "" as_user "${ctl[@]}"

chmod 0755 "$tmp/run"
chmod 0600 "$socket"
expect "a socket open to its owner only says so, and how to give it a group" 77 \
  "socket $socket \(mode 0600\) is open to its owner only.*|hint: .*socket_group" \
  as_user "${ctl[@]}"
chmod 0660 "$socket"

kill -9 "$daemon"; wait "$daemon" 2>/dev/null || true; daemon=
[ -S "$socket" ] || { echo "FAIL: kill -9 should leave the socket behind"; exit 1; }
expect "a socket with no daemon behind it is called stale" 69 \
  "no daemon is listening on it.*left it behind" "${ctl[@]}"
rm -f "$socket"
expect "no socket at all: the daemon is not running" 69 "there is no control socket at $socket" \
  "${ctl[@]}"
[ "$failures" -eq 0 ]

# SPDX-License-Identifier: MIT
# What the script tests share, sourced (not run: run-all.sh runs only test-*.sh).
#
# start_daemon BIN CONFIG SOCKET DIR: starts BIN/wodclockd on CONFIG with its socket at SOCKET
# and its state and log in DIR, sets `daemon` to its pid, and waits until the socket is there
# (5 s); without it, prints the daemon's log and exits 1.
start_daemon() {
  local bin=$1 config=$2 socket=$3 dir=$4
  "$bin/wodclockd" --config "$config" --socket "$socket" --state-dir "$dir/state" \
    > "$dir/daemon.log" 2>&1 &
  daemon=$!
  for _ in $(seq 100); do [ -S "$socket" ] && break; sleep 0.05; done
  [ -S "$socket" ] || { cat "$dir/daemon.log"; echo "the daemon did not make its socket"; exit 1; }
}

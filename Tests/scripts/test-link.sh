#!/usr/bin/env bash
# Several wodclockds on one real MQTT broker (Debian's mosquitto, started by the test on a
# free loopback port): what needs the real parts. Runs the debug binaries.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin="$root/.build/debug"
[ -x "$bin/wodclockd" ] && [ -x "$bin/wodclockctl" ] || { echo "build first: swift build" >&2; exit 1; }
/usr/bin/python3 "$root/Tests/link/test_link.py"

#!/usr/bin/env bash
# The web interface against the real wodclockd, for what needs the real parts: the API served
# end to end, the real server's bounds against slow and flooding clients (Python clients), then
# the pages in Debian's headless Chromium driven over the DevTools protocol. Every route and rule
# of the web front is tested in-process on manual time (Tests/DaemonTests/Web*InProcessTests);
# how fast a device is served during an attack is `wodclock-bench web-attacks`. Runs the debug
# binaries `swift build` made.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin="$root/.build/debug"
[ -x "$bin/wodclockd" ] && [ -x "$bin/wodclockctl" ] || { echo "build first: swift build" >&2; exit 1; }
# Debian's Python: python3-websocket and the rest come from Debian packages.
/usr/bin/python3 "$root/Tests/web/test_api.py"
/usr/bin/python3 "$root/Tests/web/test_lan.py"
/usr/bin/python3 "$root/Tests/web/test_browser.py"
/usr/bin/python3 "$root/Tests/web/test_whiteboard.py"
/usr/bin/python3 "$root/Tests/web/test_judge.py"

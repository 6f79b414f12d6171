# SPDX-License-Identifier: MIT
"""When Chromium's display shows a new second, against the daemon's own second boundary.

The browser part of `wodclock-bench web`, which runs it as a child process and reads its
`NAME VALUE UNIT` lines; it can also be run by itself.

    /usr/bin/python3 Tests/web/bench_second_change.py [--url http://HOST:PORT] [--changes N]

With `--url` it watches the display page of a daemon that is already running a workout (the
bench's). Without it, it starts its own wodclockd (WODCLOCK_BUILD, default .build/debug, as the
web tests do) with a long AMRAP and starts it.

How it measures: Debian's headless Chromium loads the display (`/`). A MutationObserver on the
digits element, installed with the DevTools protocol's Runtime.evaluate, stores the wall-clock
instant of every change of the shown text: performance.timeOrigin + performance.now(), taken
when the page's animation-frame callback has written the text (the frame is painted right
after). The true instant of each change comes from the daemon: the `clock` member of
GET /api/status gives its wall clock (wall_ms) at the instant it describes, the figure of the
digits then (digits.value_s) and its rate, so second k of a count-down starts at
wall_ms + (value_s - k) / rate * 1000 (count-up: (k - value_s)); the page and the daemon run
on the same machine and so on the same wall clock. It prints, in ms, the p50, p99, max and min
of shown - true over N changes (nearest rank, as the daemon's stats), and two figures that
explain them: how far the page's clock (timeOrigin + now) is from this machine's wall clock,
and how far the page's estimate of the server's clock (its offset from /api/time pings) is
from the truth (both clocks are CLOCK_MONOTONIC here: Chromium's performance.now() counts it
from timeOrigin, the daemon's server_ms is it in ms).

Within one run the figures sit close together: the headless compositor draws at exactly 60 Hz
and the daemon's seconds are exactly a second apart, so every change meets the same phase of
the frame clock. Another run, another phase: anywhere within one frame (16.7 ms) of the
boundary, plus the page's offset error.

Exits 69 (EX_UNAVAILABLE) with a line on stderr when Chromium or python3-websocket is missing.
"""

import argparse
import http.client
import json
import math
import os
import sys
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(__file__))
from wodclock_web import Browser, Daemon, chromium_path, wait_until  # noqa: E402

AMRAP_CONFIG = """\
defaults:
  preset: amrap
  count_in: 0s
presets:
  amrap:
    mode: amrap
    time: 30m
outputs:
  - type: log
"""

# Records [wall ms, text] at every change of the digits. The observer runs as a microtask right
# after the page's own animation-frame callback wrote the text.
RECORDER = """
(function () {
  if (window.__secondChanges) return true;
  var changes = [];
  var digits = document.getElementById("digits");
  new MutationObserver(function () {
    changes.push([performance.timeOrigin + performance.now(), digits.textContent]);
  }).observe(digits, { childList: true, characterData: true, subtree: true });
  window.__secondChanges = changes;
  return true;
})()
"""


def figure(name, value, unit):
    text = str(value) if isinstance(value, int) else f"{value:.3f}"
    print(f"web.second_change.{name} {text} {unit}", flush=True)


def nearest_rank(sorted_values, percent):
    rank = max(1, math.ceil(len(sorted_values) * percent / 100))
    return sorted_values[min(len(sorted_values), rank) - 1]


def seconds_of(text):
    """`m:ss` or `h:mm:ss` as whole seconds, or None for anything else (an empty offline face)."""
    parts = text.split(":")
    if len(parts) not in (2, 3) or not all(part.isdigit() for part in parts):
        return None
    total = 0
    for part in parts:
        total = total * 60 + int(part)
    return total


def get_json(origin, path):
    parsed = urllib.parse.urlsplit(origin)
    connection = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=10)
    try:
        connection.request("GET", path)
        return json.loads(connection.getresponse().read())
    finally:
        connection.close()


def measure(origin, changes):
    with Browser() as browser:
        browser.navigate(origin + "/")
        hooks = "window.wodclockDisplay"
        wait_until(lambda: browser.evaluate(f"{hooks} && !{hooks}.offline() "
                                            f"&& {hooks}.offsetMs() !== null"),
                   timeout=20, what="the display to be online with a clock offset")
        # The first pings (a burst) settle the offset: the best of several round trips.
        time.sleep(2)
        browser.evaluate(RECORDER)

        # The page's wall clock against this machine's, read around one evaluation.
        before = time.time() * 1000
        page_wall = browser.evaluate("performance.timeOrigin + performance.now()")
        after = time.time() * 1000
        page_clock_offset = page_wall - (before + after) / 2
        # The page's idea of the server's clock against the truth: both are CLOCK_MONOTONIC.
        before = time.monotonic() * 1000
        page_now, page_offset = browser.evaluate(
            f"[performance.now(), {hooks}.offsetMs()]")
        after = time.monotonic() * 1000
        offset_error = page_offset - ((before + after) / 2 - page_now)

        wait_until(lambda: browser.evaluate("window.__secondChanges.length") >= changes,
                   timeout=changes * 1.5 + 20, interval=0.5, what=f"{changes} digit changes")
        recorded = browser.evaluate("window.__secondChanges")

    status = get_json(origin, "/api/status")
    clock = status.get("clock") or {}
    law = clock.get("digits") or {}
    state = (status.get("status") or {}).get("state")
    if state != "running" or not law.get("rate"):
        raise SystemExit(f"the workout is not running at the end ({state}, rate {law.get('rate')})")
    rate = law["rate"]
    down = law.get("direction") == "down"

    differences = []
    for shown_at, text in recorded:
        k = seconds_of(text)
        if k is None:
            continue
        engine_seconds = (law["value_s"] - k) if down else (k - law["value_s"])
        true_at = clock["wall_ms"] + engine_seconds / rate * 1000
        differences.append(shown_at - true_at)
    if len(differences) < changes:
        raise SystemExit(f"only {len(differences)} of {len(recorded)} changes were digits")
    differences.sort()
    figure("count", len(differences), "changes")
    figure("p50", nearest_rank(differences, 50), "ms")
    figure("p99", nearest_rank(differences, 99), "ms")
    figure("max", differences[-1], "ms")
    figure("min", differences[0], "ms")
    figure("page_clock_offset", page_clock_offset, "ms")
    figure("server_offset_error", offset_error, "ms")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--url", help="the web interface of a daemon running a workout")
    parser.add_argument("--changes", type=int, default=60, help="digit changes to record")
    arguments = parser.parse_args()
    if chromium_path() is None:
        print("Debian's chromium is not installed (apt install chromium)", file=sys.stderr)
        sys.exit(69)
    try:
        import websocket  # noqa: F401  (python3-websocket, which Browser uses)
    except ImportError:
        print("python3-websocket is not installed (apt install python3-websocket)",
              file=sys.stderr)
        sys.exit(69)
    if arguments.url:
        measure(arguments.url.rstrip("/"), arguments.changes)
        return
    with Daemon(config=AMRAP_CONFIG) as daemon:
        code, output = daemon.ctl("start")
        if code != 0:
            raise SystemExit(f"wodclockctl start failed: {output}")
        measure(daemon.origin, arguments.changes)


if __name__ == "__main__":
    main()

# SPDX-License-Identifier: MIT
"""The pages in a real browser (Debian's headless Chromium over the DevTools protocol) against
the real wodclockd: the display shows the daemon's second, resyncs after a cut stream, and
the remote signs in, starts the clock and explains what the coach types.
Run by Tests/scripts/test-web.sh.
"""

import datetime
import math
import os
import signal
import socket
import sys
import time
import unittest
import zoneinfo

sys.path.insert(0, os.path.dirname(__file__))
from wodclock_web import (  # noqa: E402
    PIN, Browser, Daemon, chromium_path, request, wait_until)


# Missing, the browser is a failure and not a skip: a suite that skips itself on a machine
# without it would pass having checked nothing. `make test` installs it.
if not chromium_path():
    sys.exit("test_browser.py: Debian's chromium is not installed\n"
             "hint: apt-get install chromium python3-websocket (make test installs them)")


def shown(browser):
    return browser.evaluate("window.wodclockDisplay && window.wodclockDisplay.digits()")


def drawn_against(browser, status):
    """The digits the page's last frame drew, what the daemon's law in `status` (an
    `/api/status` read now) gives at the server instant that frame was drawn for, and that
    instant. The law is worked out here from the web contract, not by the page's own code:
    the two agree unless the page's law, zone or time of day is not the daemon's, however close
    to a second boundary the frame was drawn."""
    drawn = browser.evaluate("window.wodclockDisplay.drawn()")
    return drawn["digits"], expected_digits(status, drawn["at"]), drawn["at"]


def expected_digits(status, at):
    """The big digits at server time `at` (ms) by the web contract's laws: the time of day from
    the daemon's wall clock and zone offset, or the digits' law (value, rate, until)."""
    clock, face = status["clock"], status["face"]
    if face.get("show_time_of_day"):
        local = clock["wall_ms"] + (at - clock["server_ms"]) + clock["utc_offset_s"] * 1000
        second_of_day = int(local // 1000) % 86400
        hour, minute, second = second_of_day // 3600, second_of_day // 60 % 60, second_of_day % 60
        settings = face.get("clock_face") or {"twenty_four_hour": True, "show_seconds": False}
        text = f"{hour:02d}" if settings["twenty_four_hour"] else str(hour % 12 or 12)
        text += f":{minute:02d}"
        return text + (f":{second:02d}" if settings["show_seconds"] else "")
    law = clock.get("digits")
    if not law:
        return face.get("digits") or ""
    value = law["value_s"]
    if law["rate"]:
        until = at if law.get("until_ms") is None else min(at, law["until_ms"])
        delta = law["rate"] * max(0.0, until - clock["server_ms"]) / 1000
        value = max(0.0, value + delta if law["direction"] == "up" else value - delta)
    # Counting down shows the ceiling of the remaining seconds, counting up the floor of the
    # elapsed ones; 1e-6 keeps floating-point noise from a second's edge.
    whole = math.floor(value + 1e-6) if law["direction"] == "up" else math.ceil(value - 1e-6)
    hours, minutes, seconds = whole // 3600, whole // 60 % 60, whole % 60
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


class Display(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.daemon = Daemon().start()
        cls.browser = Browser()

    @classmethod
    def tearDownClass(cls):
        cls.browser.close()
        cls.daemon.stop()

    def setUp(self):
        self.daemon.ctl("reset")
        self.browser.navigate(self.daemon.url("/"))
        wait_until(lambda: shown(self.browser), timeout=15, what="the display's digits")
        wait_until(lambda: self.browser.evaluate("window.wodclockDisplay.offsetMs()") is not None,
                   what="the page to measure its offset from the daemon's clock")

    def assert_shows_the_daemons_second(self, samples=12):
        """The digits the page draws are the daemon's: what the daemon's law, read now, gives
        at the instant the page drew its last frame for."""
        for _ in range(samples):
            status = request(self.daemon, "GET", "/api/status").json()
            page, expected, at = drawn_against(self.browser, status)
            self.assertEqual(page, expected, f"the page drew {page} for {at} ms")
            time.sleep(0.37)

    def test_digits_follow_the_daemon(self):
        self.assert_shows_the_daemons_second(samples=4)  # idle: the loaded workout's length
        code, _ = self.daemon.ctl("start")
        self.assertEqual(code, 0)
        wait_until(lambda: shown(self.browser) != "1:00", what="the page to count down")
        self.assert_shows_the_daemons_second()
        word = self.browser.evaluate("window.wodclockDisplay.word()")
        self.assertEqual(word.upper(), "WORK")
        colour = self.browser.evaluate(
            "getComputedStyle(document.documentElement).getPropertyValue('--face-color').trim()")
        face = request(self.daemon, "GET", "/api/status").json()["face"]
        self.assertEqual(colour.lower(), face["color"], "the page wears the phase's colour")

    def test_silent_stream_goes_offline_then_resyncs(self):
        self.daemon.ctl("start")
        self.assert_shows_the_daemons_second(samples=2)
        # The daemon stopped: the stream stays open but says nothing, not even a heartbeat.
        self.daemon.freeze(True)
        try:
            wait_until(lambda: self.browser.evaluate("window.wodclockDisplay.offline()"),
                       timeout=12, what="the page to say it is offline")
            frozen = shown(self.browser)
            time.sleep(1.5)
            self.assertEqual(shown(self.browser), frozen, "offline, the time does not move")
        finally:
            self.daemon.freeze(False)
        # The moment the page says it is back, it shows the live time, never the frozen digits
        # (the daemon ran on for more than a second meanwhile): both read in one evaluation.
        back = wait_until(lambda: self.browser.evaluate(
            "(function () { var d = window.wodclockDisplay;"
            " return d.offline() ? null : d.digits(); })()"),
            timeout=20, interval=0.002, what="the page to reconnect")
        self.assertNotEqual(back, frozen, "back online, the page shows the live time at once")
        self.assert_shows_the_daemons_second(samples=5)

    def test_the_clock_keeps_the_tightest_ping_that_agrees_with_the_newest(self):
        def offset_after(kept, sample):
            return self.browser.evaluate(
                "(function () { var c = Wodclock.clock;"
                f" var kept = c.keepSamples({kept}, {sample});"
                " return [c.bestOffset(kept), kept.length]; })()")

        tight = "[{low: 1000, high: 1002, rtt: 2}]"
        # A ping that waited seconds on a stopped daemon: its wide interval holds the tight
        # one, which still counts.
        self.assertEqual(offset_after(tight, "{low: -2000, high: 5000, rtt: 7000}"), [1001, 2])
        # A ping that disagrees with every old one (the device slept): the old ones go.
        self.assertEqual(offset_after(tight, "{low: 1500, high: 1520, rtt: 20}"), [1510, 1])
        many = "[" + ", ".join("{low: 0, high: 10, rtt: 10}" for _ in range(8)) + "]"
        self.assertEqual(offset_after(many, "{low: 4, high: 6, rtt: 2}"), [5, 8])


IDLE_CLOCK = """\
defaults:
  preset: amrap
clock:
  idle: clock
  format: 24h
  seconds: true
presets:
  amrap: "amrap 14"
schedule:
  classes:
    - {days: daily, at: "23:59", name: Late WOD, workout: amrap}
outputs:
  - type: log
"""


class TimeOfDay(unittest.TestCase):
    def test_the_idle_screen_shows_the_gyms_time_not_the_browsers(self):
        # The daemon keeps New York's time; the browser runs in UTC, as a TV set to the wrong
        # zone would: the page shows New York's time of day, the daemon's second.
        zone = "America/New_York"
        with Daemon(config=IDLE_CLOCK, tz=zone) as daemon, Browser() as browser:
            browser.navigate(daemon.url("/"))
            wait_until(lambda: shown(browser), timeout=15, what="the time of day")
            wait_until(lambda: browser.evaluate("window.wodclockDisplay.offsetMs()") is not None,
                       what="the page to measure its offset from the daemon's clock")
            # The daemon keeps the gym's zone, and the page draws the daemon's time of day at
            # the instant of its frame, whatever zone the browser runs in.
            status = request(daemon, "GET", "/api/status").json()
            now = datetime.datetime.now(zoneinfo.ZoneInfo(zone))
            self.assertEqual(status["clock"]["utc_offset_s"], now.utcoffset().total_seconds(),
                             "the gym's zone")
            for _ in range(5):
                page, expected, at = drawn_against(
                    browser, request(daemon, "GET", "/api/status").json())
                self.assertEqual(page, expected, f"the page drew {page} for {at} ms in {zone}")
                time.sleep(0.4)
            # Under the time, what the idle screen says of the next class ("23:59 Late WOD", or
            # on a machine whose clock is not synchronized, that no class loads).
            note = request(daemon, "GET", "/api/status").json()["face"]["idle_note"]
            self.assertTrue(note)
            wait_until(lambda: browser.evaluate(
                "document.getElementById('idle-note').textContent") == note,
                what="the idle note on the display")


class Remote(unittest.TestCase):
    def test_sign_in_start_and_explain(self):
        with Daemon() as daemon, Browser(width=390, height=844, mobile=True) as browser:
            browser.navigate(daemon.url("/remote"))
            hooks = "window.wodclockRemote"
            wait_until(lambda: browser.evaluate(f"{hooks} && {hooks}.needsPin()"),
                       what="the PIN pad")
            browser.evaluate(f"{hooks}.enterPin('0000')")
            wait_until(lambda: browser.evaluate(f"{hooks}.pinMessage()"), what="a refusal")
            self.assertFalse(browser.evaluate(f"{hooks}.signedIn()"))
            browser.evaluate(f"{hooks}.enterPin('{PIN}')")
            wait_until(lambda: browser.evaluate(f"{hooks}.signedIn()"), what="signing in")
            browser.evaluate(f"{hooks}.press('start')")
            wait_until(lambda: daemon.status()["state"] == "running", what="the clock to run")
            wait_until(lambda: browser.evaluate(f"{hooks}.shownState()") == "running",
                       what="the remote to show the clock running")
            browser.evaluate(f"{hooks}.type('21-15-9 for time cap 10')")
            explanation = wait_until(lambda: browser.evaluate(f"{hooks}.explanation()"),
                                     what="the explanation")
            self.assertIn("21", explanation)
            self.assertIn("10:00", explanation)
            browser.evaluate(f"{hooks}.type('amarp 12')")
            problem = wait_until(lambda: browser.evaluate(f"{hooks}.problem()"),
                                 what="the problem with the text")
            self.assertIn("amrap", problem)
            browser.evaluate(f"{hooks}.type('amrap 14')")
            wait_until(lambda: browser.evaluate(f"{hooks}.explanation()"), what="amrap 14")
            browser.evaluate(f"{hooks}.load(true)")
            wait_until(lambda: browser.evaluate(f"{hooks}.confirmingReplace()"),
                       what="the question before a running workout is replaced")
            browser.evaluate(f"{hooks}.confirmReplace()")
            wait_until(lambda: daemon.status()["workout"] == "amrap 14"
                       and daemon.status()["state"] in ("running", "countin"),
                       what="amrap 14 to run")

    def test_a_press_after_the_session_is_lost_asks_for_the_pin_then_is_sent(self):
        holder = socket.socket()
        holder.bind(("127.0.0.1", 0))
        port = holder.getsockname()[1]
        holder.close()
        # A fixed port: the page stays open across the restart, as on the coach's phone.
        with Daemon(listen=f"127.0.0.1:{port}") as daemon, \
                Browser(width=390, height=844, mobile=True) as browser:
            browser.navigate(daemon.url("/remote"))
            hooks = "window.wodclockRemote"
            wait_until(lambda: browser.evaluate(f"{hooks} && {hooks}.needsPin()"),
                       what="the PIN pad")
            browser.evaluate(f"{hooks}.enterPin('{PIN}')")
            wait_until(lambda: browser.evaluate(f"{hooks}.signedIn()"), what="signing in")
            # A restart that lost the sessions (the saved ones removed while it was down).
            daemon.process.send_signal(signal.SIGTERM)
            daemon.process.wait(timeout=10)
            os.remove(os.path.join(daemon.state_directory, "web-sessions"))
            daemon.start()
            self.assertEqual(daemon.status()["state"], "idle")
            browser.evaluate(f"{hooks}.press('start')")
            wait_until(lambda: browser.evaluate(f"{hooks}.needsPin()"),
                       what="the PIN pad after the press")
            self.assertEqual(daemon.status()["state"], "idle", "not sent without a session")
            browser.evaluate(f"{hooks}.enterPin('{PIN}')")
            wait_until(lambda: daemon.status()["state"] in ("running", "countin"),
                       what="the press sent again once the PIN is in")
            wait_until(lambda: browser.evaluate(f"{hooks}.signedIn()"), what="the remote back")


if __name__ == "__main__":
    unittest.main(verbosity=2)

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Makes the web interface's pictures in docs/web from the real binaries: a wodclockd with its
web server, and Debian's headless Chromium showing the display and the remote.

Usage: docs/web/make-screenshots.py   (after `swift build`; writes docs/web/*.png)
"""

import os
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "Tests", "web"))
from wodclock_web import PIN, Browser, Daemon, wait_until  # noqa: E402

CONFIG = """\
defaults:
  preset: emom
  count_in: 0s
clock:
  idle: preset
presets:
  emom:
    mode: emom
    rounds: 10
    interval: 1m
    label: "10 burpees + 5 thrusters"
  back-squat: "tempo 31X0 6 x 4 rest 2:00: Barbell Squat"
  fran: "21-15-9 for time cap 10"
  chelsea:
    mode: intervals
    work: 50s
    rest: 10s
    rounds: 20
    whiteboard: [5 pull-ups, 10 push-ups, 15 air squats, "Rx: 20 lb vest"]
outputs:
  - type: log
"""


def ready(browser):
    wait_until(lambda: browser.evaluate("window.wodclockDisplay && window.wodclockDisplay.digits()"),
               timeout=15, what="the display")


def main():
    with Daemon(config=CONFIG) as daemon:
        with Browser(width=1920, height=1080) as browser:
            browser.navigate(daemon.url("/"))
            ready(browser)
            daemon.ctl("start")
            daemon.ctl("next")
            daemon.ctl("next")
            # Round 3, with 37 seconds of the minute left.
            wait_until(lambda: daemon.status()["segment_remaining_s"] <= 37.5, timeout=30,
                       what="37 s left")
            time.sleep(0.3)
            browser.screenshot(os.path.join(here, "display-emom-1080p.png"))
            daemon.ctl("load", "back-squat", "--replace")
            daemon.ctl("start")
            # The second rep's lowering: three seconds of eccentric, the dot on its way down.
            wait_until(lambda: daemon.status()["rep"] == 2 and daemon.status()["segment"] == "eccentric",
                       timeout=30, what="rep 2 lowering")
            time.sleep(1.6)
            browser.screenshot(os.path.join(here, "display-tempo-1080p.png"))
        with Browser(width=390, height=844, mobile=True) as phone:
            phone.navigate(daemon.url("/"))
            ready(phone)
            phone.screenshot(os.path.join(here, "display-phone.png"))
            phone.navigate(daemon.url("/remote"))
            wait_until(lambda: phone.evaluate("window.wodclockRemote && window.wodclockRemote.needsPin()"),
                       what="the PIN pad")
            phone.screenshot(os.path.join(here, "remote-pin.png"))
            phone.evaluate(f"window.wodclockRemote.enterPin('{PIN}')")
            wait_until(lambda: phone.evaluate("window.wodclockRemote.signedIn()"), what="sign-in")
            phone.evaluate("window.wodclockRemote.type('21-15-9 for time cap 10')")
            wait_until(lambda: phone.evaluate("window.wodclockRemote.explanation()"),
                       what="the explanation")
            time.sleep(0.5)
            phone.screenshot(os.path.join(here, "remote-phone.png"))
            phone.evaluate("document.getElementById('workout-text').scrollIntoView()")
            time.sleep(0.3)
            phone.screenshot(os.path.join(here, "remote-builder.png"))
    whiteboard(here)
    print("wrote", ", ".join(sorted(f for f in os.listdir(here) if f.endswith(".png"))))


def whiteboard(here):
    """The whiteboard beside the digits: a step's line lit, then 'next: …' in the rest."""
    with Daemon(config=CONFIG) as daemon:
        daemon.ctl("load", "chelsea")
        daemon.ctl("start")
        with Browser(width=1920, height=1080) as browser:
            browser.navigate(daemon.url("/"))
            ready(browser)
            daemon.ctl("next")
            daemon.ctl("next")
            # The second interval, 43 s left.
            wait_until(lambda: daemon.status()["segment"] == "work"
                       and daemon.status()["segment_remaining_s"] <= 43.5, timeout=30,
                       what="43 s left")
            time.sleep(0.3)
            browser.screenshot(os.path.join(here, "display-whiteboard-1080p.png"))
            daemon.ctl("next")
            wait_until(lambda: daemon.status()["segment"] == "rest"
                       and daemon.status()["segment_remaining_s"] <= 7.5, timeout=30,
                       what="the rest, 7 s left")
            time.sleep(0.3)
            browser.screenshot(os.path.join(here, "display-whiteboard-next-1080p.png"))


if __name__ == "__main__":
    main()

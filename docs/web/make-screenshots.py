#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Makes the web interface's pictures in docs/web from the real binaries: a wodclockd with its
web server, and Debian's headless Chromium showing the display and the remote.

Usage: docs/web/make-screenshots.py [heats]   (after `swift build`; writes docs/web/*.png;
`heats` makes only the pictures of a heat: the TV's call-up, lanes and board, the judge's page)
"""

import os
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "Tests", "web"))
from wodclock_web import PIN, Browser, Daemon, command, sign_in, wait_until  # noqa: E402

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
    if sys.argv[1:] == ["heats"]:
        heats(here)
        return
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
    heats(here)
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


HEATS_CONFIG = """\
defaults:
  preset: fran
  count_in: 0s
clock:
  idle: preset
presets:
  fran: "21-15-9 for time cap 10"
heats:
  transition: 10s
outputs:
  - type: log
"""

HEAT_SHEET = """\
heat,lane,athlete,division
1,1,Anna Berg,Rx
1,2,Ben Okafor,Rx
1,3,Cleo Marsh,Rx
1,4,Dana Whitfield,Rx
1,5,Emil Sato,Scaled
1,6,Farah Khan,Scaled
1,7,Gus Lindqvist,Scaled
1,8,Hana Novak,Scaled
2,1,Ivo Petrov,Rx
2,2,Jade Moreau,Rx
"""


def heats(here):
    """A heat of eight: the call-up on the TV, the judge's phone on lane 2 before and after
    Finish, the TV's lanes with finishes and places, then the heat's board."""
    with Daemon(config=HEATS_CONFIG) as daemon:
        cookie = sign_in(daemon)
        loaded = command(daemon, cookie, {"cmd": "heats", "op": "load", "csv": HEAT_SHEET,
                                          "name": "heats.csv"})
        assert loaded.status == 200, loaded.body
        with Browser(width=1920, height=1080) as tv, \
                Browser(width=390, height=844, mobile=True) as phone:
            tv.navigate(daemon.url("/"))
            ready(tv)
            command(daemon, cookie, {"cmd": "heats", "op": "next"})
            wait_until(lambda: tv.evaluate("window.wodclockDisplay.heat().callUp"), what="call-up")
            time.sleep(0.5)
            tv.screenshot(os.path.join(here, "display-callup-1080p.png"))
            wait_until(lambda: daemon.status()["state"] == "running", timeout=40,
                       what="heat 1 running")
            phone.navigate(daemon.url("/judge"))
            wait_until(lambda: phone.evaluate("window.wodclockJudge && window.wodclockJudge.needsPin()"),
                       what="the PIN pad")
            phone.evaluate(f"window.wodclockJudge.enterPin('{PIN}')")
            wait_until(lambda: phone.evaluate("window.wodclockJudge.lanes().length === 8"),
                       what="the lanes")
            phone.evaluate("window.wodclockJudge.pickLane(2)")
            wait_until(lambda: daemon.status()["elapsed_s"] >= 6, timeout=20, what="6 s in")
            phone.screenshot(os.path.join(here, "judge-working.png"))
            for lane in (3, 2, 6):
                command(daemon, cookie, {"cmd": "lane", "op": "finish", "lane": lane})
                time.sleep(0.7)
            wait_until(lambda: "finished" in phone.evaluate("window.wodclockJudge.shown().state"),
                       what="lane 2 finished on the phone")
            time.sleep(0.3)
            phone.screenshot(os.path.join(here, "judge-finished.png"))
            wait_until(lambda: tv.evaluate("window.wodclockDisplay.heat().lanes"), what="lanes")
            time.sleep(0.5)
            tv.screenshot(os.path.join(here, "display-lanes-1080p.png"))
            command(daemon, cookie, {"cmd": "heats", "op": "board", "on": True})
            wait_until(lambda: tv.evaluate("window.wodclockDisplay.heat().board"), what="board")
            time.sleep(0.5)
            tv.screenshot(os.path.join(here, "display-board-1080p.png"))


if __name__ == "__main__":
    main()

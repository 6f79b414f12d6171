# SPDX-License-Identifier: MIT
"""The judge's page in a real browser (Debian's headless Chromium on a phone's viewport, 390×844)
against the real wodclockd: signed in with the PIN, a lane chosen from the heat and remembered,
Finish tapped (twice: the lane finishes once), the daemon's status showing the lane finished,
and the results read back from /api/results.csv with Python's csv module; then two heats
of a capped For Time through the API, whose CSV this test ranks on its own and compares.
Run by Tests/scripts/test-web.sh.
"""

import csv
import io
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from wodclock_web import (  # noqa: E402
    PIN, Browser, Daemon, chromium_path, command, request, sign_in, wait_until)

if not chromium_path():
    sys.exit("test_judge.py: Debian's chromium is not installed\n"
             "hint: apt-get install chromium python3-websocket (make test installs them)")

CONFIG = """\
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

SHEET = """\
heat,lane,athlete,division
1,1,Anna,Rx
1,2,Ben,Rx
1,3,Cleo,Scaled
2,1,Dana,Rx
2,2,Emil,Scaled
"""

COLUMNS = ["division", "place", "athlete", "heat", "lane", "score", "time_s", "tiebreak_s"]
HOOKS = "window.wodclockJudge"


def lane_of(daemon, number):
    heat = daemon.status().get("heat") or {}
    return next((lane for lane in heat.get("lanes", []) if lane["lane"] == number), None)


class JudgePage(unittest.TestCase):
    def test_a_judge_finishes_a_lane_and_the_results_say_so(self):
        with Daemon(config=CONFIG) as daemon, \
                Browser(width=390, height=844, mobile=True) as phone:
            cookie = sign_in(daemon)
            loaded = command(daemon, cookie, {"cmd": "heats", "op": "load", "csv": SHEET,
                                              "name": "heats.csv"})
            self.assertEqual(loaded.status, 200, loaded.body)
            started = command(daemon, cookie, {"cmd": "heats", "op": "next"})
            self.assertEqual(started.status, 200, started.body)
            # The call-up's transition, then the shared start.
            wait_until(lambda: daemon.status()["state"] == "running"
                       and daemon.status()["heat"]["phase"] == "running", timeout=40,
                       what="heat 1 running")

            phone.navigate(daemon.url("/judge"))
            wait_until(lambda: phone.evaluate(f"{HOOKS} && {HOOKS}.needsPin()"),
                       what="the PIN pad")
            phone.evaluate(f"{HOOKS}.enterPin('{PIN}')")
            wait_until(lambda: phone.evaluate(f"{HOOKS}.signedIn()"), what="signing in")
            wait_until(lambda: phone.evaluate(f"{HOOKS}.lanes()") == [1, 2, 3],
                       what="heat 1's lanes to choose from")
            self.assertTrue(phone.evaluate(f"{HOOKS}.pickLane(2)"))
            shown = phone.evaluate(f"{HOOKS}.shown()")
            self.assertEqual(shown["athlete"], "Ben")
            self.assertTrue(shown["finishEnabled"])
            self.assertIn("working", shown["state"])

            # The lane is remembered on the phone: a reload goes straight to it.
            phone.navigate(daemon.url("/judge"))
            wait_until(lambda: phone.evaluate(f"{HOOKS} && {HOOKS}.signedIn()"),
                       what="the page back, signed in")
            wait_until(lambda: phone.evaluate(f"{HOOKS}.shown()")["athlete"] == "Ben",
                       what="lane 2 again")
            self.assertEqual(phone.evaluate(f"{HOOKS}.lane()"), 2)

            # Made for a phone held in one hand: nothing wider than the screen, Finish on it.
            self.assertLessEqual(phone.evaluate("document.documentElement.scrollWidth"), 390)
            finish = phone.evaluate(
                "(function (r) { return {top: r.top, bottom: r.bottom, height: r.height}; })"
                "(document.getElementById('finish').getBoundingClientRect())")
            self.assertGreaterEqual(finish["height"], 64)
            self.assertLessEqual(finish["bottom"], 844)

            # A double tap: the lane finishes once.
            phone.evaluate(f"{HOOKS}.finish(); {HOOKS}.finish()")
            wait_until(lambda: (lane_of(daemon, 2) or {}).get("state") == "finished",
                       what="lane 2 finished in the daemon's status")
            finished = lane_of(daemon, 2)
            self.assertIsInstance(finished["finish_s"], (int, float))
            self.assertEqual(lane_of(daemon, 1)["state"], "working")
            wait_until(lambda: phone.evaluate(f"{HOOKS}.shown()")["time"] == finished["score"],
                       what="the finish time on the phone")
            shown = phone.evaluate(f"{HOOKS}.shown()")
            self.assertFalse(shown["finishEnabled"], "a finished lane has nothing to finish")
            self.assertIn("finished", shown["state"])
            phone.evaluate(f"{HOOKS}.finish()")
            self.assertEqual(lane_of(daemon, 2)["finish_s"], finished["finish_s"])

            # The results, as a spreadsheet reads them.
            self.assertEqual(request(daemon, "GET", "/api/results.csv").status, 401)
            answer = request(daemon, "GET", "/api/results.csv", cookie=cookie)
            self.assertEqual(answer.status, 200, answer.body)
            self.assertEqual(answer.headers["content-type"], "text/csv; charset=utf-8")
            self.assertEqual(answer.headers["content-disposition"],
                             'attachment; filename="results.csv"')
            reader = csv.DictReader(io.StringIO(answer.body.decode("utf-8"), newline=""))
            self.assertEqual(reader.fieldnames, COLUMNS)
            rows = list(reader)
            ben = [row for row in rows if row["athlete"] == "Ben"]
            self.assertEqual(len(ben), 1, rows)
            self.assertEqual(ben[0]["division"], "Rx")
            self.assertEqual((ben[0]["heat"], ben[0]["lane"]), ("1", "2"))
            self.assertEqual(ben[0]["place"], "1")
            self.assertEqual(ben[0]["score"], finished["score"])
            self.assertAlmostEqual(float(ben[0]["time_s"]), finished["finish_s"], places=1)


RACE = """\
defaults:
  preset: race
  count_in: 0s
presets:
  race:
    mode: for_time
    cap: 12s
heats:
  transition: 10s
outputs:
  - type: log
"""

RACE_SHEET = """\
Heat;Lane;Athlete;Division;Gym
1;1;Anna;Rx;North
1;2;Ben;Rx;South
1;3;Cleo;Scaled;North
1;4;Dana;Rx;East
2;1;Emil;Rx;South
2;2;Farah;Rx;North
2;3;Gus;Scaled;East
"""


def tenths(score):
    """A shown time, m:ss.t, in tenths of a second."""
    minutes, seconds = score.split(":")
    whole, tenth = seconds.split(".")
    return (int(minutes) * 60 + int(whole)) * 10 + int(tenth)


def past(daemon, since):
    """Waits until the daemon's own clock shows the workout 0.2 s past `since` (its elapsed_s):
    a finish sent then cannot tie at the tenth with one sent before `since`."""
    wait_until(lambda: daemon.status()["elapsed_s"] >= since + 0.2,
               what=f"the workout past {since + 0.2:.1f} s")


def ranking_key(row):
    """For Time as competitions rank it: finishers by their shown time, then capped athletes by
    reps done, most first; the tiebreak only between equal scores, a missing one losing."""
    score = row["score"]
    if score.startswith("CAP+"):
        key = (1, -int(score[4:]))
    else:
        key = (0, tenths(score))
    tiebreak = float(row["tiebreak_s"]) if row["tiebreak_s"] else float("inf")
    return key + (tiebreak,)


class RankedResults(unittest.TestCase):
    def test_the_results_csv_ranks_as_the_test_ranks_it(self):
        with Daemon(config=RACE) as daemon:
            cookie = sign_in(daemon)

            def send(body):
                answer = command(daemon, cookie, body)
                self.assertEqual(answer.status, 200, answer.body)

            last = [0.0]

            def finish_apart(lane):
                # Apart by more than a tenth on the daemon's clock: no tie by chance.
                past(daemon, last[0])
                send({"cmd": "lane", "op": "finish", "lane": lane})
                last[0] = daemon.status()["elapsed_s"]

            def run_heat(finishers, reps):
                send({"cmd": "heats", "op": "next"})
                wait_until(lambda: daemon.status()["state"] == "running", timeout=40,
                           what="the heat running")
                last[0] = 0.0
                for lane in finishers:
                    finish_apart(lane)
                wait_until(lambda: daemon.status()["state"] == "finished", timeout=30,
                           what="the cap")
                for lane, count in reps.items():
                    send({"cmd": "lane", "op": "reps", "lane": lane, "reps": count})

            send({"cmd": "heats", "op": "load", "csv": RACE_SHEET, "name": "race.csv"})
            # Heat 1: Ben, then Anna (who reached the tiebreak first), then Cleo; Dana capped.
            send({"cmd": "heats", "op": "next"})
            wait_until(lambda: daemon.status()["state"] == "running", timeout=40,
                       what="heat 1 running")
            send({"cmd": "lane", "op": "tiebreak", "lane": 1})
            for lane in (2, 1, 3):
                finish_apart(lane)
            wait_until(lambda: daemon.status()["state"] == "finished", timeout=30,
                       what="heat 1's cap")
            send({"cmd": "lane", "op": "reps", "lane": 4, "reps": 30})
            # Heat 2: Emil finishes; Farah capped with Dana's reps (a tie), Gus capped.
            run_heat([1], {2: 30, 3: 25})

            answer = request(daemon, "GET", "/api/results.csv", cookie=cookie)
            self.assertEqual(answer.status, 200, answer.body)
            reader = csv.DictReader(io.StringIO(answer.body.decode("utf-8"), newline=""))
            self.assertEqual(reader.fieldnames, COLUMNS)
            rows = list(reader)
            self.assertEqual(sorted(row["athlete"] for row in rows),
                             ["Anna", "Ben", "Cleo", "Dana", "Emil", "Farah", "Gus"])
            # Ranked here, independently: a place is one more than the athletes of the division
            # ranked strictly better.
            for row in rows:
                division = [other for other in rows if other["division"] == row["division"]]
                better = sum(1 for other in division if ranking_key(other) < ranking_key(row))
                self.assertEqual(row["place"], str(better + 1), (row, rows))
            by_name = {row["athlete"]: row for row in rows}
            self.assertEqual(by_name["Dana"]["place"], by_name["Farah"]["place"], "a tie")
            self.assertEqual((by_name["Dana"]["score"], by_name["Gus"]["score"]),
                             ("CAP+30", "CAP+25"))
            self.assertEqual(by_name["Emil"]["heat"], "2")
            for row in rows:
                if not row["score"].startswith("CAP+"):
                    # The shown time is the finish truncated to the tenth.
                    milliseconds = round(float(row["time_s"]) * 1000)
                    self.assertEqual(milliseconds // 100, tenths(row["score"]), row)
                    self.assertLessEqual(float(row["time_s"]), 12.0, row)


if __name__ == "__main__":
    unittest.main(verbosity=2)

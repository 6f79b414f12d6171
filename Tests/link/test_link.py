# SPDX-License-Identifier: MIT
"""Several clocks on one real broker (Debian's mosquitto, started here on a free loopback port
with its own config): a leader and two followers run one workout with a pause, next and lap,
and every displayed second of the three is recorded from their `subscribe` streams; then the
faults: the leader killed and restarted, the broker stopped and started, a follower started
mid-workout, wrong credentials, no broker there. Run by Tests/scripts/test-link.sh.
"""

import ctypes
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD = os.environ.get("WODCLOCK_BUILD", os.path.join(ROOT, ".build", "debug"))

sys.path.insert(0, os.path.join(ROOT, "Tests", "support"))
from polling import wait_until  # noqa: E402

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
SPEED = 4

# Missing, a tool is a failure and not a skip: a suite that skips itself on a machine without
# the broker would pass having checked nothing. `make test` installs them.
_missing = [tool for tool, there in (
    ("mosquitto", os.path.exists(MOSQUITTO)), ("mosquitto_pub", shutil.which("mosquitto_pub")),
    ("mosquitto_sub", shutil.which("mosquitto_sub")), ("openssl", shutil.which("openssl")))
    if not there]
if _missing:
    sys.exit(f"test_link.py: not installed: {', '.join(_missing)}\n"
             "hint: apt-get install mosquitto mosquitto-clients openssl (make test installs them)")


class Timex(ctypes.Structure):
    """struct timex of adjtimex(2) on 64-bit Linux (x86_64, aarch64)."""
    _fields_ = [("modes", ctypes.c_uint), ("offset", ctypes.c_long), ("freq", ctypes.c_long),
                ("maxerror", ctypes.c_long), ("esterror", ctypes.c_long),
                ("status", ctypes.c_int), ("constant", ctypes.c_long),
                ("precision", ctypes.c_long), ("tolerance", ctypes.c_long),
                ("time_sec", ctypes.c_long), ("time_usec", ctypes.c_long), ("tick", ctypes.c_long),
                ("ppsfreq", ctypes.c_long), ("jitter", ctypes.c_long), ("shift", ctypes.c_int),
                ("stabil", ctypes.c_long), ("jitcnt", ctypes.c_long), ("calcnt", ctypes.c_long),
                ("errcnt", ctypes.c_long), ("stbcnt", ctypes.c_long), ("tai", ctypes.c_int),
                ("reserved", ctypes.c_int * 11)]


ADJ_MAXERROR, ADJ_ESTERROR, ADJ_STATUS, STA_UNSYNC = 0x0004, 0x0008, 0x0010, 0x0040
libc = ctypes.CDLL(None, use_errno=True)


def kernel_clock(synchronized=None):
    """Reads the kernel's NTP status and, given `synchronized`, sets it as a time daemon does
    (chrony clears STA_UNSYNC once it has a source): returns whether it was synchronized."""
    timex = Timex()
    state = libc.adjtimex(ctypes.byref(timex))
    was = state != 5 and not timex.status & STA_UNSYNC  # 5: TIME_ERROR
    if synchronized is not None:
        timex.modes = ADJ_STATUS | ADJ_MAXERROR | ADJ_ESTERROR
        timex.status = timex.status & ~STA_UNSYNC if synchronized else timex.status | STA_UNSYNC
        timex.maxerror, timex.esterror = (1000, 100) if synchronized else (16_000_000, 16_000_000)
        if libc.adjtimex(ctypes.byref(timex)) < 0:
            raise OSError(ctypes.get_errno(), "adjtimex")
    return was


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Broker:
    """mosquitto on 127.0.0.1:port with its own config; users and an ACL when given."""

    def __init__(self, directory, port=None, users=None):
        self.directory = directory
        self.port = port or free_port()
        self.users = users
        self.process = None

    def start(self):
        config = os.path.join(self.directory, "mosquitto.conf")
        # Run as root, mosquitto would change to its own user, who cannot read this
        # directory: it stays who started it.
        lines = [f"listener {self.port} 127.0.0.1", "persistence false", "user root",
                 f"log_dest file {os.path.join(self.directory, 'mosquitto.log')}"]
        if self.users:
            passwords = os.path.join(self.directory, "passwords")
            open(passwords, "w").close()
            for user, password in self.users.items():
                subprocess.run(["mosquitto_passwd", "-b", passwords, user, password], check=True,
                               capture_output=True)
            acl = os.path.join(self.directory, "acl")
            with open(acl, "w") as f:
                for user in self.users:
                    f.write(f"user {user}\ntopic readwrite wodclock/#\ntopic readwrite homeassistant/#\n")
            lines += ["allow_anonymous false", f"password_file {passwords}", f"acl_file {acl}"]
        else:
            lines.append("allow_anonymous true")
        with open(config, "w") as f:
            f.write("\n".join(lines) + "\n")
        self.process = subprocess.Popen([MOSQUITTO, "-c", config], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        wait_until(self._listening, what="mosquitto to listen")
        return self

    def _listening(self):
        try:
            socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
            return True
        except OSError:
            return False

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


CONFIG = """\
defaults:
  preset: drill
  count_in: 3s
presets:
  drill:
    mode: intervals
    work: 20s
    rest: 10s
    rounds: 4
outputs:
  - type: log
mqtt:
  broker: "127.0.0.1:{port}"
  room: {room}
  role: {role}
  client_id: {name}
  lead: 1s
{extra}"""


class Clock:
    """One wodclockd on the broker, its subscribe stream recorded: (monotonic, display)."""

    def __init__(self, directory, name, role, port, room="hall", extra=""):
        self.name = name
        self.directory = os.path.join(directory, name)
        os.makedirs(self.directory, exist_ok=True)
        self.config = os.path.join(self.directory, "wodclock.yaml")
        with open(self.config, "w") as f:
            f.write(CONFIG.format(port=port, room=room, role=role, name=name, extra=extra))
        self.socket = os.path.join(self.directory, "wodclockd.sock")
        self.log_path = os.path.join(self.directory, "daemon.log")
        self.process = None
        self.changes = []
        self.lock = threading.Lock()

    def start(self):
        ready_before = self.log().count("info: ready ") if os.path.exists(self.log_path) else 0
        log = open(self.log_path, "ab")
        self.process = subprocess.Popen(
            [os.path.join(BUILD, "wodclockd"), "--config", self.config, "--socket", self.socket,
             "--state-dir", os.path.join(self.directory, "state"), "--speed", str(SPEED)],
            stdin=subprocess.DEVNULL, stdout=log, stderr=log, env={"PATH": "/usr/bin:/bin"})
        log.close()
        # A restart after kill -9 finds the old socket still there: the new daemon's own
        # "ready" line says it listens.
        wait_until(lambda: self.log().count("info: ready ") > ready_before
                   or self.process.poll() is not None, what=f"{self.name} to be ready")
        if self.process.poll() is not None:
            raise AssertionError(f"{self.name} exited {self.process.returncode}:\n{self.log()}")
        threading.Thread(target=self._record, daemon=True).start()
        return self

    def _record(self):
        try:
            with socket.socket(socket.AF_UNIX) as client:
                client.connect(self.socket)
                client.sendall(b'{"cmd":"subscribe"}\n')
                with client.makefile("r") as stream:
                    self._read(stream)
        except (OSError, ValueError):
            pass

    def _read(self, stream):
        last = None
        for line in stream:
            event = json.loads(line)
            status = event.get("status")
            if event.get("event") != "status" and status is None:
                continue
            display = (status or {}).get("display")
            if display is not None and display != last:
                with self.lock:
                    self.changes.append((time.monotonic(), display, status.get("state")))
                last = display

    def log(self):
        with open(self.log_path, errors="replace") as f:
            return f.read()

    def ctl(self, *arguments):
        done = subprocess.run([os.path.join(BUILD, "wodclockctl"), "--socket", self.socket]
                              + list(arguments), capture_output=True, text=True, timeout=20)
        return done.returncode, done.stdout + done.stderr

    def status(self):
        code, out = self.ctl("--json", "status")
        assert code == 0, out
        value = json.loads(out)
        return value.get("status", value)

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def just_after_a_change(self, timeout=5.0):
        """Returns just after this clock's displayed second changed. A press made then is a
        whole displayed second (250 ms at --speed 4) from the next change, so the other clocks
        hear of it before they would show another second: a press that lands a few
        milliseconds before a change is seen by the others that much later, after they showed
        the old second's successor (the broker's delivery time, which only a start's lead
        hides)."""
        with self.lock:
            seen = len(self.changes)
        wait_until(lambda: len(self.changes) > seen, timeout=timeout, interval=0.002,
                   what=f"a displayed second to change on {self.name}")

    def displays_between(self, start, end):
        with self.lock:
            return [(t, d) for t, d, _ in self.changes if start <= t <= end]


def same_display(clocks, timeout=5.0):
    """Waits until every clock shows the same state and display; returns it."""
    def agree():
        shown = {(c.status().get("state"), c.status().get("display")) for c in clocks}
        return shown.pop() if len(shown) == 1 else None
    return wait_until(agree, timeout=timeout, interval=0.05, what="the clocks to agree")


def spread(clocks, start, end):
    """For each displayed value the clocks all changed to in [start, end], how far apart in
    time they changed to it; the values only some clocks showed."""
    seen = [dict((d, t) for t, d in reversed(c.displays_between(start, end))) for c in clocks]
    common = set(seen[0]).intersection(*seen[1:])
    spreads = sorted(max(s[d] for s in seen) - min(s[d] for s in seen) for d in common)
    return spreads, common


def setUpModule():
    # Followers follow only on a synchronized wall clock (chrony's job on a Pi). A machine
    # without a time daemon is marked synchronized for the tests, as chrony would, and put
    # back after.
    global restore_unsynchronized
    restore_unsynchronized = False
    if not kernel_clock():
        if os.geteuid() != 0:
            raise unittest.SkipTest("the wall clock is not synchronized, and marking it so needs root")
        kernel_clock(synchronized=True)
        restore_unsynchronized = True


def tearDownModule():
    if restore_unsynchronized:
        kernel_clock(synchronized=False)


class Room(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.mkdtemp(prefix="wodclock-link-")
        self.broker = Broker(self.directory).start()
        self.clocks = []

    def tearDown(self):
        for clock in self.clocks:
            clock.stop()
        self.broker.stop()
        if self._outcome.success if hasattr(self._outcome, "success") else True:
            shutil.rmtree(self.directory, ignore_errors=True)

    def clock(self, name, role, **kwargs):
        clock = Clock(self.directory, name, role, self.broker.port, **kwargs).start()
        self.clocks.append(clock)
        return clock

    def running_leader_and_follower(self):
        """A leader and a follower that agree, the leader started and the follower running."""
        leader = self.clock("leader", "leader")
        follower = self.clock("lane-1", "follower")
        same_display([leader, follower])
        self.assertEqual(leader.ctl("start")[0], 0)
        wait_until(lambda: follower.status()["state"] == "running", what="the follower to run")
        return leader, follower

    def dump(self):
        return "\n".join(f"--- {c.name}\n{c.log()[-3000:]}" for c in self.clocks)

    def test_one_workout_on_three_clocks_with_pause_next_and_lap(self):
        leader = self.clock("leader", "leader")
        followers = [self.clock("lane-1", "follower"), self.clock("lane-2", "follower")]
        clocks = [leader] + followers
        same_display(clocks)
        began = time.monotonic()
        # Started from a follower's socket: the command goes to the leader over the broker,
        # and the start takes effect a second later on all three.
        code, out = followers[0].ctl("start")
        self.assertEqual(code, 0, out)
        wait_until(lambda: all(c.status()["state"] == "running" for c in clocks), timeout=5,
                   what="all three to run\n" + self.dump())
        time.sleep(3)
        leader.just_after_a_change()
        self.assertEqual(followers[1].ctl("pause")[0], 0)
        state = same_display(clocks)
        self.assertEqual(state[0], "paused", self.dump())
        time.sleep(1)
        self.assertEqual(same_display(clocks), state, "paused, the second stands still")
        self.assertEqual(leader.ctl("resume")[0], 0)
        time.sleep(2)
        leader.just_after_a_change()
        self.assertEqual(followers[0].ctl("next")[0], 0)
        time.sleep(1)
        leader.just_after_a_change()
        self.assertEqual(followers[1].ctl("lap")[0], 0)
        wait_until(lambda: all(c.status().get("laps") == leader.status().get("laps") and
                               c.status().get("laps") for c in clocks),
                   what="the lap on every clock\n" + self.dump())
        # The two-minute workout (at --speed 4, half a minute) runs to its end on all three.
        wait_until(lambda: all(c.status()["state"] == "finished" for c in clocks), timeout=60,
                   interval=0.5, what="the workout to finish on every clock\n" + self.dump())
        ended = time.monotonic()
        sequences = [[d for _, d in c.displays_between(began, ended)] for c in clocks]
        self.assertEqual(sequences[1], sequences[0], "a follower showed other seconds")
        self.assertEqual(sequences[2], sequences[0], "a follower showed other seconds")
        spreads, common = spread(clocks, began, ended)
        self.assertGreater(len(common), 10, self.dump())
        # Each displayed second changed on the three within a small part of a second: a clock
        # a whole second off would show here (at --speed 4, a second is 250 ms).
        self.assertLess(spreads[-1], 0.125, f"spreads {spreads}")
        print(f"link spread over {len(spreads)} changes: p50 {spreads[len(spreads) // 2] * 1e3:.1f} ms,"
              f" max {spreads[-1] * 1e3:.1f} ms", file=sys.stderr)

    def test_the_leader_killed_and_restarted(self):
        leader, follower = self.running_leader_and_follower()
        time.sleep(1)
        leader.kill()
        # Its last will: the follower says the leader is offline and keeps running the plan.
        wait_until(lambda: (follower.status().get("link") or {}).get("sign") == "leader offline",
                   timeout=10, what="the follower to say the leader is offline\n" + self.dump())
        before = follower.status()["display"]
        time.sleep(1)
        self.assertEqual(follower.status()["state"], "running")
        self.assertNotEqual(follower.status()["display"], before, "the follower keeps counting")
        leader.start()
        # The leader resumes from its saved state and the follower converges on it.
        same_display([leader, follower], timeout=5)
        wait_until(lambda: "sign" not in (follower.status().get("link") or {}),
                   what="the sign to go\n" + self.dump())
        self.assertEqual(leader.status()["state"], "running")

    def test_the_broker_stopped_and_started_again(self):
        leader, follower = self.running_leader_and_follower()
        self.broker.stop()
        wait_until(lambda: (follower.status().get("link") or {}).get("sign") == "broker unreachable",
                   timeout=10, what="the follower to say the broker is gone\n" + self.dump())
        # Both keep running what they knew, on the same second.
        time.sleep(2)
        same_display([leader, follower], timeout=1)
        self.assertEqual(leader.ctl("pause")[0], 0)  # the leader's own press, while cut off
        time.sleep(18)  # 20 s without a broker in all
        self.broker.start()
        back = time.monotonic()
        same_display([leader, follower], timeout=10)
        converged = time.monotonic() - back
        self.assertEqual(follower.status()["state"], "paused", self.dump())
        # Reconnected on a backoff of at most a second: the room agrees again at once, not at
        # a retry half a minute later.
        self.assertLess(converged, 5, self.dump())
        print(f"converged {converged:.2f} s after the broker came back", file=sys.stderr)

    def test_a_follower_started_mid_workout_shows_the_right_place_at_once(self):
        leader = self.clock("leader", "leader")
        self.assertEqual(leader.ctl("start")[0], 0)
        wait_until(lambda: leader.status()["state"] == "running", what="the leader to run")
        time.sleep(3)
        follower = self.clock("late", "follower")
        same_display([leader, follower], timeout=3)

    def test_a_follower_whose_clock_is_not_synchronized_says_so(self):
        if not restore_unsynchronized:
            self.skipTest("the wall clock is kept by a time daemon here: not touched")
        leader = self.clock("leader", "leader")
        follower = self.clock("lane-1", "follower")
        same_display([leader, follower])
        kernel_clock(synchronized=False)
        try:
            wait_until(lambda: (follower.status().get("link") or {}).get("sign")
                       == "clock not synchronized", timeout=10, what="the sign\n" + self.dump())
            # The leader's start reaches it only once its clock is synchronized again.
            self.assertEqual(leader.ctl("start")[0], 0)
            time.sleep(1.5)
            self.assertEqual(follower.status()["state"], "idle")
        finally:
            kernel_clock(synchronized=True)
        same_display([leader, follower], timeout=10)

    def test_rooms_on_one_broker_do_not_see_each_other(self):
        hall = self.clock("hall", "leader", room="hall")
        annex = self.clock("annex", "leader", room="annex")
        annex_follower = self.clock("annex-lane", "follower", room="annex")
        same_display([annex, annex_follower])
        self.assertEqual(hall.ctl("start")[0], 0)
        wait_until(lambda: hall.status()["state"] == "running", what="the hall to run")
        time.sleep(1.5)
        self.assertEqual(annex_follower.status()["state"], "idle")

    def test_a_broker_named_by_its_host_name_is_looked_up(self):
        name = socket.gethostname()
        try:
            socket.getaddrinfo(name, self.broker.port, socket.AF_INET)
        except OSError:
            self.skipTest(f"this machine's name {name} does not resolve")
        clock = Clock(self.directory, "named", "leader", self.broker.port)
        with open(clock.config) as f:
            text = f.read().replace('"127.0.0.1:', f'"{name}:')
        with open(clock.config, "w") as f:
            f.write(text)
        self.clocks.append(clock.start())
        wait_until(lambda: f"connected to the MQTT broker broker={name}:" in clock.log(),
                   what="a connection through the name\n" + self.dump())

    def test_a_second_leader_in_the_room_does_not_take_it_over(self):
        leader, follower = self.clock("leader", "leader"), self.clock("lane-1", "follower")
        same_display([leader, follower])
        self.assertEqual(leader.ctl("run", "amrap", "14", "--start")[0], 0)
        wait_until(lambda: follower.status()["state"] == "running"
                   and follower.status().get("preset") == "amrap 14",
                   what="the follower to run the AMRAP\n" + self.dump())
        # A second Pi left at the default role, in the same room, with its idle intervals.
        newcomer = self.clock("gym-pi", "leader")
        link = wait_until(lambda: (lambda l: l if l.get("conflict") else None)(
            newcomer.status().get("link") or {}), what="the newcomer to give way\n" + self.dump())
        self.assertEqual(link["conflict"]["leader"], "leader")
        self.assertFalse(link["leading"])
        self.assertEqual(link["standing"], "following")
        code, out = newcomer.ctl("status")
        self.assertIn("not leading: leader leads", out)
        self.assertIn("another clock leads the room", newcomer.log())
        # It follows the room's workout; the follower never switched to it.
        same_display([leader, follower, newcomer])
        self.assertEqual(follower.status().get("preset"), "amrap 14")
        self.assertEqual(follower.status()["state"], "running")
        newcomer.stop()
        self.clocks.remove(newcomer)
        # What Home Assistant reads: each clock's own availability; the leader stays online.
        available = wait_until(lambda: (lambda m: m if m.get(
            "wodclock/hall/clock/gym-pi/available") == "offline" else None)(
            retained(self.broker.port, "wodclock/hall/clock/+/available")),
            what="the newcomer's offline")
        self.assertEqual(available["wodclock/hall/clock/leader/available"], "online")
        self.assertEqual(retained(self.broker.port, "wodclock/hall/leader/claim") and
                         json.loads(retained(self.broker.port, "wodclock/hall/leader/claim")[
                             "wodclock/hall/leader/claim"])["client"], "leader")
        # The follower has seen the newcomer leave once a press of the leader's, published
        # after the newcomer's will, has reached it: it shows no sign, and the AMRAP runs on.
        laps = follower.status()["laps"]
        self.assertEqual(leader.ctl("lap")[0], 0)
        wait_until(lambda: follower.status()["laps"] == laps + 1,
                   what="the follower to see the leader's lap\n" + self.dump())
        self.assertNotIn("sign", follower.status().get("link") or {}, self.dump())
        self.assertEqual(follower.status().get("preset"), "amrap 14")
        print(f"after the impostor left: {available}", file=sys.stderr)

    def test_two_clocks_with_one_client_id_say_so_and_do_not_fight(self):
        twins = []
        for name in ("twin-a", "twin-b"):
            clock = Clock(self.directory, name, "follower", self.broker.port)
            with open(clock.config) as f:
                text = f.read().replace(f"client_id: {name}", "client_id: twin")
            with open(clock.config, "w") as f:
                f.write(text)
            twins.append(clock.start())
            self.clocks.append(clock)
        said = "another client uses the client id 'twin' on the MQTT broker"
        wait_until(lambda: any(said in c.log() for c in twins), timeout=20,
                   what="the clash to be said\n" + self.dump())
        clashed = next(c for c in twins if said in c.log())
        self.assertIn("give each clock its own `mqtt: client_id:`", clashed.log())
        self.assertEqual(clashed.log().count(said), 1, "said once")
        self.assertTrue(clashed.status()["link"]["client_id_clash"])
        self.assertIn("client id twin used twice", clashed.ctl("status")[1])

        # It does not fight: it waits the clash's 30 s before trying again (the wait the
        # daemon says it chose), while the other twin keeps the connection.
        link = wait_until(lambda: (lambda l: l if l.get("retry_wait_s") else None)(
            clashed.status()["link"]), what="the clashed twin to wait\n" + self.dump())
        self.assertGreaterEqual(link["retry_wait_s"], 30, self.dump())
        stats = [json.loads(c.ctl("--json", "stats")[1]) for c in twins]
        connections = [s["link_connections"] for s in stats]
        take_overs = [s["link_client_id_take_overs"] for s in stats]
        print(f"client id clash: connections {connections}, take-overs {take_overs}, "
              f"next attempt after {link['retry_wait_s']} s", file=sys.stderr)
        self.assertLessEqual(sum(take_overs), 4, f"{stats}\n" + self.dump())

    def test_oversized_and_malformed_messages_are_counted_and_said_once(self):
        leader, follower = self.clock("leader", "leader"), self.clock("lane-1", "follower")
        same_display([leader, follower])
        big = os.path.join(self.directory, "big")
        with open(big, "wb") as f:
            f.write(b"{" + b" " * (256 * 1024 + 1) + b"}")
        port = str(self.broker.port)
        for _ in range(2):
            subprocess.run(["mosquitto_pub", "-h", "127.0.0.1", "-p", port, "-q", "1", "-t",
                            "wodclock/hall/state", "-f", big], check=True)
            publish(self.broker.port, "wodclock/hall/state", "not a state")
            publish(self.broker.port, "wodclock/hall/leader/claim", "{\"v\": 1}")

        def stats():
            return json.loads(follower.ctl("--json", "stats")[1])
        wait_until(lambda: stats()["link_dropped_oversized"] == 2
                   and stats()["link_dropped_malformed"] == 4,
                   what="the drops counted\n" + json.dumps(stats()) + self.dump())
        self.assertEqual(follower.log().count("larger than 256 KiB was dropped"), 1)
        self.assertEqual(follower.log().count("cannot be read"), 1, "said once")
        # The follower still follows its leader.
        self.assertEqual(leader.ctl("start")[0], 0)
        wait_until(lambda: follower.status()["state"] in ("countin", "running"),
                   what="the follower to follow still\n" + self.dump())

    def test_no_broker_there_and_the_clock_still_runs(self):
        port = free_port()
        lonely = Clock(self.directory, "lonely", "leader", port).start()
        self.clocks.append(lonely)
        self.assertEqual(lonely.ctl("start")[0], 0)
        wait_until(lambda: lonely.status()["state"] == "running", timeout=5,
                   what="a leader without its broker to start by itself\n" + self.dump())
        wait_until(lambda: "MQTT broker is not reachable" in lonely.log(), what="the log to say so")
        self.assertEqual(lonely.log().count("MQTT broker is not reachable"), 1, "said once")


def make_certificates(directory):
    """A gym's own CA and a broker certificate it signed for 127.0.0.1, by openssl."""
    def run(*arguments):
        subprocess.run(["openssl"] + list(arguments), check=True, capture_output=True,
                       cwd=directory)
    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem",
        "-days", "2", "-subj", "/CN=gym CA")
    run("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "broker.key", "-out", "broker.csr",
        "-subj", "/CN=127.0.0.1")
    with open(os.path.join(directory, "san"), "w") as f:
        f.write("subjectAltName=IP:127.0.0.1\n")
    run("x509", "-req", "-in", "broker.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
        "-CAcreateserial", "-out", "broker.pem", "-days", "2", "-extfile", "san")


class TLS(unittest.TestCase):
    def test_the_gyms_own_ca_is_trusted_and_the_systems_is_not_fooled(self):
        directory = tempfile.mkdtemp(prefix="wodclock-link-")
        make_certificates(directory)
        port = free_port()
        config = os.path.join(directory, "mosquitto.conf")
        with open(config, "w") as f:
            f.write(f"listener {port} 127.0.0.1\nuser root\nallow_anonymous true\n"
                    f"cafile {directory}/ca.pem\ncertfile {directory}/broker.pem\n"
                    f"keyfile {directory}/broker.key\n")
        broker = subprocess.Popen([MOSQUITTO, "-c", config], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
        clocks = []
        try:
            wait_until(lambda: Broker(directory, port)._listening(), what="mosquitto over TLS")
            trusting = Clock(directory, "own-ca", "leader", port,
                             extra=f"  tls: {{ca_file: {directory}/ca.pem}}\n").start()
            clocks.append(trusting)
            system = Clock(directory, "system-ca", "leader", port, extra="  tls: true\n").start()
            clocks.append(system)
            wait_until(lambda: "connected to the MQTT broker" in trusting.log(),
                       what="a TLS connection\n" + trusting.log())
            wait_until(lambda: "certificate verify failed" in system.log(),
                       what="the refused certificate\n" + system.log())
            self.assertNotIn("connected to the MQTT broker", system.log())
        finally:
            for clock in clocks:
                clock.stop()
            broker.terminate()
            broker.wait()
            shutil.rmtree(directory, ignore_errors=True)


def retained(port, topic_filter, seconds=1):
    """The retained messages under `topic_filter` now: {topic: payload}."""
    done = subprocess.run(["mosquitto_sub", "-h", "127.0.0.1", "-p", str(port), "-t", topic_filter,
                           "-v", "--retained-only", "-W", str(int(seconds))],
                          capture_output=True, text=True)
    messages = {}
    for line in done.stdout.splitlines():
        topic, _, payload = line.partition(" ")
        messages[topic] = payload
    return messages


def publish(port, topic, payload, retain=False):
    subprocess.run(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(port), "-t", topic, "-m", payload]
                   + (["-r"] if retain else []), check=True)


# The keys Home Assistant's MQTT integration documents per component (its docs' configuration
# variables, those a clock can use), and the ones each needs.
COMMON_KEYS = {"name", "unique_id", "object_id", "device", "availability_topic",
               "payload_available", "payload_not_available", "icon", "entity_category", "qos"}
COMPONENT_KEYS = {
    "button": ({"command_topic", "payload_press", "retain", "device_class"}, {"command_topic"}),
    "select": ({"command_topic", "options", "state_topic", "value_template", "retain"},
               {"command_topic", "options"}),
    "text": ({"command_topic", "state_topic", "value_template", "min", "max", "mode", "pattern",
              "retain"}, {"command_topic"}),
    "sensor": ({"state_topic", "value_template", "device_class", "unit_of_measurement",
                "expire_after", "json_attributes_topic", "state_class"}, {"state_topic"}),
    "binary_sensor": ({"state_topic", "value_template", "device_class", "payload_on",
                       "payload_off", "expire_after"}, {"state_topic"}),
    "event": ({"state_topic", "event_types", "value_template", "device_class"},
              {"state_topic", "event_types"}),
}


class HomeAssistant(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.mkdtemp(prefix="wodclock-link-")
        self.broker = Broker(self.directory).start()
        self.leader = Clock(self.directory, "front", "leader", self.broker.port,
                            extra="  home_assistant: true\n").start()

    def tearDown(self):
        self.leader.stop()
        self.broker.stop()
        shutil.rmtree(self.directory, ignore_errors=True)

    def test_discovery_follows_the_documented_schema_and_comes_back_on_birth(self):
        port = self.broker.port
        configs = wait_until(lambda: (lambda m: m if len(m) >= 14 else None)(
            retained(port, "homeassistant/#")), what="the discovery configs\n" + self.leader.log())
        kinds = {}
        for topic, payload in configs.items():
            prefix, component, node, object_id, last = topic.split("/")
            self.assertEqual((prefix, node, last), ("homeassistant", "front", "config"))
            config = json.loads(payload)
            allowed, required = COMPONENT_KEYS[component]
            self.assertLessEqual(set(config), COMMON_KEYS | allowed, topic)
            self.assertLessEqual(required | {"name", "unique_id", "device"}, set(config), topic)
            # The clock's own availability, the topic its last will is on.
            self.assertEqual(config["availability_topic"], "wodclock/hall/clock/front/available")
            kinds.setdefault(component, []).append(object_id)
        self.assertEqual(sorted(kinds["button"]), ["lap", "next", "reset", "start_pause"])
        self.assertEqual(kinds["select"], ["preset"])
        self.assertEqual(kinds["text"], ["workout"])
        self.assertIn("end", kinds["sensor"])
        self.assertEqual(retained(port, "wodclock/hall/clock/front/available"),
                         {"wodclock/hall/clock/front/available": "online"})
        # Home Assistant restarted with its retained configs lost: it says so, they come back.
        topic = "homeassistant/button/front/lap/config"
        publish(port, topic, "", retain=True)
        self.assertNotIn(topic, retained(port, "homeassistant/#"))
        publish(port, "homeassistant/status", "online")
        wait_until(lambda: topic in retained(port, "homeassistant/#", 1), what="the config again")

    def test_a_button_and_a_typed_workout_act_on_the_clock(self):
        port = self.broker.port
        wait_until(lambda: "connected to the MQTT broker" in self.leader.log(), what="connected")
        publish(port, "wodclock/hall/clock/front/ha/start_pause", "PRESS")
        wait_until(lambda: self.leader.status()["state"] == "running", timeout=5,
                   what="the button to start the clock\n" + self.leader.log())
        state = wait_until(lambda: (lambda m: json.loads(m[next(iter(m))]) if m else None)(
            retained(port, "wodclock/hall/clock/front/ha", 1)), what="the entities' state")
        self.assertIn(state["state"], ("countin", "running"))
        self.assertTrue(state["running"])
        publish(port, "wodclock/hall/clock/front/ha/reset", "PRESS")
        wait_until(lambda: self.leader.status()["state"] == "idle", what="the reset")
        publish(port, "wodclock/hall/clock/front/ha/workout", "amrap 7")
        wait_until(lambda: self.leader.status().get("preset") == "amrap 7", timeout=5,
                   what="the typed workout to load\n" + self.leader.log())
        self.assertEqual(self.leader.status()["mode"], "amrap")
        wait_until(lambda: self.leader.status()["state"] in ("countin", "running"), timeout=5,
                   what="the typed workout to start")
        # A press Home Assistant never sends is refused, and the clock goes on.
        publish(port, "wodclock/hall/clock/front/ha/lap", "PUSH")
        wait_until(lambda: "Home Assistant's command refused" in self.leader.log(), what="a refusal")

    def test_a_refused_command_is_said_where_home_assistant_reads_it(self):
        port = self.broker.port
        base = "wodclock/hall/clock/front/"
        wait_until(lambda: "leading the room" in self.leader.log(), what="leading")

        def read(topic):
            messages = retained(port, base + topic, 1)
            return json.loads(messages[base + topic]) if messages else None
        publish(port, base + "ha/workout", "amrap 7")
        wait_until(lambda: self.leader.status()["state"] in ("countin", "running"),
                   what="the typed workout to start\n" + self.leader.log())
        wait_until(lambda: (read("ha_result") or {}).get("result") == "accepted",
                   what="the accepted result")
        # The 6 pm class's workout, sent while another runs: refused, and Home Assistant reads
        # why; its text still shows the workout loaded; its select is an option or None.
        publish(port, base + "ha/workout", "emom 10")
        result = wait_until(lambda: (lambda r: r if r and r["result"] == "refused" else None)(
            read("ha_result")), what="the refusal\n" + self.leader.log())
        self.assertIn("'amrap 7' is running", result["text"])
        self.assertTrue(result["text"].startswith("refused: "))
        state = read("ha")
        self.assertEqual(state["workout"], "amrap 7")
        self.assertEqual(state["option"], "None")
        self.assertEqual(self.leader.status().get("preset"), "amrap 7")
        # Back on a preset: the select shows it.
        publish(port, base + "ha/reset", "PRESS")
        wait_until(lambda: self.leader.status()["state"] == "idle", what="the reset")
        publish(port, base + "ha/preset", "drill")
        wait_until(lambda: (read("ha") or {}).get("option") == "drill",
                   what="the select on the preset\n" + self.leader.log())


class Credentials(unittest.TestCase):
    def test_right_and_wrong_passwords(self):
        directory = tempfile.mkdtemp(prefix="wodclock-link-")
        broker = Broker(directory, users={"front": "chalk-and-rings"}).start()
        clocks = []
        try:
            for name, password in (("right", "chalk-and-rings"), ("wrong", "nope")):
                path = os.path.join(directory, f"{name}.password")
                with open(path, "w") as f:
                    f.write(password + "\n")
                os.chmod(path, 0o600)
                clocks.append(Clock(directory, name, "leader", broker.port,
                                    extra=f"  username: front\n  password_file: {path}\n").start())
            right, wrong = clocks
            wait_until(lambda: "connected to the MQTT broker" in right.log(), what="a connection")
            wait_until(lambda: "not reachable" in wrong.log(), what="the refusal")
            self.assertIn("password", wrong.log())
            self.assertEqual(wrong.status()["state"], "idle")
        finally:
            for clock in clocks:
                clock.stop()
            broker.stop()
            shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    unittest.main(verbosity=2)

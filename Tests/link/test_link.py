# SPDX-License-Identifier: MIT
"""Clocks on one real broker (Debian's mosquitto, started here on a free loopback port with its
own config): what needs the real parts. A leader and two followers run one workout and show the
same seconds (mosquitto delivers, the real daemons place the leader's instants on their own
clocks); TLS with the gym's own CA and the system's; a broker named by its host name, looked up
in the daemon's child; a password file and the broker's refusal. Every behaviour of the link on
its own (faults, signs, one leader a room, the client id clash, dropped messages, Home
Assistant) is tested in-process on manual time (Tests/DaemonTests/LinkInProcessTests.swift),
and the spread of the clocks' second changes is `wodclock-bench sync`'s figure. Run by
Tests/scripts/test-link.sh.
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

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def displays_between(self, start, end):
        with self.lock:
            return [(t, d) for t, d, _ in self.changes if start <= t <= end]


def same_display(clocks, timeout=5.0):
    """Waits until every clock shows the same state and display; returns it."""
    def agree():
        shown = {(c.status().get("state"), c.status().get("display")) for c in clocks}
        return shown.pop() if len(shown) == 1 else None
    return wait_until(agree, timeout=timeout, interval=0.05, what="the clocks to agree")


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

    def dump(self):
        return "\n".join(f"--- {c.name}\n{c.log()[-3000:]}" for c in self.clocks)

    def test_one_workout_on_three_clocks(self):
        leader = self.clock("leader", "leader")
        followers = [self.clock("lane-1", "follower"), self.clock("lane-2", "follower")]
        clocks = [leader] + followers
        same_display(clocks)
        began = time.monotonic()
        # Started from a follower's socket: the command goes to the leader over the broker,
        # and the start takes effect a second later on all three. Nothing is pressed while it
        # runs: a press reaches the others a delivery later, which the in-process tests make
        # exact and this one would only race.
        code, out = followers[0].ctl("start")
        self.assertEqual(code, 0, out)
        # The two-minute workout (at --speed 4, half a minute) runs to its end on all three.
        wait_until(lambda: all(c.status()["state"] == "finished" for c in clocks), timeout=90,
                   interval=0.5, what="the workout to finish on every clock\n" + self.dump())
        ended = time.monotonic()
        sequences = [[d for _, d in c.displays_between(began, ended)] for c in clocks]
        self.assertGreater(len(sequences[0]), 20, self.dump())
        self.assertEqual(sequences[1], sequences[0], "a follower showed other seconds")
        self.assertEqual(sequences[2], sequences[0], "a follower showed other seconds")

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

# SPDX-License-Identifier: MIT
"""What the web tests share: the real wodclockd with its web server, plain HTTP clients, and
Debian's headless Chromium driven over the DevTools protocol (python3-websocket).

Nothing here fakes the daemon or the browser: the tests start the binaries `swift build` made
and a real Chromium, and read what they show.
"""

import base64
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BUILD = os.environ.get("WODCLOCK_BUILD", os.path.join(ROOT, ".build", "debug"))

sys.path.insert(0, os.path.join(ROOT, "Tests", "support"))
from polling import wait_until  # noqa: E402  (the web suites take it from here)

PIN = "482193"


class Daemon:
    """One wodclockd in a temporary directory with the web interface on a free loopback port."""

    def __init__(self, config=None, pin=PIN, listen="127.0.0.1:0", extra_args=(), tz="UTC",
                 web_extra=""):
        self.directory = tempfile.mkdtemp(prefix="wodclock-web-")
        self.config_path = os.path.join(self.directory, "wodclock.yaml")
        self.socket_path = os.path.join(self.directory, "wodclockd.sock")
        self.log_path = os.path.join(self.directory, "daemon.log")
        self.state_directory = os.path.join(self.directory, "state")
        web = (f'web:\n  listen: "{listen}"\n' + (f'  pin: "{pin}"\n' if pin else "")
               + web_extra)
        with open(self.config_path, "w") as f:
            f.write((config or DEFAULT_CONFIG) + web)
        self.extra_args = list(extra_args)
        self.tz = tz
        self.process = None
        self.address = None

    def start(self):
        self.log_offset = os.path.getsize(self.log_path) if os.path.exists(self.log_path) else 0
        log = open(self.log_path, "ab")
        self.process = subprocess.Popen(
            [os.path.join(BUILD, "wodclockd"), "--config", self.config_path,
             "--socket", self.socket_path, "--state-dir", self.state_directory]
            + self.extra_args,
            stdin=subprocess.DEVNULL, stdout=log, stderr=log,
            env={"PATH": "/usr/bin:/bin", "TZ": self.tz})
        log.close()
        self.address = wait_until(self._announced_address, what="'web interface ready' in the log")
        host, port = self.address.rsplit(":", 1)
        self.host, self.port = host.strip("[]"), int(port)
        return self

    def _announced_address(self):
        if self.process.poll() is not None:
            raise AssertionError(f"wodclockd exited with {self.process.returncode}:\n{self.log()}")
        match = re.search(r"web interface ready .*address=(\S+)", self.log()[self.log_offset:])
        return match.group(1) if match else None

    def restart(self):
        """Stops the daemon (SIGTERM) and starts it again on the same files and state."""
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=10)
        return self.start()

    def log(self):
        with open(self.log_path, errors="replace") as f:
            return f.read()

    @property
    def origin(self):
        return f"http://{self.address}"

    def url(self, path):
        return self.origin + path

    def ctl(self, *arguments):
        """Runs wodclockctl against this daemon; returns (exit status, stdout)."""
        done = subprocess.run(
            [os.path.join(BUILD, "wodclockctl"), "--socket", self.socket_path] + list(arguments),
            capture_output=True, text=True, timeout=20)
        return done.returncode, done.stdout

    def status(self):
        """The status object, asked over the control socket (not over HTTP)."""
        code, out = self.ctl("--json", "status")
        assert code == 0, out
        value = json.loads(out)
        return value.get("status", value)

    def freeze(self, on):
        """Stops the daemon (SIGSTOP: its connections stay open and say nothing, as on a dead
        network) or lets it go on (SIGCONT: it catches up with the real clock)."""
        self.process.send_signal(signal.SIGSTOP if on else signal.SIGCONT)

    def alive(self):
        return self.process.poll() is None

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.directory, ignore_errors=True)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


DEFAULT_CONFIG = """\
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
  tempo: "tempo 3110 6 x 4 rest 1:30"
  fran: "21-15-9 for time cap 10"
outputs:
  - type: log
"""


class Response:
    def __init__(self, status, headers, body):
        self.status = status
        self.headers = {k.lower(): v for k, v in headers}
        self.body = body

    def json(self):
        return json.loads(self.body)


def request(daemon, method, path, body=None, headers=None, cookie=None, timeout=10, source=None):
    """One HTTP/1.1 request on a fresh connection, from the loopback address `source` if given
    (127.0.0.x stand for the devices of a gym's network); returns a Response."""
    connection = http.client.HTTPConnection(
        daemon.host, daemon.port, timeout=timeout,
        source_address=(source, 0) if source else None)
    all_headers = dict(headers or {})
    if cookie:
        all_headers["Cookie"] = cookie
    if isinstance(body, (dict, list)):
        body = json.dumps(body).encode()
        all_headers.setdefault("Content-Type", "application/json")
    connection.request(method, path, body=body, headers=all_headers)
    response = connection.getresponse()
    result = Response(response.status, response.getheaders(), response.read())
    connection.close()
    return result


def sign_in(daemon, pin=PIN, source=None):
    """Signs in with the PIN; returns the Cookie header value for later requests."""
    response = request(daemon, "POST", "/api/login", {"pin": pin}, source=source)
    assert response.status == 200, (response.status, response.body)
    cookie = response.headers["set-cookie"].split(";", 1)[0]
    return cookie


def command(daemon, cookie, body, source=None):
    return request(daemon, "POST", "/api/command", body, cookie=cookie, source=source)


def raw_connection(daemon, source=None):
    return socket.create_connection((daemon.host, daemon.port), timeout=10,
                                    source_address=(source, 0) if source else None)


def connect(daemon, source):
    """A connection from `source` (a loopback address standing for a device on the LAN), or
    None when the server refused or closed it at once."""
    try:
        return raw_connection(daemon, source=source)
    except OSError:
        return None


def web_stats(daemon):
    """The `web` member of the daemon's `stats`."""
    return json.loads(daemon.ctl("--json", "stats")[1])["web"]


def open_streams(daemon, count=250, addresses=16):
    """`count` event streams from `addresses` loopback addresses (127.0.1.x), as many TVs and
    scripts would open them; those the server refused at once are left out."""
    opened = []
    for index in range(count):
        sock = connect(daemon, f"127.0.1.{1 + index % addresses}")
        if sock is None:
            continue
        try:
            sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        except OSError:
            sock.close()
            continue
        opened.append(sock)
    return opened


SLOW_HEADER = b"GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "


class SlowHeaders:
    """64 connections from four addresses, each sent one more byte of a header that never ends
    every second while the block runs: the slow client a bound on a request's arrival is for.
    `kept` holds every connection made; those the server closes drop out of the trickle."""

    def __init__(self, daemon, count=64):
        sources = [f"127.0.0.{n}" for n in range(2, 6)]
        self.kept = [s for s in (connect(daemon, sources[i % 4]) for i in range(count)) if s]
        self._live = list(self.kept)
        self._stop = threading.Event()
        self._sender = threading.Thread(target=self._trickle, daemon=True)

    def _trickle(self):
        position = 0
        while not self._stop.is_set():
            for sock in list(self._live):
                try:
                    sock.send(SLOW_HEADER[position % len(SLOW_HEADER):][:1])
                except OSError:
                    self._live.remove(sock)
            position += 1
            self._stop.wait(1)

    def __enter__(self):
        self._sender.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._sender.join()
        for sock in self.kept:
            sock.close()


class EventStream:
    """A Server-Sent Events client on a raw socket: parses events as the WHATWG spec says."""

    def __init__(self, daemon, last_event_id=None, source=None):
        self.sock = raw_connection(daemon, source=source)
        extra = f"Last-Event-ID: {last_event_id}\r\n" if last_event_id else ""
        self.sock.sendall(
            f"GET /api/events HTTP/1.1\r\nHost: {daemon.address}\r\n"
            f"Accept: text/event-stream\r\n{extra}\r\n".encode())
        self.buffer = b""
        head = self._read_until(b"\r\n\r\n")
        self.head = head.decode("latin-1")
        self.chunked = "chunked" in self.head.lower()
        self.raw = b""

    def _read_until(self, marker):
        while marker not in self.buffer:
            data = self.sock.recv(65536)
            if not data:
                raise EOFError("the stream closed")
            self.buffer += data
        head, self.buffer = self.buffer.split(marker, 1)
        return head

    def _fill(self):
        """Moves the next chunk of the body into self.raw."""
        if not self.chunked:
            data = self.buffer or self.sock.recv(65536)
            self.buffer = b""
            if not data:
                raise EOFError("the stream closed")
            self.raw += data
            return
        size_line = self._read_until(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            raise EOFError("the stream ended")
        while len(self.buffer) < size + 2:
            data = self.sock.recv(65536)
            if not data:
                raise EOFError("the stream closed")
            self.buffer += data
        self.raw += self.buffer[:size]
        self.buffer = self.buffer[size + 2:]

    def next_event(self, timeout=10):
        """The next event as a dict: event, id, data (parsed JSON when it is), or retry."""
        self.sock.settimeout(timeout)
        while True:
            normalized = self.raw.replace(b"\r\n", b"\n")
            if b"\n\n" in normalized:
                block, rest = normalized.split(b"\n\n", 1)
                self.raw = rest
                event = {"event": "message", "id": None, "data": []}
                for line in block.decode().split("\n"):
                    if line.startswith(":"):
                        continue
                    name, _, value = line.partition(":")
                    value = value[1:] if value.startswith(" ") else value
                    if name == "data":
                        event["data"].append(value)
                    elif name in ("event", "id", "retry"):
                        event[name] = value
                data = "\n".join(event["data"])
                try:
                    event["data"] = json.loads(data) if data else None
                except ValueError:
                    event["data"] = data
                return event
            self._fill()

    def next_of(self, kind, timeout=10):
        deadline = time.monotonic() + timeout
        while True:
            event = self.next_event(timeout=max(0.1, deadline - time.monotonic()))
            if event["event"] == kind:
                return event
            if time.monotonic() > deadline:
                raise AssertionError(f"no {kind} event within {timeout} s")

    def close(self):
        self.sock.close()


# --- Chromium over the DevTools protocol -------------------------------------------------------

def chromium_path():
    for candidate in ("/usr/bin/chromium", "/usr/bin/chromium-headless-shell"):
        if os.path.exists(candidate):
            return candidate
    return None


class Browser:
    """Debian's headless Chromium with one page, driven over the DevTools protocol."""

    def __init__(self, width=1920, height=1080, mobile=False, extra_args=()):
        import websocket  # python3-websocket

        self.profile = tempfile.mkdtemp(prefix="wodclock-chromium-")
        arguments = [
            chromium_path(), "--headless=new", "--no-sandbox", "--disable-gpu",
            "--no-first-run", "--no-default-browser-check", "--disable-extensions",
            "--disable-background-networking", "--disable-sync", "--mute-audio",
            "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
            "--autoplay-policy=no-user-gesture-required",
            f"--user-data-dir={self.profile}", "--remote-debugging-port=0",
            f"--window-size={width},{height}", "about:blank",
        ] + list(extra_args)
        self.process = subprocess.Popen(
            arguments, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, start_new_session=True)
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        def port_written():
            if not os.path.exists(port_file):
                return False
            with open(port_file) as f:
                return f.read().count("\n") >= 1
        wait_until(port_written, timeout=30, what="Chromium's DevTools port")
        with open(port_file) as f:
            port = int(f.read().split("\n")[0])
        targets = wait_until(lambda: self._page_targets(port), timeout=15,
                             what="Chromium's first page")
        self.ws = websocket.create_connection(
            targets[0]["webSocketDebuggerUrl"], timeout=30, suppress_origin=True)
        self.next_id = 0
        self.events = []
        self.send("Page.enable")
        self.send("Runtime.enable")
        self.send("Network.enable")
        # The page's own size, whatever the headless window's frame takes.
        self.send("Emulation.setDeviceMetricsOverride", width=width, height=height,
                  deviceScaleFactor=3 if mobile else 1, mobile=mobile)

    @staticmethod
    def _page_targets(port):
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/json/list")
            targets = json.loads(connection.getresponse().read())
        except OSError:
            return None
        finally:
            connection.close()
        return [t for t in targets if t.get("type") == "page"] or None

    def send(self, method, **params):
        self.next_id += 1
        wanted = self.next_id
        self.ws.send(json.dumps({"id": wanted, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") == wanted:
                if "error" in message:
                    raise AssertionError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)

    def navigate(self, url):
        self.send("Page.navigate", url=url)
        wait_until(lambda: self.evaluate("document.readyState") == "complete", timeout=20,
                   what=f"{url} to load")

    def evaluate(self, expression):
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True,
                           awaitPromise=True)
        if "exceptionDetails" in result:
            raise AssertionError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def offline(self, on):
        """Cuts the page off the network (the open event stream fails) or lets it back."""
        self.send("Network.emulateNetworkConditions", offline=on, latency=0,
                  downloadThroughput=-1, uploadThroughput=-1)

    def screenshot(self, path):
        data = self.send("Page.captureScreenshot", format="png")["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self):
        try:
            self.ws.close()
        except Exception:
            pass
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def query(text):
    return urllib.parse.quote(text, safe="")

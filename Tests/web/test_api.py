# SPDX-License-Identifier: MIT
"""The web interface's HTTP API against the real wodclockd: every route, the PIN and session
rules, cross-origin POSTs, oversized requests, hostile clients. Run by Tests/scripts/test-web.sh.
"""

import gzip
import json
import os
import socket
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from wodclock_web import (  # noqa: E402
    Daemon, EventStream, PIN, command, query, raw_connection, request, sign_in, wait_until)


class Routes(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.daemon = Daemon().start()
        cls.cookie = sign_in(cls.daemon)

    @classmethod
    def tearDownClass(cls):
        cls.daemon.stop()

    def test_pages_and_assets(self):
        for path in ("/", "/remote"):
            response = request(self.daemon, "GET", path)
            self.assertEqual(response.status, 200, path)
            self.assertTrue(response.headers["content-type"].startswith("text/html"), path)
            self.assertIn("default-src 'self'", response.headers["content-security-policy"])
            self.assertEqual(response.headers["x-content-type-options"], "nosniff")
            self.assertEqual(response.headers["x-frame-options"], "DENY")
        page = request(self.daemon, "GET", "/").body.decode()
        self.assertNotIn("<script>", page, "the CSP allows no inline script")
        for asset in ("/assets/style.css", "/assets/exercises.json"):
            response = request(self.daemon, "GET", asset)
            self.assertEqual(response.status, 200, asset)
            etag = response.headers["etag"]
            again = request(self.daemon, "GET", asset, headers={"If-None-Match": etag})
            self.assertEqual(again.status, 304, asset)
            self.assertEqual(again.body, b"")
        exercises = request(self.daemon, "GET", "/assets/exercises.json").json()
        self.assertEqual(len(exercises["exercises"]), 873)

    def test_pages_go_compressed_to_clients_that_take_gzip(self):
        sent = compressed = 0
        for path in ("/", "/remote", "/assets/style.css", "/assets/common.js",
                     "/assets/display.js", "/assets/remote.js", "/assets/exercises.json"):
            plain = request(self.daemon, "GET", path)
            self.assertNotIn("content-encoding", plain.headers, path)
            self.assertEqual(plain.headers["vary"], "Accept-Encoding", path)
            packed = request(self.daemon, "GET", path,
                             headers={"Accept-Encoding": "gzip, deflate, br"})
            self.assertEqual(packed.status, 200, path)
            self.assertEqual(packed.headers["content-encoding"], "gzip", path)
            self.assertEqual(packed.headers["vary"], "Accept-Encoding", path)
            self.assertEqual(packed.headers["content-type"], plain.headers["content-type"], path)
            # Python's own gzip reader: the bytes of the file, and fewer of them.
            self.assertEqual(gzip.decompress(packed.body), plain.body, path)
            self.assertLess(len(packed.body), len(plain.body) // 2, path)
            # Each coding has its own validator, and each revalidates on its own.
            self.assertNotEqual(packed.headers["etag"], plain.headers["etag"], path)
            again = request(self.daemon, "GET", path, headers={
                "Accept-Encoding": "gzip", "If-None-Match": packed.headers["etag"]})
            self.assertEqual(again.status, 304, path)
            sent += len(plain.body)
            compressed += len(packed.body)
        print(f"pages and catalogue: {sent} bytes, {compressed} compressed", file=sys.stderr)
        refused = request(self.daemon, "GET", "/assets/style.css",
                          headers={"Accept-Encoding": "gzip;q=0, identity"})
        self.assertNotIn("content-encoding", refused.headers)

    def test_unknown_routes_and_methods(self):
        self.assertEqual(request(self.daemon, "GET", "/nothing").status, 404)
        missing = request(self.daemon, "GET", "/api/nothing")
        self.assertEqual(missing.status, 404)
        self.assertEqual(missing.json()["error"]["code"], "not_found")
        wrong = request(self.daemon, "GET", "/api/command", cookie=self.cookie)
        self.assertEqual(wrong.status, 405)
        self.assertIn("POST", wrong.headers["allow"])
        self.assertEqual(request(self.daemon, "POST", "/", {"x": 1}).status, 405)

    def test_time_and_status_agree_with_the_socket(self):
        before = time.monotonic()
        value = request(self.daemon, "GET", "/api/time").json()
        self.assertTrue(value["ok"])
        self.assertIsInstance(value["server_ms"], float)
        status = request(self.daemon, "GET", "/api/status").json()
        self.assertTrue(status["ok"])
        socket_status = self.daemon.status()
        for key in ("state", "preset", "mode", "round", "rounds"):
            self.assertEqual(status["status"][key], socket_status[key], key)
        clock = status["clock"]
        self.assertGreaterEqual(clock["server_ms"], value["server_ms"])
        self.assertLess(clock["server_ms"] - value["server_ms"], (time.monotonic() - before) * 1000 + 1)
        self.assertIn("wall_ms", clock)
        self.assertIn("utc_offset_s", clock)
        face = status["face"]
        self.assertRegex(face["color"], r"^#[0-9a-f]{6}$")
        self.assertEqual(face["digits"], socket_status["display"])

    def test_session_route(self):
        anonymous = request(self.daemon, "GET", "/api/session").json()
        self.assertEqual((anonymous["remote"], anonymous["signed_in"]), (True, False))
        signed = request(self.daemon, "GET", "/api/session", cookie=self.cookie).json()
        self.assertTrue(signed["signed_in"])

    def test_reads_behind_the_session(self):
        for path in ("/api/presets", "/api/history", "/api/recent", "/api/schedule",
                     "/api/explain?text=amrap%2014"):
            refused = request(self.daemon, "GET", path)
            self.assertEqual(refused.status, 401, path)
            self.assertEqual(refused.json()["error"]["code"], "sign_in", path)
            allowed = request(self.daemon, "GET", path, cookie=self.cookie)
            self.assertEqual(allowed.status, 200, path)
            self.assertTrue(allowed.json()["ok"], path)
        presets = request(self.daemon, "GET", "/api/presets", cookie=self.cookie).json()
        self.assertEqual([p["name"] for p in presets["presets"]], ["emom", "tempo", "fran"])

    def test_explain(self):
        good = request(self.daemon, "GET", "/api/explain?text=" + query("21-15-9 for time cap 10"),
                       cookie=self.cookie).json()
        self.assertTrue(good["ok"])
        self.assertIn("explanation", good)
        bad = request(self.daemon, "GET", "/api/explain?text=" + query("amarp 12"),
                      cookie=self.cookie).json()
        self.assertFalse(bad["ok"])
        self.assertEqual(bad["error"]["code"], "not_a_workout")
        self.assertEqual(bad["error"]["column"], 1)
        self.assertEqual(bad["error"]["length"], 5)
        self.assertIn("amrap", bad["error"]["hint"])
        long = request(self.daemon, "GET", "/api/explain?text=" + "a" * 600, cookie=self.cookie)
        self.assertEqual(long.status, 400)

    def test_events_stream(self):
        stream = EventStream(self.daemon)
        try:
            self.assertIn("text/event-stream", stream.head)
            first = stream.next_event()
            self.assertEqual(first.get("retry"), "2000")
            status = stream.next_of("status")
            self.assertIsNotNone(status["id"])
            self.assertIn("clock", status["data"])
            heartbeat = stream.next_of("heartbeat", timeout=5)
            self.assertIn("server_ms", heartbeat["data"])
        finally:
            stream.close()


class Control(unittest.TestCase):
    def setUp(self):
        self.daemon = Daemon().start()

    def tearDown(self):
        self.daemon.stop()

    def test_commands_need_a_session_and_act_like_the_socket(self):
        refused = request(self.daemon, "POST", "/api/command", {"cmd": "start"})
        self.assertEqual(refused.status, 401)
        bogus = command(self.daemon, "wodclock_session=" + "0" * 32, {"cmd": "start"})
        self.assertEqual(bogus.status, 401)
        self.assertEqual(self.daemon.status()["state"], "idle")
        cookie = sign_in(self.daemon)
        started = command(self.daemon, cookie, {"cmd": "start", "id": 7})
        self.assertEqual(started.status, 200)
        reply = started.json()
        self.assertEqual(reply["id"], 7)
        self.assertTrue(reply["ok"])
        self.assertEqual(self.daemon.status()["state"], "running")
        busy = command(self.daemon, cookie, {"cmd": "load", "workout": "amrap 14"})
        self.assertEqual(busy.status, 409)
        self.assertEqual(busy.json()["error"]["code"], "busy")
        replaced = command(self.daemon, cookie,
                           {"cmd": "load", "workout": "amrap 14", "replace": True})
        self.assertEqual(replaced.status, 200)
        self.assertEqual(self.daemon.status()["workout"], "amrap 14")
        unknown = command(self.daemon, cookie, {"cmd": "fly"})
        self.assertEqual(unknown.status, 400)
        subscribe = command(self.daemon, cookie, {"cmd": "subscribe"})
        self.assertEqual(subscribe.status, 400)
        self.assertEqual(subscribe.json()["error"]["code"], "use_events")
        not_json = request(self.daemon, "POST", "/api/command", b"{not json",
                           headers={"Content-Type": "application/json"}, cookie=cookie)
        self.assertEqual(not_json.status, 400)
        out = request(self.daemon, "POST", "/api/logout", {}, cookie=cookie)
        self.assertEqual(out.status, 200)
        self.assertEqual(command(self.daemon, cookie, {"cmd": "pause"}).status, 401)

    def test_cross_origin_posts_are_refused(self):
        cookie = sign_in(self.daemon)
        for headers in ({"Origin": "http://evil.example"}, {"Origin": "null"},
                        {"Origin": f"http://{self.daemon.host}:{self.daemon.port + 1}"},
                        {"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"}):
            response = request(self.daemon, "POST", "/api/command", {"cmd": "start"},
                               headers=headers, cookie=cookie)
            self.assertEqual(response.status, 403, headers)
            self.assertEqual(response.json()["error"]["code"], "cross_origin")
        form = request(self.daemon, "POST", "/api/command", b"command=start",
                       headers={"Content-Type": "application/x-www-form-urlencoded"},
                       cookie=cookie)
        self.assertEqual(form.status, 415)
        self.assertEqual(self.daemon.status()["state"], "idle", "nothing started")
        same = request(self.daemon, "POST", "/api/command", {"cmd": "start"},
                       headers={"Origin": self.daemon.origin, "Sec-Fetch-Site": "same-origin"},
                       cookie=cookie)
        self.assertEqual(same.status, 200)
        self.assertEqual(self.daemon.status()["state"], "running")

    def test_wrong_pins_slow_down_and_are_logged(self):
        for attempt in range(3):
            wrong = request(self.daemon, "POST", "/api/login", {"pin": "0000"})
            self.assertEqual(wrong.status, 401, attempt)
            self.assertEqual(wrong.json()["error"]["code"], "wrong_pin")
        early = request(self.daemon, "POST", "/api/login", {"pin": PIN})
        self.assertEqual(early.status, 429, "even the right PIN waits its turn")
        wait = int(early.headers["retry-after"])
        self.assertTrue(1 <= wait <= 60, wait)
        time.sleep(wait + 0.2)
        right = request(self.daemon, "POST", "/api/login", {"pin": PIN})
        self.assertEqual(right.status, 200)
        cookie = right.headers["set-cookie"]
        for attribute in ("HttpOnly", "SameSite=Strict", "Path=/"):
            self.assertIn(attribute, cookie)
        self.assertRegex(cookie, r"^wodclock_session=[0-9a-f]{32};")
        self.assertEqual(self.daemon.log().count("wrong PIN"), 3, "the early try did not count")
        # The right PIN forgave the address: a slip afterwards is one free wrong PIN again.
        self.assertEqual(request(self.daemon, "POST", "/api/login", {"pin": "1111"}).status, 401)

    def test_no_pin_serves_the_display_only(self):
        daemon = Daemon(pin=None).start()
        try:
            self.assertEqual(request(daemon, "GET", "/").status, 200)
            self.assertEqual(request(daemon, "GET", "/api/status").status, 200)
            self.assertEqual(request(daemon, "GET", "/remote").status, 404)
            login = request(daemon, "POST", "/api/login", {"pin": "1234"})
            self.assertEqual(login.status, 404)
            self.assertEqual(login.json()["error"]["code"], "remote_off")
            refused = request(daemon, "POST", "/api/command", {"cmd": "start"})
            self.assertEqual(refused.status, 404)
            self.assertEqual(refused.json()["error"]["code"], "remote_off")
            self.assertEqual(daemon.status()["state"], "idle")
            self.assertFalse(request(daemon, "GET", "/api/session").json()["remote"])
        finally:
            daemon.stop()


class Reload(unittest.TestCase):
    def test_a_new_pin_signs_everyone_out_and_a_new_address_moves_the_server(self):
        with Daemon() as daemon:
            cookie = sign_in(daemon)
            with open(daemon.config_path) as f:
                text = f.read()
            with open(daemon.config_path, "w") as f:
                f.write(text.replace(f'pin: "{PIN}"', 'pin: "13579"'))
            self.assertEqual(daemon.ctl("reload")[0], 0)
            self.assertEqual(command(daemon, cookie, {"cmd": "status"}).status, 401)
            self.assertEqual(request(daemon, "POST", "/api/login", {"pin": PIN}).status, 401)
            self.assertEqual(sign_in(daemon, "13579")[:17], "wodclock_session=")
            old = daemon.address
            holder = socket.socket()
            holder.bind(("127.0.0.1", 0))
            port = holder.getsockname()[1]
            holder.close()
            with open(daemon.config_path) as f:
                text = f.read()
            with open(daemon.config_path, "w") as f:
                f.write(text.replace('listen: "127.0.0.1:0"', f'listen: "127.0.0.1:{port}"'))
            self.assertEqual(daemon.ctl("reload")[0], 0)
            daemon.host, daemon.port = "127.0.0.1", port
            self.assertEqual(request(daemon, "GET", "/api/time").status, 200)
            self.assertIn(f"web interface ready address=127.0.0.1:{port}", daemon.log())
            host, old_port = old.rsplit(":", 1)
            with self.assertRaises(OSError):
                socket.create_connection((host, int(old_port)), timeout=2)


class Start(unittest.TestCase):
    def test_a_taken_port_is_a_clear_error(self):
        holder = socket.socket()
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        daemon = Daemon(listen=f"127.0.0.1:{port}")
        try:
            with self.assertRaises(AssertionError) as failure:
                daemon.start()
            self.assertEqual(daemon.process.wait(timeout=10), 69)
            log = daemon.log()
            self.assertIn(f"cannot listen on 127.0.0.1:{port}", log)
            self.assertIn("in use", log)
            self.assertIn("ss -ltnp", log)
            self.assertIn("exited with 69", str(failure.exception))
        finally:
            holder.close()
            daemon.stop()


class HostileClients(unittest.TestCase):
    """Nothing a client does costs the clock its time: checked on the clock itself."""

    def setUp(self):
        self.daemon = Daemon().start()
        code, _ = self.daemon.ctl("run", "amrap", "20", "--start")
        self.assertEqual(code, 0)

    def tearDown(self):
        self.daemon.stop()

    def assert_clock_keeps_time(self, started_at, elapsed_at_start):
        """The workout's elapsed time moved on with the real clock, and the socket answers."""
        elapsed = self.daemon.status()["elapsed_s"] - elapsed_at_start
        real = time.monotonic() - started_at
        self.assertLess(abs(elapsed - real), 0.5, (elapsed, real))
        self.assertTrue(self.daemon.alive())

    def test_oversized_headers_and_bodies(self):
        start, elapsed = time.monotonic(), self.daemon.status()["elapsed_s"]
        huge = request(self.daemon, "GET", "/api/status", headers={"X-Filler": "a" * 20000})
        self.assertTrue(400 <= huge.status < 500, huge.status)
        cookie = sign_in(self.daemon)
        body = request(self.daemon, "POST", "/api/command",
                       b'{"command":"status","pad":"' + b"x" * 20000 + b'"}',
                       headers={"Content-Type": "application/json"}, cookie=cookie)
        self.assertEqual(body.status, 413)
        self.assertEqual(request(self.daemon, "GET", "/api/time").status, 200)
        self.assert_clock_keeps_time(start, elapsed)

    def test_slowloris_and_500_connections(self):
        start, elapsed = time.monotonic(), self.daemon.status()["elapsed_s"]
        slow = []
        for _ in range(8):
            connection = raw_connection(self.daemon)
            connection.sendall(b"GET /api/status HTTP/1.1\r\nHost: x\r\n")
            slow.append(connection)
        many = []
        for _ in range(500):
            try:
                many.append(socket.create_connection((self.daemon.host, self.daemon.port),
                                                     timeout=2))
            except OSError:
                pass
        for _ in range(3):
            for connection in slow:
                connection.sendall(b"X-Slow: 1\r\n")
            time.sleep(1)
        for connection in many:
            connection.close()
        # With the flood gone, a new device is served at once, while the slow ones still hang
        # (they hold all their address may: its next connection is answered 503).
        response = wait_until(lambda: self._try_time(), timeout=10, what="a served request")
        self.assertEqual(response.status, 200)
        self.assertEqual(request(self.daemon, "GET", "/api/time").status, 503)
        self.assert_clock_keeps_time(start, elapsed)
        stats = json.loads(self.daemon.ctl("--json", "stats")[1])
        self.assertLessEqual(stats["web"]["connections"], 10, "8 per address, and 2 to refuse")
        for connection in slow:
            connection.close()

    def _try_time(self):
        try:
            return request(self.daemon, "GET", "/api/time", timeout=2, source="127.0.0.200")
        except OSError:
            return None

    def test_a_stream_client_that_never_reads(self):
        daemon = Daemon(extra_args=["--speed", "200"]).start()
        try:
            # Every displayed second is a status event: 200 a second at --speed 200, for 60 s.
            daemon.ctl("run", "amrap", "200", "--start")
            stuck = raw_connection(daemon)
            stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            stuck.sendall(f"GET /api/events HTTP/1.1\r\nHost: {daemon.address}\r\n\r\n".encode())
            reader = EventStream(daemon)
            self.assertEqual(reader.next_of("status")["event"], "status")
            stats = lambda: json.loads(daemon.ctl("--json", "stats")[1])["web"]
            wait_until(lambda: stats()["streams"] == 2, what="two open streams")
            # The reader keeps reading; the stuck one is closed once its backlog passes the cap.
            deadline = time.monotonic() + 60
            while stats()["streams"] > 1 and time.monotonic() < deadline:
                for _ in range(20):
                    reader.next_event()
            self.assertEqual(stats()["streams"], 1, "the stuck stream was closed")
            reader.next_of("status")
            self.assertTrue(daemon.alive())
            stuck.close()
            reader.close()
        finally:
            daemon.stop()


if __name__ == "__main__":
    unittest.main(verbosity=2)

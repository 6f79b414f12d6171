# SPDX-License-Identifier: MIT
"""The real web server's own bounds on a gym's network that is not friendly, against the real
wodclockd: slow and flooding clients from several addresses (127.0.0.x stand for the LAN's
devices: each client socket is bound to one before it connects), oversized headers and an
endless chunked body. What libmicrohttpd and the daemon's server decide (connection slots and
the 503 at full, the bounds per address, the deadline of a request's header, 413, the streams'
bounds) is checked here; during each attack a fresh device must still be served, which is
asserted as an answer, never as a time: how long it took is measured by `wodclock-bench
web-attacks`. The web front's own rules (the PIN throttle, the Host rule, sessions across a
restart, the reserve a signed-in remote gets) are tested in-process on manual time
(Tests/DaemonTests/Web*InProcessTests.swift). Run by Tests/scripts/test-web.sh.
"""

import os
import socket
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from wodclock_web import (  # noqa: E402
    Daemon, EventStream, SlowHeaders, command, connect, open_streams, raw_connection, request,
    sign_in, wait_until, web_stats)

FRESH = "127.0.0.200"


def fresh_device_is_served(daemon, tries=5, source=FRESH):
    """A device that has done nothing yet asks for /api/status `tries` times: each is served
    (200). The timeout only stops a hang."""
    for _ in range(tries):
        response = request(daemon, "GET", "/api/status", source=source, timeout=30)
        assert response.status == 200, (response.status, response.body)


def closed_by_server(sock, deadline):
    """Whether the server closed `sock` (EOF or reset) before `deadline` (a stop for a hang,
    not a measure): reading what it sends until the end."""
    while time.monotonic() < deadline:
        sock.settimeout(max(0.05, deadline - time.monotonic()))
        try:
            if not sock.recv(65536):
                return True
        except (ConnectionResetError, BrokenPipeError):
            return True
        except socket.timeout:
            return False
    return False


class SlowClients(unittest.TestCase):
    def test_a_header_one_byte_a_second_is_closed_and_others_are_served(self):
        # A short bound for the test; the default is 10 s.
        with Daemon(web_extra="  request_timeout: 2s\n") as daemon, SlowHeaders(daemon) as slow:
            fresh_device_is_served(daemon)
            # Every slow connection is closed by the server, none answered.
            deadline = time.monotonic() + 30
            still_open = [s for s in slow.kept if not closed_by_server(s, deadline)]
            self.assertEqual(still_open, [], "every slow header was cut off")
            self.assertEqual(request(daemon, "GET", "/api/time", source=FRESH).status, 200)

    def test_a_full_server_answers_503_and_keeps_a_slot_for_the_signed_in_phone(self):
        with Daemon(web_extra="  connections: 16\n  connections_per_address: 4\n"
                              "  streams: 8\n  request_timeout: 1m\n") as daemon:
            cookie = sign_in(daemon, source="127.0.0.150")
            holders = []
            for n in range(4):
                for _ in range(4):
                    sock = connect(daemon, f"127.0.0.{10 + n}")
                    sock.send(b"GET /api/status HTTP/1.1\r\n")
                    holders.append(sock)
            try:
                wait_until(lambda: web_stats(daemon)["connections"] >= 16, what="16 held connections")
                busy = request(daemon, "GET", "/api/status", source=FRESH, timeout=30)
                self.assertEqual(busy.status, 503)
                self.assertEqual(busy.json()["error"]["code"], "server_busy")
                self.assertEqual(busy.headers["retry-after"], "5")
                self.assertEqual(busy.headers["connection"], "close")
                # The coach's signed-in phone gets the reserve.
                pressed = command(daemon, cookie, {"cmd": "status"}, source="127.0.0.151")
                self.assertEqual(pressed.status, 200)
            finally:
                for sock in holders:
                    sock.close()
            # The holders gone, the fresh device is served again.
            wait_until(lambda: request(daemon, "GET", "/api/status", source=FRESH).status == 200,
                       what="a served request")


class StreamFlood(unittest.TestCase):
    def test_250_streams_from_16_addresses_leave_a_stream_and_a_page_for_a_new_tv(self):
        with Daemon() as daemon:
            opened = open_streams(daemon)
            try:
                # Each address holds at most 3 streams (the default), 48 in all, below 64.
                wait_until(lambda: web_stats(daemon)["streams"] == 48, what="48 open streams")
                fresh_device_is_served(daemon)
                tv = EventStream(daemon, source=FRESH)
                self.assertIn("200", tv.head.split("\r\n")[0])
                self.assertEqual(tv.next_of("status")["event"], "status")
                tv.close()
                self.assertLessEqual(web_stats(daemon)["streams"], 49)
                # A stream refused is answered 503 with Retry-After, not dropped.
                extra = connect(daemon, "127.0.1.1")
                if extra is not None:
                    extra.sendall(b"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                    extra.settimeout(10)
                    answer = extra.recv(4096).decode("latin-1")
                    self.assertTrue(answer.startswith("HTTP/1.1 503"), answer)
                    self.assertIn("Retry-After: 5", answer)
                    extra.close()
            finally:
                for sock in opened:
                    sock.close()


class Bodies(unittest.TestCase):
    def test_ten_megabytes_chunked_is_413(self):
        with Daemon() as daemon:
            cookie = sign_in(daemon)
            sock = raw_connection(daemon, source="127.0.0.7")
            sock.sendall(
                ("POST /api/command HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                 f"Content-Type: application/json\r\nCookie: {cookie}\r\n"
                 "Transfer-Encoding: chunked\r\n\r\n").encode())
            piece = b"10000\r\n" + b"x" * 0x10000 + b"\r\n"
            for _ in range(160):  # 10 MiB
                sock.sendall(piece)
            sock.sendall(b"0\r\n\r\n")
            sock.settimeout(30)
            answer = b""
            while b"\r\n\r\n" not in answer:
                data = sock.recv(65536)
                if not data:
                    break
                answer += data
            sock.close()
            self.assertTrue(answer.startswith(b"HTTP/1.1 413"), answer[:200])
            self.assertEqual(daemon.status()["state"], "idle")
            self.assertEqual(request(daemon, "GET", "/api/time").status, 200)


class HostileClients(unittest.TestCase):
    """Oversized headers, a slow header beside a flood of connections: the library's bounds,
    and the clock still answers."""

    def test_oversized_headers_are_refused_and_the_next_client_served(self):
        with Daemon() as daemon:
            huge = request(daemon, "GET", "/api/status", headers={"X-Filler": "a" * 20000})
            self.assertTrue(400 <= huge.status < 500, huge.status)
            self.assertEqual(request(daemon, "GET", "/api/time").status, 200)
            self.assertTrue(daemon.alive())

    def test_slow_headers_and_500_connections_from_one_address(self):
        # The slow headers must outlast the test: the deadline of a request is another test's.
        with Daemon(web_extra="  request_timeout: 1m\n") as daemon:
            code, _ = daemon.ctl("run", "amrap", "20", "--start")
            self.assertEqual(code, 0)
            slow = []
            for _ in range(8):
                connection = raw_connection(daemon)
                connection.sendall(b"GET /api/status HTTP/1.1\r\nHost: x\r\n")
                slow.append(connection)
            many = []
            for _ in range(500):
                try:
                    many.append(socket.create_connection((daemon.host, daemon.port), timeout=2))
                except OSError:
                    pass
            for _ in range(3):
                for connection in slow:
                    connection.sendall(b"X-Slow: 1\r\n")
                time.sleep(1)
            for connection in many:
                connection.close()
            try:
                # With the flood gone, a new device is served, while the slow ones still hang
                # (they hold all their address may: its next connection is answered 503).
                response = wait_until(lambda: self._try_time(daemon), timeout=10,
                                      what="a served request")
                self.assertEqual(response.status, 200)
                self.assertEqual(request(daemon, "GET", "/api/time").status, 503)
                self.assertEqual(daemon.status()["state"], "running")
                web = web_stats(daemon)
                self.assertLessEqual(web["connections"], 10, "8 per address, and 2 to refuse")
            finally:
                for connection in slow:
                    connection.close()

    @staticmethod
    def _try_time(daemon):
        try:
            return request(daemon, "GET", "/api/time", timeout=2, source=FRESH)
        except OSError:
            return None


if __name__ == "__main__":
    unittest.main(verbosity=2)

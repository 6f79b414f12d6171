# SPDX-License-Identifier: MIT
"""The real wodclockd serves its web API end to end: a PIN, a session cookie, a command, the
status and an event stream over real HTTP from libmicrohttpd, and a page compressed for a
client that takes gzip; and a port that is taken keeps it from starting. Every route and rule
is tested in-process on manual time (Tests/DaemonTests/Web*InProcessTests.swift); the limits
of the real server are in test_lan.py. Run by Tests/scripts/test-web.sh.
"""

import gzip
import os
import socket
import sys
import unittest

sys.path.insert(0, os.path.dirname(__file__))
from wodclock_web import (  # noqa: E402
    Daemon, EventStream, command, request, sign_in, wait_until)


class EndToEnd(unittest.TestCase):
    def test_a_phone_signs_in_starts_the_clock_and_a_display_sees_it(self):
        with Daemon() as daemon:
            display = EventStream(daemon)
            try:
                self.assertIn("text/event-stream", display.head)
                self.assertEqual(display.next_event().get("retry"), "2000")
                first = display.next_of("status")
                self.assertIsNotNone(first["id"])
                self.assertEqual(first["data"]["status"]["state"], "idle")

                status = request(daemon, "GET", "/api/status")
                self.assertEqual(status.status, 200)
                self.assertEqual(status.headers["x-frame-options"], "DENY")
                self.assertEqual(status.json()["status"]["state"], daemon.status()["state"])

                cookie = sign_in(daemon)
                started = command(daemon, cookie, {"cmd": "start", "id": 7})
                self.assertEqual(started.status, 200)
                self.assertEqual(started.json()["id"], 7)
                self.assertEqual(daemon.status()["state"], "running")
                # The display is told, and keeps being told, on the stream it opened before.
                running = wait_until(
                    lambda: self._status_event(display, "running"), what="a running status")
                self.assertGreater(int(running["id"]), int(first["id"]))
                heartbeat = display.next_of("heartbeat")
                self.assertIn("server_ms", heartbeat["data"])
            finally:
                display.close()

            busy = command(daemon, cookie, {"cmd": "load", "workout": "amrap 14"})
            self.assertEqual(busy.status, 409)
            self.assertEqual(request(daemon, "POST", "/api/logout", {}, cookie=cookie).status, 200)
            self.assertEqual(command(daemon, cookie, {"cmd": "pause"}).status, 401)
            self.assertEqual(daemon.status()["state"], "running")

    @staticmethod
    def _status_event(stream, state):
        event = stream.next_of("status")
        return event if event["data"]["status"]["state"] == state else None

    def test_a_page_goes_gzip_compressed_through_the_real_server(self):
        with Daemon() as daemon:
            plain = request(daemon, "GET", "/")
            packed = request(daemon, "GET", "/", headers={"Accept-Encoding": "gzip, deflate, br"})
            self.assertEqual(packed.status, 200)
            self.assertEqual(packed.headers["content-encoding"], "gzip")
            self.assertEqual(packed.headers["content-type"], plain.headers["content-type"])
            # Python's own gzip reader: the bytes of the page, as the library sent them.
            self.assertEqual(gzip.decompress(packed.body), plain.body)
            self.assertEqual(int(packed.headers["content-length"]), len(packed.body))


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


if __name__ == "__main__":
    unittest.main(verbosity=2)

# SPDX-License-Identifier: MIT
"""How soon the real wodclockd answers a fresh device while slow or flooding clients attack its
web interface: the figures of `wodclock-bench web-attacks`, which runs this script as a child
process and reads its `NAME VALUE UNIT` lines; it can also be run by itself.

    /usr/bin/python3 Tests/web/bench_attacks.py

Each attack gets its own wodclockd (WODCLOCK_BUILD, default .build/debug, as the web tests;
the bench gives the release build next to it) with its web interface on a free loopback port.
127.0.0.x stand for the devices of a gym's network: each client socket is bound to one before
it connects. A fresh device (127.0.0.200, one that has done nothing yet) asks for /api/status
five times during the attack, half a second apart; the slowest answer is the figure (target:
2 s). The tests check
that these answers come at all (Tests/web/test_lan.py) and what the web front decides
(Tests/DaemonTests/Web*InProcessTests.swift); the times are measured here only.

  slow_headers   64 connections from 4 addresses send a header one byte a second
  connections    8 slow headers and 500 connections from one address
  full           every connection slot held: how soon the 503 comes
  streams        250 event streams from 16 addresses; also a new display's stream and status
  pin_flood      40 addresses guess PINs as fast as they are let; also the right PIN from a
                 fresh address
"""

import os
import socket
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))
from wodclock_web import (  # noqa: E402
    PIN, Daemon, EventStream, SlowHeaders, connect, open_streams, raw_connection, request,
    wait_until, web_stats)

FRESH = "127.0.0.200"


def figure(name, seconds):
    print(f"web.attack.{name} {seconds * 1000:.1f} ms", flush=True)


def slowest_status(daemon, tries=5, source=FRESH):
    """The slowest of `tries` requests for /api/status from a fresh device, half a second
    apart so that they meet the attack at several moments; each must be served."""
    slowest = 0.0
    for attempt in range(tries):
        if attempt:
            time.sleep(0.5)
        started = time.monotonic()
        response = request(daemon, "GET", "/api/status", source=source, timeout=30)
        slowest = max(slowest, time.monotonic() - started)
        if response.status != 200:
            raise SystemExit(f"a fresh device got {response.status}: {response.body[:200]}")
    return slowest


def slow_headers():
    with Daemon(web_extra="  request_timeout: 2s\n") as daemon, SlowHeaders(daemon):
        figure("slow_headers.status_max", slowest_status(daemon))


def connections():
    with Daemon(web_extra="  request_timeout: 1m\n") as daemon:
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
        try:
            figure("connections.status_max", slowest_status(daemon))
        finally:
            for connection in many + slow:
                connection.close()


def full():
    with Daemon(web_extra="  connections: 16\n  connections_per_address: 4\n"
                          "  streams: 8\n  request_timeout: 1m\n") as daemon:
        holders = []
        for n in range(4):
            for _ in range(4):
                sock = connect(daemon, f"127.0.0.{10 + n}")
                sock.send(b"GET /api/status HTTP/1.1\r\n")
                holders.append(sock)
        try:
            wait_until(lambda: web_stats(daemon)["connections"] >= 16, what="16 held connections")
            slowest = 0.0
            for _ in range(5):
                started = time.monotonic()
                busy = request(daemon, "GET", "/api/status", source=FRESH, timeout=30)
                slowest = max(slowest, time.monotonic() - started)
                if busy.status != 503:
                    raise SystemExit(f"a full server answered {busy.status}, not 503")
            figure("full.busy_max", slowest)
        finally:
            for sock in holders:
                sock.close()


def streams():
    with Daemon() as daemon:
        opened = open_streams(daemon)
        try:
            wait_until(lambda: web_stats(daemon)["streams"] == 48, what="48 open streams")
            figure("streams.status_max", slowest_status(daemon))
            started = time.monotonic()
            tv = EventStream(daemon, source=FRESH)
            tv.next_of("status")
            figure("streams.new_stream_status", time.monotonic() - started)
            tv.close()
        finally:
            for sock in opened:
                sock.close()


def pin_flood():
    with Daemon() as daemon:
        stop = threading.Event()
        tried = [0]

        def flood(index):
            source = f"127.0.2.{1 + index}"
            guess = 100000 + index * 1000
            while not stop.is_set():
                try:
                    response = request(daemon, "POST", "/api/login", {"pin": str(guess)},
                                       source=source)
                except OSError:
                    continue
                tried[0] += 1
                guess += 1
                if response.status == 429:
                    stop.wait(0.2)

        floods = [threading.Thread(target=flood, args=(i,), daemon=True) for i in range(40)]
        for thread in floods:
            thread.start()
        try:
            wait_until(lambda: daemon.log().count("wrong PIN") >= 40 and tried[0] >= 300,
                       timeout=30, what="300 wrong-PIN attempts from 40 addresses")
            figure("pin_flood.status_max", slowest_status(daemon))
            started = time.monotonic()
            coach = request(daemon, "POST", "/api/login", {"pin": PIN}, source=FRESH)
            figure("pin_flood.right_pin", time.monotonic() - started)
            if coach.status != 200:
                raise SystemExit(f"the right PIN got {coach.status} during the flood")
        finally:
            stop.set()
            for thread in floods:
                thread.join()


def main():
    for attack in (slow_headers, connections, full, streams, pin_flood):
        attack()


if __name__ == "__main__":
    main()

# SPDX-License-Identifier: MIT
"""What the Python test suites (Tests/web, Tests/link) share: waiting for a condition on a
real daemon, a browser or a broker, with a deadline and a message that says what was awaited."""

import time


def wait_until(condition, timeout=10.0, interval=0.02, what="the condition"):
    """Polls `condition` until it returns a true value, which is returned; fails after `timeout`."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(interval)

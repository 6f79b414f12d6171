# SPDX-License-Identifier: MIT
"""The whiteboard on the TV in a real browser (Debian's headless Chromium over the DevTools
protocol) against the real wodclockd: at 1920×1080, 1280×720 and portrait 1080×1920 the
digits and the whiteboard's lines never overlap (their rectangles measured from the DOM), the
lines are at least a tenth of the screen's height at 1080p, the lit line follows the step,
"next: …" shows during a rest, the video loops playing and the picture is drawn; the media
files come from the real server (a part of a video answered 206); and the phone scrolls to
the live clock and Pause after Load & start.
Run by Tests/scripts/test-web.sh.
"""

import base64
import os
import struct
import sys
import unittest
import zlib

sys.path.insert(0, os.path.dirname(__file__))
from wodclock_web import (  # noqa: E402
    DEFAULT_CONFIG, PIN, Browser, Daemon, chromium_path, request, wait_until)

if not chromium_path():
    sys.exit("test_whiteboard.py: Debian's chromium is not installed\n"
             "hint: apt-get install chromium python3-websocket (make test installs them)")

# A 1 s WebM of 16×16 green frames (VP8, 564 bytes), made once with
#   ffmpeg -f lavfi -i color=c=green:s=16x16:r=4:d=1 -c:v libvpx -b:v 10k -g 4 -an \
#     -fflags +bitexact -flags:v +bitexact -map_metadata -1 -f webm clip.webm
CLIP = base64.b64decode(
    "GkXfo59ChoEBQveBAULygQRC84EIQoKEd2VibUKHgQJChYECGFOAZwEAAAAAAAIEEU2bdLpNu4tT"
    "q4QVSalmU6yBoU27i1OrhBZUrmtTrIHGTbuMU6uEElTDZ1OsggEMTbuMU6uEHFO7a1OsggHu7AEA"
    "AAAAAABZAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAVSalmoCrXsYMPQkBNgIRMYXZm"
    "V0GETGF2ZkSJiECPQAAAAAAAFlSua8GuAQAAAAAAADjXgQFzxYgAAAAAAAAAAZyBACK1nIN1bmSI"
    "gQCGhVZfVlA4g4EBI+ODhA7msoDgibCBELqBEJqBAhJUw2fRc3POY8CLY8WIAAAAAAAAAAFnyJhF"
    "o4dFTkNPREVSRIeLTGF2YyBsaWJ2cHhnyKJFo4hEVVJBVElPTkSHlDAwOjAwOjAxLjAwMDAwMDAw"
    "MAAAH0O2dUCG54EAo7yBAACA8AIAnQEqEAAQAABHCIWFiIWEiAICAnWqA/gD+gINTRgA/v1u8//i"
    "tYdZxf+K3//TZPFXjP/piwCjlYEA+gCxAQABEBAAGAAYWC/0AAgAAKOVgQH0ALEBAAEQEAAYABhY"
    "L/QACAAAo5WBAu4AsQEAARAQABgAGFgv9AAIAAAcU7trkbuPs4EAt4r3gQHxggFi8IED")
def png_pixel():
    """A 1×1 PNG of one opaque white pixel, written from the PNG specification."""
    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    header = struct.pack(">IIBBBBB", 1, 1, 8, 6, 0, 0, 0)  # 8-bit RGBA
    pixels = zlib.compress(b"\x00\xff\xff\xff\xff")  # filter 0, one pixel
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels)
            + chunk(b"IEND", b""))


DOT = png_pixel()

LINES = [
    {"text": "5 pull-ups", "media": "dot.png"},
    {"text": "10 push-ups"},
    {"text": "15 air squats"},
    {"text": "Rx: 20 lb vest"},
]

# The preset's whiteboard as the owner writes it: a line with its picture, the whole workout's
# video.
CONFIG = DEFAULT_CONFIG.replace("presets:\n", """presets:
  board:
    mode: intervals
    work: 15s
    rest: 5s
    rounds: 30
    whiteboard:
      - {line: 5 pull-ups, media: dot.png}
      - 10 push-ups
      - 15 air squats
      - "Rx: 20 lb vest"
    media: clip.webm
""") + "media: media\n"

# The page's rectangles: the digits, the lines shown (those inside the list's box), the media.
MEASURE = """(function () {
  function box(element) {
    var r = element.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, height: r.height};
  }
  var list = document.getElementById('board-lines');
  var shown = box(list);
  var lines = Array.prototype.filter.call(list.children, function (item) {
    var r = item.getBoundingClientRect();
    return r.bottom > shown.top + 1 && r.top < shown.bottom - 1;
  }).map(box);
  var media = document.querySelector('#media img, #media video');
  return {digits: box(document.getElementById('digits')), lines: lines, count: list.children.length,
          media: media ? box(media) : null, width: innerWidth, height: innerHeight};
})()"""


def overlap(a, b):
    return a["left"] < b["right"] - 0.5 and b["left"] < a["right"] - 0.5 \
        and a["top"] < b["bottom"] - 0.5 and b["top"] < a["bottom"] - 0.5


class TV(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.daemon = Daemon(config=CONFIG)
        media = os.path.join(cls.daemon.directory, "media")
        os.mkdir(media)
        with open(os.path.join(media, "clip.webm"), "wb") as f:
            f.write(CLIP)
        with open(os.path.join(media, "dot.png"), "wb") as f:
            f.write(DOT)
        cls.daemon.start()
        code, out = cls.daemon.ctl("load", "board")
        assert code == 0, out
        cls.daemon.ctl("start")
        status = cls.daemon.status()
        assert status["whiteboard"] == [line["text"] for line in LINES], status
        assert status["state"] == "running", status
        cls.browser = Browser()

    @classmethod
    def tearDownClass(cls):
        cls.browser.close()
        cls.daemon.stop()

    def board(self):
        return self.browser.evaluate("window.wodclockDisplay.board()")

    def show(self, width, height):
        self.browser.send("Emulation.setDeviceMetricsOverride", width=width, height=height,
                          deviceScaleFactor=1, mobile=False)
        self.browser.navigate(self.daemon.url("/"))
        wait_until(lambda: self.board()["lines"], timeout=15, what="the whiteboard's lines")

    def measured(self):
        """The rectangles once the media is in and the lines are laid out for it."""
        wait_until(lambda: self.browser.evaluate(
            "(function () { var m = document.querySelector('#media img, #media video');"
            " return !!m && (m.tagName === 'IMG' ? m.complete && m.naturalWidth > 0"
            " : m.readyState >= 1); })()"), what="the media to load")
        # Laid out: two measurements a moment apart agree (the page fits the lines to the
        # media's box on a later frame).
        previous = [None]

        def settled():
            now = self.browser.evaluate(MEASURE)
            same, previous[0] = now == previous[0], now
            return now if same else None
        return wait_until(settled, interval=0.05, what="the layout to settle")

    def assert_laid_out(self, width, height, tall_lines):
        self.show(width, height)
        shape = self.measured()
        self.assertEqual((shape["width"], shape["height"]), (width, height))
        self.assertEqual(shape["count"], len(LINES))
        self.assertTrue(shape["lines"], f"no line shown at {width}×{height}")
        digits = shape["digits"]
        for line in shape["lines"]:
            self.assertFalse(overlap(digits, line), f"{width}×{height}: {digits} and {line}")
            self.assertGreaterEqual(line["top"], -0.5)
            self.assertLessEqual(line["bottom"], height + 0.5)
            # Never below the floor: a twentieth of the screen's smaller side.
            self.assertGreaterEqual(line["height"], min(width, height) / 20 - 0.5)
            if tall_lines:
                self.assertGreaterEqual(line["height"], height / 10 - 0.5,
                                        f"{width}×{height}: a line {line['height']} px high")
        if shape["media"]:
            self.assertFalse(overlap(digits, shape["media"]), f"{width}×{height}: the media")
            for line in shape["lines"]:
                self.assertFalse(overlap(shape["media"], line), f"{width}×{height}: media, line")
        # The digits stay the dominant element: taller than any line.
        self.assertGreater(digits["height"], 2.5 * max(l["height"] for l in shape["lines"]))
        return shape

    def test_1080p_every_line_a_tenth_of_the_screen_beside_the_digits(self):
        shape = self.assert_laid_out(1920, 1080, tall_lines=True)
        self.assertEqual(len(shape["lines"]), len(LINES), "every line fits at 1080p")
        self.assertLess(shape["digits"]["right"], min(l["left"] for l in shape["lines"]))

    def test_720p(self):
        self.assert_laid_out(1280, 720, tall_lines=True)

    def test_portrait(self):
        shape = self.assert_laid_out(1080, 1920, tall_lines=False)
        self.assertLess(shape["digits"]["bottom"], min(l["top"] for l in shape["lines"]))

    def test_the_lit_line_follows_the_step_and_next_shows_in_the_rest(self):
        self.show(1920, 1080)
        for _ in range(2):
            # A rest: no line lit, the next movement large.
            wait_until(lambda: self.daemon.status()["segment"] == "rest", timeout=25,
                       what="a rest")
            status = self.daemon.status()
            board = wait_until(lambda: self.board()["next"] and self.board(), what="next: …")
            self.assertEqual(board["next"], "next: " + status["next_movement"])
            wait_until(lambda: self.daemon.status()["segment"] == "work", timeout=10,
                       what="the next interval")
            status = self.daemon.status()
            expected = status["whiteboard_line"]
            self.assertIsNotNone(expected)
            wait_until(lambda: self.board()["current"] == expected,
                       what=f"line {expected} lit")

    def test_the_video_loops_playing_and_the_picture_is_drawn(self):
        self.show(1920, 1080)
        wait_until(lambda: self.daemon.status()["media"] == "clip.webm"
                   and self.board()["media"] == "video", timeout=25, what="the video's step")
        video = "document.querySelector('#media video')"
        attributes = self.browser.evaluate(
            f"(function (v) {{ return [v.muted, v.loop, v.autoplay, v.playsInline,"
            f" v.controls]; }})({video})")
        self.assertEqual(attributes, [True, True, True, True, False])
        wait_until(lambda: self.browser.evaluate(
            f"(function (v) {{ return !v.paused && v.readyState >= 2 && v.currentTime > 0; }})"
            f"({video})"), what="the video playing")
        # Past its 1 s end it plays on: it loops (its time comes round to the start while it
        # keeps playing), and never ends.
        seen = [self.browser.evaluate(f"{video}.currentTime")]

        def looped():
            playing, time_now = self.browser.evaluate(
                f"(function (v) {{ return [!v.paused && !v.ended, v.currentTime]; }})({video})")
            self.assertTrue(playing, "the video stopped")
            wrapped, seen[0] = time_now < seen[0], time_now
            return wrapped
        wait_until(looped, interval=0.05, what="the video to come round to its start")
        wait_until(lambda: self.daemon.status()["media"] == "dot.png", timeout=25,
                   what="the first line's step, which has a picture")
        wait_until(lambda: self.browser.evaluate(
            "(function (i) { return !!i && i.complete && i.naturalWidth === 1; })"
            "(document.querySelector('#media img'))"), what="the picture drawn")

    def test_the_real_server_sends_the_files_and_parts_of_them(self):
        whole = request(self.daemon, "GET", "/media/clip.webm")
        self.assertEqual((whole.status, whole.body), (200, CLIP))
        self.assertEqual(whole.headers["content-type"], "video/webm")
        part = request(self.daemon, "GET", "/media/clip.webm", headers={"Range": "bytes=4-11"})
        self.assertEqual((part.status, part.body), (206, CLIP[4:12]))
        self.assertEqual(part.headers["content-range"], f"bytes 4-11/{len(CLIP)}")
        head = request(self.daemon, "HEAD", "/media/dot.png")
        self.assertEqual((head.status, head.body, head.headers["content-length"]),
                         (200, b"", str(len(DOT))))
        self.assertEqual(request(self.daemon, "GET", "/media/..%2Fwodclock.yaml").status, 404)


class Phone(unittest.TestCase):
    def test_load_and_start_scrolls_to_the_live_clock_and_pause(self):
        config = DEFAULT_CONFIG + "media: media\n"
        daemon = Daemon(config=config)
        os.mkdir(os.path.join(daemon.directory, "media"))
        with open(os.path.join(daemon.directory, "media", "dot.png"), "wb") as f:
            f.write(DOT)
        with daemon, Browser(width=390, height=844, mobile=True) as phone:
            phone.navigate(daemon.url("/remote"))
            hooks = "window.wodclockRemote"
            wait_until(lambda: phone.evaluate(f"{hooks} && {hooks}.needsPin()"), what="the PIN pad")
            phone.evaluate(f"{hooks}.enterPin('{PIN}')")
            wait_until(lambda: phone.evaluate(f"{hooks}.signedIn()"), what="signing in")
            # The builder's picker lists the media directory; a pick names the caret's line.
            wait_until(lambda: phone.evaluate(f"{hooks}.mediaChoices()") == ["dot.png"],
                       what="the media picker")
            phone.evaluate(f"{hooks}.type('amrap 20\\n5 pull-ups\\n10 push-ups')")
            written = phone.evaluate(f"{hooks}.attachMedia('dot.png', 12)")
            self.assertEqual(written, "amrap 20\n5 pull-ups @dot.png\n10 push-ups")
            written = phone.evaluate(f"{hooks}.attachMedia('dot.png', 2)")
            self.assertEqual(written, "amrap 20 @dot.png\n5 pull-ups @dot.png\n10 push-ups")

            phone.evaluate(f"{hooks}.type('amrap 14')")
            wait_until(lambda: phone.evaluate(f"{hooks}.explanation()"), what="amrap 14")
            phone.evaluate("document.getElementById('load-start').scrollIntoView({block: 'end'})")
            wait_until(lambda: not phone.evaluate(f"{hooks}.liveInView()"),
                       what="the builder scrolled into view, the live clock above it")
            phone.evaluate(f"{hooks}.load(true)")
            wait_until(lambda: daemon.status()["state"] in ("countin", "running"),
                       what="amrap 14 started")
            wait_until(lambda: phone.evaluate(f"{hooks}.liveInView()"),
                       what="the live clock and Pause on the screen")


if __name__ == "__main__":
    unittest.main(verbosity=2)

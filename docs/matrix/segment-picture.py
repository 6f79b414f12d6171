#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# For make-pictures.sh: reads the console of composing-in-vm.sh, writes the matrix previews it
# carries (base64 PNGs from wodclockctl snapshot) and draws the 7-segment pictures from the
# HT16K33 display RAM the daemon wrote (i2cdump): each lit bit is a lit segment, nothing else
# is made up. The backpack's RAM (HT16K33Driver.swift): 0x00, 0x02, 0x06, 0x08 the digits,
# A = bit 0 ... G = bit 6, DP = bit 7; 0x04 the colon (bit 1).
#
# usage: segment-picture.py CONSOLE_LOG OUT_DIR NAME=FILE...
#   NAME.png (the matrix) and NAME.ht16k33 (the board) in the log; FILE the picture to write
import base64
import re
import struct
import sys
import zlib

LIT = (255, 40, 24)
DARK = (48, 12, 10)
BACKGROUND = (12, 12, 12)


def blocks(text):
    found, name, lines = {}, None, []
    for line in text.replace("\r", "").splitlines():
        if line.startswith("=== "):
            if name is not None and line == "=== end":
                found[name] = lines
                name = None
            else:
                name, lines = line[4:], []
        elif name is not None:
            lines.append(line)
    return found


def ram_bytes(lines):
    for line in lines:
        match = re.match(r"^00:((?: [0-9a-f]{2}){16})", line.strip())
        if match:
            return [int(b, 16) for b in match.group(1).split()]
    raise SystemExit("segment-picture: no i2cdump row 00 in the log")


def png(path, width, height, pixels):
    raw = b"".join(b"\0" + bytes(c for p in pixels[y * width:(y + 1) * width] for c in p)
                   for y in range(height))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    with open(path, "wb") as out:
        out.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                  + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def board(path, ram):
    digits = [ram[a] for a in (0x00, 0x02, 0x06, 0x08)]
    colon = ram[0x04] & 0x02 != 0
    w, h, t, gap, margin = 60, 110, 12, 40, 30
    colon_w = 30
    width = margin * 2 + 4 * w + 3 * gap + colon_w
    height = margin * 2 + h
    pixels = [BACKGROUND] * (width * height)

    def rect(x0, y0, x1, y1, colour):
        for y in range(max(0, y0), min(height, y1)):
            for x in range(max(0, x0), min(width, x1)):
                pixels[y * width + x] = colour

    x = margin
    for index, bits in enumerate(digits):
        y = margin
        half = h // 2
        segments = [  # A B C D E F G, as (x0, y0, x1, y1)
            (x + t, y, x + w - t, y + t), (x + w - t, y + t, x + w, y + half),
            (x + w - t, y + half, x + w, y + h - t), (x + t, y + h - t, x + w - t, y + h),
            (x, y + half, x + t, y + h - t), (x, y + t, x + t, y + half),
            (x + t, y + half - t // 2, x + w - t, y + half + t - t // 2)]
        for bit, box in enumerate(segments):
            rect(*box, LIT if bits >> bit & 1 else DARK)
        rect(x + w + 6, y + h - t, x + w + 6 + t, y + h, LIT if bits & 0x80 else DARK)
        x += w + gap
        if index == 1:
            cx = x - gap // 2 + colon_w // 2 - t // 2
            for cy in (y + h // 3, y + 2 * h // 3):
                rect(cx, cy - t // 2, cx + t, cy + t - t // 2, LIT if colon else DARK)
            x += colon_w
    png(path, width, height, pixels)


def main():
    log, out, *wanted = sys.argv[1:]
    found = blocks(open(log, errors="replace").read())
    for item in wanted:
        name, file = item.split("=", 1)
        if name.endswith(".png"):
            data = base64.b64decode("".join(found[name]))
            open(f"{out}/{file}", "wb").write(data)
        else:
            board(f"{out}/{file}", ram_bytes(found[name]))
        print(f"{out}/{file}")


main()

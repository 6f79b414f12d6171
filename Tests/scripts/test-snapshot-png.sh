#!/usr/bin/env bash
# `wodclockctl snapshot` PNGs read by an independent implementation: Python's zlib inflates the
# compressed image data (checking its Adler-32) and checks every chunk's CRC; the pixels of the
# LED-dot picture match the one-pixel-per-LED picture, and a 128x64 picture at --scale 8 stays
# small. Runs the debug binaries `swift build` made.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin="$root/.build/debug"
[ -x "$bin/wodclockd" ] && [ -x "$bin/wodclockctl" ] || { echo "build first: swift build" >&2; exit 1; }
work=$(mktemp -d)
daemon=""
cleanup() {
  if [ -n "$daemon" ]; then kill "$daemon" 2>/dev/null || true; wait "$daemon" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
cat > "$work/wodclock.yaml" <<'YAML'
defaults:
  preset: tabata
  count_in: 0s
clock:
  idle: preset
presets:
  tabata:
    mode: tabata
outputs:
  - type: log
YAML
"$bin/wodclockd" --config "$work/wodclock.yaml" --socket "$work/sock" --state-dir "$work/state" \
  2>"$work/daemon.log" &
daemon=$!
ctl() { "$bin/wodclockctl" --socket "$work/sock" "$@"; }
for _ in $(seq 100); do ctl version >/dev/null 2>&1 && break; sleep 0.05; done
ctl snapshot --size 128x64 --png "$work/leds.png" >/dev/null
ctl snapshot --size 128x64 --scale 8 --png "$work/dots.png" >/dev/null
ctl snapshot --size 32x16 --scale 5 --png - > "$work/piped.png"
python3 - "$work" <<'PY'
import struct, sys, zlib

def read_png(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path}: no PNG signature"
    offset, idat, header = 8, b"", None
    while offset < len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        body = data[offset + 8:offset + 8 + length]
        (crc,) = struct.unpack(">I", data[offset + 8 + length:offset + 12 + length])
        assert zlib.crc32(kind + body) == crc, f"{path}: bad CRC on {kind}"
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        offset += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert (depth, colour, interlace) == (8, 2, 0), f"{path}: {header}"
    raw = zlib.decompress(idat)  # checks the zlib header and the Adler-32
    stride = width * 3 + 1
    assert len(raw) == stride * height, f"{path}: {len(raw)} bytes of scanlines"
    assert all(raw[row * stride] == 0 for row in range(height)), f"{path}: a filtered row"
    rows = [raw[row * stride + 1:(row + 1) * stride] for row in range(height)]
    return width, height, rows, len(data)

work = sys.argv[1]
w, h, leds, _ = read_png(f"{work}/leds.png")
assert (w, h) == (128, 64), (w, h)
lit = sum(1 for row in leds for i in range(0, len(row), 3) if row[i:i + 3] != b"\0\0\0")
assert lit > 200, f"only {lit} LEDs lit"
W, H, dots, size = read_png(f"{work}/dots.png")
assert (W, H) == (1024, 512), (W, H)
assert size < 60_000, f"{size} bytes at --scale 8"
for y in range(64):
    for x in range(128):
        led = leds[y][x * 3:x * 3 + 3]
        centre = dots[y * 8 + 4][(x * 8 + 4) * 3:(x * 8 + 4) * 3 + 3]
        corner = dots[y * 8][(x * 8) * 3:(x * 8) * 3 + 3]
        assert centre == led, f"LED {x},{y}: {centre.hex()} != {led.hex()}"
        assert corner == b"\0\0\0", f"gap of LED {x},{y}: {corner.hex()}"
w, h, _, _ = read_png(f"{work}/piped.png")
assert (w, h) == (160, 80), (w, h)
print(f"snapshot PNGs read by zlib: {lit} LEDs lit, {size} bytes at --scale 8")
PY

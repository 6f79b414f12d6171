#!/usr/bin/env bash
# Real fonts through the real config check: X11's misc fonts (Debian's xfonts-base) converted to
# BDF with pcf2bdf, each named by a matrix output's `font:`. `wodclockd --check-config` accepts
# every one on a 128x64 panel without a word, warns that 9x18 is too tall for a 64x32 panel, and
# refuses a copy of 6x10 with a glyph cut short (exit 78, the font's file and line). Runs the
# debug binaries `swift build` made.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin="$root/.build/debug"
[ -x "$bin/wodclockd" ] || { echo "build first: swift build" >&2; exit 1; }
command -v pcf2bdf >/dev/null || { echo "no pcf2bdf: make deps installs it" >&2; exit 1; }
misc=/usr/share/fonts/X11/misc
[ -e "$misc/6x10.pcf.gz" ] || {
  echo "no $misc/6x10.pcf.gz: make deps installs xfonts-base" >&2
  exit 1
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/fonts"

# A config whose matrix draws in font $1 (relative to the config's directory) on a $2x$3 panel,
# with a current budget that lights a 128x64 one (the default warns there).
config() {
  cat > "$work/wodclock.yaml" <<YAML
presets:
  emom:
    mode: emom
    interval: 1:00
    rounds: 10
outputs:
  - type: ddp-matrix
    host: 127.0.0.1
    width: $2
    height: $3
    font: $1
    max_current_ma: 20000
YAML
}

check() {
  set +e
  "$bin/wodclockd" --check-config "$work/wodclock.yaml" >"$work/out" 2>"$work/err"
  status=$?
  set -e
}

fail() {
  echo "$1" >&2
  cat "$work/err" >&2
  exit 1
}

for name in 5x8 6x10 6x13 7x13B 9x18 10x20; do
  pcf2bdf -o "$work/fonts/$name.bdf" "$misc/$name.pcf.gz"
  config "fonts/$name.bdf" 128 64
  check
  [ "$status" -eq 0 ] || fail "$name.bdf on 128x64: exit $status"
  grep -q '^ok: ' "$work/out" || fail "$name.bdf on 128x64: no ok line"
  [ ! -s "$work/err" ] || fail "$name.bdf on 128x64: diagnostics"
done

# 18 rows leave a 64x32 panel's digits too little room: a warning, and still exit 0.
config fonts/9x18.bdf 64 32
check
[ "$status" -eq 0 ] || fail "9x18.bdf on 64x32: exit $status"
grep -qF "warning: the font's lines are 18 rows tall" "$work/err" || fail "9x18.bdf: no warning"
grep -qF "hint: a font of at most 13 rows fits this panel" "$work/err" || fail "9x18.bdf: no hint"

# The zero of 6x10 one bitmap row short: the error names the font file and the BITMAP's line.
bitmap=$(awk '/^ENCODING 48$/ { zero = 1 } zero && /^BITMAP$/ { print NR; exit }' \
  "$work/fonts/6x10.bdf")
awk -v cut=$((bitmap + 4)) 'NR != cut' "$work/fonts/6x10.bdf" > "$work/fonts/broken.bdf"
config fonts/broken.bdf 64 32
check
[ "$status" -eq 78 ] || fail "broken.bdf: exit $status, expected 78"
expected="not a usable BDF font: $work/fonts/broken.bdf:$bitmap: BITMAP has 9 rows, BBX says 10"
grep -qF "wodclock.yaml:11:11: error: $expected" "$work/err" \
  || fail "broken.bdf: no error at the font's line $bitmap"
grep -qF "hint: glyph 'zero' needs one hex row per pixel row" "$work/err" \
  || fail "broken.bdf: no hint"
echo "X11 fonts through the config check: 5x8 6x10 6x13 7x13B 9x18 10x20, a broken copy refused"

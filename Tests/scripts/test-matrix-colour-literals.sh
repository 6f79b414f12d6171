#!/usr/bin/env bash
# The LED-matrix renderer takes every colour from the design tokens (DisplayKit.DesignTokens):
# fails when a colour literal appears in its sources — an RGB initialiser, a named RGB constant,
# or a #rrggbb / 0xRRGGBB value.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
sources="$root/Sources/MatrixKit"
[ -d "$sources" ] || { echo "no $sources" >&2; exit 1; }
pattern='RGB\(|RGB\.[a-z]|[=(:,[]\s*\.(black|white)\b|"#[0-9A-Fa-f]{6}"|0x[0-9A-Fa-f]{6}\b'
# Comment lines may name colours in prose; code may not.
if grep -rnE "$pattern" "$sources" --include='*.swift' | grep -vE '^[^:]+:[0-9]+:\s*//'; then
  echo "colour literal in the matrix rendering sources: use DesignTokens.color(for:)" >&2
  exit 1
fi
# The check itself must be able to fail: a planted literal is caught.
planted=$(printf 'let x = RGB(red: 1, green: 2, blue: 3)\n' | grep -cE "$pattern" || true)
[ "$planted" -eq 1 ]

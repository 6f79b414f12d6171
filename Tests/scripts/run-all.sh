#!/usr/bin/env bash
# Runs every script-level test (the ones that drive real binaries or real external tools).
# Each test is an executable file named `test-*.sh` beside this one; it exits non-zero on failure.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
passed=0
failed=0
for t in "$here"/test-*.sh; do
  [ -e "$t" ] || continue
  name=$(basename "$t")
  if "$t"; then
    echo "PASS $name"
    passed=$((passed + 1))
  else
    echo "FAIL $name"
    failed=$((failed + 1))
  fi
done
echo "scripts: $passed passed, $failed failed"
[ "$failed" -eq 0 ]

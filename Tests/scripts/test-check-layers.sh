#!/usr/bin/env bash
# The layering check `make lint` runs (check-layers.py) passes on the tree as it is and fails,
# naming the file and line, on each kind of violation planted in a copy of the tree: an OS
# import in a pure module and in a plugin file, the test support imported or named by the
# product, the product linking the test support through Package.swift, a module declared pure
# there that is not, and the daemon reading a clock past its DaemonClock. Words in comments
# and strings are not taken for code.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
check="$here/check-layers.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

python3 "$check" "$root" || { echo "the layering check fails on the tree itself"; exit 1; }

# A fresh copy of what the check reads, for one planted violation.
copy() {
  rm -rf "$tmp/tree"
  mkdir -p "$tmp/tree/Tests"
  cp -R "$root/Package.swift" "$root/Sources" "$tmp/tree/"
  cp -R "$root/Tests/WodclockTestSupport" "$tmp/tree/Tests/"
}

# Inserts $2 as line 2 of $1 (after the licence line), so a violation is reported at line 2.
plant() {
  local file="$tmp/tree/$1"
  { head -n 1 "$file"; printf '%s\n' "$2"; tail -n +2 "$file"; } > "$file.planted"
  mv "$file.planted" "$file"
}

# Edits the copy's Package.swift with the sed expression $1, which must change it.
edit_manifest() {
  sed "$1" "$tmp/tree/Package.swift" > "$tmp/Package.swift"
  if cmp -s "$tmp/Package.swift" "$tmp/tree/Package.swift"; then
    echo "the edit $1 no longer applies to Package.swift"; exit 1
  fi
  mv "$tmp/Package.swift" "$tmp/tree/Package.swift"
}

# The check must fail on the copy, and say $1.
expect_error() {
  local status=0
  python3 "$check" "$tmp/tree" 2> "$tmp/errors" || status=$?
  if [ "$status" -ne 1 ]; then
    cat "$tmp/errors"; echo "expected exit status 1, got $status, for: $1"; exit 1
  fi
  grep -qF -- "$1" "$tmp/errors" || { cat "$tmp/errors"; echo "missing: $1"; exit 1; }
  grep -q '^hint: ' "$tmp/errors" || { cat "$tmp/errors"; echo "no hint for: $1"; exit 1; }
}

copy
plant Sources/WorkoutCore/Action.swift "import Glibc"
expect_error "Sources/WorkoutCore/Action.swift:2:8: error: WorkoutCore is a pure module and imports Glibc"

copy
plant Sources/MatrixKit/Framebuffer.swift "public import HardwareKit"
expect_error "Sources/MatrixKit/Framebuffer.swift:2:15: error: MatrixKit is a pure module and imports HardwareKit"

copy
plant Sources/WodclockDaemon/Plugins/LogOutput.swift "import Glibc"
expect_error "Sources/WodclockDaemon/Plugins/LogOutput.swift:2:8: error: a plugin file imports Glibc"

copy
plant Sources/WodclockDaemon/Plugins/GPIOSupport.swift "import CLinux"
expect_error "Sources/WodclockDaemon/Plugins/GPIOSupport.swift:2:8: error: a plugin file imports CLinux"

copy
plant Sources/WodclockDaemon/Runtime/Daemon.swift "import WodclockTestSupport"
expect_error "Sources/WodclockDaemon/Runtime/Daemon.swift:2:8: error: WodclockDaemon imports the test support"

copy
plant Sources/HardwareKit/GPIO.swift "let chips: [FakeGPIOChip] = []"
expect_error "Sources/HardwareKit/GPIO.swift:2:13: error: HardwareKit names FakeGPIOChip, a type of the test support"

copy
edit_manifest 's/"WorkoutCore", "ConfigFormat", "JSONKit", "Configuration", "DisplayKit", "HardwareKit",/&\n        "WodclockTestSupport",/'
expect_error "error: wodclockd links WodclockTestSupport, which lives under Tests/"
expect_error "error: WodclockDaemon depends on the test support WodclockTestSupport"

copy
edit_manifest 's/\.pureTarget(name: "ButtonKit", dependencies: \[/&"HardwareKit", /'
expect_error "error: pure module ButtonKit depends on HardwareKit"

# The pure modules are the manifest's: one declared pure there is held to it.
copy
edit_manifest 's/\.target(name: "SegmentDrivers"/.pureTarget(name: "SegmentDrivers"/'
expect_error "error: pure module SegmentDrivers depends on HardwareKit"

# The daemon reads the clocks only through the DaemonClock it is given.
copy
plant Sources/WodclockDaemon/Plugins/LogOutput.swift "let started = MonotonicClock.now()"
expect_error "Sources/WodclockDaemon/Plugins/LogOutput.swift:2:15: error: the daemon reads the clock directly (MonotonicClock.now)"

copy
plant Sources/WodclockDaemon/Runtime/FrameComposer.swift "func zoneAgain() { tzset() }"
expect_error "Sources/WodclockDaemon/Runtime/FrameComposer.swift:2:20: error: the daemon reads the clock directly (tzset)"

# Comments and strings may name anything.
copy
plant Sources/WorkoutCore/Action.swift "// import Glibc, as FakeGPIOChip does"
plant Sources/WodclockDaemon/Plugins/LogOutput.swift 'let note = """
  import Glibc
  FakeGPIOChip
  """'
python3 "$check" "$tmp/tree" || { echo "a comment or a string was taken for code"; exit 1; }

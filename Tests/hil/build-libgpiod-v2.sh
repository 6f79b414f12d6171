#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds libgpiod API v2 from source into a private prefix, so the GPIO layer can be compiled and
# tested against v2 on Debian 12, which ships only v1 (1.6.3).
#
# The source comes from the Python bindings' source distribution on PyPI: `gpiod` sdists vendor
# the C library (lib/*.c, lib/uapi/gpio.h, include/gpiod.h) and name its version in
# libgpiod-version.txt. gpiod 2.3.0 carries libgpiod 2.2.1, the version of Debian 13 trixie
# (libgpiod.md §1). The download is pinned by version and SHA-256 and cached.
#
# Output: <repo>/.build/libgpiod-v2/prefix/{include/gpiod.h,lib/libgpiod.a,lib/pkgconfig/libgpiod.pc}
# and the pkg-config directory printed on stdout, for
#   PKG_CONFIG_PATH=$(Tests/hil/build-libgpiod-v2.sh) swift build --scratch-path .build/gpiod-v2
# Only a static archive is built: the binaries carry v2 inside, and nothing on the system changes.
set -euo pipefail

PY_VERSION=2.3.0
LIBGPIOD_VERSION=2.2.1
SHA256=daa840ed5b691e7078a9cf21c79fe813b9a91c3ed0bdbafae0181c7b98b80300

root=$(cd "$(dirname "$0")/../.." && pwd)
work="$root/.build/libgpiod-v2"
prefix="$work/prefix"
archive="$work/download/gpiod-$PY_VERSION.tar.gz"
stamp="$prefix/.built-$PY_VERSION-$SHA256"
log() { printf 'build-libgpiod-v2: %s\n' "$*" >&2; }

if [ -e "$stamp" ]; then
  echo "$prefix/lib/pkgconfig"
  exit 0
fi

mkdir -p "$work/download"
if [ ! -e "$archive" ] || ! echo "$SHA256  $archive" | sha256sum -c --status; then
  command -v python3 >/dev/null && python3 -m pip --version >/dev/null 2>&1 || {
    log "installing python3-pip"
    if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
    $sudo apt-get update -q >&2
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q python3-pip >&2
  }
  log "downloading gpiod==$PY_VERSION (source distribution) from PyPI"
  rm -f "$archive"
  # --no-binary: the sdist (a wheel has no C sources); --no-deps: only this one package.
  python3 -m pip download --quiet --disable-pip-version-check --no-binary :all: --no-deps \
    --dest "$work/download" "gpiod==$PY_VERSION" >&2
  echo "$SHA256  $archive" | sha256sum -c --status \
    || { log "error: $archive does not have the pinned SHA-256 $SHA256"; exit 1; }
fi

command -v cc >/dev/null && command -v ar >/dev/null || {
  log "installing build-essential"
  if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q build-essential >&2
}

src="$work/src"
rm -rf "$src" "$prefix"
mkdir -p "$src" "$prefix/include" "$prefix/lib/pkgconfig"
tar -xzf "$archive" -C "$src" --strip-components=1
found=$(cat "$src/libgpiod-version.txt")
[ "$found" = "$LIBGPIOD_VERSION" ] \
  || { log "error: gpiod $PY_VERSION carries libgpiod $found, expected $LIBGPIOD_VERSION"; exit 1; }

# The compile line of the sdist's own setup.py (build_ext with a vendored libgpiod):
# _GNU_SOURCE, include/ and lib/ on the include path, GPIOD_VERSION_STR for gpiod_api_version().
# -fPIC so the archive can also end up in a shared object.
log "compiling libgpiod $LIBGPIOD_VERSION"
objects=()
for c in "$src"/lib/*.c; do
  o="$src/$(basename "${c%.c}").o"
  cc -O2 -fPIC -Wall -D_GNU_SOURCE "-DGPIOD_VERSION_STR=\"$LIBGPIOD_VERSION\"" \
    -I"$src/include" -I"$src/lib" -c "$c" -o "$o"
  objects+=("$o")
done
ar rcs "$prefix/lib/libgpiod.a" "${objects[@]}"
cp "$src/include/gpiod.h" "$prefix/include/"
cat >"$prefix/lib/pkgconfig/libgpiod.pc" <<PC
prefix=$prefix
includedir=\${prefix}/include
libdir=\${prefix}/lib

Name: libgpiod
Description: Library for interacting with Linux GPIO character devices (static, built from gpiod $PY_VERSION on PyPI)
Version: $LIBGPIOD_VERSION
Libs: -L\${libdir} -lgpiod
Cflags: -I\${includedir}
PC
touch "$stamp"
log "built $prefix/lib/libgpiod.a"
echo "$prefix/lib/pkgconfig"

#!/usr/bin/env bash
# The Debian package for real (`make deb-test`): two builds of it (an earlier version with another
# default configuration, and this one), lintian on both, then in a clean Debian 12 root
# (debootstrap --variant=minbase, chroot): install with apt so that Depends and Recommends
# resolve, the files, the user and groups, the conffile; an upgrade over an edited
# configuration, which must survive (dpkg's question answered by --force-confold); remove
# (configuration and history kept) and purge (gone, and the user too). Once without systemd in
# the root (the postinst's useradd path), then with it (systemd-sysusers).
#
# The root is made once and kept in .build/package-test (a second run copies it, and takes the
# packages apt fetched from there too); DEBIAN_MIRROR names the mirror (default: Debian's).
# Needs root.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
[ "$(id -u)" -eq 0 ] || { echo "needs root: debootstrap and chroot" >&2; exit 1; }
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
work="$root/.build/package-test"
base="$work/bookworm-minbase"
archives="$work/apt-archives"
chroot_dir="$work/root"
version=$(cat VERSION)
arch=$(dpkg --print-architecture)
start=$(date +%s)
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }
# check WHAT COMMAND...: the command succeeds; what it says on stdout is not shown (the
# functions below explain a failure on stderr).
check() { local what=$1; shift; if "$@" >/dev/null; then ok "$what"; else fail "$what"; fi; }

unmount() {
  for mount in var/cache/apt/archives dev/pts dev proc; do
    mountpoint -q "$chroot_dir/$mount" 2>/dev/null && umount -l "$chroot_dir/$mount"
  done
  return 0
}
trap unmount EXIT

# The two packages. The earlier one's default configuration differs, as a real upgrade's
# would, so that dpkg has an edited conffile to ask about.
mkdir -p "$work"
sed '1a # (the default configuration of an earlier build)' Config/wodclock.yaml > "$work/earlier.yaml"
make -s deb DEB_VERSION="$version~earlier" DEB_DIR="$work/earlier" DEB_CONFIG="$work/earlier.yaml" >/dev/null
make -s deb DEB_DIR="$work/current" >/dev/null
earlier="$work/earlier/wodclock_${version}~earlier_${arch}.deb"
current="$work/current/wodclock_${version}_${arch}.deb"
[ -f "$earlier" ] && [ -f "$current" ] || { echo "make deb did not write the packages"; exit 1; }

# One version everywhere: the file, the package, both programs, the changelogs.
check "the package's version is VERSION's" test "$(dpkg-deb -f "$current" Version)" = "$version"
check "wodclockd --version says VERSION" test "$(.build/release/wodclockd --version)" = "wodclockd $version"
check "wodclockctl --version says VERSION" test "$(.build/release/wodclockctl --version)" = "wodclockctl $version"
check "CHANGELOG.md's newest entry is VERSION" grep -qx "## \[$version\] - [0-9-]*" \
  <(grep -m1 '^## \[[0-9]' CHANGELOG.md)
check "the Debian changelog's entry is the package's version" test \
  "$(dpkg-deb --fsys-tarfile "$current" | tar -xO ./usr/share/doc/wodclock/changelog.gz | zcat \
    | head -1)" = "wodclock ($version) bookworm; urgency=medium"

# Every library the programs link is a Depends (dpkg-shlibdeps' reading of readelf -d's NEEDED).
depends=$(dpkg-deb -f "$current" Depends)
for library in $(readelf -dW .build/release/wodclockd .build/release/wodclockctl \
  | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | sort -u); do
  package=$(dpkg -S "*/$library" 2>/dev/null | head -1 | cut -d: -f1)
  [ -n "$package" ] || { fail "no package holds $library"; continue; }
  check "Depends names $package ($library)" grep -qE "(^|, )$package( |,|$)" <<<"$depends"
done
echo "Depends: $depends"
echo "Recommends: $(dpkg-deb -f "$current" Recommends)"

echo "lintian:"
for deb in "$earlier" "$current"; do
  lintian --fail-on error --info "$deb" 2>/dev/null || fail "lintian reports an error on $(basename "$deb")"
done

# The clean root, made once. apt's lists come along; the packages it fetches are kept apart.
if [ ! -x "$base/usr/bin/apt-get" ]; then
  echo "debootstrap into $base (once) from $mirror"
  rm -rf "$base.partial"
  debootstrap --variant=minbase bookworm "$base.partial" "$mirror" > "$work/debootstrap.log" 2>&1 \
    || { tail -20 "$work/debootstrap.log"; echo "debootstrap failed (no mirror reachable?)"; exit 1; }
  chroot "$base.partial" apt-get update -q > /dev/null
  chroot "$base.partial" apt-get clean
  mv "$base.partial" "$base"
fi
unmount
rm -rf "$chroot_dir"
cp -a "$base" "$chroot_dir"
mkdir -p "$archives/partial"
mount --bind /proc "$chroot_dir/proc"
mount --bind /dev "$chroot_dir/dev"
mount --bind /dev/pts "$chroot_dir/dev/pts"
mount --bind "$archives" "$chroot_dir/var/cache/apt/archives"
cp /etc/resolv.conf "$chroot_dir/etc/resolv.conf"
cp "$earlier" "$current" "$chroot_dir/tmp/"
in_root() { chroot "$chroot_dir" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 \
  DEBIAN_FRONTEND=noninteractive "$@"; }
apt_get() { in_root apt-get -q -y -o Dpkg::Options::=--force-confold "$@"; }
earlier_in_root="/tmp/$(basename "$earlier")"
current_in_root="/tmp/$(basename "$current")"

# The files, the user and groups as the package leaves them installed.
installed_as_expected() {
  local file
  for file in /usr/bin/wodclockd /usr/bin/wodclockctl /lib/systemd/system/wodclockd.service \
    /lib/udev/rules.d/60-wodclock.rules /usr/lib/sysusers.d/wodclock.conf \
    /etc/wodclock/wodclock.yaml /usr/share/doc/wodclock/copyright \
    /usr/share/doc/wodclock/README.md.gz /usr/share/doc/wodclock/examples/demo.yaml \
    /usr/share/man/man8/wodclockd.8.gz /usr/share/man/man1/wodclockctl.1.gz \
    /usr/share/man/man5/wodclock.yaml.5.gz /usr/share/bash-completion/completions/wodclockctl \
    /usr/share/zsh/vendor-completions/_wodclockctl; do
    [ -e "$chroot_dir$file" ] || { echo "missing: $file" >&2; return 1; }
  done
  grep -q '^ExecStart=/usr/bin/wodclockd ' "$chroot_dir/lib/systemd/system/wodclockd.service" \
    || { echo "the unit does not start /usr/bin/wodclockd" >&2; return 1; }
  in_root getent passwd wodclock | grep -q ':/var/lib/wodclock:/usr/sbin/nologin$' \
    || { echo "no system user wodclock" >&2; return 1; }
  in_root getent group wodclock >/dev/null || { echo "no group wodclock" >&2; return 1; }
  for group in gpio i2c dialout input audio; do
    in_root getent group "$group" >/dev/null || { echo "no group $group" >&2; return 1; }
  done
  # The programs run on a Debian without the Swift toolchain, and the shipped configuration
  # checks there (its socket group now exists).
  in_root wodclockd --version | grep -qx "wodclockd $version" || { echo "wodclockd does not run" >&2; return 1; }
  in_root wodclockd --check-config >/dev/null || { echo "the shipped configuration fails the check" >&2; return 1; }
}
purged() {
  ! in_root dpkg -s wodclock >/dev/null 2>&1 || { echo "still known to dpkg" >&2; return 1; }
  local path
  for path in /etc/wodclock /var/lib/wodclock /usr/bin/wodclockd \
    /etc/systemd/system/multi-user.target.wants/wodclockd.service; do
    [ ! -e "$chroot_dir$path" ] && [ ! -L "$chroot_dir$path" ] || { echo "left behind: $path" >&2; return 1; }
  done
  ! in_root getent passwd wodclock >/dev/null || { echo "the user is left" >&2; return 1; }
  ! in_root getent group wodclock >/dev/null || { echo "the group is left" >&2; return 1; }
}

echo "without systemd in the root:"
check "no systemd-sysusers in the minimal root" test ! -e "$chroot_dir/usr/bin/systemd-sysusers"
apt_get install "$current_in_root" > "$work/install-plain.log" 2>&1 \
  || { tail -30 "$work/install-plain.log"; fail "apt-get install of the package"; }
check "installed: files, user (useradd), groups, the programs run" installed_as_expected
apt_get purge wodclock > "$work/purge-plain.log" 2>&1 || fail "apt-get purge"
check "purged: files, configuration, user and group gone" purged

echo "with systemd in the root:"
apt_get install systemd > "$work/install-systemd.log" 2>&1 \
  || { tail -30 "$work/install-systemd.log"; fail "apt-get install systemd"; }
apt_get install "$earlier_in_root" > "$work/install.log" 2>&1 \
  || { tail -30 "$work/install.log"; fail "apt-get install of the earlier package"; }
check "installed: files, user (systemd-sysusers), groups, the programs run" installed_as_expected
check "the service is enabled (deb-systemd-helper, no systemd running)" test \
  "$(readlink "$chroot_dir/etc/systemd/system/multi-user.target.wants/wodclockd.service")" \
  = /lib/systemd/system/wodclockd.service
check "the postinst says how to give a login user the clock" \
  grep -q "sudo adduser pi wodclock" "$work/install.log"
check "the Recommends came along (web, speaker, voice)" in_root dpkg-query -W libmicrohttpd12 \
  libasound2 libespeak-ng1 espeak-ng-data

# The owner edits the configuration, and the clock has a history.
echo "# edited by the owner" >> "$chroot_dir/etc/wodclock/wodclock.yaml"
mkdir -p "$chroot_dir/var/lib/wodclock"
echo '{"preset": "tabata"}' > "$chroot_dir/var/lib/wodclock/history.jsonl"
in_root chown -R wodclock:wodclock /var/lib/wodclock
apt_get install "$current_in_root" > "$work/upgrade.log" 2>&1 \
  || { tail -30 "$work/upgrade.log"; fail "apt-get install of the newer package (upgrade)"; }
check "upgraded to $version" test "$(in_root dpkg-query -W -f='${Version}' wodclock)" = "$version"
check "dpkg saw the edited configuration and kept it (--force-confold)" \
  grep -q "Configuration file '/etc/wodclock/wodclock.yaml'" "$work/upgrade.log"
check "the edit survived the upgrade" grep -qx "# edited by the owner" "$chroot_dir/etc/wodclock/wodclock.yaml"
check "the new default is beside it" test -f "$chroot_dir/etc/wodclock/wodclock.yaml.dpkg-dist"
check "an upgrade does not repeat the group advice" bash -c "! grep -q 'sudo adduser' '$work/upgrade.log'"

apt_get remove wodclock > "$work/remove.log" 2>&1 || fail "apt-get remove"
check "removed: the programs are gone" test ! -e "$chroot_dir/usr/bin/wodclockd"
check "removed: the configuration is kept" grep -qx "# edited by the owner" "$chroot_dir/etc/wodclock/wodclock.yaml"
check "removed: the history is kept" test -s "$chroot_dir/var/lib/wodclock/history.jsonl"
check "removed: the user is kept" in_root id wodclock
check "removed: dpkg keeps the configuration" test \
  "$(in_root dpkg-query -W -f='${db:Status-Status}' wodclock)" = config-files
apt_get purge wodclock > "$work/purge.log" 2>&1 || fail "apt-get purge"
check "purged: files, configuration, history, user and group gone" purged

unmount
rm -rf "$chroot_dir"
echo "package test: $(( $(date +%s) - start )) s, $failures failed"
[ "$failures" -eq 0 ]

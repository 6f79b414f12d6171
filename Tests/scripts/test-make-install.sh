#!/usr/bin/env bash
# `make install` into a staging root: every file lands where the unit expects it, an existing
# configuration is never overwritten, and `make uninstall` removes the program but keeps it.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
cd "$root"
make -s install DESTDIR="$stage" CONFIGURATION=debug >/dev/null
for f in usr/local/bin/wodclockd usr/local/bin/wodclockctl etc/systemd/system/wodclockd.service \
  etc/wodclock/wodclock.yaml etc/udev/rules.d/60-wodclock.rules \
  usr/local/share/doc/wodclock/examples/demo.yaml usr/local/share/man/man8/wodclockd.8 \
  usr/local/share/man/man1/wodclockctl.1 usr/local/share/man/man5/wodclock.yaml.5 \
  usr/local/share/bash-completion/completions/wodclockctl \
  usr/local/share/zsh/site-functions/_wodclockctl; do
  [ -e "$stage/$f" ] || { echo "missing after install: $f"; exit 1; }
done
# The check looks the socket's group up on this machine; without DESTDIR, `make install` creates it.
if getent group wodclock >/dev/null; then
  "$stage/usr/local/bin/wodclockd" --check-config "$stage/etc/wodclock/wodclock.yaml" >/dev/null
else
  status=0
  err=$("$stage/usr/local/bin/wodclockd" --check-config "$stage/etc/wodclock/wodclock.yaml" 2>&1 >/dev/null) || status=$?
  [ "$status" = 78 ] && echo "$err" | grep -q "no group named 'wodclock' on this system" \
    && echo "$err" | tail -n 1 | grep -q ": 1 error$" \
    || { echo "the installed config does not check:"; echo "$err"; exit 1; }
fi
echo "# edited by the owner" >> "$stage/etc/wodclock/wodclock.yaml"
out=$(make -s install DESTDIR="$stage" CONFIGURATION=debug)
echo "$out" | grep -q "keeping the existing" || { echo "install did not say it kept the config"; exit 1; }
grep -q "edited by the owner" "$stage/etc/wodclock/wodclock.yaml" || { echo "config overwritten"; exit 1; }
make -s uninstall DESTDIR="$stage" >/dev/null
[ ! -e "$stage/usr/local/bin/wodclockd" ] || { echo "uninstall left the daemon"; exit 1; }
[ -e "$stage/etc/wodclock/wodclock.yaml" ] || { echo "uninstall removed the config"; exit 1; }
# The C++ runtime is linked in when its static archive exists (see RELEASE_FLAGS in the Makefile).
if [[ "$(cc -print-file-name=libstdc++.a)" == /* ]]; then
  make -s install DESTDIR="$stage" CONFIGURATION=debug >/dev/null
  if readelf -dW "$stage/usr/local/bin/wodclockd" | grep -q 'NEEDED.*libstdc++'; then
    echo "the installed daemon loads libstdc++.so"; exit 1
  fi
fi
# What `make install` (and the package's postinst) say about the socket's group: the command
# wodclockctl itself names when the socket is closed to a user, for the user who ran sudo.
advice=$(SUDO_USER=wodclock-no-such-user sh -c '. packaging/group-advice.sh; wodclock_group_advice')
grep -q "sudo adduser wodclock-no-such-user wodclock" <<<"$advice" \
  && grep -q "then log out and in again" <<<"$advice" \
  || { echo "the group advice does not say how to join:"; echo "$advice"; exit 1; }
grep -q 'sudo adduser \\(name) \\(groupName)`, then log out and' Sources/WodclockClient/ConnectionAdvice.swift \
  || { echo "wodclockctl's advice changed: make packaging/group-advice.sh agree"; exit 1; }
echo "install and uninstall ok"

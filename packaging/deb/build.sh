#!/usr/bin/env bash
# Builds the Debian package from the release binaries: a staged tree packed by dpkg-deb (see
# the Makefile's `deb` target for why not debhelper). Offline; nothing is compiled here.
#
#   build.sh VERSION BUILT OUTDIR [DEFAULT_CONFIG]
#
# VERSION is the package's version (the VERSION file, unless a test asks for another), BUILT the
# directory of the release binaries, OUTDIR where wodclock_VERSION_ARCH.deb is written, and
# DEFAULT_CONFIG the configuration shipped as /etc/wodclock/wodclock.yaml (Config/wodclock.yaml).
# DEB_MAINTAINER names the maintainer.
set -euo pipefail
version=$1
built=$(cd "$2" && pwd)
outdir=$(mkdir -p "$3" && cd "$3" && pwd)
root=$(cd "$(dirname "$0")/../.." && pwd)
default_config=${4:-$root/Config/wodclock.yaml}
here="$root/packaging/deb"
maintainer=${DEB_MAINTAINER:-wodclock maintainers <maintainers@wodclock.example>}
arch=$(dpkg --print-architecture)
deb="$outdir/wodclock_${version}_${arch}.deb"

for binary in wodclockd wodclockctl; do
  [ -x "$built/$binary" ] || { echo "build.sh: $built/$binary is missing: make release" >&2; exit 1; }
done
case "$version" in
  "" | *[!0-9A-Za-z.+~]*) echo "build.sh: '$version' is not a Debian version" >&2; exit 1 ;;
esac

# The changelog's date for this version, as the package's timestamps (reproducible builds).
released=$(sed -n "s/^## \[${version%%~*}\] - \([0-9-]*\)$/\1/p" "$root/CHANGELOG.md")
[ -n "$released" ] || { echo "build.sh: CHANGELOG.md has no entry '## [${version%%~*}] - DATE'" >&2; exit 1; }
export SOURCE_DATE_EPOCH
SOURCE_DATE_EPOCH=$(date -u -d "$released 12:00" +%s)

stage="$outdir/stage"
rm -rf "$stage"
mkdir -p "$stage/DEBIAN" "$outdir"
umask 022
put() { install -D -m "$1" "$2" "$stage/$3"; }

# Stripped as dh_strip does; the Swift metadata sections the runtime reads are allocated ones,
# which strip keeps.
for binary in wodclockd wodclockctl; do
  put 0755 "$built/$binary" "usr/bin/$binary"
  strip --strip-unneeded --remove-section=.comment --remove-section=.note "$stage/usr/bin/$binary"
done
# The unit names its programs by their /usr/local paths (`make install`'s default prefix); the
# package's README is compressed, and its man page is there.
mkdir -p "$stage/lib/systemd/system"
sed -e 's|/usr/local/|/usr/|g' \
  -e 's|^Documentation=file:\(.*\)/README.md$|Documentation=man:wodclockd(8) file:\1/README.md.gz|' \
  "$root/systemd/wodclockd.service" > "$stage/lib/systemd/system/wodclockd.service"
grep -q '^Documentation=man:wodclockd(8) file:/usr/share/doc/wodclock/README.md.gz$' \
  "$stage/lib/systemd/system/wodclockd.service" \
  || { echo "build.sh: the unit's Documentation= line is not the one expected" >&2; exit 1; }
put 0644 "$root/systemd/60-wodclock.rules" lib/udev/rules.d/60-wodclock.rules
put 0644 "$here/sysusers.conf" usr/lib/sysusers.d/wodclock.conf
put 0644 "$default_config" etc/wodclock/wodclock.yaml

doc=usr/share/doc/wodclock
put 0644 "$here/copyright" "$doc/copyright"
put 0644 "$root/README.md" "$doc/README.md"
put 0644 "$root/CHANGELOG.md" "$doc/CHANGELOG.md"
for example in "$root"/Config/examples/*.yaml; do
  put 0644 "$example" "$doc/examples/$(basename "$example")"
done
put 0644 "$root/Config/wodclock.yaml" "$doc/examples/wodclock.yaml.default"
# A native package's changelog in Debian's format: this version's entry of CHANGELOG.md.
{
  echo "wodclock ($version) bookworm; urgency=medium"
  echo
  # Each bullet of the version's lists, refilled to fit lintian's 80 columns.
  awk -v v="${version%%~*}" '
    function flush() { if (item != "") print item; item = "" }
    $0 ~ "^## \\[" { flush(); inside = ($0 ~ "^## \\[" v "\\]"); next }
    inside && /^- / { flush(); item = substr($0, 3); next }
    inside && /^  [^ ]/ && item != "" { sub(/^ +/, ""); item = item " " $0; next }
    { flush() }
    END { flush() }' "$root/CHANGELOG.md" \
    | while IFS= read -r item; do
        printf '%s\n' "$item" | fold -s -w 72 | sed -e 's/ *$//' -e '1s/^/  * /' -e '2,$s/^/    /'
      done
  echo
  echo " -- $maintainer  $(date -u -R -d "@$SOURCE_DATE_EPOCH")"
} > "$stage/$doc/changelog"
gzip -9n "$stage/$doc/README.md" "$stage/$doc/CHANGELOG.md" "$stage/$doc/changelog"

for page in wodclockctl.1 wodclock.yaml.5 wodclockd.8; do
  put 0644 "$root/docs/man/$page" "usr/share/man/man${page##*.}/$page"
  gzip -9n "$stage/usr/share/man/man${page##*.}/$page"
done
put 0644 "$root/completion/wodclockctl.bash" usr/share/bash-completion/completions/wodclockctl
put 0644 "$root/completion/_wodclockctl" usr/share/zsh/vendor-completions/_wodclockctl
put 0644 "$here/lintian-overrides" usr/share/lintian/overrides/wodclock

# The maintainer scripts, the postinst with the words `make install` also says.
put 0644 "$here/conffiles" DEBIAN/conffiles
for script in prerm postrm; do put 0755 "$here/$script" "DEBIAN/$script"; done
awk -v advice="$root/packaging/group-advice.sh" '
  /^#GROUP_ADVICE#$/ { while ((getline line < advice) > 0) print line; next } { print }' \
  "$here/postinst" > "$stage/DEBIAN/postinst"
chmod 0755 "$stage/DEBIAN/postinst"

# Depends: what the binaries link, as dpkg-shlibdeps reads it from the libraries' symbols
# files (libc6, libgcc-s1, libgpiod2, libudev1 with the versions the symbols used need).
shlibs=$(mktemp -d)
trap 'rm -rf "$shlibs"' EXIT
mkdir "$shlibs/debian"
printf 'Source: wodclock\n\nPackage: wodclock\nArchitecture: any\n' > "$shlibs/debian/control"
depends=$(cd "$shlibs" && dpkg-shlibdeps -O -e"$stage/usr/bin/wodclockd" -e"$stage/usr/bin/wodclockctl" 2>/dev/null \
  | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "build.sh: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
# Recommends: the libraries loaded with dlopen, from their list.
recommends=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$here/runtime-libraries" \
  | sed -E 's/^([^ ]+( \([^)]*\))?).*/\1/' | paste -sd, | sed 's/,/, /g')
installed_size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
cat > "$stage/DEBIAN/control" <<CONTROL
Package: wodclock
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $installed_size
Depends: $depends
Recommends: $recommends
Section: misc
Priority: optional
Description: gym wall clock daemon for LED displays, buzzers and buttons
 wodclock turns a small Linux computer on the wall of a gym (a Raspberry Pi
 behind big LED digits) into the gym's clock. One workout engine runs EMOM,
 intervals, Tabata, AMRAP, For Time, tempo sets and custom sequences,
 configured in one YAML file with compiler-style diagnostics.
 .
 It drives 7-segment boards, RGB LED matrices, GPIO buzzers, lamps and a
 speaker with spoken cues; takes GPIO buttons, USB remotes and keypads; serves
 a display page for any TV and a remote for the coach's phone; and runs as a
 hardened systemd service controlled with wodclockctl.
CONTROL
(cd "$stage" && find . -type f ! -path './DEBIAN/*' ! -path './etc/*' -printf '%P\0' \
  | sort -z | xargs -0 md5sum) > "$stage/DEBIAN/md5sums"
chmod 0644 "$stage/DEBIAN/md5sums" "$stage/DEBIAN/control"

dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >/dev/null
rm -rf "$stage"
echo "$deb"

# wodclock: the front door. `make demo` runs the clock, `make test` runs every test.
# Each target first installs the Debian packages it needs when they are missing.

SWIFT         ?= swift
PREFIX        ?= /usr/local
DESTDIR       ?=
CONFIGURATION ?= release
SWIFT_FLAGS   ?=
# util-linux brings setpriv: tests open a claimed serial port as another user. xfonts-base and
# pcf2bdf: X11's fonts, converted to BDF, go through the matrix outputs' font check.
# libmicrohttpd-dev: the web server's header, and its runtime (loaded when a server starts).
# libasound2-dev: ALSA's header for the speaker, and its runtime (loaded when a sound device
# is first opened). libespeak-ng-dev and espeak-ng-data: the spoken cues' synthesizer and its
# voices (loaded in the synthesizer's child process only). libmosquitto-dev: the MQTT client's
# header, and its runtime (loaded when a client is first made); mosquitto: the broker the tests
# start on a loopback port. groff-base and zsh: the man pages are checked with groff's warnings
# on, the zsh completion is parsed by zsh.
DEB_PACKAGES  := python3 python3-yaml systemd libgpiod-dev libudev-dev util-linux \
                 xfonts-base pcf2bdf libmicrohttpd-dev libasound2-dev libespeak-ng-dev \
                 espeak-ng-data libmosquitto-dev mosquitto groff-base zsh
# What only the tests use: chromium (headless, driven over the DevTools protocol by
# python3-websocket) for the pages, mosquitto-clients to publish and read on the test broker as
# Home Assistant would, openssl for the link test's own CA. The tests fail, not skip, without them.
DEB_TEST_PACKAGES := chromium python3-websocket mosquitto-clients openssl
STRICT        := -Xswiftc -warnings-as-errors

# The release binaries link the C++ runtime (which the Swift runtime uses) statically: a shared
# libstdc++ costs the daemon about 1 MB of mapped pages and 1,700 symbol bindings at every start
# (measured: peak RSS 9.8 to 8.7 MB, exec to READY=1 3.7 to 2.1 ms). The toolchain passes
# `-lstdc++` itself, so a directory holding only the static archive goes first on the search
# path. Without the archive (no libstdc++-dev) the binaries link the shared library as before.
# Asked of the C compiler, or of the Swift toolchain's clang where there is no cc.
STATIC_CXX     := $(firstword $(filter /%,$(foreach compiler,$(CC) clang,\
  $(shell $(compiler) -print-file-name=libstdc++.a 2>/dev/null))))
STATIC_CXX_DIR := $(CURDIR)/.build/static-libstdc++
RELEASE_FLAGS  := --static-swift-stdlib \
  $(if $(filter /%,$(STATIC_CXX)),-Xlinker -L$(STATIC_CXX_DIR))

BINDIR     := $(DESTDIR)$(PREFIX)/bin
DOCDIR     := $(DESTDIR)$(PREFIX)/share/doc/wodclock
MANDIR     := $(DESTDIR)$(PREFIX)/share/man
BASHCOMPDIR := $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR := $(DESTDIR)$(PREFIX)/share/zsh/site-functions
CONFDIR    := $(DESTDIR)/etc/wodclock
UNITDIR    := $(DESTDIR)/etc/systemd/system
UDEVDIR    := $(DESTDIR)/etc/udev/rules.d
BUILT      := .build/$(CONFIGURATION)
MAN_PAGES  := docs/man/wodclockctl.1 docs/man/wodclock.yaml.5 docs/man/wodclockd.8

# The Debian package (packaging/deb). Its version is VERSION's unless a test builds an earlier
# one (`DEB_VERSION=0.1.0~earlier`), and it ships DEB_CONFIG as /etc/wodclock/wodclock.yaml.
# dpkg-dev brings dpkg-shlibdeps (the Depends of what the binaries link); lintian and
# debootstrap are for `make deb-test`.
VERSION     := $(shell cat VERSION)
DEB_VERSION ?= $(VERSION)
DEB_DIR     ?= .build/deb
DEB_CONFIG  ?= Config/wodclock.yaml
DEB_TOOLS   := dpkg-dev binutils
DEB_TEST_TOOLS := lintian debootstrap

.PHONY: all deps build release static-libstdc++ demo test hil lint format bench clean install uninstall \
        deb deb-test

all: build

# Installs only what is missing, so a developer machine is left alone when it has everything.
define install-missing
	@missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  if [ "$$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	  $$SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q $$missing; \
	fi
endef

deps:
	$(call install-missing,$(DEB_PACKAGES))

build: deps
	$(SWIFT) build $(SWIFT_FLAGS)

release: deps static-libstdc++
	$(SWIFT) build -c release $(RELEASE_FLAGS) $(SWIFT_FLAGS)

static-libstdc++:
	@if [ -n "$(filter /%,$(STATIC_CXX))" ]; then \
	  mkdir -p $(STATIC_CXX_DIR) && ln -sf $(STATIC_CXX) $(STATIC_CXX_DIR)/libstdc++.a; \
	fi

demo: release
	.build/release/wodclockd --config Config/examples/demo.yaml

test: deps
	$(call install-missing,$(DEB_TEST_PACKAGES))
	$(SWIFT) build --build-tests $(STRICT) $(SWIFT_FLAGS)
	$(SWIFT) test --skip-build --parallel
	$(MAKE) lint
	Tests/scripts/run-all.sh

# Hardware-in-the-loop: the GPIO layer against gpio-sim in a QEMU VM, for libgpiod v1 and v2.
# Installs what the VM needs (qemu, a Debian kernel and its sources) on first use; no KVM needed.
hil: deps
	SWIFT=$(SWIFT) Tests/hil/run.sh

# The Debian package wodclock_VERSION_ARCH.deb in $(DEB_DIR), from the release build (which
# `swift build` finds current when nothing changed: no rebuild). A staged tree packed with
# dpkg-deb, not debhelper: the binaries come from SwiftPM, which dpkg-buildpackage would have to
# drive from a debian/rules and whose toolchain no Build-Depends can name (it is not a Debian
# package), so dh would only wrap the same steps; the maintainer scripts are the ones
# dh_installsystemd and dh_installsysusers write, and lintian checks the result.
deb: release
	$(call install-missing,$(DEB_TOOLS))
	packaging/deb/build.sh $(DEB_VERSION) .build/release $(DEB_DIR) $(DEB_CONFIG)

# The package for real: lintian, then install, upgrade with an edited configuration, remove and
# purge in a clean Debian 12 root (debootstrap, cached under .build). Needs root and a mirror.
deb-test: deps
	$(call install-missing,$(DEB_TEST_TOOLS))
	SWIFT=$(SWIFT) Tests/package/run.sh

# Formatting, and the layering rules (docs/development.md): pure modules import only the
# standard library and each other, plugins reach the OS only through HardwareKit, and nothing
# of the product uses the test support.
lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests
	python3 Tests/scripts/check-layers.py

format:
	$(SWIFT) format format --in-place --recursive Package.swift Sources Tests

bench: release
	.build/release/wodclock-bench all

clean:
	rm -rf .build

# Installs the binaries, the hardened unit, udev rules for the device groups and, unless one is
# already there, the annotated default configuration. With DESTDIR (packaging) the steps that
# change the running system (users, systemctl) are skipped.
install: deps static-libstdc++
	$(SWIFT) build -c $(CONFIGURATION) $(RELEASE_FLAGS) $(SWIFT_FLAGS)
	install -d $(BINDIR) $(DOCDIR)/examples $(CONFDIR) $(UNITDIR)
	install -m 0755 $(BUILT)/wodclockd $(BUILT)/wodclockctl $(BINDIR)/
	sed 's|/usr/local/|$(PREFIX)/|g' systemd/wodclockd.service > $(UNITDIR)/wodclockd.service
	chmod 0644 $(UNITDIR)/wodclockd.service
	install -m 0644 README.md $(DOCDIR)/
	install -m 0644 Config/examples/*.yaml $(DOCDIR)/examples/
	install -m 0644 Config/wodclock.yaml $(DOCDIR)/examples/wodclock.yaml.default
	@if [ -e $(CONFDIR)/wodclock.yaml ]; then \
	  echo "keeping the existing $(CONFDIR)/wodclock.yaml (the new default is $(DOCDIR)/examples/wodclock.yaml.default)"; \
	else \
	  install -m 0644 Config/wodclock.yaml $(CONFDIR)/wodclock.yaml; \
	fi
	install -d $(UDEVDIR)
	install -m 0644 systemd/60-wodclock.rules $(UDEVDIR)/
	for page in $(MAN_PAGES); do \
	  section=$${page##*.}; install -D -m 0644 $$page $(MANDIR)/man$$section/$$(basename $$page); \
	done
	install -D -m 0644 completion/wodclockctl.bash $(BASHCOMPDIR)/wodclockctl
	install -D -m 0644 completion/_wodclockctl $(ZSHCOMPDIR)/_wodclockctl
	@if [ -z "$(DESTDIR)" ]; then \
	  getent group wodclock >/dev/null || groupadd --system wodclock; \
	  getent passwd wodclock >/dev/null || useradd --system --gid wodclock --home-dir /var/lib/wodclock \
	    --no-create-home --shell /usr/sbin/nologin --comment "wodclock gym clock" wodclock; \
	  for group in gpio i2c dialout input audio; do getent group $$group >/dev/null || groupadd --system $$group; done; \
	  if [ -d /run/systemd/system ]; then systemctl daemon-reload; udevadm control --reload 2>/dev/null || true; fi; \
	  echo; . packaging/group-advice.sh; wodclock_group_advice; \
	  echo; echo "installed. next:"; \
	  echo "  edit /etc/wodclock/wodclock.yaml, then: wodclockd --check-config"; \
	  echo "  systemctl enable --now wodclockd"; \
	  echo "  wodclockctl status"; \
	fi

# Removes what `install` put in place; keeps the configuration, the state and history, and the
# system user (they belong to the gym, not to the program).
uninstall:
	@if [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ]; then \
	  systemctl disable --now wodclockd 2>/dev/null || true; \
	fi
	rm -f $(BINDIR)/wodclockd $(BINDIR)/wodclockctl $(UNITDIR)/wodclockd.service
	rm -f $(UDEVDIR)/60-wodclock.rules
	rm -f $(MANDIR)/man1/wodclockctl.1 $(MANDIR)/man5/wodclock.yaml.5 $(MANDIR)/man8/wodclockd.8
	rm -f $(BASHCOMPDIR)/wodclockctl $(ZSHCOMPDIR)/_wodclockctl
	rm -rf $(DOCDIR)
	@if [ -z "$(DESTDIR)" ] && [ -d /run/systemd/system ]; then systemctl daemon-reload; fi
	@echo "kept /etc/wodclock, /var/lib/wodclock and the wodclock user; remove them by hand if wanted"

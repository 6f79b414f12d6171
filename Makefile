# wodclock: the front door. `make demo` runs the clock, `make test` runs every test.
# Each target first installs the Debian packages it needs when they are missing.

SWIFT        ?= swift
PREFIX       ?= /usr/local
SWIFT_FLAGS  ?=
DEB_PACKAGES := python3 python3-yaml
STRICT       := -Xswiftc -warnings-as-errors

.PHONY: all deps build release demo test lint format bench clean

all: build

# Installs only what is missing, so a developer machine is left alone when it has everything.
deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  if [ "$$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi; \
	  $$SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q $$missing; \
	fi

build: deps
	$(SWIFT) build $(SWIFT_FLAGS)

release: deps
	$(SWIFT) build -c release --static-swift-stdlib $(SWIFT_FLAGS)

demo: release
	.build/release/wodclockd --config Config/examples/demo.yaml

test: deps
	$(SWIFT) build --build-tests $(STRICT) $(SWIFT_FLAGS)
	$(SWIFT) test --skip-build --parallel
	$(MAKE) lint
	Tests/scripts/run-all.sh

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests

format:
	$(SWIFT) format format --in-place --recursive Package.swift Sources Tests

bench: release
	.build/release/wodclock-bench all

clean:
	rm -rf .build

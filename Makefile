# share — build, run, test.
#   make run    install dependencies, build, and run share on the demo items
#   make test   install dependencies, build, and run every test
# Both work on a fresh Debian 12 machine, as root or through sudo.

SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
SUDO := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)
# libmagic: content types from bytes. file: the `file` command used by tests as an independent check.
APT_PACKAGES := libmagic-dev libmagic-mgc file libidn2-dev libcurl4-openssl-dev ca-certificates
SWIFT_FLAGS := -Xswiftc -warnings-as-errors
RELEASE_FLAGS := -c release --static-swift-stdlib $(SWIFT_FLAGS)
BIN := .build/release/share
DEMO := --title "Demo" --subject "Q4 numbers" --text "PIN 4821" https://nshipster.com \
        Demo/mustache.png "Demo/Q4 Projections.pdf"

.PHONY: all deps build run test clean

all: build

deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi

build: deps
	$(SWIFT) build $(RELEASE_FLAGS)

# Until the picker exists, the main job on the demo items is --explain.
run: build
	$(BIN) --explain $(DEMO)

test: deps
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	$(SWIFT) test --skip-build

clean:
	rm -rf .build

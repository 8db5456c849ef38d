# share — build, run, test.
#   make run    install dependencies, build, and run share on the demo items
#   make test   install dependencies, build, and run every test
# Both work on a fresh Debian 12 machine, as root or through sudo.

SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
SUDO := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)
# Build: libmagic (content types from bytes), libidn2 (IDN domains), libcurl (SMTP),
# ncursesw (the picker), libpng/libturbojpeg headers and libchafa (thumbnails, loaded
# at run time). Tests: Debian's python3-aiosmtpd (a real SMTP server), openssl (a
# test certificate) and tmux (the picker driven end to end).
APT_PACKAGES := libstdc++-12-dev libmagic-dev libmagic-mgc libmagic1 file libidn2-dev libidn2-0 libcurl4-openssl-dev ca-certificates \
                libncurses-dev libpng-dev libturbojpeg0-dev libchafa0 \
                python3-aiosmtpd python3-pil openssl tmux
# Benchmarks: the peers share is measured against, and GNU time for peak RSS.
BENCH_PACKAGES := mutt msmtp curl time whiptail dialog fzf
SWIFT_FLAGS := -Xswiftc -warnings-as-errors
# Release builds start fast (see DECISIONS.md, "Start-up"):
# - the Swift runtime linked statically, and no PIE: no relocation pass over
#   the runtime's metadata at each start;
# - libstdc++ and libgcc linked statically too: no dynamic loading, symbol
#   lookup and relocation of libstdc++ at each start (the Swift driver names
#   -lstdc++ itself, so a linker script in STATIC_CXX points it at the archive);
# - generic types' metadata reached through direct accessors, not looked up
#   by mangled name (which demangles and scans every protocol conformance);
# - no $ORIGIN run path: nothing of ours is a shared library;
# - no exported symbol table (the static runtime's link flags export every
#   symbol): the runtime's start-up dladdr and the loader's lookups walk
#   395 symbols instead of 2,940.
STATIC_CXX := $(CURDIR)/.build/static-libstdc++
RELEASE_FLAGS := -c release --static-swift-stdlib --disable-local-rpath -Xlinker -no-pie -Xlinker -L$(STATIC_CXX) \
                 -Xlinker --no-export-dynamic \
                 -Xswiftc -Xclang-linker -Xswiftc -static-libgcc \
                 -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors $(SWIFT_FLAGS)
BIN := .build/release/share
DEMO := --title "Demo" --subject "Q4 numbers" --text "PIN 4821" https://nshipster.com \
        Demo/mustache.png "Demo/Q4 Projections.pdf"

.PHONY: all deps bench-deps install-packages static-cxx build run test bench screenshots examples clean

all: build

deps:
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(APT_PACKAGES)"

bench-deps:
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(APT_PACKAGES) $(BENCH_PACKAGES)"

install-packages:
	@missing=""; for p in $(PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi

# A linker script named libstdc++.so that stands for the static archive.
static-cxx: deps
	@archive=$$(gcc -print-file-name=libstdc++.a); \
	case "$$archive" in /*) ;; *) echo "libstdc++.a not found: apt-get install libstdc++-12-dev" >&2; exit 1 ;; esac; \
	mkdir -p $(STATIC_CXX) && printf 'INPUT(%s)\n' "$$archive" > $(STATIC_CXX)/libstdc++.so

build: static-cxx
	$(SWIFT) build $(RELEASE_FLAGS)

# The main job: the picker on the demo items (the UI is drawn on /dev/tty).
run: build
	@# Exit 1 is a cancelled or unsent share, not a failure of make.
	$(BIN) $(DEMO) || [ $$? -eq 1 ]

test: static-cxx
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	$(SWIFT) test --skip-build
	@# The end-to-end tests again on the release build, whose link flags differ.
	$(SWIFT) build $(RELEASE_FLAGS)
	SHARE_BIN=$(CURDIR)/$(BIN) $(SWIFT) test --skip-build --filter ShareCLITests

# The Swift API's examples (Examples/): .build/debug/example-custom-mail, example-mustachify, example-pin-share.
examples: deps
	$(SWIFT) build $(SWIFT_FLAGS) --product example-custom-mail
	$(SWIFT) build $(SWIFT_FLAGS) --product example-pin-share
	$(SWIFT) build $(SWIFT_FLAGS) --product example-mustachify

# Benchmarks compare share with its peers in one run; see bench/RESULTS.md.
bench: bench-deps static-cxx
	$(SWIFT) build $(RELEASE_FLAGS)
	bench/tui/run.sh
	bench/mime/run.sh

# Screenshots: the real binaries in tmux, rendered to PNGs (see screenshots/README.md).
SCREENSHOT_PACKAGES := tmux python3-pil fonts-dejavu-core fonts-nanum fonts-symbola

screenshots: static-cxx
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(SCREENSHOT_PACKAGES)"
	SWIFT="$(SWIFT)" RELEASE_FLAGS="$(RELEASE_FLAGS)" tools/screenshots.sh

clean:
	rm -rf .build

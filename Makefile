# share — build, run, test.
#   make run    install dependencies, build, and run share on the demo items
#   make test   install dependencies, build, and run every test
# Both work on a fresh Debian 12 machine, as root or through sudo.

SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
SUDO := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)
# Build: libmagic (content types from bytes), libidn2 (IDN domains), libcurl (SMTP),
# ncursesw (the picker), libpng/libturbojpeg headers and libchafa (thumbnails, loaded
# at run time), libstrophe (XMPP for Message, loaded at run time), libcups2 (Print,
# loaded at run time), libxml2 (HTML read, loaded at run time). Tests: Debian's python3-aiosmtpd (a real SMTP server), openssl (a
# test certificate), tmux (the picker driven end to end), python3-vobject (vCards
# read by another program), CUPS (a real scheduler for Print; lpadmin sets it up) and
# groff (the man page renders without a warning), zsh and fish (their completions),
# mblaze (a second MIME parser beside Python's email), gettext (msgfmt compiles the
# translations) and locales (the Korean locale the translation tests make), prosody
# with lua-sec (a real XMPP server) and python3-slixmpp (an independent XMPP client),
# fiche (a real termbin server for Link) and rclone (a WebDAV server and a remote for Link),
# libgpgme (OpenPGP for Mail, loaded at run time) with gpg, its agent and the curses pinentry,
# python3-venv (the tests install Synapse from PyPI into a virtual environment of their own),
# exiftool (libimage-exiftool-perl: another reader of what --no-location and --no-metadata leave in a picture),
# iproute2 (the LocalSend tests run each receiver in a network namespace of its own), python3-cryptography and
# python3-requests (localsend-cli, installed from PyPI into a virtual environment that uses Debian's),
# dovecot-imapd (a real IMAP server for Mail's sent copies and drafts, started by the tests with a config of their own),
# the programs the integrations are tested in (ranger, nnn, lf, vifm, vim, neovim) and xdg-utils (xdg-mime,
# xdg-email and xdg-open for the mailto: handler), and for share-portal: xdg-desktop-portal (the frontend
# applications call), dbus-daemon (dbus-run-session), libglib2.0-bin (gdbus call) and python3-gi (an
# application passing its attachments' descriptors), with libsystemd0 (sd-bus, loaded by share-portal).
APT_PACKAGES := libstdc++-12-dev libmagic-dev libmagic-mgc libmagic1 file libidn2-dev libidn2-0 libcurl4-openssl-dev ca-certificates \
                libncurses-dev libpng-dev libturbojpeg0-dev libchafa0 libstrophe-dev libcups2 libxml2 \
                python3-aiosmtpd python3-pil python3-vobject openssl tmux cups-daemon cups-client cups-filters groff-base zsh fish mblaze gettext locales \
                prosody lua-sec python3-slixmpp libqrencode4 zbar-tools libmicrohttpd-dev libarchive-dev curl \
                magic-wormhole python3-magic-wormhole-mailbox-server magic-wormhole-transit-relay libssl3 python3-oauthlib \
                libcmark-gfm-dev libcmark-gfm-extensions-dev libgpgme-dev gnupg gpg-agent pinentry-curses python3-venv \
                fiche rclone libimage-exiftool-perl iproute2 python3-cryptography python3-requests dovecot-imapd \
                ranger nnn lf vifm vim neovim xdg-utils xdg-desktop-portal dbus-daemon libglib2.0-bin python3-gi libsystemd0
# Benchmarks: the peers share is measured against (mat2 beside exiftool for bench/options), and GNU time for peak RSS.
BENCH_PACKAGES := mutt msmtp curl time whiptail dialog fzf nano vim khard nginx-light mat2
SWIFT_FLAGS := -Xswiftc -warnings-as-errors
# Release builds start fast (see DECISIONS.md, "Start-up"):
# - the Swift runtime linked statically, and no PIE: no relocation pass over
#   the runtime's metadata at each start;
# - libstdc++, libgcc and ncursesw (with its libtinfo) linked statically too:
#   no dynamic loading, symbol lookup and relocation of them at each start
#   (0.15 ms for ncurses alone). The Swift driver names -lstdc++ and the
#   CNcursesw module -lncursesw, so linker scripts of those names in
#   STATIC_LIBS point the linker at the archives;
# - generic types' metadata reached through direct accessors, not looked up
#   by mangled name (which demangles and scans every protocol conformance);
# - no $ORIGIN run path: nothing of ours is a shared library;
# - no exported symbol table (the static runtime's link flags export every
#   symbol): the runtime's start-up dladdr and the loader's lookups walk
#   395 symbols instead of 2,940.
# - each function in a section of its own, and those the picker runs from
#   its start to its first keys (tools/first-paint.order, written by
#   `make first-paint-order`) put together by the linker (gold's
#   --section-ordering-file): the first paint maps a few pages of code,
#   not one or two in every object file; unused functions are dropped.
# And keys are quick: cross-module optimization lets a generic of one module
# (the screen loop) be specialized for a type of another (the compose
# screen), so a keystroke looks up no generic metadata at run time.
# NCURSES=shared links ncursesw as a shared library instead (the Debian
# package: Debian's security updates of ncurses then reach share, and lintian
# refuses an embedded copy), through a folder of linker scripts of its own.
NCURSES ?= static
STATIC_LIBS := $(CURDIR)/.build/static-libs$(if $(filter shared,$(NCURSES)),-shared-ncurses)
RELEASE_FLAGS := -c release --static-swift-stdlib --disable-local-rpath -Xlinker -no-pie -Xlinker -L$(STATIC_LIBS) \
                 -Xlinker --no-export-dynamic \
                 -Xswiftc -Xclang-linker -Xswiftc -static-libgcc \
                 -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors \
                 -Xswiftc -Xfrontend -Xswiftc -function-sections \
                 -Xlinker --section-ordering-file=$(CURDIR)/tools/first-paint.order \
                 -Xswiftc -cross-module-optimization $(SWIFT_FLAGS)
BIN := .build/release/share
DEMO := --title "Demo" --subject "Q4 numbers" --text "PIN 4821" https://nshipster.com \
        Demo/mustache.png "Demo/Q4 Projections.pdf"

.PHONY: all deps bench-deps install-packages static-libs locale build first-paint-order run test bench fuzz fuzz-build screenshots examples man install uninstall deb deb-test clean

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

# Linker scripts named libstdc++.so and libncursesw.so that stand for the
# static archives (release builds only: debug builds and tests link the
# shared libraries).
static-libs: deps
	@mkdir -p $(STATIC_LIBS); \
	for lib in stdc++ ncursesw tinfo; do \
	  case "$$(gcc -print-file-name=lib$$lib.a)" in /*) ;; \
	  *) echo "lib$$lib.a not found: apt-get install libstdc++-12-dev libncurses-dev" >&2; exit 1 ;; esac; \
	done; \
	printf 'INPUT(%s)\n' "$$(gcc -print-file-name=libstdc++.a)" > $(STATIC_LIBS)/libstdc++.so; \
	if [ "$(NCURSES)" = shared ]; then rm -f $(STATIC_LIBS)/libncursesw.so; else \
	  printf 'INPUT(%s %s)\n' "$$(gcc -print-file-name=libncursesw.a)" "$$(gcc -print-file-name=libtinfo.a)" \
	    > $(STATIC_LIBS)/libncursesw.so; fi

build: static-libs locale
	$(SWIFT) build $(RELEASE_FLAGS)

# The functions the picker's start runs, for the linker to put together
# (see RELEASE_FLAGS): written again from the release build, under
# valgrind (installed here if missing), when the start-up path changes.
first-paint-order: build
	@$(MAKE) --no-print-directory install-packages PACKAGES="valgrind"
	tools/first-paint-order.sh

# Translations: po/LANG.po compiled into .build/locale/LANG/LC_MESSAGES/share.mo,
# where a build's binaries look for them (installed ones in PREFIX/share/locale).
LANGUAGES := $(basename $(notdir $(wildcard po/*.po)))
locale: $(foreach l,$(LANGUAGES),.build/locale/$(l)/LC_MESSAGES/share.mo)

.build/locale/%/LC_MESSAGES/share.mo: po/%.po | deps
	@mkdir -p $(dir $@)
	msgfmt --check -o $@ $<

# The main job: the picker on the demo items (the UI is drawn on /dev/tty).
run: build
	@# Exit 1 is a cancelled or unsent share, not a failure of make.
	$(BIN) $(DEMO) || [ $$? -eq 1 ]

test: static-libs locale
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	$(SWIFT) test --skip-build
	@# The end-to-end tests again on the release build, whose link flags differ.
	$(SWIFT) build $(RELEASE_FLAGS)
	SHARE_BIN=$(CURDIR)/$(BIN) $(SWIFT) test --skip-build --filter ShareCLITests
	@# Every seed and every input that once failed, through its fuzz target; then each target fuzzed
	@# briefly, from its seeds with a fixed seed, so that a run is the same inputs every time.
	for target in $(FUZZ_TARGETS); do .build/debug/share-fuzz $$target Fuzz/corpus/$$target Fuzz/regressions/$$target || exit 1; done
	$(MAKE) --no-print-directory fuzz FUZZ_RUNS=5000 FUZZ_WORK=.build/fuzz/smoke
	@# The Debian package built, checked by lintian, installed into a dpkg root and into a fresh Debian.
	$(MAKE) --no-print-directory deb-test

# Fuzzing: each parser of untrusted input under libFuzzer and AddressSanitizer
# for FUZZ_SECONDS (see Fuzz/README.md; figures in bench/RESULTS.md).
FUZZ_TARGETS := address mailto ini vcard keys mime draft thumbnail photo metadata
FUZZ_SECONDS ?= 300
FUZZ_WORK ?= .build/fuzz
FUZZ_RUNS ?=
# Optimised (two to three times the executions of a debug build), with the
# internal parsers reachable (-enable-testing); no dead stripping, which would
# drop the coverage counters of every module but one.
FUZZ_FLAGS := -c release -Xswiftc -enable-testing --build-path .build/fuzz \
              --sanitize=fuzzer --sanitize=address --disable-dead-strip \
              -Xswiftc -DSHARE_FUZZER -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp

fuzz-build: deps
	@# The linker warns about each of AddressSanitizer's local symbols: the log is shown only on failure.
	@mkdir -p .build
	$(SWIFT) build $(FUZZ_FLAGS) --product share-fuzz >.build/fuzz-build.log 2>&1 || \
	  { grep -v "warning: Cannot export local symbol" .build/fuzz-build.log; exit 1; }

fuzz: fuzz-build
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_RUNS=$(FUZZ_RUNS) FUZZ_TARGETS="$(FUZZ_TARGETS)" FUZZ_WORK=$(FUZZ_WORK) tools/fuzz.sh

# The Swift API's examples (Examples/): .build/debug/example-custom-mail, example-mustachify, example-pin-share.
examples: deps
	$(SWIFT) build $(SWIFT_FLAGS) --product example-custom-mail
	$(SWIFT) build $(SWIFT_FLAGS) --product example-pin-share
	$(SWIFT) build $(SWIFT_FLAGS) --product example-mustachify

# Benchmarks compare share with its peers in one run; see bench/RESULTS.md.
bench: bench-deps static-libs
	$(SWIFT) build $(RELEASE_FLAGS)
	bench/tui/run.sh
	bench/mime/run.sh
	bench/compose/run.sh
	bench/nearby/run.sh
	bench/social/run.sh
	bench/link/run.sh
	bench/options/run.sh
	bench/localsend/run.sh
	bench/smtp/run.sh
	bench/imap/run.sh

# Screenshots: the real binaries in tmux, rendered to PNGs (see screenshots/README.md).
SCREENSHOT_PACKAGES := tmux python3-pil fonts-dejavu-core fonts-nanum fonts-symbola

screenshots: static-libs locale
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(SCREENSHOT_PACKAGES)"
	SWIFT="$(SWIFT)" RELEASE_FLAGS="$(RELEASE_FLAGS)" tools/screenshots.sh

# Installing: the binary, the man page and the completions of bash, zsh and
# fish (made by the binary from its option table), and the systemd user units
# that run share --flush every five minutes (their ExecStart names the binary
# installed here), the integrations (contrib/: the same text share
# --integration NAME prints) in PREFIX/share/share/integrations, the Vim and
# Neovim plugin where each looks for plugins, and share-mail.desktop (the
# mailto: handler), and the desktop's Email portal backend (share-portal, a link
# to share in PREFIX/libexec, its .portal file and its D-Bus service file),
# under PREFIX, staged under DESTDIR when given (packaging).
# `make install` as root installs for everyone.
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(DESTDIR)$(PREFIX)/bin
MAN1DIR = $(DESTDIR)$(PREFIX)/share/man/man1
BASHDIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHDIR = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
LOCALEDIR = $(DESTDIR)$(PREFIX)/share/locale
SYSTEMDUSERDIR = $(DESTDIR)$(PREFIX)/lib/systemd/user
INTEGRATIONSDIR = $(DESTDIR)$(PREFIX)/share/share/integrations
INTEGRATION_FILES := ranger/rc.conf nnn/share lf/lfrc vifm/vifmrc vim/share.vim tmux/share.tmux.conf
VIMPLUGINDIR = $(DESTDIR)$(PREFIX)/share/vim/vimfiles/plugin
NVIMPLUGINDIR = $(DESTDIR)$(PREFIX)/share/nvim/site/plugin
APPLICATIONSDIR = $(DESTDIR)$(PREFIX)/share/applications
LIBEXECDIR = $(DESTDIR)$(PREFIX)/libexec
PORTALSDIR = $(DESTDIR)$(PREFIX)/share/xdg-desktop-portal/portals
DBUSSERVICESDIR = $(DESTDIR)$(PREFIX)/share/dbus-1/services
PORTAL_SERVICE := org.freedesktop.impl.portal.desktop.share.service

install: build
	install -d "$(BINDIR)" "$(MAN1DIR)" "$(BASHDIR)" "$(ZSHDIR)" "$(FISHDIR)"
	install -m 755 "$(BIN)" "$(BINDIR)/share"
	install -m 644 share.1 "$(MAN1DIR)/share.1"
	ln -sf share.1 "$(MAN1DIR)/share-portal.1"
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	  for shell in bash zsh fish; do "$(BIN)" --completions $$shell > "$$tmp/$$shell"; done; \
	  install -m 644 "$$tmp/bash" "$(BASHDIR)/share"; \
	  install -m 644 "$$tmp/zsh" "$(ZSHDIR)/_share"; \
	  install -m 644 "$$tmp/fish" "$(FISHDIR)/share.fish"
	for l in $(LANGUAGES); do install -D -m 644 .build/locale/$$l/LC_MESSAGES/share.mo "$(LOCALEDIR)/$$l/LC_MESSAGES/share.mo"; done
	install -d "$(SYSTEMDUSERDIR)"
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	  sed 's|@BINDIR@|$(PREFIX)/bin|' contrib/systemd/share-flush.service.in > "$$tmp/share-flush.service"; \
	  install -m 644 "$$tmp/share-flush.service" "$(SYSTEMDUSERDIR)/share-flush.service"
	install -m 644 contrib/systemd/share-flush.timer "$(SYSTEMDUSERDIR)/share-flush.timer"
	for f in $(INTEGRATION_FILES); do install -D -m "$$([ -x contrib/$$f ] && echo 755 || echo 644)" "contrib/$$f" "$(INTEGRATIONSDIR)/$$f"; done
	install -D -m 644 contrib/vim/share.vim "$(VIMPLUGINDIR)/share.vim"
	install -D -m 644 contrib/vim/share.vim "$(NVIMPLUGINDIR)/share.vim"
	install -D -m 644 contrib/applications/share-mail.desktop "$(APPLICATIONSDIR)/share-mail.desktop"
	install -d "$(LIBEXECDIR)" "$(DBUSSERVICESDIR)"
	ln -sf ../bin/share "$(LIBEXECDIR)/share-portal"
	install -D -m 644 contrib/portal/share.portal "$(PORTALSDIR)/share.portal"
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	  sed 's|@LIBEXECDIR@|$(PREFIX)/libexec|' contrib/portal/$(PORTAL_SERVICE).in > "$$tmp/$(PORTAL_SERVICE)"; \
	  install -m 644 "$$tmp/$(PORTAL_SERVICE)" "$(DBUSSERVICESDIR)/$(PORTAL_SERVICE)"
	@echo "installed share in $(BINDIR)"

uninstall:
	rm -f "$(BINDIR)/share" "$(MAN1DIR)/share.1" "$(MAN1DIR)/share-portal.1" "$(BASHDIR)/share" "$(ZSHDIR)/_share" "$(FISHDIR)/share.fish"
	for l in $(LANGUAGES); do rm -f "$(LOCALEDIR)/$$l/LC_MESSAGES/share.mo"; done
	rm -f "$(SYSTEMDUSERDIR)/share-flush.service" "$(SYSTEMDUSERDIR)/share-flush.timer"
	for f in $(INTEGRATION_FILES); do rm -f "$(INTEGRATIONSDIR)/$$f"; rmdir "$$(dirname "$(INTEGRATIONSDIR)/$$f")" 2>/dev/null || true; done
	rmdir "$(INTEGRATIONSDIR)" 2>/dev/null || true
	rm -f "$(VIMPLUGINDIR)/share.vim" "$(NVIMPLUGINDIR)/share.vim" "$(APPLICATIONSDIR)/share-mail.desktop"
	rm -f "$(LIBEXECDIR)/share-portal" "$(PORTALSDIR)/share.portal" "$(DBUSSERVICESDIR)/$(PORTAL_SERVICE)"

# The Debian package (debian/): .build/deb/share-sheet_VERSION_ARCH.deb, made by
# debian/rules with `make build` and `make install DESTDIR=... PREFIX=/usr`, and
# refused when lintian finds an error. Build dependencies are checked against
# debian/control; nothing needs root (Rules-Requires-Root: no).
DEB_PACKAGES := debhelper dpkg-dev lintian
DEB_DIR := .build/deb

deb: static-libs locale
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(DEB_PACKAGES)"
	dpkg-checkbuilddeps
	rm -rf $(DEB_DIR) && mkdir -p $(DEB_DIR)
	DEB_RULES_REQUIRES_ROOT=no debian/rules build
	DEB_RULES_REQUIRES_ROOT=no debian/rules binary DEB_DESTDIR=$(CURDIR)/$(DEB_DIR)
	DEB_RULES_REQUIRES_ROOT=no debian/rules clean
	lintian --fail-on error --info $(DEB_DIR)/*.deb

# The package installed into a new dpkg root, and what it installed run and checked;
# then by apt into a fresh Debian that mmdebstrap makes (deb.debian.org must be reachable).
deb-test: deb
	@$(MAKE) --no-print-directory install-packages PACKAGES="mmdebstrap"
	tools/deb-test.sh $(DEB_DIR)

# The man page from the option table (share-docs man); checked in, and a test
# fails when it differs from what the table makes.
man:
	$(SWIFT) build --product share-docs $(SWIFT_FLAGS)
	.build/debug/share-docs man > share.1

clean:
	rm -rf .build

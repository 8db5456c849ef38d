#!/usr/bin/env bash
# The Debian package made by `make deb`, installed by dpkg into a new root and
# checked: what it declares, that dpkg accepts its dependencies, that the
# installed share runs, and that every file is where its reader looks; then
# installed by apt into a fresh Debian made by mmdebstrap, where share runs
# with what its Depends bring and nothing else.
#
# The root's dpkg database starts as this machine's list of installed packages
# (the libraries `make deps` installed), so dpkg checks Depends against real
# packages; the installed binary runs on this machine's libraries. The
# maintainer scripts run outside the root with DPKG_ROOT set, as debhelper's
# do when dpkg installs into another root.
#
# Usage: tools/deb-test.sh DIR   (DIR holds share-sheet_VERSION_ARCH.deb)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-.build/deb}
failures=0
fail() { echo "deb-test: FAIL: $*" >&2; failures=$((failures + 1)); }
pass() { echo "deb-test: ok: $*"; }

version=$(dpkg-parsechangelog -S Version)
arch=$(dpkg --print-architecture)
deb="$dir/share-sheet_${version}_${arch}.deb"
[ -f "$deb" ] || { echo "deb-test: FAIL: no $deb (make deb)" >&2; exit 1; }

# What the package declares.
field() { dpkg-deb -f "$deb" "$1"; }
names() { field "$1" | tr ',|' '\n\n' | sed 's/(.*)//; s/[[:space:]]//g' | grep -v '^$' || true; }
[ "$(field Package)" = share-sheet ] && pass "Package: share-sheet" || fail "Package: $(field Package)"
# Every library share loads with dlopen (the shims' sonames), by the package
# that has it on this machine, is a Depends or a Recommends.
declared=" $(names Depends | tr '\n' ' ') $(names Recommends | tr '\n' ' ') "
for soname in $(grep -ho '\.sonames = {[^}]*}' Sources/C*/*.c | grep -o '"[^"]*"' | tr -d '"' | sort -u); do
  owner=$(dpkg -S "*/$soname" 2>/dev/null | head -1 | cut -d: -f1)
  if [ -z "$owner" ]; then fail "$soname: no installed package has it"
  elif [[ "$declared" == *" $owner "* ]]; then pass "$soname: $owner declared"
  else fail "$soname is in $owner, which is neither a Depends nor a Recommends"; fi
done
# The libraries it links, found by dh_shlibdeps.
for p in libc6 libncursesw6 libtinfo6; do
  names Depends | grep -qx "$p" && pass "Depends: $p" || fail "Depends lacks $p"
done
# Every package named is one Debian has.
for p in $(names Depends) $(names Recommends) $(names Suggests); do
  apt-cache show --no-all-versions "$p" >/dev/null 2>&1 || fail "$p is no package apt knows"
done

# Installed into a new root.
root=$(mktemp -d)
home=$(mktemp -d)
trap 'rm -rf "$root" "$home"' EXIT
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" "$root/var/log"
cp /var/lib/dpkg/status "$root/var/lib/dpkg/status"
touch "$root/var/lib/dpkg/available"
dpkg=(dpkg --root="$root" --force-not-root --force-script-chrootless)
if "${dpkg[@]}" -i "$deb" >"$home/dpkg.log" 2>&1; then pass "dpkg -i into $root"
else cat "$home/dpkg.log" >&2; fail "dpkg -i into the new root"; fi
status=$("${dpkg[@]}" -s share-sheet 2>/dev/null | sed -n 's/^Status: //p')
[ "$status" = "install ok installed" ] && pass "dpkg -s: $status" || fail "dpkg -s: '$status'"

# The installed share runs.
run() { env -i HOME="$home" PATH=/usr/bin:/bin LANG=C.UTF-8 "$root/usr/bin/share" "$@"; }
out=$(run --version) && [ "$out" = "share ${version%%-*}" ] && pass "share --version: $out" \
  || fail "share --version: '$out' (the changelog says $version)"
out=$(run --help) && grep -q '^Usage: share ' <<<"$out" && pass "share --help" || fail "share --help: $out"

# Each file where its reader looks, with what share itself makes.
same() { # NAME FILE COMMAND...: FILE holds exactly what COMMAND prints
  local name=$1 file=$2; shift 2
  if [ ! -f "$file" ]; then fail "$name: no ${file#"$root"}"
  elif cmp -s "$file" <("$@"); then pass "$name: ${file#"$root"}"
  else fail "$name: ${file#"$root"} differs"; fi
}
man="$root/usr/share/man/man1/share.1.gz"
if [ ! -f "$man" ]; then fail "man page: no /usr/share/man/man1/share.1.gz"
elif zcat "$man" | cmp -s - share.1; then pass "man page: /usr/share/man/man1/share.1.gz"
else fail "man page: /usr/share/man/man1/share.1.gz is not share.1"; fi
same "bash completions" "$root/usr/share/bash-completion/completions/share" run --completions bash
same "zsh completions" "$root/usr/share/zsh/vendor-completions/_share" run --completions zsh
same "fish completions" "$root/usr/share/fish/vendor_completions.d/share.fish" run --completions fish
if command -v zsh >/dev/null; then
  zsh -fc 'print -l $fpath' | grep -qx /usr/share/zsh/vendor-completions \
    && pass "zsh's fpath has /usr/share/zsh/vendor-completions" || fail "zsh's fpath lacks /usr/share/zsh/vendor-completions"
fi
integrations="$root/usr/share/share/integrations"
for pair in ranger:ranger/rc.conf nnn:nnn/share lf:lf/lfrc vifm:vifm/vifmrc vim:vim/share.vim tmux:tmux/share.tmux.conf; do
  same "${pair%%:*} integration" "$integrations/${pair#*:}" run --integration "${pair%%:*}"
done
[ -x "$integrations/nnn/share" ] && pass "the nnn plugin is executable" || fail "the nnn plugin is not executable"
same "Vim plugin" "$root/usr/share/vim/vimfiles/plugin/share.vim" run --integration vim
same "Neovim plugin" "$root/usr/share/nvim/site/plugin/share.vim" run --integration nvim
grep -qx 'ExecStart=/usr/bin/share --flush' "$root/usr/lib/systemd/user/share-flush.service" 2>/dev/null \
  && pass "share-flush.service runs /usr/bin/share" || fail "share-flush.service does not run /usr/bin/share --flush"
grep -qx 'OnCalendar=\*:0/5' "$root/usr/lib/systemd/user/share-flush.timer" 2>/dev/null \
  && pass "share-flush.timer" || fail "no share-flush.timer every five minutes"
[ ! -e "$root/etc/systemd/user/timers.target.wants/share-flush.timer" ] \
  && pass "the timer is not enabled for every user" || fail "the timer was enabled for every user"
grep -qx 'MimeType=x-scheme-handler/mailto;' "$root/usr/share/applications/share-mail.desktop" 2>/dev/null \
  && pass "share-mail.desktop handles mailto:" || fail "no mailto: handler in /usr/share/applications"
[ "$(readlink -f "$root/usr/libexec/share-portal")" = "$root/usr/bin/share" ] \
  && pass "share-portal is share" || fail "/usr/libexec/share-portal does not lead to /usr/bin/share"
grep -qx 'Interfaces=org.freedesktop.impl.portal.Email;' "$root/usr/share/xdg-desktop-portal/portals/share.portal" 2>/dev/null \
  && pass "share.portal serves Email" || fail "no share.portal for the Email portal"
grep -qx 'Exec=/usr/libexec/share-portal' "$root/usr/share/dbus-1/services/org.freedesktop.impl.portal.desktop.share.service" 2>/dev/null \
  && pass "D-Bus starts /usr/libexec/share-portal" || fail "no D-Bus service file that starts /usr/libexec/share-portal"
[ -f "$root/usr/share/locale/ko/LC_MESSAGES/share.mo" ] && pass "Korean catalog" || fail "no Korean catalog"
[ -f "$root/usr/share/doc/share-sheet/copyright" ] && pass "copyright" || fail "no /usr/share/doc/share-sheet/copyright"

# Removed, nothing of it is left.
"${dpkg[@]}" --purge share-sheet >"$home/dpkg.log" 2>&1 || { cat "$home/dpkg.log" >&2; fail "dpkg --purge"; }
left=$( { find "$root/usr" ! -type d 2>/dev/null || true; } | sed "s|^$root||")
[ -z "$left" ] && pass "dpkg --purge leaves nothing under /usr" || fail "dpkg --purge left: $left"

# A fresh Debian made by mmdebstrap (variant apt: no Recommends), where apt
# installs the package with what its Depends name from the archive, and share
# runs on those alone: --list types a picture with no extension by libmagic.
suite=$(. /etc/os-release && echo "$VERSION_CODENAME")
if ! command -v mmdebstrap >/dev/null; then fail "mmdebstrap is not installed"
elif mmdebstrap --variant=apt --format=null --quiet "$suite" /dev/null \
    --customize-hook="copy-in $deb Demo/mustache.png /tmp" \
    --customize-hook='mv "$1/tmp/mustache.png" "$1/tmp/picture"' \
    --customize-hook="chroot \"\$1\" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends /tmp/${deb##*/}" \
    --customize-hook="chroot \"\$1\" sh -c 'test \"\$(share --version)\" = \"share ${version%%-*}\"'" \
    --customize-hook="chroot \"\$1\" sh -c 'share --help | grep -q \"^Usage: share \"'" \
    --customize-hook="chroot \"\$1\" sh -c 'share --list /tmp/picture | grep -q \"^saveToCameraRoll\"'" \
    --customize-hook="chroot \"\$1\" sh -c 'test \"\$(/usr/libexec/share-portal --version)\" = \"share-portal ${version%%-*}\"'" \
    --customize-hook='test -f "$1/usr/share/man/man1/share.1.gz" && test -f "$1/usr/share/bash-completion/completions/share"' \
    >"$home/mmdebstrap.log" 2>&1
then pass "mmdebstrap $suite: apt installs it, and share runs with its Depends alone"
else tail -30 "$home/mmdebstrap.log" >&2; fail "mmdebstrap $suite: the package in a fresh root"; fi

if [ "$failures" -gt 0 ]; then echo "deb-test: $failures failed" >&2; exit 1; fi
echo "deb-test: all passed"

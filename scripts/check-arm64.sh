#!/usr/bin/env bash
# The Raspberry Pi's architecture, emulated: an arm64 Debian bookworm root made with
# debootstrap and run through qemu-user-static, the project installed in it by
# scripts/install-pi.sh exactly as on a Pi, then its vision tests and one headless demo of
# each game run in it. Correctness only: qemu's times say nothing of a Pi's.
#
# Run as root on a Debian or Ubuntu machine (`sudo make check-arm64`); it installs
# debootstrap, qemu-user-static and binfmt-support with apt. The root is kept between runs
# (ARM64_ROOT, default build/arm64-root): a second run reinstalls the project and tests again.
#
# Raspberry Pi OS ships two packages Debian does not, python3-picamera2 and python3-lgpio;
# install-pi.sh asks apt for both. Here each is a STAND-IN: an empty package of that name
# from a local folder, saying so in its description (gpiozero's lgpio pins then come from
# PyPI's lgpio, which the `pi` extra names; picamera2 is imported only inside hw/ on a Pi).
# In the root systemctl works offline (SYSTEMD_OFFLINE=1: it enables the unit and ignores
# daemon-reload and restart), so the service is installed and enabled but not started;
# `systemd-analyze verify` checks both units.
set -euo pipefail

SOURCE=$(cd "$(dirname "$0")/.." && pwd)
ROOT=$(realpath -m "${ARM64_ROOT:-$SOURCE/build/arm64-root}")
MIRROR=${ARM64_MIRROR:-http://deb.debian.org/debian}
PREFIX=/opt/caboose-companion
GAMES=(caboose yardmaster-express switching)

if [ "$(id -u)" -ne 0 ]; then
    echo "check-arm64: run as root (debootstrap and chroot need it): sudo $0" >&2
    exit 1
fi
started=$(date +%s)
say() { echo "== [$(( $(date +%s) - started ))s] $*"; }

say "the host: debootstrap and qemu-user-static, arm64 programs run through qemu"
if ! command -v debootstrap >/dev/null || [ ! -e /usr/bin/qemu-aarch64-static ] \
    || ! command -v update-binfmts >/dev/null; then
    apt-get update -qq
    apt-get install -y -qq debootstrap qemu-user-static binfmt-support
fi
if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
fi
update-binfmts --enable qemu-aarch64 2>/dev/null || true
if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
    echo "check-arm64: the kernel runs no arm64 programs through qemu (binfmt_misc)" >&2
    exit 1
fi

if [ ! -e "$ROOT/.made" ]; then
    say "an arm64 Debian bookworm root in $ROOT (debootstrap: about 15 minutes here)"
    rm -rf "$ROOT"
    mkdir -p "$(dirname "$ROOT")"
    debootstrap --arch=arm64 --variant=minbase --include=python3,ca-certificates \
        bookworm "$ROOT" "$MIRROR"
    touch "$ROOT/.made"
fi
[ "$(chroot "$ROOT" uname -m)" = aarch64 ] || { echo "check-arm64: the root is not arm64" >&2; exit 1; }

# A command in the root: systemctl offline; the host's pip folders (PIP_FIND_LINKS) mean
# nothing there.
inroot() { chroot "$ROOT" env -u PIP_FIND_LINKS SYSTEMD_OFFLINE=1 "$@"; }

mounted=()
cleanup() {
    for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[i]}" || true; done
}
trap cleanup EXIT
for fs in proc sys dev dev/pts; do
    if ! mountpoint -q "$ROOT/$fs"; then
        mount --bind "/$fs" "$ROOT/$fs"
        mounted+=("$ROOT/$fs")
    fi
done
cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
# The host's own certificate authorities (a network that inspects HTTPS has one), so that
# apt and pip in the root reach their registries as the host does.
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    cp /usr/local/share/ca-certificates/*.crt "$ROOT/usr/local/share/ca-certificates/"
    inroot update-ca-certificates >/dev/null
fi
# What this check needs beside install-pi.sh's own packages: systemctl and systemd-analyze
# (a Pi has them), apt-ftparchive for the stand-ins' folder.
inroot apt-get update -qq
inroot apt-get install -y -qq --no-install-recommends systemd apt-utils >/dev/null

say "stand-ins for Raspberry Pi OS's python3-picamera2 and python3-lgpio (empty packages)"
standin="$ROOT/var/local/standin"
rm -rf "$standin"
mkdir -p "$standin"
for package in python3-picamera2 python3-lgpio; do
    mkdir -p "$standin/$package/DEBIAN"
    chmod -R u=rwX,go=rX,g-s "$standin/$package"  # dpkg-deb refuses an inherited setgid bit
    cat >"$standin/$package/DEBIAN/control" <<EOF
Package: $package
Version: 0.0~standin
Architecture: all
Maintainer: Caboose Companion check-arm64 <nobody@localhost>
Description: STAND-IN for Raspberry Pi OS's $package (check-arm64)
 An empty package so that install-pi.sh's apt-get finds it on plain Debian arm64.
EOF
    dpkg-deb --build --root-owner-group "$standin/$package" "$standin/$package.deb" >/dev/null
    rm -rf "${standin:?}/$package"
done
inroot sh -c 'cd /var/local/standin && apt-ftparchive packages . > Packages'
inroot groupadd -f gpio  # Raspberry Pi OS's group of the GPIO pins' users
echo "deb [trusted=yes] file:/var/local/standin ./" >"$ROOT/etc/apt/sources.list.d/standin.list"

say "install-pi.sh in the root, as on a Pi (the checkout copied to /var/local/checkout)"
rm -rf "$ROOT/var/local/checkout"
mkdir -p "$ROOT/var/local/checkout"
tar -C "$SOURCE" --exclude=./.venv --exclude='./.venv-*' --exclude=./.git --exclude=./build \
    --exclude='*.pyc' --exclude=./tests/artifacts --exclude=./.pytest_cache \
    --exclude=./.ruff_cache -cf - . | tar -C "$ROOT/var/local/checkout" -xf -
inroot /var/local/checkout/scripts/install-pi.sh

say "systemd-analyze verify on the units as installed"
inroot systemd-analyze verify /etc/systemd/system/caboose-companion.service
inroot systemctl is-enabled caboose-companion.service
inroot env XDG_RUNTIME_DIR=/tmp systemd-analyze --user verify \
    /var/local/checkout/systemd/companion-kiosk.service

say "the vision tests and the voice (espeak-ng) in the root (pytest from PyPI into the venv)"
# The labelled dice photographs lie beside a checkout (../shared/data/dice-real): beside
# the installed code too, so that the real photographs' floors run rather than skip.
photos="$SOURCE/../shared/data/dice-real"
if [ -d "$photos" ]; then
    mkdir -p "$ROOT$PREFIX/../shared/data"
    rm -rf "$ROOT$PREFIX/../shared/data/dice-real"
    cp -r "$photos" "$ROOT$PREFIX/../shared/data/dice-real"
else
    echo "   no $photos: the real photographs' tests are skipped" >&2
fi
inroot "$PREFIX/.venv/bin/pip" install --quiet --disable-pip-version-check \
    pytest pytest-xdist hypothesis
inroot sh -c "cd $PREFIX && .venv/bin/python -c 'import platform, numpy, cv2; \
print(platform.machine(), \"python\", platform.python_version(), \"numpy\", numpy.__version__, \
\"opencv\", cv2.__version__)'"
inroot sh -c "cd $PREFIX && .venv/bin/pytest -p no:cacheprovider -n 2 -m 'not browser' \
    tests/vision tests/caboose/vision tests/test_speech.py"

for game in "${GAMES[@]}"; do
    say "a headless demo of $game in the root"
    inroot sh -c "cd $PREFIX && .venv/bin/companion demo --game $game --headless \
        --store /tmp/check-arm64-$game.sqlite3" | tail -n 3
done
say "done: the project installs, its vision tests pass and every game's demo ends on arm64"

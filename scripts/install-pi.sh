#!/usr/bin/env bash
# Install Caboose Companion as a service on a Raspberry Pi (Raspberry Pi OS Bookworm or
# newer), from this checkout. Run as root (`sudo scripts/install-pi.sh` or
# `sudo make install-pi`); running it again upgrades in place and keeps the config and
# the games. See README.md, "Setting up a Raspberry Pi".
#
#   PREFIX   where the code and its venv go        (default /opt/caboose-companion)
#   SERVICE_USER  the unprivileged user it runs as (default caboose)
set -euo pipefail

PREFIX=${PREFIX:-/opt/caboose-companion}
SERVICE_USER=${SERVICE_USER:-caboose}
CONFIG_DIR=/etc/caboose-companion
DATA_DIR=/var/lib/caboose-companion
UNIT=caboose-companion.service
SOURCE=$(cd "$(dirname "$0")/.." && pwd)

if [ "$(id -u)" -ne 0 ]; then
    echo "install-pi: run as root: sudo $0" >&2
    exit 1
fi

echo "== system packages: picamera2 and lgpio come from Raspberry Pi OS, built for its numpy"
apt-get update -qq
apt-get install -y -qq python3-venv python3-picamera2 python3-lgpio python3-numpy espeak-ng

echo "== user $SERVICE_USER (groups video, gpio, audio: the camera, the GPIO pins, the speaker)"
if ! id "$SERVICE_USER" >/dev/null 2>&1; then
    useradd --system --home-dir "$DATA_DIR" --no-create-home --shell /usr/sbin/nologin \
        "$SERVICE_USER"
fi
for group in video gpio audio; do
    if getent group "$group" >/dev/null; then
        usermod -a -G "$group" "$SERVICE_USER"
    else
        echo "install-pi: warning: there is no group $group on this system" >&2
    fi
done

echo "== code in $PREFIX"
mkdir -p "$PREFIX"
# Copy the checkout without its venv, caches and test artifacts.
tar -C "$SOURCE" --exclude=./.venv --exclude=./.git --exclude='*.pyc' \
    --exclude=./tests/artifacts --exclude=./.pytest_cache --exclude=./.ruff_cache -cf - . |
    tar -C "$PREFIX" -xf -

echo "== venv with --system-site-packages (it sees apt's picamera2, lgpio and numpy)"
if [ ! -x "$PREFIX/.venv/bin/python" ]; then
    python3 -m venv --system-site-packages "$PREFIX/.venv"
fi
# The pi extra pins nothing new over apt's lgpio; pyproject keeps OpenCV below 4.12 so
# pip never pulls numpy 2 over the numpy picamera2 was built for.
"$PREFIX/.venv/bin/pip" install --quiet --disable-pip-version-check "$PREFIX[pi]"
"$PREFIX/.venv/bin/python" -c 'import numpy, cv2; print("numpy", numpy.__version__, "opencv", cv2.__version__)'

echo "== configuration in $CONFIG_DIR, data in $DATA_DIR"
install -d -m 0755 "$CONFIG_DIR"
if [ ! -e "$CONFIG_DIR/companion.toml" ]; then
    install -m 0644 "$SOURCE/examples/companion.toml" "$CONFIG_DIR/companion.toml"
    echo "   wrote $CONFIG_DIR/companion.toml: measure your table and edit it"
else
    echo "   kept the existing $CONFIG_DIR/companion.toml"
fi
install -d -m 0750 -o "$SERVICE_USER" -g "$SERVICE_USER" "$DATA_DIR"

echo "== service $UNIT"
install -m 0644 "$SOURCE/systemd/$UNIT" "/etc/systemd/system/$UNIT"
sed -i "s|/opt/caboose-companion|$PREFIX|g; s|^User=caboose|User=$SERVICE_USER|; s|^Group=caboose|Group=$SERVICE_USER|" \
    "/etc/systemd/system/$UNIT"
systemctl daemon-reload
systemctl enable "$UNIT"
systemctl restart "$UNIT"
sleep 3
systemctl --no-pager --lines=15 status "$UNIT" || true
echo
echo "Installed. Follow it with: journalctl -u $UNIT -f"
echo "The page's address and PIN are in that log."

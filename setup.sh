#!/usr/bin/env bash
# Obelisk Table setup: everything this checkout needs, safe to run again.
#
# - checks for Python 3.11+ and its venv module (installs python3-venv on
#   Debian / Raspberry Pi OS when it is missing and we may use apt);
# - creates .venv and installs the project with its test and lint tools;
# - on a Raspberry Pi only: adds the Pi-only LED packages, puts the user in
#   the groups that may use GPIO, SPI and the serial port, enables SPI, and
#   installs and starts the table service and its page (systemd/);
# - elsewhere: installs Debian's chromium, the browser the page's tests drive.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"

say() { printf 'setup: %s\n' "$*"; }
die() { printf '\nsetup: FAILED: %s\n' "$*" >&2; exit 1; }
trap 'die "the step \"$BASH_COMMAND\" (setup.sh line $LINENO) failed; see the messages above"' ERR

is_pi() { grep -qas "Raspberry Pi" /proc/device-tree/model; }

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"
    elif command -v sudo >/dev/null; then sudo "$@"
    else return 1
    fi
}

# 1. Python --------------------------------------------------------------------
PYTHON="${PYTHON:-python3}"
command -v "$PYTHON" >/dev/null \
    || die "$PYTHON not found. Install it: sudo apt-get install python3 python3-venv"
"$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
    || die "Python 3.11 or newer is needed, this is $("$PYTHON" -V 2>&1). Use Debian 12 / Raspberry Pi OS Bookworm or newer, or set PYTHON=/path/to/python3.11"
if ! "$PYTHON" -c 'import venv, ensurepip' 2>/dev/null; then
    say "installing python3-venv (Python's venv module is missing)"
    as_root apt-get update -qq && as_root apt-get install -y -qq python3-venv \
        || die "Python's venv module is missing. Install it: sudo apt-get install python3-venv"
fi

# 2. Virtual environment and packages --------------------------------------------
if [ ! -x .venv/bin/python ] || ! .venv/bin/python -c 'import sys' 2>/dev/null; then
    say "creating .venv"
    rm -rf .venv
    "$PYTHON" -m venv .venv
fi

extras="dev,browser"
if is_pi; then extras="dev,pi"; fi
stamp=".venv/.obelisk-setup"
want="$(cat pyproject.toml; echo "extras=$extras")"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -x .venv/bin/obelisk ]; then
    say "packages are up to date (.venv)"
else
    say "installing the project and its tools into .venv (extras: $extras)"
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".[$extras]"
    printf '%s' "$want" > "$stamp"
fi
# Bytecode now, so the service starts fast even where it may not write it
# (under systemd the checkout is read-only); -q: quiet, only new sources.
.venv/bin/python -m compileall -q engine firmware hardware >/dev/null \
    || die "could not compile the sources; see the messages above"

# 3. The browser the page's tests drive (not on a Pi) -------------------------------------
if ! is_pi && ! command -v chromium >/dev/null; then
    say "installing chromium (the page's tests run in it)"
    { as_root apt-get update -qq && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } \
        || die "the page's tests need Debian's chromium. Install it: sudo apt-get install chromium"
fi

# 3b. The broker the club's tests publish to (not on a Pi) ---------------------------------
if ! is_pi && ! command -v mosquitto >/dev/null && [ ! -x /usr/sbin/mosquitto ]; then
    say "installing mosquitto (the club's tests publish to a broker of their own)"
    { as_root apt-get update -qq && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mosquitto; } \
        || die "the club's tests need Debian's mosquitto. Install it: sudo apt-get install mosquitto"
fi

# 4. Raspberry Pi only ---------------------------------------------------------------
if is_pi; then
    user="${SUDO_USER:-$(id -un)}"
    for group in gpio spi dialout; do
        if getent group "$group" >/dev/null && ! id -nG "$user" | grep -qw "$group"; then
            say "adding $user to the $group group (log out and in again to use it)"
            as_root usermod -aG "$group" "$user" || die "could not add $user to $group; run: sudo usermod -aG $group $user"
        fi
    done
    if command -v raspi-config >/dev/null && [ "$(as_root raspi-config nonint get_spi 2>/dev/null || echo 1)" != 0 ]; then
        say "enabling SPI (NeoPixels on GPIO10 without root)"
        as_root raspi-config nonint do_spi 0 || die "could not enable SPI; run: sudo raspi-config (Interface Options, SPI)"
    fi
    cmdline=/boot/firmware/cmdline.txt
    [ -f "$cmdline" ] || cmdline=/boot/cmdline.txt
    if [ -f "$cmdline" ] && ! grep -q "spidev.bufsiz=" "$cmdline"; then
        say "enlarging the SPI buffer for long LED chains (takes effect after a reboot)"
        as_root sed -i '1 s/$/ spidev.bufsiz=32768/' "$cmdline" || die "could not edit $cmdline; add spidev.bufsiz=32768 to its line by hand"
    fi
fi

# 5. The services, on a Pi --------------------------------------------------------------
if is_pi && command -v systemctl >/dev/null; then
    for name in obelisk obelisk-web; do
        unit=/etc/systemd/system/$name.service
        rendered="$(sed -e "s|@ROOT@|$here|g" -e "s|@USER@|$user|g" systemd/$name.service)"
        if [ ! -f "$unit" ] || [ "$(cat "$unit")" != "$rendered" ]; then
            say "installing $name.service ($unit, running as $user)"
            printf '%s\n' "$rendered" | as_root tee "$unit" >/dev/null \
                || die "could not write $unit; run setup.sh with sudo rights"
            as_root systemctl daemon-reload
        fi
        as_root systemctl enable --now "$name.service" \
            || die "$name did not start; see: journalctl -u $name -e"
    done
    say "the table service runs (systemctl status obelisk); its page is on port 8080 of this Pi"
    # The club's publisher: installed always, enabled only once a broker is configured.
    unit=/etc/systemd/system/obelisk-mqtt.service
    rendered="$(sed -e "s|@ROOT@|$here|g" -e "s|@USER@|$user|g" systemd/obelisk-mqtt.service)"
    if [ ! -f "$unit" ] || [ "$(cat "$unit")" != "$rendered" ]; then
        say "installing obelisk-mqtt.service ($unit, running as $user)"
        printf '%s\n' "$rendered" | as_root tee "$unit" >/dev/null \
            || die "could not write $unit; run setup.sh with sudo rights"
        as_root systemctl daemon-reload
    fi
    if [ -f /var/lib/obelisk/mqtt.toml ] || [ -f /etc/obelisk/mqtt.toml ]; then
        as_root systemctl enable --now obelisk-mqtt.service \
            || die "obelisk-mqtt did not start; see: journalctl -u obelisk-mqtt -e"
        say "the table publishes to the club's broker (systemctl status obelisk-mqtt)"
    fi
fi

say "ready. Try: .venv/bin/obelisk --help"

#!/usr/bin/env bash
# Obelisk Table setup: everything this checkout needs, safe to run again.
#
# - checks for Python 3.11+ and its venv module (installs python3-venv on
#   Debian / Raspberry Pi OS when it is missing and we may use apt);
# - creates .venv and installs the project with its test and lint tools;
# - on a Raspberry Pi only (hardware/pi_models.py says what each model needs):
#   the LED driver for this model (SPI on a Zero 2 W, 3 or 4; the RP1's PIO on
#   a 5), the boot settings it needs, the groups that may use GPIO, SPI and the
#   serial port, and the table service and its page (systemd/), started where
#   systemd runs;
# - the Debian packages the tests need: mosquitto everywhere, chromium off a Pi;
#   off a Pi also node and npm, the npm package the scanner board's MicroPython
#   tests run (tests/support/micropython), and TypeScript's checker for the page's
#   scripts (tools/js).
set -Eeuo pipefail  # -E: the ERR trap fires inside functions too

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"

say() { printf 'setup: %s\n' "$*"; }
die() { printf '\nsetup: FAILED: %s\n' "$*" >&2; exit 1; }
trap 'die "the step \"$BASH_COMMAND\" (setup.sh line $LINENO) failed; see the messages above"' ERR

# The device tree's model, or the file OBELISK_DEVICE_TREE_MODEL names instead (a pretend Pi:
# hardware/pi_models.py reads the same).
is_pi() { grep -qas "Raspberry Pi" "${OBELISK_DEVICE_TREE_MODEL:-/proc/device-tree/model}"; }
# sd_booted(3): systemd runs this machine (not a container, a chroot, a build root).
systemd_runs() { [ -d /run/systemd/system ] && command -v systemctl >/dev/null; }

# Debian packages, each installed only when missing.
apt_install() {
    local wanted=() package
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" \
            || wanted+=("$package")
    done
    [ "${#wanted[@]}" -eq 0 ] && return 0
    say "installing ${wanted[*]} (Debian packages)"
    { as_root apt-get update -qq \
        && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${wanted[@]}"; } \
        || die "could not install ${wanted[*]}; run: sudo apt-get install ${wanted[*]}"
}

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"
    elif command -v sudo >/dev/null; then sudo "$@"
    else return 1
    fi
}

# 0. A 64-bit system, before anything is installed ---------------------------------
# Some of the libraries (gpiod, tornado) have no 32-bit Arm builds for Python 3.11, so pip
# would fail deep in a build. What counts is the programs' architecture (dpkg's), not the
# kernel's: a 32-bit Raspberry Pi OS may run a 64-bit kernel.
userland="$(dpkg --print-architecture 2>/dev/null || true)"
kernel="$(uname -m 2>/dev/null || true)"
if [[ $userland == arm* && $userland != arm64 ]] || { [ -z "$userland" ] && [[ $kernel == armv* ]]; }; then
    if [ -n "$userland" ] && [ "$kernel" = aarch64 ]; then
        found="32-bit programs (dpkg --print-architecture: $userland) on a 64-bit kernel (uname -m: $kernel)"
    else
        found="a 32-bit system (dpkg --print-architecture: ${userland:-none}; uname -m: $kernel)"
    fi
    machine="this machine"; if is_pi; then machine="this Raspberry Pi"; fi
    die "$machine runs $found, and the table needs a 64-bit Raspberry Pi OS (Bookworm or newer): its libraries have no 32-bit builds. Nothing was installed. Write the card again with Raspberry Pi Imager (https://www.raspberrypi.com/software/), choosing \"Raspberry Pi OS (64-bit)\" (or \"Raspberry Pi OS Lite (64-bit)\" under \"Raspberry Pi OS (other)\"), then run ./setup.sh there. A Pi Zero 2 W, 3, 4 or 5 runs it; a Pi 1, 2, Zero or Zero W cannot."
fi

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
pi_model="" pi_leds="" pi_extras="" pi_boot_config=() pi_cmdline=()
if is_pi; then
    # pi_model, pi_family, pi_leds, pi_extras, pi_boot_config, pi_cmdline (or words on
    # stderr and status 2 on a Pi the table cannot run on)
    facts="$("$PYTHON" -m hardware.pi_models shell)" \
        || die "the table cannot be set up on this Raspberry Pi (see the line above)"
    eval "$facts"
    say "this is a $pi_model: its LEDs run through $pi_leds"
    extras="dev,$pi_extras"
fi
stamp=".venv/.obelisk-setup"
# True when PyPI has an lgpio wheel for this Python and machine (the buttons' pins).
lgpio_wheel() {
    local scratch found=0
    scratch="$(mktemp -d)"
    .venv/bin/python -m pip download --quiet --disable-pip-version-check --no-deps \
        --only-binary=:all: -d "$scratch" "lgpio>=0.2.2" >/dev/null 2>&1 || found=1
    rm -rf "$scratch"
    return "$found"
}
want="$(cat pyproject.toml; echo "extras=$extras")"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -x .venv/bin/obelisk ]; then
    say "packages are up to date (.venv)"
else
    build=()
    if is_pi && ! lgpio_wheel; then
        # No lgpio wheel for this Python (Trixie's 3.13): build it, with its C library
        # linked in (PYPI=1), so no other lgpio package is needed.
        apt_install swig gcc libc6-dev python3-dev
        say "building lgpio for Python $("$PYTHON" -c 'import sys; print(*sys.version_info[:2], sep=".")') (no wheel for it; about a minute)"
        build=(env PYPI=1)
    fi
    say "installing the project and its tools into .venv (extras: $extras)"
    "${build[@]}" .venv/bin/python -m pip install --quiet --disable-pip-version-check \
        -e ".[$extras]"
    printf '%s' "$want" > "$stamp"
fi
# Blinka (on a Pi) offers to pip-install backends it misses the moment `board` is imported,
# asking "[Y/n]" at a terminal: never at run time. setup.sh installs what the table uses, so
# every Python of this venv carries BLINKA_SKIP_DEPENDENCY_CHECK=1 (site runs a .pth's import
# line at start-up), whatever the entry point and with no environment set by hand.
site_packages="$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_path("purelib"))')"
blinka_pth='import os; os.environ.setdefault("BLINKA_SKIP_DEPENDENCY_CHECK", "1")'
if [ "$(cat "$site_packages/obelisk-no-runtime-installs.pth" 2>/dev/null)" != "$blinka_pth" ]; then
    printf '%s\n' "$blinka_pth" > "$site_packages/obelisk-no-runtime-installs.pth"
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

# 3b. The broker the club's tests publish to (on a Pi too: the tests run there) -----------
if ! command -v mosquitto >/dev/null && [ ! -x /usr/sbin/mosquitto ]; then
    say "installing mosquitto (the club's tests publish to a broker of their own)"
    { as_root apt-get update -qq && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mosquitto; } \
        || die "the club's tests need Debian's mosquitto. Install it: sudo apt-get install mosquitto"
    if is_pi && command -v systemctl >/dev/null; then
        # The tests start brokers of their own; a table needs no broker running for good.
        now=(); if systemd_runs; then now=(--now); fi
        as_root systemctl disable "${now[@]}" mosquitto.service >/dev/null 2>&1 \
            || say "note: could not turn off mosquitto's own broker (sudo systemctl disable --now mosquitto)"
    fi
fi

# 3c. The npm packages the tests run under node (not on a Pi) --------------------------------
# Each folder's package-lock.json pins them; npm ci installs them into its node_modules when
# that is missing or older than the lock (a lock that changed).
npm_ci() {
    local folder="$1" what="$2"
    if [ ! -d "$folder/node_modules" ] || [ "$folder/package-lock.json" -nt "$folder/node_modules" ]; then
        command -v npm >/dev/null \
            || die "npm is missing (for $what): sudo apt-get install nodejs npm, then run setup.sh again"
        say "installing $what (npm ci in $folder)"
        npm ci --prefix "$folder" --no-audit --no-fund --loglevel=error \
            || die "npm ci in $folder failed; see the messages above (it needs the npm registry)"
        touch "$folder/node_modules"  # newer than the lock: the next run skips this
    fi
}
if ! is_pi; then
    node_wanted=()
    command -v node >/dev/null || node_wanted+=(nodejs)
    command -v npm >/dev/null || node_wanted+=(npm)
    if [ "${#node_wanted[@]}" -gt 0 ]; then
        apt_install "${node_wanted[@]}"
    fi
    # tests/hardware/scanner/test_micropython.py runs the board's code on MicroPython's WebAssembly build
    npm_ci tests/support/micropython "MicroPython's WebAssembly build for the scanner board's tests"
    # tests/web/test_scripts.py checks the page's scripts against their JSDoc types with tsc
    npm_ci tools/js "TypeScript, the checker of the page's scripts"
fi

# 4. Raspberry Pi only: groups, and the boot settings the LED driver needs -------------------
reboot_for=()
if is_pi; then
    user="${SUDO_USER:-$(id -un)}"
    for group in gpio spi dialout; do
        if getent group "$group" >/dev/null && ! id -nG "$user" | grep -qw "$group"; then
            say "adding $user to the $group group (log out and in again to use it)"
            as_root usermod -aG "$group" "$user" || die "could not add $user to $group; run: sudo usermod -aG $group $user"
        fi
    done
    boot=/boot/firmware
    [ -f "$boot/config.txt" ] || boot=/boot
    config="$boot/config.txt"
    if [ -f "$config" ]; then
        # One "Obelisk Table" block, for this model: a card moved from another Pi gets the
        # block rewritten (hardware/boot_config.py), never a second one beside it.
        wanted="$(mktemp)"
        "$PYTHON" -m hardware.boot_config "$config" --model "$pi_model" > "$wanted" \
            || { rm -f "$wanted"; die "could not read $config (see the line above)"; }
        if ! cmp -s "$wanted" "$config"; then
            if [ "${#pi_boot_config[@]}" -gt 0 ]; then
                say "setting ${pi_boot_config[*]} in $config, in its one Obelisk Table block, for this $pi_model (the LEDs' SPI clock; takes effect after a reboot)"
            else
                say "removing the Obelisk Table block from $config: a $pi_model needs no boot settings for its LEDs (takes effect after a reboot)"
            fi
            as_root tee "$config" < "$wanted" >/dev/null \
                || { rm -f "$wanted"; die "could not edit $config; make its Obelisk Table block hold exactly: ${pi_boot_config[*]:-(nothing: remove it)}"; }
            if [ "${#pi_boot_config[@]}" -gt 0 ]; then reboot_for+=("${pi_boot_config[@]}")
            else reboot_for+=("the boot settings the LEDs no longer need"); fi
        fi
        rm -f "$wanted"
    elif [ "${#pi_boot_config[@]}" -gt 0 ]; then
        die "no $boot/config.txt: is this Raspberry Pi OS? The LEDs need these lines in it: ${pi_boot_config[*]}"
    fi
    cmdline="$boot/cmdline.txt"
    for word in "${pi_cmdline[@]}"; do
        if [ -f "$cmdline" ] && ! grep -qw -- "${word%=*}" "$cmdline"; then
            say "adding $word to $cmdline (long LED chains; takes effect after a reboot)"
            as_root sed -i "1 s/\$/ $word/" "$cmdline" || die "could not edit $cmdline; add $word to its line by hand"
            reboot_for+=("$word")
        fi
    done
fi

# 5. The services, on a Pi --------------------------------------------------------------
# Units as systemd/ has them, for this checkout, user and Pi model; each written only when
# it changed. Prints the names of those it wrote.
write_unit() {
    local name="$1" unit="/etc/systemd/system/$1.service" rendered
    rendered="$(.venv/bin/python -m hardware.pi_models unit "systemd/$name.service" \
        --root "$here" --user "$user")" || die "could not render systemd/$name.service"
    if [ ! -f "$unit" ] || [ "$(cat "$unit")" != "$rendered" ]; then
        say "installing $name.service ($unit, running as $user)" >&2  # stdout: the names
        printf '%s\n' "$rendered" | as_root tee "$unit" >/dev/null \
            || die "could not write $unit; run setup.sh with sudo rights"
        echo "$name"
    fi
}
if is_pi; then
    command -v systemctl >/dev/null || die "systemctl is missing: the table runs under systemd (Raspberry Pi OS has it)"
    written="$(write_unit obelisk; write_unit obelisk-web; write_unit obelisk-mqtt; write_unit obelisk-remote)"
    start=(obelisk obelisk-web)
    if [ -f /var/lib/obelisk/mqtt.toml ] || [ -f /etc/obelisk/mqtt.toml ]; then
        start+=(obelisk-mqtt obelisk-remote)  # the club's publisher and a match's link: only
        # once a broker is configured (the link does nothing while the table plays no match)
    fi
    if systemd_runs; then
        [ -z "$written" ] || as_root systemctl daemon-reload
        for name in "${start[@]}"; do
            as_root systemctl enable --now "$name.service" >/dev/null 2>&1 \
                || die "$name did not start; see: journalctl -u $name -e"
            # a unit that changed restarts on its new settings (enable --now leaves it be)
            if grep -qx "$name" <<<"$written"; then
                as_root systemctl restart "$name.service" || die "$name did not restart; see: journalctl -u $name -e"
            fi
        done
        say "the table service runs (systemctl status obelisk); its page is on port 8080 of this Pi"
    else
        for name in "${start[@]}"; do
            as_root systemctl enable "$name.service" >/dev/null 2>&1 \
                || die "could not enable $name.service (systemctl enable $name)"
        done
        say "systemd is not running here (a container or chroot?): the services are installed and enabled, and start when this Pi boots"
    fi
    if [ "${#reboot_for[@]}" -gt 0 ]; then
        say "reboot once for ${reboot_for[*]} to take effect: sudo reboot (then obelisk diag lights the LEDs)"
    fi
fi

say "ready. Try: .venv/bin/obelisk --help"

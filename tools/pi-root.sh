#!/usr/bin/env bash
# shellcheck disable=SC2317  # steps run through "$fn", the clean-up by a trap
# Obelisk Table on a pretend Raspberry Pi: does the table install and start on a
# Raspberry Pi OS-like 64-bit userland? No Pi needed, only this Debian machine.
#
# - builds (once, then cached) a Debian arm64 root with debootstrap; the
#   kernel runs its arm64 programs through qemu-user-static (binfmt_misc);
# - makes that root look like Raspberry Pi OS where setup.sh looks: a user pi
#   with passwordless sudo, the gpio/spi/i2c/dialout groups, /boot/firmware;
# - makes it look like a given Pi model: qemu-user reads files under
#   QEMU_LD_PREFIX first, so /.pi-model/proc/... in the root stands in for
#   /proc/device-tree/model, /proc/device-tree/compatible and /proc/cpuinfo;
# - copies the checkout (tracked files and uncommitted changes) to
#   /home/pi/obelisk and, as pi, runs setup.sh twice, a demo game, diag, the
#   service's start-up (it must send READY=1; diag beside it must go through
#   it), systemd-analyze verify, and README's test command (setup.sh, then pytest);
# - prints one line per step (PASS/FAIL, seconds) and keeps every step's log; a step fails
#   on a status other than 0, over its time limit, or (the demo) when its output stalls.
#
# Each run works on an overlay of the cached root, so the cache stays as
# debootstrap left it and every run starts from the same clean Pi. pip's
# download cache is shared between runs of a release (CACHE/pip-RELEASE).
#
# Needs root, debootstrap, qemu-user-static, git and python3 on this machine.
set -Eeuo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# watch_run, step_verdict, unit_environment: the checks that must be able to fail
# shellcheck source=tools/pi-root-checks.sh
. "$here/pi-root-checks.sh"

TOOL=pi-root
# say, die, the options both tools take
# shellcheck source=tools/pi-options.sh
. "$here/pi-options.sh"

usage() {
    cat <<'USAGE'
Usage: sudo tools/pi-root.sh [options]

Installs and starts the Obelisk Table in a Debian arm64 root that looks like
a Raspberry Pi (qemu-user emulation, no hardware), and reports per step.

  --release R      bookworm (Python 3.11, the default) or trixie (Python 3.13)
  --model M        the Pi to pretend to be, as its /proc/device-tree/model reads:
                     "Raspberry Pi 4 Model B Rev 1.4" (the default)
                     "Raspberry Pi 5 Model B Rev 1.0"
                     "Raspberry Pi 3 Model B Rev 1.2"
                     "Raspberry Pi Zero 2 W Rev 1.0"
  --all            bookworm and trixie, each as a Pi 5, a Pi 4 and a Zero 2 W (six runs)
  --runs N         each release and model N times over, each from a clean root; the
                   summary then gives each step's range of seconds (for docs/benchmarks.md)
  --skip-tests     every step but the last, the README's test command (tens of minutes
                   emulated): the install's own figures, quicker
  --arch armhf     a 32-bit root (as a 32-bit Raspberry Pi OS): only checks that setup.sh
                   refuses it in words before installing anything (qemu-arm-static)
  --checkout DIR   the git checkout to install (default: the one holding this script)
  --cache DIR      where the roots are kept (default: $OBELISK_PI_ROOTS, or
                   /var/cache/obelisk-pi-roots); the root is DIR/RELEASE (DIR/RELEASE-armhf)
  --mirror URL     the Debian mirror (default: the first one in this machine's
                   apt sources, else http://deb.debian.org/debian)
  --logs DIR       where the step logs go (default: /var/tmp/obelisk-pi-logs/DATE)
  --build-only     only build (or check) the roots, run nothing
  --rebuild        throw the cached root away and build it again
  --keep           keep the run's overlay (its upper layer) for a look afterwards
  -h, --help       this text

The exit status is 0 only if every step of every run passed.
USAGE
}

# Options ---------------------------------------------------------------------------
releases=(bookworm)
models=("Raspberry Pi 4 Model B Rev 1.4")
checkout="$(cd "$here/.." && pwd)"
cache="${OBELISK_PI_ROOTS:-/var/cache/obelisk-pi-roots}"
mirror=""
logs="/var/tmp/obelisk-pi-logs/$(date +%Y%m%d-%H%M%S)"
build_only=0 rebuild=0 keep=0
runs=1 skip_tests=0
arch=arm64
while [ $# -gt 0 ]; do
    shared_option "$@"
    if [ "$taken" -gt 0 ]; then shift "$taken"; continue; fi
    case "$1" in
        --arch) [ $# -ge 2 ] || die "--arch needs a value"; arch="$2"; shift 2 ;;
        --all) releases=(bookworm trixie)
               models=("Raspberry Pi 5 Model B Rev 1.0" "Raspberry Pi 4 Model B Rev 1.4"
                       "Raspberry Pi Zero 2 W Rev 1.0"); shift ;;
        --runs) [ $# -ge 2 ] || die "--runs needs a number"
                [[ "$2" =~ ^[1-9][0-9]?$ ]] || die "--runs $2: give a whole number from 1 to 99"
                runs="$2"; shift 2 ;;
        --skip-tests) skip_tests=1; shift ;;
        --mirror) [ $# -ge 2 ] || die "--mirror needs a value"; mirror="$2"; shift 2 ;;
        *) usage >&2; die "unknown option: $1" ;;
    esac
done

case "$arch" in
    arm64) qemu=aarch64 ;;
    armhf) qemu=arm ;;
    *) die "--arch $arch: only arm64 (the default) and armhf (32-bit) are known here" ;;
esac
known_releases

[ "$(id -u)" = 0 ] || die "run it as root (debootstrap, chroot and mounts need it): sudo $0 $*"
for tool in debootstrap git chroot mount flock; do
    command -v "$tool" >/dev/null || die "$tool not found. Install it: sudo apt-get install debootstrap git util-linux"
done
[ -x "/usr/bin/qemu-$qemu-static" ] \
    || die "qemu-$qemu-static not found. Install it: sudo apt-get install qemu-user-static binfmt-support"
# The notify listener runs on this machine (fast), not under qemu.
host_python="$(command -v /usr/bin/python3 || command -v python3 || true)"
[ -n "$host_python" ] || die "python3 not found on this machine. Install it: sudo apt-get install python3"
git -c safe.directory="$checkout" -C "$checkout" rev-parse --git-dir >/dev/null 2>&1 \
    || die "$checkout is not a git checkout (give one with --checkout DIR)"
checkout="$(cd "$checkout" && pwd)"

# The Pi models -----------------------------------------------------------------------
# Sets: compatible (device tree, NUL-separated), revision (the board code in
# /proc/cpuinfo), cpu_part (the Arm core: A72, A76 or A53) and cpu (that core, as qemu names
# it).
model_facts() {
    case "$1" in
        "Raspberry Pi 5"*)      compatible='raspberrypi,5-model-b\0brcm,bcm2712\0';      revision=d04170; cpu_part=0xd0b; cpu=cortex-a76 ;;
        "Raspberry Pi 4"*)      compatible='raspberrypi,4-model-b\0brcm,bcm2711\0';      revision=c03114; cpu_part=0xd08; cpu=cortex-a72 ;;
        "Raspberry Pi 3 Model B Rev"*)
                                compatible='raspberrypi,3-model-b\0brcm,bcm2837\0';      revision=a02082; cpu_part=0xd03; cpu=cortex-a53 ;;
        "Raspberry Pi Zero 2 W"*)
                                compatible='raspberrypi,model-zero-2-w\0brcm,bcm2837\0'; revision=902120; cpu_part=0xd03; cpu=cortex-a53 ;;
        *) die "model \"$1\": not one this script knows (see --help)" ;;
    esac
}
for model in "${models[@]}"; do model_facts "$model"; done

# Mounts, undone on exit --------------------------------------------------------------
mounts=()        # mount points, in the order they were mounted
work_dirs=()     # per-run overlay directories, removed on exit unless --keep
pids=()          # background processes of ours still to stop

mount_at() {  # mount_at TARGET MOUNT-ARGUMENTS...
    local target="$1"; shift
    mount "$@" "$target"
    mounts+=("$target")
}

unmount_all() {
    local i
    for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
        umount "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}" 2>/dev/null \
            || printf 'pi-root: could not unmount %s\n' "${mounts[i]}" >&2
    done
    mounts=()
}

cleanup() {
    local pid dir
    stop_watched    # the demo or the tests, in a process group of their own
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    unmount_all
    for dir in "${work_dirs[@]}"; do
        if [ "$keep" = 1 ]; then say "kept the run's overlay: $dir/upper"
        else rm -rf --one-file-system "$dir"
        fi
    done
}
trap cleanup EXIT
trap 'exit 130' INT     # Ctrl-C and kill run the clean-up too
trap 'exit 143' TERM

# proc, sys, dev and dev/pts, as a debootstrap root needs them to run programs.
mount_system() {
    local root="$1"
    mount_at "$root/proc" -t proc proc
    mount_at "$root/sys" -t sysfs sysfs
    mount_at "$root/dev" --bind /dev
    mount_at "$root/dev/pts" --bind /dev/pts
    install -m 0644 /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null \
        || cp -L /etc/resolv.conf "$root/etc/resolv.conf"
}

# binfmt_misc: arm64 (or armhf) programs run through qemu ------------------------------
# Flags: F opens the interpreter now, so it need not be inside the root; C runs
# it with the program's credentials (set-uid sudo works); O (implied by C) and
# P (argv[0] kept, as Debian's -binfmt-P wrapper expects).
binfmt_ready() {  # binfmt_ready QEMU (aarch64 or arm)
    local name="qemu-$1" dir=/proc/sys/fs/binfmt_misc entry flags interpreter magic mask
    entry="$dir/$name"
    if [ ! -e "$dir/register" ]; then
        say "mounting binfmt_misc"
        mount -t binfmt_misc binfmt_misc "$dir" || die "could not mount binfmt_misc on $dir"
    fi
    if [ -e "$entry" ]; then
        flags="$(sed -n 's/^flags: *//p' "$entry")"
        if grep -qx enabled "$entry" && [[ $flags == *F* && $flags == *C* ]]; then
            return 0
        fi
        say "$name is registered without the F and C flags ($flags): registering it again"
        echo -1 > "$entry"
    fi
    magic="$(sed -n 's/^magic //p' "/usr/share/binfmts/$name")"
    mask="$(sed -n 's/^mask //p' "/usr/share/binfmts/$name")"
    if [ -z "$magic" ] || [ -z "$mask" ]; then die "no magic/mask in /usr/share/binfmts/$name (is qemu-user-static installed?)"; fi
    if [ -x "/usr/libexec/qemu-binfmt/$1-binfmt-P" ]; then
        interpreter="/usr/libexec/qemu-binfmt/$1-binfmt-P" flags=POCF
    else
        interpreter="/usr/bin/qemu-$1-static" flags=OCF
    fi
    say "registering $name ($interpreter, flags $flags)"
    printf ':%s:M:0:%s:%s:%s:%s' "$name" "$magic" "$mask" "$interpreter" "$flags" \
        > "$dir/register" || die "could not register $name with binfmt_misc"
}

# The Debian mirror this machine uses (its apt sources), not the security one.
host_mirror() {
    local uri
    uri="$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null \
        | awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^(https?|ftp):\/\//) { print $i; break } }' \
        | grep -E '/debian/?$' | head -n 1 || true)"
    if [ -z "$uri" ]; then
        uri="$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null \
            | awk '$1 == "URIs:" { for (i = 2; i <= NF; i++) print $i }' \
            | grep -E '/debian/?$' | head -n 1 || true)"
    fi
    printf '%s\n' "${uri:-http://deb.debian.org/debian}"
}

# The root ------------------------------------------------------------------------------
# What a Raspberry Pi OS Lite has and setup.sh relies on (systemd only for its
# programs: it is not PID 1 in a chroot).
packages="sudo,python3,python3-venv,python3-pip,ca-certificates,git,systemd,iproute2,procps,adduser,passwd"
marker=.obelisk-pi-root

# root_name RELEASE: the cached root's folder under CACHE (bookworm, or bookworm-armhf).
root_name() {
    if [ "$arch" = arm64 ]; then echo "$1"; else echo "$1-$arch"; fi
}

build_root() {
    local release="$1" name root lock
    name="$(root_name "$release")" root="$cache/$name"
    mkdir -p "$cache"
    exec {lock}>"$cache/$name.lock"
    flock "$lock"    # two runs must not build the same root at once
    if [ "$rebuild" = 1 ] && [ -e "$root" ]; then
        say "$release: --rebuild: removing the cached root"
        rm -rf --one-file-system "$root"
    fi
    if [ -f "$root/$marker" ]; then
        say "$release: using the cached root $root"
        exec {lock}>&-
        return 0
    fi
    if findmnt -rn -o TARGET | grep -q "^$root/"; then
        die "something is still mounted under $root (another run, or one that was killed); unmount it first"
    fi
    [ -n "$mirror" ] || mirror="$(host_mirror)"
    # debootstrap removes its own work folder (ROOT/debootstrap) once it has
    # succeeded: a root without it but without our marker only lacks the Pi
    # touches below (an earlier run stopped there), which are safe to repeat.
    if [ -e "$root" ] && { [ -d "$root/debootstrap" ] || [ ! -x "$root/usr/bin/python3" ]; }; then
        say "$release: removing an unfinished root ($root)"
        rm -rf --one-file-system "$root"
    fi
    # Built on a Pi's core too (see set_qemu_env): on qemu's default one, Trixie's own
    # programs in debootstrap's second stage run several times slower.
    local build_env=()
    if [ "$arch" = arm64 ]; then build_env=(QEMU_CPU=cortex-a72); fi
    if [ ! -e "$root" ]; then
        say "$release: debootstrap $arch from $mirror into $root (several minutes under qemu; log: $cache/$name.debootstrap.log)"
        if ! env "${build_env[@]}" debootstrap --arch="$arch" --variant=minbase --include="$packages" \
                "$release" "$root" "$mirror" >"$cache/$name.debootstrap.log" 2>&1; then
            tail -n 20 "$cache/$name.debootstrap.log" >&2
            die "debootstrap of $release failed (log: $cache/$name.debootstrap.log)"
        fi
    fi

    say "$release: making it look like Raspberry Pi OS"
    mount_system "$root"
    # shellcheck disable=SC2016  # the $s are for the root's shell
    env "${build_env[@]}" chroot "$root" /bin/sh -eu -c '
        for group in gpio spi i2c dialout; do
            getent group "$group" >/dev/null || groupadd --system "$group"
        done
        # The first user of Raspberry Pi OS, not yet in gpio and spi: setup.sh adds those.
        id pi >/dev/null 2>&1 || useradd --create-home --shell /bin/bash \
            --groups adm,dialout,cdrom,sudo,audio,video,plugdev,users,i2c pi
        echo "pi ALL=(ALL) NOPASSWD: ALL" > /etc/sudoers.d/010_pi-nopasswd
        # qemu reads QEMU_LD_PREFIX in every process; sudo must not drop it.
        echo "Defaults env_keep += \"QEMU_LD_PREFIX\"" > /etc/sudoers.d/020_qemu-ld-prefix
        chmod 0440 /etc/sudoers.d/010_pi-nopasswd /etc/sudoers.d/020_qemu-ld-prefix
        mkdir -p /boot/firmware
        printf "%s\n" "# For more options and information see" \
            "# http://rptl.io/configtxt" "" "dtparam=audio=on" "" "[all]" > /boot/firmware/config.txt
        echo "console=serial0,115200 console=tty1 root=/dev/mmcblk0p2 rootfstype=ext4 fsck.repair=yes rootwait" \
            > /boot/firmware/cmdline.txt
        echo raspberrypi > /etc/hostname
        apt-get update -qq
    ' >>"$cache/$name.debootstrap.log" 2>&1 || { unmount_all; die "could not set up the $release root (log: $cache/$name.debootstrap.log)"; }
    unmount_all
    printf 'release=%s\narch=%s\nmirror=%s\nbuilt=%s\n' "$release" "$arch" "$mirror" "$(date -Is)" > "$root/$marker"
    exec {lock}>&-
    say "$release: root ready ($(du -sh --one-file-system "$root" | cut -f1))"
}

# Steps ----------------------------------------------------------------------------------
# Each step is a function: its output goes to its log, its status is PASS (0)
# or FAIL. They run under `if`, where set -e does not apply: they check
# every command themselves.
pi_model_dir=/.pi-model

# What qemu reads in every process of the root: the Pi's files first (QEMU_LD_PREFIX), and
# the Pi's own core (QEMU_CPU, set per run; arm64 only). qemu's default core, "max", has
# pointer authentication, which a Pi's A76, A72 or A53 lacks and Trixie's programs use: qemu
# works it out the slow way, and the same Python ran 10 times slower on "max" than on a
# Pi 5's core (29.0 s against 3.8 s; "max,pauth=off" 1.2 s).
qemu_env=(QEMU_LD_PREFIX="$pi_model_dir")
set_qemu_env() {
    qemu_env=(QEMU_LD_PREFIX="$pi_model_dir")
    if [ "$arch" = arm64 ]; then qemu_env+=(QEMU_CPU="$cpu"); fi
}

# in_root COMMAND...: as root inside the run's root, with the Pi model in place.
in_root() {
    env "${qemu_env[@]}" chroot "$run_root" /usr/bin/env -i \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
        "${qemu_env[@]}" "$@"
}

# as_pi 'SHELL COMMANDS': as pi, in /home/pi/obelisk, as after pi logged in.
# sudo gets us there, but its SUDO_* variables would say root ran it: a login
# has none (setup.sh takes SUDO_USER for the user to set up).
set_pi_env() {  # pi_env: what sudo runs, up to the program it is given
    pi_env=(/usr/bin/env -u SUDO_USER -u SUDO_UID -u SUDO_GID -u SUDO_COMMAND
            "${qemu_env[@]}" LANG=C.UTF-8 TERM=dumb)
}
as_pi() {
    set_pi_env
    in_root /usr/bin/sudo -u pi -H "${pi_env[@]}" /bin/bash -c "cd /home/pi/obelisk && $1"
}
# pi_argv 'SHELL COMMANDS': what as_pi runs, as words in the array argv (for watch_run, which
# runs a program, not a function of ours).
pi_argv() {
    set_pi_env
    argv=(env "${qemu_env[@]}" chroot "$run_root" /usr/bin/env -i
          PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8
          "${qemu_env[@]}" /usr/bin/sudo -u pi -H "${pi_env[@]}"
          /bin/bash -c "cd /home/pi/obelisk && $1")
}

step_model() {
    local want seen ok=0
    want="$model"
    printf '%s\n' '== /proc/device-tree/model through cat, as pi (its bytes; a NUL shows as \0):'
    seen="$(as_pi 'od -An -c /proc/device-tree/model')" || return 1
    echo "$seen"
    echo "== the same through python3 open():"
    seen="$(as_pi "python3 -c 'print(repr(open(\"/proc/device-tree/model\").read()))'")" || return 1
    echo "$seen"
    [ "$seen" = "'$want\\x00'" ] || { printf 'FAIL: python3 read %s, not %s\n' "$seen" "'$want\\x00'"; ok=1; }
    echo "== /proc/device-tree/compatible:"
    as_pi 'tr "\0" " " < /proc/device-tree/compatible; echo' || return 1
    echo "== /proc/cpuinfo as the programs in the root read it (the Pi lines):"
    seen="$(as_pi 'grep -E "^(Hardware|Revision|Model|CPU part)" /proc/cpuinfo | sort -u')" || true
    echo "$seen"
    if grep -q "^Revision[[:space:]]*: $revision" <<<"$seen"; then
        echo "QEMU_LD_PREFIX serves /proc/cpuinfo (qemu does not make up its own for aarch64)"
    else
        echo "FAIL: /proc/cpuinfo is not the prefixed one (qemu answers it itself, or the prefix does not reach it)"
        ok=1
    fi
    echo "== sudo, as pi (set-uid under qemu needs the binfmt C flag; QEMU_LD_PREFIX kept by env_keep):"
    seen="$(as_pi 'sudo -n id -un && sudo -n cat /proc/device-tree/model | tr -d "\0"; echo')" || { echo "FAIL: sudo failed"; return 1; }
    echo "$seen"
    [ "$seen" = "root"$'\n'"$want" ] || { echo "FAIL: sudo did not run as root with the Pi model"; ok=1; }
    echo "== no GPIO chip (no hardware):"
    if in_root /bin/sh -c 'ls /dev/gpiochip* 2>/dev/null'; then echo "FAIL: the root has a GPIO chip"; ok=1
    else echo "none, as wanted"
    fi
    echo "== pi's groups (gpio and spi are for setup.sh to add): $(in_root id -nG pi)"
    return "$ok"
}

step_platformdetect() {
    local seen
    as_pi 'python3 -m venv /tmp/platformdetect \
        && /tmp/platformdetect/bin/pip install --quiet --disable-pip-version-check adafruit-platformdetect' || return 1
    seen="$(as_pi '/tmp/platformdetect/bin/python -c "from adafruit_platformdetect import Detector; d = Detector(); print(d.chip.id, d.board.id, d.board.any_raspberry_pi, d.board.any_raspberry_pi_5_board)"')" || return 1
    echo "chip board any_raspberry_pi any_raspberry_pi_5_board: $seen"
    detected="$seen"
    case "$model" in
        "Raspberry Pi 5"*) [[ $seen == *" True True" ]] ;;
        *) [[ $seen == *" True False" ]] ;;
    esac
}

step_apt_policy() {
    in_root apt-cache policy python3-lgpio liblgpio-dev swig python3-dev || return 1
    local name candidate
    apt_summary=""
    for name in python3-lgpio liblgpio-dev swig python3-dev; do
        candidate="$(in_root apt-cache policy "$name" | awk '/Candidate:/ { print $2 }')"
        apt_summary+="$name ${candidate:-(not in the archive)}; "
    done
    echo "candidates: $apt_summary"
}

step_setup_first() {
    as_pi 'timeout 3600 ./setup.sh'
}

# What a second setup.sh may not change: the checkout, its .venv, the groups,
# the boot files, the units and the sudoers.
snapshot() {
    ( cd "$run_root" && find home/pi/obelisk etc/group etc/gshadow etc/systemd/system boot/firmware etc/sudoers.d \
        -printf '%p %s %T@ %m %u:%g %l\n' 2>/dev/null | sort )
}

# A 32-bit Raspberry Pi OS: setup.sh must say in words that the table needs a 64-bit one,
# fail, and install nothing (no .venv, no Debian package).
step_setup_32_bit() {
    local before after rc=0
    before="$(in_root dpkg-query -W -f='${Package}\n' | sort)"
    as_pi 'timeout 300 ./setup.sh' >"$step_log.setup" 2>&1 || rc=$?
    after="$(in_root dpkg-query -W -f='${Package}\n' | sort)"
    cat "$step_log.setup"
    if [ "$before" != "$after" ]; then
        echo "FAIL: Debian packages changed:"; diff <(echo "$before") <(echo "$after") | head -n 20
        return 1
    fi
    refused_32_bit "$rc" "$step_log.setup" "$run_root/home/pi/obelisk/.venv"
}

step_setup_second() {  # its 60 s limit: run_step's
    local before after rc=0
    before="$(snapshot)"
    as_pi 'timeout 1800 ./setup.sh' || rc=$?
    after="$(snapshot)"
    [ "$rc" = 0 ] || { echo "FAIL: setup.sh exited with $rc"; return 1; }
    if [ "$before" != "$after" ]; then
        echo "FAIL: the second run changed files:"
        diff <(echo "$before") <(echo "$after") | head -n 40
        return 1
    fi
    echo "the second run changed nothing (checkout, .venv, groups, boot files, units, sudoers)"
}

# A whole game, two bots: it must end by itself with 0. One whose output stops growing for
# 3 minutes (a table stalled under qemu's load) or that runs past 30 minutes is stopped, and
# fails, whatever status it ends with after SIGTERM.
step_demo() {
    local argv=() rc=0
    pi_argv '.venv/bin/obelisk demo towers --speed 100'
    watch_run 1800 180 "$step_log.demo" "${argv[@]}" || rc=1
    echo "== the demo's last lines ($step_log.demo):"
    tail -n 15 "$step_log.demo"
    return "$rc"
}

# With nothing wired (no GPIO chip, no SPI or PIO device, no scanner), diag
# still runs: it says what is missing, with the fix, and lights each LED in
# turn on what it has. Three seconds of it; status 1 means "no scanner board
# synced", which is the truth here.
step_diag() {
    local out rc=0 lines
    out="$(as_pi 'timeout 300 .venv/bin/obelisk diag --profile reference --seconds 3' 2>&1)" || rc=$?
    printf '%s\n' "$out"
    echo "== exit status: $rc"
    lines="$(grep -c . <<<"$out" || true)"
    diag_said="$(grep -m1 '^MISSING buttons' <<<"$out" | cut -c1-160) (exit $rc, $lines lines)"
    if [ "$rc" = 124 ]; then echo "FAIL: still running after 300 s (stopped by timeout)"; return 1; fi
    if grep -q Traceback <<<"$out"; then echo "FAIL: a traceback"; return 1; fi
    for want in "MISSING buttons: " "MISSING LEDs: " "waiting for the scanner board" "LED test: "; do
        grep -q "$want" <<<"$out" || { echo "FAIL: diag never said '$want'"; return 1; }
    done
    [ "$rc" = 1 ] || { echo "FAIL: exit $rc, not 1 (no scanner board is synced)"; return 1; }
    echo "said what is missing, with the fix, and ran its LED test; no traceback"
}

# The service as systemd would start it (Type=notify): NOTIFY_SOCKET points at a
# datagram socket we listen on, and READY=1 must arrive within 10 minutes
# (qemu is slow). We listen 5 s longer (WATCHDOG=1, STATUS=...), then stop
# it with SIGTERM, as systemctl stop does. Its working directory is /, as
# under systemd.
step_service() {
    local sock=/tmp/obelisk-notify.sock notify="$step_log.notify" listener service
    local rc=0 waited=0 status=0
    rm -f "$run_root$sock"
    "$host_python" - "$run_root$sock" >"$notify" 2>&1 <<'PY' &
import os, socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
os.chmod(sys.argv[1], 0o777)  # the service runs as pi
start = time.monotonic()
print("listening", flush=True)
while True:
    data = s.recv(4096).decode(errors="replace")
    print(f"after {time.monotonic() - start:.1f} s: {data!r}", flush=True)
PY
    listener=$!
    pids+=("$listener")
    until grep -q listening "$notify" 2>/dev/null; do
        kill -0 "$listener" 2>/dev/null || { echo "FAIL: the notify listener did not start"; cat "$notify"; return 1; }
        sleep 0.2
    done
    # The unit's Environment= lines, as systemd applies them (LG_WD=/tmp: lgpio's pipes).
    local unit="$run_root/etc/systemd/system/obelisk.service" unit_env=()
    [ -f "$unit" ] || unit="$run_root/home/pi/obelisk/systemd/obelisk.service"
    mapfile -t unit_env < <(unit_environment "$host_python" "$unit")
    echo "== the environment of ${unit#"$run_root"}, applied as systemd would: ${unit_env[*]:-(none)}"
    set_pi_env
    env "${qemu_env[@]}" chroot "$run_root" /usr/bin/env -i PATH=/usr/bin:/bin \
        "${qemu_env[@]}" /usr/bin/sudo -u pi -H "${pi_env[@]}" "${unit_env[@]}" \
        NOTIFY_SOCKET="$sock" \
        /home/pi/obelisk/.venv/bin/obelisk run --profile reference --state-dir /tmp/obelisk-state \
        >"$step_log.service" 2>&1 &
    service=$!
    pids+=("$service")
    while kill -0 "$service" 2>/dev/null && ! grep -q "'READY=1" "$notify" && [ "$waited" -lt 600 ]; do
        sleep 1; waited=$((waited + 1))
    done
    if grep -q "'READY=1" "$notify"; then
        echo "READY=1 arrived: $(grep -m1 "'READY=1" "$notify")"
        sleep 5
        # diag beside the running service asks it (the service holds the devices; on a
        # Pi 5 the LED pin opens once only): its LED test goes through the service
        local diag_out diag_rc=0
        diag_out="$(as_pi 'timeout 300 .venv/bin/obelisk diag --state-dir /tmp/obelisk-state --once' 2>&1)" || diag_rc=$?
        echo "== obelisk diag beside the service (exit $diag_rc):"
        echo "$diag_out"
        if grep -q "^LED test through the table service on /tmp/obelisk-state: " <<<"$diag_out"; then
            echo "diag lit an LED through the running service"
        else
            echo "FAIL: diag did not go through the running service"; rc=1
        fi
    elif kill -0 "$service" 2>/dev/null; then
        echo "FAIL: no READY=1 within 600 s"; rc=1
    else
        echo "FAIL: the service ended before READY=1"; rc=1
    fi
    waited=0
    if kill -0 "$service" 2>/dev/null; then
        echo "== stopping it with SIGTERM"
        kill -TERM "$service"
        while kill -0 "$service" 2>/dev/null && [ "$waited" -lt 60 ]; do
            sleep 1; waited=$((waited + 1))
        done
        if kill -0 "$service" 2>/dev/null; then
            echo "FAIL: still running 60 s after SIGTERM; killing it"
            kill -KILL "$service" 2>/dev/null || true
            rc=1
        fi
    fi
    wait "$service" || status=$?
    echo "== its exit status: $status (${waited} s after SIGTERM)"
    kill -TERM "$listener" 2>/dev/null || true
    wait "$listener" 2>/dev/null || true
    echo "== what it told systemd ($notify):"
    cat "$notify"
    echo "== the first lines of its log ($step_log.service):"
    head -n 25 "$step_log.service"
    rm -f "$run_root$sock"
    return "$rc"
}

step_units() {
    local units
    units="$(find "$run_root/etc/systemd/system" -maxdepth 1 -name 'obelisk*.service' -printf '/etc/systemd/system/%f\n' | sort)"
    if [ -n "$units" ]; then
        echo "setup.sh wrote: $units"
        echo "== enabled: $(cd "$run_root" && find etc/systemd/system -name 'obelisk*' -type l -printf '%p -> %l\n')"
    else
        echo "setup.sh wrote no units; rendering them as setup.sh does (@ROOT@, @USER@)"
        # shellcheck disable=SC2016  # the $s are for the root's shell
        in_root /bin/sh -c 'mkdir -p /tmp/obelisk-units && for f in /home/pi/obelisk/systemd/*.service; do
            sed -e "s|@ROOT@|/home/pi/obelisk|g" -e "s|@USER@|pi|g" "$f" > /tmp/obelisk-units/"${f##*/}"; done' || return 1
        units="$(find "$run_root/tmp/obelisk-units" -name '*.service' -printf '/tmp/obelisk-units/%f\n' | sort)"
    fi
    # shellcheck disable=SC2086  # one word per unit
    in_root systemd-analyze verify --man=no $units
}

# The README's test command, as a new owner runs it on their Pi: it must exit 0 (what
# cannot run on a Pi, a browser, skips saying why). Slow under qemu: its output must not
# stop growing for 20 minutes, and the whole of it ends within 4 hours. The suite's waits
# for what it starts are made TEST_PATIENCE times longer (tests/support/patience.py):
# emulated, every program runs 20 to 50 times slower than on this machine.
TEST_PATIENCE=10
step_tests() {
    local argv=() rc=0
    pi_argv "./setup.sh && OBELISK_TEST_PATIENCE=$TEST_PATIENCE .venv/bin/python -m pytest -q -rs"
    watch_run 14400 1200 "$step_log.pytest" "${argv[@]}" || rc=1
    echo "== the last lines of the tests ($step_log.pytest):"
    tail -n 40 "$step_log.pytest"
    return "$rc"
}

# One run: a release, a model ------------------------------------------------------------
results=()   # "RUN|STEP|PASS/FAIL|SECONDS|LOG" lines for the summary
notes=()     # what each run saw, for the summary

run_step() {  # run_step NAME FUNCTION LIMIT (seconds: a step over it fails)
    local name="$1" fn="$2" limit="$3" start end verdict status=0
    step_n=$((step_n + 1))
    step_log="$run_logs/$(printf '%02d' "$step_n")-$name.log"
    say "  $name ..."
    start="$(date +%s%N)"
    "$fn" >"$step_log" 2>&1 </dev/null || status=$?
    end="$(date +%s%N)"
    local secs
    secs="$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')"
    verdict="$(step_verdict "$status" "$secs" "$limit")"
    if [ "$status" = 0 ] && [ "$verdict" = FAIL ]; then
        echo "FAIL: it took ${secs} s, over its limit of ${limit} s" >>"$step_log"
    fi
    say "  $name: $verdict (${secs}s)"
    results+=("$run_name|$name|$verdict|$secs|$step_log")
}

run_one() {
    local release="$1" slug work uid gid host round="$3"
    model="$2"
    model_facts "$model"
    set_qemu_env
    slug="$(tr 'A-Z ' 'a-z-' <<<"$model" | tr -cd 'a-z0-9.-')"
    run_name="$(root_name "$release")/$slug"
    run_logs="$logs/$(root_name "$release")-$slug"
    if [ "$runs" -gt 1 ]; then run_name+="#$round"; run_logs+="-$round"; fi
    mkdir -p "$run_logs"
    say "run $run_name: $model on Debian $release, $arch (logs: $run_logs)"
    # The machine's load beside the figures: every step runs emulated, so a busy host slows it.
    local load_before
    load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
    say "  load average (1, 5, 15 min) before the run: $load_before ($(nproc) cores)"

    # A fresh overlay of the cached root: the cache stays clean.
    work="$(mktemp -d /var/tmp/obelisk-pi-run.XXXXXX)"
    work_dirs+=("$work")
    mkdir -p "$work/upper" "$work/work" "$work/root"
    mount_at "$work/root" -t overlay overlay \
        -o "lowerdir=$cache/$(root_name "$release"),upperdir=$work/upper,workdir=$work/work"
    run_root="$work/root"
    mount_system "$run_root"
    host="$(hostname)"
    printf '127.0.1.1\t%s raspberrypi\n' "$host" >> "$run_root/etc/hosts"

    # Behind a TLS-inspecting proxy, this machine trusts the proxy's CA: the
    # root must too, or pip cannot reach PyPI (a Pi there would need it as well).
    if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
        say "  trusting this machine's local CAs in the root too ($(cd /usr/local/share/ca-certificates && echo *.crt))"
        cp /usr/local/share/ca-certificates/*.crt "$run_root/usr/local/share/ca-certificates/"
        in_root update-ca-certificates >"$run_logs/ca-certificates.log" 2>&1 \
            || die "update-ca-certificates failed in the root (see $run_logs/ca-certificates.log)"
    fi

    # The Pi model, where qemu looks first (QEMU_LD_PREFIX=/.pi-model).
    local fake="$run_root$pi_model_dir/proc" core
    mkdir -p "$fake/device-tree"
    printf '%s\0' "$model" > "$fake/device-tree/model"
    printf '%b' "$compatible" > "$fake/device-tree/compatible"
    {
        for core in 0 1 2 3; do
            printf 'processor\t: %s\nBogoMIPS\t: 108.00\nFeatures\t: fp asimd evtstrm crc32 cpuid\n' "$core"
            printf 'CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x0\nCPU part\t: %s\nCPU revision\t: 3\n\n' "$cpu_part"
        done
        printf 'Hardware\t: BCM2835\nRevision\t: %s\nSerial\t\t: 10000000%08x\nModel\t\t: %s\n' \
            "$revision" "$RANDOM" "$model"
    } > "$fake/cpuinfo"

    # pip's downloads and wheels, kept between runs of this release.
    uid="$(awk -F: '$1 == "pi" { print $3 }' "$run_root/etc/passwd")"
    gid="$(awk -F: '$1 == "pi" { print $4 }' "$run_root/etc/passwd")"
    mkdir -p "$cache/pip-$release" "$run_root/home/pi/.cache/pip"
    chown "$uid:$gid" "$cache/pip-$release" "$run_root/home/pi/.cache" "$run_root/home/pi/.cache/pip"
    mount_at "$run_root/home/pi/.cache/pip" --bind "$cache/pip-$release"

    # The checkout: tracked files and uncommitted changes (not what .gitignore hides).
    say "  copying $checkout to /home/pi/obelisk"
    mkdir -p "$run_root/home/pi/obelisk"
    git -c safe.directory="$checkout" -C "$checkout" ls-files -z --cached --others --exclude-standard \
        | while IFS= read -r -d '' file; do
              if [ -e "$checkout/$file" ] || [ -L "$checkout/$file" ]; then printf '%s\0' "$file"; fi
          done \
        | tar -C "$checkout" --null -T - -cf - | tar -C "$run_root/home/pi/obelisk" -xf -
    chown -R "$uid:$gid" "$run_root/home/pi/obelisk"
    git -c safe.directory="$checkout" -C "$checkout" log -1 --format='commit %H %s' > "$run_logs/checkout.txt"
    git -c safe.directory="$checkout" -C "$checkout" status --short >> "$run_logs/checkout.txt"

    step_n=0 detected="" apt_summary="" diag_said=""
    # Each step's limit: its own timeouts (setup.sh's 3600 s, the service's 600 s wait for
    # READY) with room to report; the second setup.sh may take 60 s, even under qemu.
    run_step model step_model 120
    if [ "$arch" = armhf ]; then
        run_step setup-32-bit step_setup_32_bit 300
        notes+=("$run_name: load average (1, 5, 15 min) before $load_before, after $(cut -d' ' -f1-3 /proc/loadavg)")
        unmount_all
        return 0
    fi
    run_step platformdetect step_platformdetect 900
    run_step apt-policy step_apt_policy 300
    run_step setup-first step_setup_first 3700
    run_step setup-second step_setup_second 60
    run_step demo step_demo 1900
    run_step diag step_diag 400
    run_step service step_service 1100
    run_step units step_units 300
    if [ "$skip_tests" = 0 ]; then run_step tests step_tests 14500; fi
    notes+=("$run_name: PlatformDetect: ${detected:-?}")
    notes+=("$run_name: diag: ${diag_said:-?}")
    notes+=("$run_name: apt candidates: ${apt_summary:-?}")
    notes+=("$run_name: load average (1, 5, 15 min) before $load_before, after $(cut -d' ' -f1-3 /proc/loadavg)")

    unmount_all
}

# Main -------------------------------------------------------------------------------------
mkdir -p "$cache"
exec {binfmt_lock}>"$cache/.binfmt.lock"
flock "$binfmt_lock"    # runs side by side must not register qemu twice
binfmt_ready "$qemu"
exec {binfmt_lock}>&-
for release in "${releases[@]}"; do build_root "$release"; done
if [ "$build_only" = 1 ]; then say "roots ready in $cache"; exit 0; fi

mkdir -p "$logs"
for release in "${releases[@]}"; do
    for model in "${models[@]}"; do
        for ((round = 1; round <= runs; round++)); do run_one "$release" "$model" "$round"; done
    done
done

# Summary ------------------------------------------------------------------------------------
failed=0
printf '\n%-46s %-14s %-5s %8s\n' "run" "step" "" "seconds"
for line in "${results[@]}"; do
    IFS='|' read -r run step verdict secs log <<<"$line"
    printf '%-46s %-14s %-5s %8s\n' "$run" "$step" "$verdict" "$secs"
    if [ "$verdict" = FAIL ]; then
        failed=1
        tail -n 8 "$log" | sed 's/^/        | /'
    fi
done
echo
if [ "$runs" -gt 1 ]; then
    # Each step's range over the runs of one release and model, and how many of them passed.
    printf '%-40s %-14s %-7s %s\n' "release/model" "step" "passed" "seconds (min-max)"
    for line in "${results[@]}"; do printf '%s\n' "$line"; done | step_ranges
    echo
fi
for note in "${notes[@]}"; do printf '%s\n' "$note"; done
echo
say "logs: $logs"
exit "$failed"

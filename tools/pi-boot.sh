#!/usr/bin/env bash
# shellcheck disable=SC2317  # steps run through boot_step, the clean-up by a trap
# Obelisk Table on a booted pretend Raspberry Pi: does the install hold up under systemd as
# PID 1, through the reboot setup.sh asks for? No Pi needed, only this Debian machine.
#
# tools/pi-root.sh runs setup.sh in a chroot, where systemd is not running. This boots a
# whole arm64 machine instead (qemu-system-aarch64, the virt board, Debian's arm64 kernel,
# emulated: there is no arm64 KVM on an x86-64 machine) and looks at it from outside:
#
# - the root is built once with debootstrap (qemu-user-static runs its arm64 programs) and
#   kept as a disk image; each run boots a copy-on-write layer over it, so every run starts
#   from the same clean machine and the cache stays as built;
# - the machine looks like the Pi where the code looks: qemu's device tree is dumped,
#   its model and compatible strings replaced by the Pi's (and the board's revision added
#   as the Pi's firmware adds it), and booted with; /proc/cpuinfo gets the Pi's lines from
#   a bind mount made early in boot (tools/pi-boot/pi-facts.sh);
# - the host reaches it through qemu's user network: ssh and the page on free ports of
#   127.0.0.1, picked per run;
# - as pi it copies the checkout in, runs setup.sh, reboots as asked, then checks the
#   units (up by themselves, READY, the watchdog fed, the page from the host, diag through
#   the service, a game kept over a restart and a reboot) and prints systemd-analyze
#   security for each unit.
#
# Every step has a time limit and a stall limit (tools/pi-boot/steps.sh): one that runs
# past either FAILS. The exit status is 0 only if every step passed.
#
# Needs root, debootstrap, qemu-user-static, qemu-system-arm, qemu-utils,
# device-tree-compiler, e2fsprogs, openssh-client, curl and git on this machine.
set -Eeuo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=tools/pi-boot/steps.sh
. "$here/pi-boot/steps.sh"

TOOL=pi-boot
# say, die, the options both tools take
# shellcheck source=tools/pi-options.sh
. "$here/pi-options.sh"

usage() {
    cat <<'USAGE'
Usage: sudo tools/pi-boot.sh [options]

Boots a Debian arm64 machine that looks like a Raspberry Pi (qemu-system-aarch64,
emulated, systemd as PID 1), installs the Obelisk Table in it as user pi, reboots it
as setup.sh asks, and checks the table, page and publisher services from outside.

  --release R      bookworm (Python 3.11, the default) or trixie (Python 3.13)
  --model M        the Pi to look like, as its /proc/device-tree/model reads:
                     "Raspberry Pi 5 Model B Rev 1.0" (the default)
                     "Raspberry Pi 4 Model B Rev 1.4"
  --all            bookworm and trixie, each as a Pi 5 and as a Pi 4 (four runs)
  --checkout DIR   the git checkout to install (default: the one holding this script)
  --cache DIR      where the roots and their disk images are kept (default:
                   $OBELISK_PI_BOOT, or /var/cache/obelisk-pi-boot)
  --logs DIR       where the step logs go (default: /var/tmp/obelisk-pi-boot-logs/DATE)
  --build-only     only build (or check) the disk images, boot nothing
  --rebuild        throw the cached root and image away and build them again
  --keep           leave the machine running at the end (its ports are printed) and
                   keep its disk layer
  -h, --help       this text

It takes one to two hours a run on a 2-core machine: every instruction is emulated.
The exit status is 0 only if every step of every run passed.
USAGE
}

# Options ------------------------------------------------------------------------------
releases=(bookworm)
models=("Raspberry Pi 5 Model B Rev 1.0")
checkout="$(cd "$here/.." && pwd)"
cache="${OBELISK_PI_BOOT:-/var/cache/obelisk-pi-boot}"
logs="/var/tmp/obelisk-pi-boot-logs/$(date +%Y%m%d-%H%M%S)"
build_only=0 rebuild=0 keep=0
while [ $# -gt 0 ]; do
    shared_option "$@"
    if [ "$taken" -gt 0 ]; then shift "$taken"; continue; fi
    case "$1" in
        --all) releases=(bookworm trixie)
               models=("Raspberry Pi 5 Model B Rev 1.0" "Raspberry Pi 4 Model B Rev 1.4"); shift ;;
        *) usage >&2; die "unknown option: $1" ;;
    esac
done
known_releases

[ "$(id -u)" = 0 ] || die "run it as root (debootstrap, chroot and binfmt_misc need it): sudo $0 $*"
for tool in debootstrap qemu-system-aarch64 qemu-img dtc mkfs.ext4 ssh ssh-keygen curl git flock; do
    command -v "$tool" >/dev/null || die "$tool not found. Install: sudo apt-get install debootstrap qemu-user-static qemu-system-arm qemu-utils device-tree-compiler e2fsprogs openssh-client curl git"
done
[ -e /usr/share/binfmts/qemu-aarch64 ] || die "qemu-user-static is not installed: sudo apt-get install qemu-user-static"
git -c safe.directory="$checkout" -C "$checkout" rev-parse --git-dir >/dev/null 2>&1 \
    || die "$checkout is not a git checkout (give one with --checkout DIR)"
checkout="$(cd "$checkout" && pwd)"

# The Pi models ---------------------------------------------------------------------------
# Sets: compatible (the device tree's root compatible, as dts strings), revision (the
# board's code, hex) and cpu_part (the Arm core: A76 or A72).
model_facts() {
    case "$1" in
        "Raspberry Pi 5"*) compatible='"raspberrypi,5-model-b", "brcm,bcm2712"'; revision=d04170; cpu_part=0xd0b ;;
        "Raspberry Pi 4"*) compatible='"raspberrypi,4-model-b", "brcm,bcm2711"'; revision=c03114; cpu_part=0xd08 ;;
        *) die "model \"$1\": not one this script knows (see --help)" ;;
    esac
}
for model in "${models[@]}"; do model_facts "$model"; done

# What to undo on exit ----------------------------------------------------------------------
mounts=()      # mount points, in the order they were mounted
vm_pid=""      # the running qemu-system-aarch64, ours
broker_pid=""  # the club's broker on this machine, ours
run_dirs=()    # per-run disk layers, removed on exit unless --keep

mount_at() {  # mount_at TARGET MOUNT-ARGUMENTS...
    local target="$1"; shift
    mount "$@" "$target"
    mounts+=("$target")
}

unmount_all() {
    local i
    for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
        umount "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}" 2>/dev/null \
            || printf 'pi-boot: could not unmount %s\n' "${mounts[i]}" >&2
    done
    mounts=()
}

stop_pid() {  # stop_pid PID: SIGTERM, then SIGKILL after 10 s; only our own children
    local pid="$1" n
    [ -n "$pid" ] || return 0
    kill -TERM "$pid" 2>/dev/null || return 0
    for ((n = 0; n < 50; n++)); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.2; done
    kill -KILL "$pid" 2>/dev/null || true
}

cleanup() {
    local dir
    if [ "$keep" = 1 ] && [ -n "$vm_pid" ]; then
        say "left running: qemu pid $vm_pid, ssh -p $ssh_port pi@127.0.0.1 (key $key), page http://127.0.0.1:$web_port/"
    else
        stop_pid "$vm_pid"
        stop_pid "$broker_pid"
        for dir in "${run_dirs[@]}"; do rm -rf --one-file-system "$dir"; done
    fi
    unmount_all
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# binfmt_misc: arm64 programs of the root run through qemu-user while it is built ------------
binfmt_ready() {
    local dir=/proc/sys/fs/binfmt_misc entry magic mask flags
    entry="$dir/qemu-aarch64"
    [ -e "$dir/register" ] || mount -t binfmt_misc binfmt_misc "$dir" \
        || die "could not mount binfmt_misc on $dir"
    if [ -e "$entry" ]; then
        flags="$(sed -n 's/^flags: *//p' "$entry")"
        grep -qx enabled "$entry" && [[ $flags == *F* ]] && return 0
        echo -1 > "$entry"
    fi
    magic="$(sed -n 's/^magic //p' /usr/share/binfmts/qemu-aarch64)"
    mask="$(sed -n 's/^mask //p' /usr/share/binfmts/qemu-aarch64)"
    say "registering qemu-aarch64 with binfmt_misc"
    printf ':qemu-aarch64:M:0:%s:%s:%s:POCF' "$magic" "$mask" /usr/libexec/qemu-binfmt/aarch64-binfmt-P \
        > "$dir/register" || die "could not register qemu-aarch64 with binfmt_misc"
}

# The root and its disk image ------------------------------------------------------------------
# A Raspberry Pi OS Lite's share of what setup.sh relies on, and what a booted machine needs:
# systemd as init, udev, a network and ssh. The kernel comes later (dress_root), once its
# initramfs is told to hold only the few modules the virt board needs: with Debian's
# default (most modules) mkinitramfs takes over half an hour under qemu-user.
packages="systemd-sysv,udev,kmod,dbus,openssh-server,sudo,python3,python3-venv"
packages+=",python3-pip,ca-certificates,git,iproute2,procps,adduser,passwd,e2fsprogs,netbase"
marker=.obelisk-pi-boot

chroot_system() {  # proc, sys and dev for programs run in the root while it is built
    local root="$1"
    mount_at "$root/proc" -t proc proc
    mount_at "$root/sys" -t sysfs sysfs
    mount_at "$root/dev" --bind /dev
    mount_at "$root/dev/pts" --bind /dev/pts
}

# Makes the debootstrapped root a machine that boots: Raspberry Pi OS's user pi (sudo with
# no password) and groups, its boot files, a network by DHCP, ssh for our key, the pretend
# Pi's own units (tools/pi-boot/: its /proc/cpuinfo, GPIO chip, the Pico on USB and the
# scanner board's twin), and this machine's local CAs (behind a TLS-inspecting proxy pip
# needs them).
dress_root() {
    local root="$1"
    install -d -m 0755 "$root/etc/obelisk-pi-boot" "$root/root/.ssh"
    install -m 0755 "$here/pi-boot/pi-facts.sh" "$root/usr/local/sbin/obelisk-pi-facts"
    local part
    for part in facts gpio usb scanner; do
        install -m 0755 "$here/pi-boot/pi-$part.sh" "$root/usr/local/sbin/obelisk-pi-$part"
        install -m 0644 "$here/pi-boot/obelisk-pi-$part.service" "$root/etc/systemd/system/"
    done
    # Raspberry Pi OS's udev rule: the GPIO chips belong to the gpio group
    printf '%s\n' 'SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"' \
        > "$root/etc/udev/rules.d/99-obelisk-pi-gpio.rules"
    if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
        cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
    fi
    printf '%s\n' "[Match]" "Name=en* eth*" "" "[Network]" "DHCP=yes" > "$root/etc/systemd/network/20-wired.network"
    printf 'nameserver 10.0.2.3\n' > "$root/etc/resolv.conf"
    printf '/dev/vda / ext4 rw,errors=remount-ro 0 1\n' > "$root/etc/fstab"
    echo raspberrypi > "$root/etc/hostname"
    printf '127.0.0.1\tlocalhost\n127.0.1.1\traspberrypi\n' > "$root/etc/hosts"
    install -d "$root/etc/initramfs-tools/conf.d"
    printf 'MODULES=list\n' > "$root/etc/initramfs-tools/conf.d/obelisk-pi-boot"
    grep -qx virtio_blk "$root/etc/initramfs-tools/modules" 2>/dev/null \
        || printf '%s\n' virtio_pci virtio_blk ext4 >> "$root/etc/initramfs-tools/modules"
    chroot_system "$root"
    # shellcheck disable=SC2016  # the $s are for the root's shell
    chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 /bin/sh -eu -c '
        for group in gpio spi i2c dialout; do
            getent group "$group" >/dev/null || groupadd --system "$group"
        done
        id pi >/dev/null 2>&1 || useradd --create-home --shell /bin/bash \
            --groups adm,dialout,cdrom,sudo,audio,video,plugdev,users,i2c pi
        echo "pi ALL=(ALL) NOPASSWD: ALL" > /etc/sudoers.d/010_pi-nopasswd
        chmod 0440 /etc/sudoers.d/010_pi-nopasswd
        mkdir -p /boot/firmware
        printf "%s\n" "# For more options and information see" \
            "# http://rptl.io/configtxt" "" "dtparam=audio=on" "" "[all]" > /boot/firmware/config.txt
        echo "console=serial0,115200 console=tty1 root=/dev/mmcblk0p2 rootfstype=ext4 fsck.repair=yes rootwait" \
            > /boot/firmware/cmdline.txt
        update-ca-certificates
        export DEBIAN_FRONTEND=noninteractive
        dpkg --configure -a    # an earlier build stopped half-way
        apt-get update -qq
        apt-get install -y -qq --no-install-recommends -o Dpkg::Options::=--force-confdef \
            -o Dpkg::Options::=--force-confold linux-image-arm64
        systemctl enable systemd-networkd systemd-networkd-wait-online ssh obelisk-pi-facts obelisk-pi-gpio \
            obelisk-pi-usb obelisk-pi-scanner
        passwd -d root
    '
    unmount_all
}

# The disk image: the root as one ext4 file system (mkfs.ext4 copies the folder in), as
# qcow2, and the kernel, its initrd and our ssh key beside it.
make_image() {
    local root="$1" image="$2" dir
    dir="$(dirname "$image")"
    [ -f "$dir/id_ed25519" ] || ssh-keygen -q -t ed25519 -N "" -C obelisk-pi-boot -f "$dir/id_ed25519"
    install -d -m 0700 -o "$(stat -c %u "$root/home/pi")" -g "$(stat -c %g "$root/home/pi")" "$root/home/pi/.ssh"
    install -m 0600 -o "$(stat -c %u "$root/home/pi")" -g "$(stat -c %g "$root/home/pi")" \
        "$dir/id_ed25519.pub" "$root/home/pi/.ssh/authorized_keys"
    install -m 0600 "$dir/id_ed25519.pub" "$root/root/.ssh/authorized_keys"
    local kernel
    kernel="$(find "$root/boot" -name 'vmlinuz-*' -printf '%f\n' | sort -V | tail -n 1)"
    [ -n "$kernel" ] || { echo "no kernel in $root/boot"; return 1; }
    cp "$root/boot/$kernel" "$dir/vmlinuz"
    cp "$root/boot/initrd.img-${kernel#vmlinuz-}" "$dir/initrd.img"
    rm -f "$dir/root.raw"
    mkfs.ext4 -q -F -L pi-root -d "$root" "$dir/root.raw" 12G
    qemu-img convert -O qcow2 "$dir/root.raw" "$image.new"
    rm -f "$dir/root.raw"
    mv "$image.new" "$image"
}

build_root() {
    local release="$1" root="$cache/$1/root" image="$cache/$1/root.qcow2" lock log="$cache/$1/build.log"
    mkdir -p "$cache/$release"
    exec {lock}>"$cache/$release/.lock"
    flock "$lock"
    if [ "$rebuild" = 1 ]; then
        say "$release: --rebuild: removing the cached root and image"
        rm -rf --one-file-system "$root" "$image" "$cache/$release/$marker"
    fi
    if [ -f "$cache/$release/$marker" ] && [ -f "$image" ]; then
        say "$release: using the cached image $image"
        exec {lock}>&-
        return 0
    fi
    if [ -e "$root" ] && { [ -d "$root/debootstrap" ] || [ ! -x "$root/usr/bin/python3" ]; }; then
        say "$release: removing an unfinished root ($root)"
        rm -rf --one-file-system "$root"
    fi
    if [ ! -e "$root" ]; then
        say "$release: debootstrap arm64 into $root (half an hour or more under qemu; log: $log)"
        debootstrap --arch=arm64 --variant=minbase --include="$packages" \
            "$release" "$root" http://deb.debian.org/debian >"$log" 2>&1 \
            || { tail -n 20 "$log" >&2; die "debootstrap of $release failed (log: $log)"; }
    fi
    say "$release: making it a Pi-like machine that boots"
    dress_root "$root" >>"$log" 2>&1 || { tail -n 20 "$log" >&2; die "could not dress the $release root (log: $log)"; }
    say "$release: writing its disk image"
    make_image "$root" "$image" >>"$log" 2>&1 || { tail -n 20 "$log" >&2; die "could not write the $release image (log: $log)"; }
    printf 'release=%s\nbuilt=%s\n' "$release" "$(date -Is)" > "$cache/$release/$marker"
    exec {lock}>&-
    say "$release: image ready ($(du -h "$image" | cut -f1))"
}

# Main --------------------------------------------------------------------------------------
mkdir -p "$cache"
binfmt_ready
for release in "${releases[@]}"; do build_root "$release"; done
if [ "$build_only" = 1 ]; then say "images ready in $cache"; exit 0; fi

# shellcheck source=tools/pi-boot/run.sh
. "$here/pi-boot/run.sh"

#!/bin/sh
# The Pi's lines of /proc/cpuinfo on a booted pretend Pi (tools/pi-boot.sh): a Raspberry Pi's
# kernel adds Revision, Serial and Model, the virt board's kernel does not. The device tree
# already says which Pi this is (its model, and /system/linux,revision as the Pi's firmware
# writes it); this puts the same in /proc/cpuinfo, by a bind mount made before any service
# starts. Run by obelisk-pi-facts.service.
set -eu
tree=/proc/device-tree
[ -r "$tree/model" ] || { echo "no device-tree model: leaving /proc/cpuinfo alone"; exit 0; }
model="$(tr -d '\0' < "$tree/model")"
case "$model" in
    "Raspberry Pi 5"*) part=0xd0b ;;
    "Raspberry Pi 4"*) part=0xd08 ;;
    *) echo "not a Pi model ($model): leaving /proc/cpuinfo alone"; exit 0 ;;
esac
revision="$(od -An -tx1 "$tree/system/linux,revision" | tr -d ' \n' | sed 's/^0*//')"
mkdir -p /run/obelisk-pi-facts
out=/run/obelisk-pi-facts/cpuinfo
: > "$out"
for cpu in $(seq 0 $(( $(nproc --all) - 1 ))); do
    printf 'processor\t: %s\nBogoMIPS\t: 108.00\nFeatures\t: fp asimd evtstrm crc32 cpuid\n' "$cpu" >> "$out"
    printf 'CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x0\nCPU part\t: %s\nCPU revision\t: 1\n\n' "$part" >> "$out"
done
printf 'Revision\t: %s\nSerial\t\t: 10000000%s\nModel\t\t: %s\n' "$revision" "$(cut -c1-8 /etc/machine-id)" "$model" >> "$out"
mount --bind "$out" /proc/cpuinfo
echo "/proc/cpuinfo now says: $model, revision $revision"

#!/bin/sh
# The Pi's GPIO header on a booted pretend Pi (tools/pi-boot.sh): one simulated chip of 54
# lines (the kernel's gpio-sim, made through configfs, where the kernel has it), so
# /dev/gpiochip0 is there for the buttons as on a Pi. Nobody presses them: every line reads
# as its pull leaves it. Run by obelisk-pi-gpio.service; the virt board's own GPIO
# controller is off in its device tree, so this chip is gpiochip0.
set -eu
bank=/sys/kernel/config/gpio-sim/pi-header
if [ -d "$bank" ]; then echo "the simulated header is there already"; exit 0; fi
if ! modprobe gpio-sim 2>/dev/null; then
    # Debian 12's arm64 kernel (6.1) is built without it: no chip then, and the table says
    # its buttons cannot be claimed, as on a Pi with GPIO trouble
    echo "this kernel ($(uname -r)) has no gpio-sim module: no GPIO chip"
    exit 0
fi
mountpoint -q /sys/kernel/config || mount -t configfs configfs /sys/kernel/config
mkdir "$bank" "$bank/gpio-bank0"
echo 54 > "$bank/gpio-bank0/num_lines"
echo 1 > "$bank/live"
echo "simulated GPIO chip: $(cat "$bank/dev_name") $(cat "$bank/gpio-bank0/chip_name")"

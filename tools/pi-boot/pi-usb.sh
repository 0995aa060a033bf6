#!/bin/sh
# The scanner board's USB cable on a booted pretend Pi (tools/pi-boot.sh). The kernel's
# dummy_hcd is a USB host and a USB device port wired to each other; on the device side a
# gadget says it is a Pico running CircuitPython (Raspberry Pi, Pico, serial "obelisk") with
# two serial channels, console and data, as the scanner board's code has them. The host
# side sees it as a Pi sees the Pico: /dev/ttyACM0 and 1, and udev's
# /dev/serial/by-id/usb-Raspberry_Pi_Pico_obelisk-if00 and -if02, the profile's port.
# The board itself (pi-scanner.sh) talks on the device side's data channel. Run by
# obelisk-pi-usb.service.
set -eu
gadget=/sys/kernel/config/usb_gadget/pico
if [ -e "$gadget/UDC" ] && [ -n "$(cat "$gadget/UDC")" ]; then echo "the Pico is plugged in already"; exit 0; fi
modprobe dummy_hcd
modprobe libcomposite
mountpoint -q /sys/kernel/config || mount -t configfs configfs /sys/kernel/config
mkdir -p "$gadget/strings/0x409" "$gadget/configs/c.1/strings/0x409"
echo 0x239a > "$gadget/idVendor"    # Adafruit's, as CircuitPython on a Pico says
echo 0x80f4 > "$gadget/idProduct"
echo "Raspberry Pi" > "$gadget/strings/0x409/manufacturer"
echo "Pico" > "$gadget/strings/0x409/product"
echo obelisk > "$gadget/strings/0x409/serialnumber"
echo "CircuitPython" > "$gadget/configs/c.1/strings/0x409/configuration"
for channel in console data; do   # interfaces 0-1, then 2-3: the data channel is if02
    mkdir -p "$gadget/functions/acm.$channel"
    [ -e "$gadget/configs/c.1/acm.$channel" ] || ln -s "$gadget/functions/acm.$channel" "$gadget/configs/c.1/"
done
ls /sys/class/udc | head -n 1 > "$gadget/UDC"
echo "plugged in: $(cat "$gadget/UDC"); the board's data channel is /dev/ttyGS$(cat "$gadget/functions/acm.data/port_num")"
# Done only once the host side has the port, as a Pi has it when the Pico was on its USB at
# power-on: the kernel has found the device and udev has loaded cdc_acm (so /proc/devices
# lists ttyACM) and made the by-id link. The table's unit allows "char-ttyACM" as
# /proc/devices reads when it starts; started before cdc_acm is loaded, it is refused the
# port ("no permission") until it is started again.
port=/dev/serial/by-id/usb-Raspberry_Pi_Pico_obelisk-if02
tries=0
until [ -e "$port" ] && grep -q ' ttyACM$' /proc/devices; do
    tries=$((tries + 1))
    if [ "$tries" -gt 600 ]; then echo "the host side has no $port after 300 s" >&2; exit 1; fi
    sleep 0.5
done
echo "the host side's port: $port -> $(readlink -f "$port")"

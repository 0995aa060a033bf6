#!/bin/sh
# The scanner board on a booted pretend Pi (tools/pi-boot.sh): the checkout's own twin of
# the board (python -m firmware.sim.hands_board: the scanner code on a simulated towers
# table, with hands on its hands.sock) and a bridge from its pseudo-terminal to the data
# channel of the pretend Pico's USB gadget (pi-usb.sh). The table then reads it through
# /dev/ttyACM1, as it reads a real board. Run by obelisk-pi-scanner.service, as pi.
set -eu
dir=/var/tmp/obelisk-scanner
port="/dev/ttyGS$(cat /sys/kernel/config/usb_gadget/pico/functions/acm.data/port_num)"
mkdir -p "$dir"
cd /home/pi/obelisk
.venv/bin/python -m firmware.sim.hands_board --state-dir "$dir" --game towers &
board=$!
until [ -e "$dir/scanner" ]; do kill -0 "$board"; sleep 0.5; done
stty -F "$port" raw -echo
stty -F "$dir/scanner" raw -echo
cat "$port" > "$dir/scanner" &
cat "$dir/scanner" > "$port" &
echo "the board's twin ($dir/scanner) is on $port"
wait "$board"

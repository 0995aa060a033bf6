# shellcheck shell=bash
# shellcheck disable=SC2317  # steps run through boot_step
# The runs of tools/pi-boot.sh, sourced by it once the disk images are ready: for each
# release and model, a machine booted on a fresh layer of the image, its steps, and a
# summary. Its variables (cache, checkout, logs, keep, vm_pid, ...) are pi-boot.sh's.

host_python="$(command -v python3)"

free_port() {  # a TCP port of 127.0.0.1 that nobody holds now
    "$host_python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# vm 'SHELL COMMANDS': as pi, logged in over ssh, in /home/pi/obelisk once it exists.
vm() {
    ssh -i "$key" -p "$ssh_port" -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
        -o LogLevel=ERROR -o BatchMode=yes -o ConnectTimeout=30 -o ServerAliveInterval=15 \
        -o ServerAliveCountMax=8 pi@127.0.0.1 "cd /home/pi/obelisk 2>/dev/null; $1"
}

# The device tree of qemu's virt board, as the Pi's: its model and compatible strings, and
# /system/linux,revision as the Pi's firmware writes it (Blinka reads the board from it).
pi_device_tree() {
    local out="$1" dts="$1.dts"
    nice -n 19 qemu-system-aarch64 -M "virt,dumpdtb=$out.virt" -cpu cortex-a72 -smp 2 -m 2048 \
        -display none -monitor none -serial none 2>/dev/null
    dtc -q -I dtb -O dts -o "$dts" "$out.virt"
    grep -qx $'\tmodel = "linux,dummy-virt";' "$dts" && grep -qx $'\tcompatible = "linux,dummy-virt";' "$dts" \
        || die "qemu's device tree has no linux,dummy-virt model and compatible to replace ($dts)"
    sed -i -e "s|^\tmodel = \"linux,dummy-virt\";|\tmodel = \"$model\";|" \
        -e "s|^\tcompatible = \"linux,dummy-virt\";|\tcompatible = $compatible;\n\tsystem {\n\t\tlinux,revision = <0x$revision>;\n\t};|" \
        -e '/compatible = "arm,pl061/a\\t\tstatus = "disabled";' \
        -e '/compatible = "gpio-keys";/a\\t\tstatus = "disabled";' "$dts"
    # (the virt board's own GPIO controller, and the key on it, off: the simulated header
    # of pi-gpio.sh is gpiochip0)
    dtc -q -I dts -O dtb -o "$out" "$dts"
}

# The club's broker, on this machine: the publisher in the machine reaches it as 10.0.2.2.
start_broker() {
    local conf="$run_dir/mosquitto.conf"
    command -v mosquitto >/dev/null || { say "  no mosquitto on this machine: the publisher has no broker"; return 0; }
    broker_port="$(free_port)"
    printf 'listener %s 127.0.0.1\nallow_anonymous true\npersistence false\n' "$broker_port" > "$conf"
    setsid mosquitto -c "$conf" >"$run_logs/broker.log" 2>&1 &
    broker_pid=$!
}

start_vm() {
    : >"$console"
    setsid nice -n 19 qemu-system-aarch64 -M virt -cpu cortex-a72 -smp 2 -m 2048 \
        -kernel "$cache/$release/vmlinuz" -initrd "$cache/$release/initrd.img" -dtb "$run_dir/pi.dtb" \
        -append "root=/dev/vda rw console=ttyAMA0 systemd.show_status=1" \
        -drive "if=none,id=disk,file=$run_dir/disk.qcow2,format=qcow2,cache=unsafe" \
        -device virtio-blk-pci,drive=disk \
        -netdev "user,id=net,hostfwd=tcp:127.0.0.1:$ssh_port-:22,hostfwd=tcp:127.0.0.1:$web_port-:8080" \
        -device virtio-net-pci,netdev=net -device virtio-rng-pci \
        -display none -monitor none -serial "file:$console" >"$run_logs/qemu.log" 2>&1 &
    vm_pid=$!
}

# Waits for ssh to answer (the machine's boot), printing the console's new lines as they come.
wait_for_ssh() {
    local shown=0 lines
    until vm true 2>/dev/null; do
        kill -0 "$vm_pid" 2>/dev/null || { echo "FAIL: qemu ended"; cat "$run_logs/qemu.log"; return 1; }
        lines="$(wc -l <"$console")"
        if [ "$lines" -gt "$shown" ]; then sed -n "$((shown + 1)),${lines}p" "$console"; shown="$lines"; fi
        sleep 5
    done
    echo "== ssh answers"
}

# Steps -------------------------------------------------------------------------------------
step_boot() {
    wait_for_ssh || return 1
    local init state
    init="$(vm 'ps -p 1 -o comm=')"
    echo "PID 1: $init"
    [ "$init" = systemd ] || { echo "FAIL: PID 1 is $init, not systemd"; return 1; }
    state="$(vm 'systemctl is-system-running --wait' || true)"
    echo "systemctl is-system-running: $state"
    vm 'systemctl --failed --no-legend; uname -a; cat /etc/debian_version'
    [ "$state" = running ] || { echo "FAIL: the system is $state, not running"; return 1; }
}

step_model() {
    local seen
    seen="$(vm 'tr -d "\0" </proc/device-tree/model')"
    echo "/proc/device-tree/model: $seen"
    vm 'echo "compatible: $(tr "\0" " " </proc/device-tree/compatible)"; grep -E "^(Revision|Model|CPU part)" /proc/cpuinfo | sort -u'
    [ "$seen" = "$model" ] || { echo "FAIL: the model is not $model"; return 1; }
    vm "grep -q '^Revision.*: $revision\$' /proc/cpuinfo" || { echo "FAIL: /proc/cpuinfo has no Revision $revision"; return 1; }
}

step_copy() {
    git -c safe.directory="$checkout" -C "$checkout" ls-files -z --cached --others --exclude-standard \
        | while IFS= read -r -d '' file; do
              if [ -e "$checkout/$file" ] || [ -L "$checkout/$file" ]; then printf '%s\0' "$file"; fi
          done \
        | tar -C "$checkout" --null -T - -cf - | vm 'mkdir -p /home/pi/obelisk && tar -C /home/pi/obelisk -xf -'
    vm 'cat > /var/tmp/pi-boot-game.py' <"$here/pi-boot/game.py"
    vm 'du -sh /home/pi/obelisk'
    # The pretend Pi's own parts as this checkout has them (the cached image holds them as
    # they were when it was built): they take effect from the reboot on, where the table
    # starts.
    vm 'for part in facts gpio usb scanner; do
            sudo install -m 0755 tools/pi-boot/pi-$part.sh /usr/local/sbin/obelisk-pi-$part &&
            sudo install -m 0644 tools/pi-boot/obelisk-pi-$part.service /etc/systemd/system/ || exit 1
        done; sudo systemctl daemon-reload && echo "the pretend Pi'"'"'s parts: from this checkout"'
}

# The club's broker named before setup.sh, so setup.sh enables the publisher.
step_club() {
    [ -n "$broker_port" ] || { echo "FAIL: no broker on this machine (install mosquitto)"; return 1; }
    vm "sudo mkdir -p /etc/obelisk && printf 'broker = \"mqtt://10.0.2.2:$broker_port\"\ntable = \"pi-boot\"\n' | sudo tee /etc/obelisk/mqtt.toml"
}

# setup.sh's pip is quiet for many minutes under emulation: what it has fetched and
# installed so far is printed when it grows, so only a pip that stopped working stalls.
show_growth() {
    local last="" now
    while sleep 30; do
        now="$(vm 'du -sc --block-size=1M /tmp/pip-* /home/pi/obelisk/.venv 2>/dev/null | tail -n 1 | cut -f1 | tr "\n" " "' || true)"
        if [ -n "$now" ] && [ "$now" != "$last" ]; then echo "  (pip's downloads and .venv: $now MB)"; last="$now"; fi
    done
}

step_setup() {
    local growth rc=0
    show_growth &
    growth=$!
    vm './setup.sh' 2>&1 | tee "$run_dir/setup.out" || rc=$?
    kill "$growth" 2>/dev/null
    [ "$rc" = 0 ] || { echo "FAIL: setup.sh failed"; return 1; }
}

# Room for emulation, before the reboot that starts the units: drop-ins that raise the
# table's and the publisher's start limit and the table's watchdog in this machine only
# (tools/pi-boot/room-*.conf say why). The units themselves stay as setup.sh wrote them.
step_room() {
    vm 'systemctl show -p Id -p TimeoutStartUSec -p WatchdogUSec obelisk.service obelisk-mqtt.service' \
        | sed 's/^/as on a Pi: /'
    vm 'for unit in obelisk obelisk-mqtt; do
            sudo install -D -m 0644 tools/pi-boot/room-$unit.conf \
                /etc/systemd/system/$unit.service.d/pi-boot-room.conf || exit 1
        done; sudo systemctl daemon-reload' || return 1
    # (a running unit keeps the watchdog it was started with: these hold from the reboot on)
    vm 'systemctl cat obelisk.service obelisk-mqtt.service' \
        | grep -E '^# /etc/systemd/system/[^ ]*$|^(TimeoutStartSec|WatchdogSec)=' | sed 's/^/from the reboot on: /'
}

boot_id() { vm 'cat /proc/sys/kernel/random/boot_id'; }

step_reboot() {
    local before after
    before="$(boot_id)"
    echo "boot before: $before; setup.sh said: $(grep -i reboot "$run_dir/setup.out" | head -n 2 || echo 'no reboot asked')"
    vm 'sudo systemctl reboot' || true
    while vm true 2>/dev/null; do sleep 2; done
    echo "== ssh closed: rebooting"
    wait_for_ssh || return 1
    after="$(boot_id)"
    echo "boot after: $after"
    [ "$before" != "$after" ] || { echo "FAIL: the same boot"; return 1; }
}

units="obelisk.service obelisk-web.service obelisk-mqtt.service"

step_units() {
    local n states
    for ((n = 0; n < 120; n++)); do
        states="$(vm "systemctl is-active $units" | tr '\n' ' ' || true)"
        echo "is-active ($units): $states"
        [ "$states" = "active active active " ] && break
        case "$states" in *failed*) break ;; esac
        sleep 5
    done
    vm "systemctl is-enabled $units; systemctl list-units --no-pager 'obelisk*'"
    [ "$states" = "active active active " ] || { echo "FAIL: not all three came up"; vm "journalctl -b --no-pager -n 60 -u 'obelisk*'"; return 1; }
}

show() { vm "systemctl show -p ActiveState,SubState,NRestarts,MainPID,WatchdogUSec,StatusText $1"; }

# Seconds from a unit's process start to READY=1 (for Type=notify, systemd makes the unit
# active when READY=1 comes), from the machine's own clock.
ready_after() {
    vm "systemctl show -p ExecMainStartTimestampMonotonic -p ActiveEnterTimestampMonotonic $1" \
        | awk -F= '{ t[$1] = $2 } END { printf "%.1f", (t["ActiveEnterTimestampMonotonic"] - t["ExecMainStartTimestampMonotonic"]) / 1e6 }'
}

step_ready() {
    local unit facts ok=0
    for unit in obelisk.service obelisk-mqtt.service; do
        facts="$(show "$unit")"
        echo "== $unit"; echo "$facts"
        echo "READY=1 $(ready_after "$unit") s after its process started (systemd allows $(vm "systemctl show -p TimeoutStartUSec --value $unit"))"
        grep -qx 'ActiveState=active' <<<"$facts" || { echo "FAIL: $unit is not active"; ok=1; }
        grep -qx 'NRestarts=0' <<<"$facts" || { echo "FAIL: $unit restarted"; ok=1; }
    done
    vm 'journalctl -b --no-pager -u obelisk -n 30'
    return "$ok"
}

# Two and a half minutes of watching: the table must not be killed by its watchdog (it pats
# at half its WatchdogSec: 10 s on a Pi, 60 s in this machine, see step_room). systemd's
# time of the last pat is read every 2 s in the machine itself (pats are at least half a
# WatchdogSec apart, so none is missed while a read takes less), and the longest gap
# between two is printed.
step_watchdog() {
    local first seen gap
    first="$(show obelisk.service)"
    echo "$first"
    seen="$(vm 'end=$(( $(cut -d. -f1 /proc/uptime) + 150 ))
        while [ "$(cut -d. -f1 /proc/uptime)" -lt "$end" ]; do
            echo "$(cut -d" " -f1 /proc/uptime) $(systemctl show -p MainPID -p NRestarts -p WatchdogTimestampMonotonic obelisk.service | tr "\n" " ")"
            sleep 2
        done' | tee -a /dev/stderr)" || { echo "FAIL: could not watch the table"; return 1; }
    if grep -vw "$(grep MainPID= <<<"$first")" <<<"$seen" | grep -q MainPID=; then
        echo "FAIL: the table's process changed"; return 1
    fi
    if grep -vw 'NRestarts=0' <<<"$seen" | grep -q NRestarts=; then echo "FAIL: the table restarted"; return 1; fi
    gap="$(grep -o 'WatchdogTimestampMonotonic=[0-9]*' <<<"$seen" | cut -d= -f2 | awk '$1 > 0' | sort -nu \
        | awk 'NR > 1 && $1 - last > max { max = $1 - last } { last = $1 } END { printf "%.2f", max / 1e6 }')"
    echo "the longest gap between two pats over 150 s: $gap s ($(grep WatchdogUSec= <<<"$first"): the table pats at half that)"
    if vm 'journalctl -b --no-pager -u obelisk' | grep -i 'watchdog timeout'; then
        echo "FAIL: systemd's watchdog fired"; return 1
    fi
    echo "fed: the same process for 150 s, no restart, no watchdog timeout"
}

step_page() {
    local code
    code="$(curl -s -o "$run_dir/page.html" -w '%{http_code}' --max-time 60 "http://127.0.0.1:$web_port/")"
    echo "GET http://127.0.0.1:$web_port/ (the machine's port 8080): $code, $(wc -c <"$run_dir/page.html") bytes"
    head -c 400 "$run_dir/page.html"; echo
    [ "$code" = 200 ] || { echo "FAIL: not 200"; return 1; }
}

step_diag() {
    local out rc=0
    out="$(vm 'timeout 600 .venv/bin/obelisk diag --once' 2>&1)" || rc=$?
    printf '%s\n== exit status %s\n' "$out" "$rc"
    grep -q "^LED test through the table service on /var/lib/obelisk" <<<"$out" \
        || { echo "FAIL: diag did not go through the running service"; return 1; }
    if grep -q Traceback <<<"$out"; then echo "FAIL: a traceback"; return 1; fi
}

# The table's scanner board is the checkout's twin, on the pretend Pico's USB data channel
# (tools/pi-boot/pi-usb.sh, pi-scanner.sh): the table reads it as a board on a cable.
step_scanner() {
    vm 'systemctl is-active obelisk-pi-usb obelisk-pi-scanner; ls -l /dev/serial/by-id/; journalctl -b --no-pager -u obelisk-pi-scanner -n 20'
    vm 'systemctl is-active --quiet obelisk-pi-scanner && test -e /dev/serial/by-id/usb-Raspberry_Pi_Pico_obelisk-if02' \
        || { echo "FAIL: no board on /dev/serial/by-id/usb-Raspberry_Pi_Pico_obelisk-if02"; return 1; }
}

step_game() { vm '.venv/bin/python /var/tmp/pi-boot-game.py play'; }

step_restart() {
    vm 'sudo systemctl restart obelisk && systemctl show -p NRestarts,ActiveState,StatusText obelisk' || return 1
    vm '.venv/bin/python /var/tmp/pi-boot-game.py kept'
}

step_kept() { vm '.venv/bin/python /var/tmp/pi-boot-game.py kept'; }

step_security() {
    local unit
    for unit in $units; do
        echo "== systemd-analyze security $unit"
        vm "systemd-analyze security --no-pager $unit" | tee "$run_dir/security-$unit" || return 1
    done
    echo "== overall exposure:"
    for unit in $units; do echo "$unit: $(grep -h 'Overall exposure level' "$run_dir/security-$unit")"; done
}

# One run: a release, a model ------------------------------------------------------------
summary=()

run_one() {
    local slug
    release="$1" model="$2"
    model_facts "$model"
    slug="$(tr 'A-Z ' 'a-z-' <<<"$model" | tr -cd 'a-z0-9.-')"
    run_logs="$logs/$release-$slug"
    STEP_LOGS="$run_logs"
    mkdir -p "$run_logs"
    run_dir="$(mktemp -d /var/tmp/obelisk-pi-boot-run.XXXXXX)"
    run_dirs+=("$run_dir")
    key="$cache/$release/id_ed25519"
    console="$run_logs/console.log"
    ssh_port="$(free_port)" web_port="$(free_port)" broker_port=""
    say "run $release, $model (logs: $run_logs; ssh port $ssh_port, page port $web_port)"
    qemu-img create -q -f qcow2 -F qcow2 -b "$cache/$release/root.qcow2" "$run_dir/disk.qcow2"
    pi_device_tree "$run_dir/pi.dtb"
    start_broker
    start_vm
    boot_results=() boot_step_n=0
    if boot_step boot 1800 600 step_boot "$console"; then
        boot_step model 120 120 step_model || true
        boot_step copy 600 300 step_copy || true
        boot_step club 120 120 step_club || true
        if boot_step setup 5400 900 step_setup && boot_step room 120 120 step_room \
                && boot_step reboot 1800 600 step_reboot "$console"; then
            boot_step units 900 300 step_units || true
            boot_step ready 120 120 step_ready || true
            boot_step watchdog 400 120 step_watchdog || true
            boot_step page 120 120 step_page || true
            boot_step diag 900 600 step_diag || true
            boot_step scanner 300 120 step_scanner || true
            if boot_step game 1800 900 step_game; then
                boot_step restart 1200 900 step_restart || true
                boot_step reboot-2 1800 600 step_reboot "$console" && boot_step kept 1200 900 step_kept || true
            fi
            boot_step security 300 120 step_security || true
        fi
    fi
    local line
    for line in "${boot_results[@]}"; do summary+=("$release/$slug|$line"); done
    if [ "$keep" = 0 ]; then
        vm 'sudo systemctl poweroff' >/dev/null 2>&1 || true
        stop_pid "$vm_pid"; vm_pid=""
        stop_pid "$broker_pid"; broker_pid=""
    fi
}

mkdir -p "$logs"
for release in "${releases[@]}"; do
    for model in "${models[@]}"; do run_one "$release" "$model"; done
done

failed=0
printf '\n%-44s %-10s %-5s %8s\n' run step "" seconds
for line in "${summary[@]}"; do
    IFS='|' read -r run step verdict secs log <<<"$line"
    printf '%-44s %-10s %-5s %8s\n' "$run" "$step" "$verdict" "$secs"
    if [ "$verdict" = FAIL ]; then failed=1; tail -n 8 "$log" | sed 's/^/        | /'; fi
done
say "logs: $logs"
exit "$failed"

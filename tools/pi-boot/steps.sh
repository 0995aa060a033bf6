# shellcheck shell=bash
# One step of tools/pi-boot.sh, watched: kept apart so its verdicts can be tried without a
# virtual machine (tests/hardware/test_pi_boot.py sources this file).
#
# A step under emulation may hang (a boot that never reaches ssh) or stall (a download that
# stops): either must FAIL, whatever the stopped step says about itself afterwards.

# boot_now_ms: milliseconds on the steady clock (uptime), so setting the clock moves nothing.
boot_now_ms() {
    local up
    read -r up _ </proc/uptime
    echo $(( ${up/./} * 10 ))
}

# boot_watch LIMIT STALL LOG FUNCTION [WATCHED...]: runs FUNCTION (a shell function or a
# command) in a process group of its own, its output appended to LOG. It is stopped
# (SIGTERM to the group, SIGKILL 5 s later) when it has run LIMIT seconds, or when neither
# LOG nor any WATCHED file (a serial console, say) has grown for STALL seconds. Status 0
# only when it ended by itself with status 0; a stopped step prints why and returns 1.
boot_watch() {
    local limit="$1" stall="$2" log="$3" fn="$4" pid start now grown sizes last="" rc=0 why="" n
    shift 4
    : >>"$log"
    set -m    # the step's own process group, so stopping it stops all it started
    # in it, each step checks its own commands: no errexit, no ERR trap of the caller's
    ( set +m +e; trap - ERR; "$fn" ) >>"$log" 2>&1 </dev/null &
    pid=$!
    set +m
    start="$(boot_now_ms)" grown="$start"
    while kill -0 "$pid" 2>/dev/null; do
        now="$(boot_now_ms)"
        sizes="$(stat -c %s "$log" "$@" 2>/dev/null | tr '\n' ' ' || true)"
        if [ "$sizes" != "$last" ]; then last="$sizes" grown="$now"; fi
        if (( now - start >= limit * 1000 )); then
            why="it ran past its limit of ${limit} s"; break
        fi
        if (( now - grown >= stall * 1000 )); then
            why="its output stalled: nothing new for ${stall} s"; break
        fi
        sleep 0.2
    done
    if [ -z "$why" ]; then
        wait "$pid" || rc=$?
        [ "$rc" = 0 ] && return 0
        echo "FAIL: the step ended with status $rc" >>"$log"
        return 1
    fi
    kill -TERM -- "-$pid" 2>/dev/null || true
    for ((n = 0; n < 25; n++)); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.2
    done
    kill -KILL -- "-$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || rc=$?
    echo "FAIL: $why; stopped (its status after that, $rc, does not count)" >>"$log"
    return 1
}

# boot_step NAME LIMIT STALL FUNCTION [WATCHED...]: one line as it starts, one verdict line
# with its seconds as it ends ("boot49:   name: PASS (12.3 s)"), and the result kept in
# boot_results ("NAME|PASS|SECONDS|LOG") for the summary. The log is STEP_LOGS/NN-NAME.log.
boot_results=()
boot_step_n=0
boot_step() {
    local name="$1" limit="$2" stall="$3" fn="$4" log start verdict secs
    shift 4
    boot_step_n=$((boot_step_n + 1))
    log="${STEP_LOGS:?}/$(printf '%02d' "$boot_step_n")-$name.log"
    printf 'pi-boot:   %s ... (limit %s s, stall %s s)\n' "$name" "$limit" "$stall"
    start="$(boot_now_ms)"
    if boot_watch "$limit" "$stall" "$log" "$fn" "$@"; then verdict=PASS; else verdict=FAIL; fi
    secs="$(awk -v ms=$(( $(boot_now_ms) - start )) 'BEGIN { printf "%.1f", ms / 1000 }')"
    printf 'pi-boot:   %s: %s (%s s)\n' "$name" "$verdict" "$secs"
    boot_results+=("$name|$verdict|$secs|$log")
    [ "$verdict" = PASS ]
}

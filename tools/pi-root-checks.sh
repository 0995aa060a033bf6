# shellcheck shell=bash
# The checks of tools/pi-root.sh that must be able to fail, kept apart so they can be tried
# without root or a Pi root (tests/hardware/test_pi_root.py sources this file):
#
# - watch_run: a step's command under a time limit and a stall limit (its log not growing);
#   a command stopped by either fails, whatever status it ends with after SIGTERM;
# - step_verdict: PASS only for status 0 within the step's time limit (60.3 s is over 60);
# - unit_environment: the Environment= settings of a systemd unit, as systemd applies them;
# - step_ranges: each step's range of seconds over several runs, beside how many passed, so
#   a range never hides a failed run;
# - refused_32_bit: setup.sh on a 32-bit system said in words that it needs a 64-bit one,
#   failed, and made no .venv.

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# The process group watch_run is watching now, if any: a run stopped by Ctrl-C or SIGTERM
# stops it too (stop_watched), or the command would run on in its own group, in a root
# being unmounted.
watched_group=""

# stop_group PID: SIGTERM to the process group PID leads, SIGKILL 10 s later if it is still
# there; the status it ended with is left in stopped_status.
stop_group() {
    local pid="$1" waited=0
    stopped_status=0
    kill -TERM -- "-$pid" 2>/dev/null || true
    while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt 50 ]; do
        sleep 0.2; waited=$((waited + 1))
    done
    kill -KILL -- "-$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || stopped_status=$?
}

# stop_watched: stop what watch_run is watching (for the clean-up of a run that was stopped).
stop_watched() {
    if [ -n "$watched_group" ]; then
        stop_group "$watched_group"
        watched_group=""
    fi
}

# watch_run LIMIT STALL LOG COMMAND...: COMMAND, its output added to LOG, in a process group
# of its own. Stopped (SIGTERM to the group, SIGKILL 10 s later) once it runs over LIMIT
# seconds or LOG has not grown for STALL seconds. Status 0 only if it ended by itself with 0;
# else a FAIL line on stdout says why.
watch_run() {
    local limit="$1" stall="$2" log="$3" pid start now grown size last=-1 rc=0 why=""
    shift 3
    : >>"$log"
    # Ctrl-C or SIGTERM between the start and its note here would find nothing to stop, and
    # the command would run on: they wait until the group is noted, then come as sent.
    local saved_int saved_term pending=""
    saved_int="$(trap -p INT)" saved_term="$(trap -p TERM)"
    trap 'pending=INT' INT
    trap 'pending=TERM' TERM
    setsid "$@" >>"$log" 2>&1 </dev/null &
    pid=$!
    watched_group="$pid"
    eval "${saved_int:-trap - INT}"
    eval "${saved_term:-trap - TERM}"
    if [ -n "$pending" ]; then kill -s "$pending" "$BASHPID"; fi
    start="$(now_ms)" grown="$start"
    while kill -0 "$pid" 2>/dev/null; do
        now="$(now_ms)"
        size="$(stat -c %s "$log")"
        if [ "$size" != "$last" ]; then last="$size" grown="$now"; fi
        if (( now - start > limit * 1000 )); then
            why="over its time limit of ${limit} s"; break
        fi
        if (( now - grown > stall * 1000 )); then
            why="stalled: its log did not grow for ${stall} s"; break
        fi
        sleep 0.2
    done
    if [ -n "$why" ]; then
        stop_watched
        echo "FAIL: $why; stopped with SIGTERM (it then ended with status $stopped_status, which does not count)"
        return 1
    fi
    wait "$pid" || rc=$?
    watched_group=""
    if [ "$rc" -gt 128 ]; then
        echo "FAIL: killed by signal $((rc - 128)) (status $rc)"; return 1
    elif [ "$rc" -ne 0 ]; then
        echo "FAIL: it ended with status $rc"; return 1
    fi
}

# step_ranges: reads result lines "RUN#K|STEP|VERDICT|SECONDS|LOG" and prints, for each run
# name (without its #K) and step, how many runs passed and the seconds' range, in the order
# first seen.
step_ranges() {
    awk -F'|' '
        { key = $1; sub(/#[0-9]+$/, "", key); key = key "|" $2
          if (!(key in n)) { order[++keys] = key; lo[key] = $4; hi[key] = $4 }
          n[key]++; if ($3 == "PASS") ok[key]++
          if ($4 + 0 < lo[key] + 0) lo[key] = $4
          if ($4 + 0 > hi[key] + 0) hi[key] = $4 }
        END { for (i = 1; i <= keys; i++) { k = order[i]; split(k, part, "|")
                printf "%-40s %-14s %d of %-2d %s-%s\n", part[1], part[2], ok[k] + 0, n[k],
                       lo[k], hi[k] } }'
}

# step_verdict STATUS SECONDS LIMIT: PASS, or FAIL for a status other than 0 or a step that
# took longer than LIMIT seconds (SECONDS may have decimals: 60.3 is over 60).
step_verdict() {
    local status="$1" secs="$2" limit="$3"
    if [ "$status" != 0 ]; then echo FAIL
    elif awk -v s="$secs" -v l="$limit" 'BEGIN { exit !(s > l) }'; then echo FAIL
    else echo PASS
    fi
}

# unit_environment PYTHON UNIT: each NAME=VALUE the unit's Environment= lines set, one a
# line, in order (a later one wins, as in systemd); quotes as systemd reads them.
unit_environment() {
    "$1" - "$2" <<'PY'
import shlex, sys
for line in open(sys.argv[1], encoding="utf-8"):
    key, _, value = line.strip().partition("=")
    if key.strip() == "Environment":
        for word in shlex.split(value):
            if "=" in word:
                print(word)
PY
}

# refused_32_bit STATUS LOG VENV: status 0 only if setup.sh (which ended with STATUS, its
# output in LOG) failed, said the table needs a 64-bit Raspberry Pi OS and that nothing was
# installed, started installing nothing and left no VENV folder; else a FAIL line says why.
refused_32_bit() {
    local status="$1" log="$2" venv="$3" want
    if [ "$status" = 0 ]; then echo "FAIL: setup.sh ended with 0 on a 32-bit system"; return 1; fi
    for want in "the table needs a 64-bit Raspberry Pi OS" "Nothing was installed."; do
        grep -qF "$want" "$log" || { echo "FAIL: setup.sh never said '$want'"; return 1; }
    done
    if grep -qE '^setup: (installing|creating|building)|Traceback' "$log"; then
        echo "FAIL: setup.sh started on it: $(grep -m1 -E '^setup: (installing|creating|building)|Traceback' "$log")"
        return 1
    fi
    if [ -e "$venv" ]; then echo "FAIL: setup.sh made $venv"; return 1; fi
    echo "setup.sh refused the 32-bit system in words (status $status) and installed nothing"
}

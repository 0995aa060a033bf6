"""The service's command socket: each command is the buttons' input, in the service's loop."""

from __future__ import annotations

import dataclasses
import json
import os
import queue
import signal
import stat
import subprocess
import sys
import threading
import time
import types
from pathlib import Path

import pytest

from engine.players import Player
from engine.stones.sensing import sight
from engine.towers.actions import Decline
from engine.towers.game import TowersGame
from engine.towers.sensing import expected_towers
from engine.towers.tower import resting_placements
from engine.towers.turns import Phase
from firmware.core import palette
from firmware.core.surroundings import Surroundings
from firmware.service import (
    command_queue,
    command_socket,
    commands,
    game_choices,
    status_answer,
)
from firmware.service.command_socket import CommandServer, send
from firmware.service.commands import CommandRefused, parse
from firmware.service.overlays import pin_frame, pixels_for
from firmware.service.pin import read_pin, table_pin
from firmware.service.table_maker import TableMaker
from firmware.store.journal import Journal
from hardware.profile import load_profile
from tests.support.scenarios import SCENARIOS, stones_table
from tests.support.service import Pressed
from tests.support.tables import TowersHarness
from tests.support.towers import COLUMN_B, cells, column, flat_table, position

A, B = Player.A, Player.B


@pytest.fixture
def played(block_set, tmp_path):
    return Pressed(TowersHarness(block_set, tmp_path / "state").start_play())


# ---------------------------------------------------------------------- malformed


@pytest.mark.parametrize("line, words", [
    (b"pause", "one JSON object a line"),
    (b"[1, 2]", '"command" name'),
    (b'{"command": 7}', '"command" name'),
    (b'{"command": "explode"}', "not a command of the table"),
    (b'{"command": "pause", "force": true}', "'force' is not part of a command"),
    (b'{"command": "decline", "player": "C"}', 'the player is "A" or "B"'),
    (b'{"command": "choose", "index": true}', "the index is a whole number"),
    (b'{"command": "choose", "index": -1}', "the index is a whole number"),
    (b'{"command": "diag", "led": "3"}', "the LED is a whole number"),
    (b'{"command": "diag", "led": -1}', "the LED is a whole number"),
    (b'{"command": "new", "game": "chess"}', "the game is one of towers"),
    (b'{"command": "new", "options": [1]}', "the options are an object"),
    (b'{"command": "new", "options": {"size": {"rows": 3}}}', "the options are an object"),
    (b"[" * 100_000 + b"]" * 100_000, "one JSON object a line"),
])
def test_a_malformed_command_is_refused_in_words_and_never_reaches_the_table(line, words,
                                                                            tmp_path):
    queued = types.SimpleNamespace(events=types.SimpleNamespace(put=pytest.fail), after_input=[])
    server = _unopened(queued, tmp_path)
    answer = server.handle(line)
    assert answer["ok"] is False and words in answer["error"]
    with pytest.raises(CommandRefused):
        parse(line)


def test_each_command_of_the_vocabulary_has_one_handler_and_each_handler_a_command():
    from firmware.service.command_runner import HANDLERS

    answered_only = {"status", "diag"}
    assert set(HANDLERS) == set(commands.COMMANDS + commands.LOCAL_COMMANDS) - answered_only
    assert len(set(HANDLERS.values())) == len(HANDLERS)  # one meaning per name


# ---------------------------------------------------------------------- the same inputs


def test_pause_and_resume_are_the_menu_buttons_press(played):
    assert played.do("pause")["state"] == "paused"
    assert played.inputs == [("menu", "press")]
    assert played.helper.of("pause", state="paused")
    with pytest.raises(CommandRefused, match="paused already"):
        played.do("pause")
    assert played.do("resume")["state"] == "play"
    assert played.inputs == [("menu", "press"), ("menu", "press")]
    with pytest.raises(CommandRefused, match="not paused"):
        played.do("resume")
    assert len(played.inputs) == 2  # refused: no input at all


def test_declining_a_bonus_is_the_earners_press_and_is_journalled(played):
    t = played.helper
    with pytest.raises(CommandRefused, match="no bonus to decline"):
        played.do("decline")
    flat_table(t)
    pads = t.deal("G05", "R01")
    t.see(t.place_view(B, cells("a1:1", "b1:1", "c1:1")), (pads[0], None))
    t.see(t.place_view(A, cells("c1:1", "c2:1", "c3:1", "b3:1")), (None, None))
    assert t.pos.phase is Phase.BONUS and t.pos.bonus == (A,)
    assert played.do("status")["can"]["decline"] == ["A"]
    with pytest.raises(CommandRefused, match="player B has no bonus"):
        played.do("decline", player="B")
    played.do("decline")
    assert played.inputs == [("A", "press")]
    assert t.pos.phase is Phase.CHOOSE
    last = t.journalled_actions()[-1]
    assert t.table.record.action_from_dict(last["action"]) == Decline(A)


def test_a_takeback_is_confirmed_by_its_owners_press_only(played):
    t = played.helper
    passive = t.pos.active.other
    pads = t.deal("B01", "R01")
    bar = resting_placements(t.pos.tower(passive), t.block_set["R01"])[0]
    t.see(t.place_view(passive, bar), (pads[0], None))
    t.see(expected_towers(t.table.history[-2]), (pads[0], None))  # lifted off again
    assert played.do("status")["can"]["takeback"] == [passive.value]
    with pytest.raises(CommandRefused, match=f"only player {passive.value}"):
        played.do("takeback", player=passive.other.value)
    assert played.inputs == []
    played.do("takeback")
    assert played.inputs == [(passive.value, "press")]
    assert t.of("takeback") and t.journal.read().entries[-1]["t"] == "takeback"


def test_choosing_a_candidate_is_the_choosers_presses_then_a_hold(played):
    t = played.helper
    t.put_position(position(TowersGame(t.block_set).new_initial_state(first=A),
                            tower_b=column(t.block_set, COLUMN_B, owner=B)))
    t.see(t.towers())
    t.deal("Y04", "R04")
    t.see(t.place_view(B, cells("a1:9")), (None, None))
    assert t.table.state == "choose"
    offered = played.do("status")["can"]["choose"]
    assert offered["player"] == "B" and len(offered["candidates"]) == 2
    with pytest.raises(CommandRefused, match="from 0 to 1"):
        played.do("choose", index=2)
    chosen = t.table.candidates[1]
    before = len(t.journalled_actions())
    played.do("choose", index=1)
    assert played.inputs == [("B", "press"), ("B", "hold")]
    assert t.table.state == "play" and tuple(t.table.actions[-len(chosen):]) == chosen
    assert len(t.journalled_actions()) == before + len(chosen)


def test_nothing_to_choose_or_start_is_refused(played):
    with pytest.raises(CommandRefused, match="nothing to choose"):
        played.do("choose", index=0)
    with pytest.raises(CommandRefused, match="a game is on already"):
        played.do("start")
    with pytest.raises(CommandRefused, match="a game is on"):
        played.do("new", game="stones")
    assert played.inputs == []


@pytest.mark.parametrize(("cls", "state", "bring", "leave"), SCENARIOS,
                         ids=[f"{c.__name__}-{s}" for c, s, _, _ in SCENARIOS])
def test_what_status_offers_in_each_state_of_each_table(tmp_path, block_set, cls, state,
                                                        bring, leave):
    """The commands status offers, asked of the table's machine, in every state of every
    game's table (the towers' toss included): a game is on from its toss to its end."""
    table = bring(tmp_path, block_set).table
    assert table.state == state
    can = status_answer.status(table)["can"]
    assert can["pause"] is (state in ("play", "choose", "repair"))
    assert can["resume"] is (state == "paused")
    assert not can["start"]  # in setup, once the table is set out: the test below
    assert can["new"] is (state in ("setup", "over"))
    assert can["end"] is (state not in ("setup", "over"))
    assert (can["choose"] is not None) is (state == "choose")


def test_the_start_is_offered_once_the_table_is_set_out(tmp_path, block_set):
    """A start that would begin nothing is not offered: the stones' table in setup offers it
    once its switches see the stones set out as at the start, and no longer once they are
    gone; the table's words say what stands in the way."""
    t = stones_table(tmp_path, block_set)
    assert not status_answer.status(t.table)["can"]["start"]  # nothing read yet
    t.see(sight(t.table.position))
    assert status_answer.status(t.table)["can"]["start"]
    t.see(set())
    now = status_answer.status(t.table)
    assert not now["can"]["start"] and now["problem"].startswith("set the stones out")
    assert now["can"]["new"]  # another game may still be set up


def test_new_game_options_are_read_as_the_command_line_reads_them(block_set):
    from firmware.games import GAMES

    towers, stones = GAMES["towers"], GAMES["stones"]
    assert game_choices.options_of(towers, (("hourglass", "90"), ("sudden_death", True))) \
        .hourglass_s == 90
    got = game_choices.options_of(stones, (("mode", "bounded"), ("size", "5x5")))
    assert (got.rows, got.cols, got.mode.value) == (5, 5, "bounded")
    for given, words in [((("hourglass", "5"),), "10 to 600 seconds"),
                         ((("turns", "15"),), "towers has no option 'turns'"),
                         ((("sudden_death", "yes"),), "on or off"),
                         ((("size", "9x9"),), "a stones board is 4x4 to 8x8"),
                         ((("size", "3x4"),), "a stones board is 4x4 to 8x8")]:
        game = towers if given[0][0] != "size" else stones
        with pytest.raises(CommandRefused, match=words):
            game_choices.options_of(game, given)


# ---------------------------------------------------------------------- the PIN


def test_the_pin_is_made_once_kept_private_and_shown_as_counts_of_pixels(tmp_path):
    assert read_pin(tmp_path) is None
    pin = table_pin(tmp_path)
    assert len(pin) == 4 and pin.isdigit() and table_pin(tmp_path) == pin == read_pin(tmp_path)
    assert stat.S_IMODE(os.stat(tmp_path / "pin").st_mode) == 0o600
    rings = {"A": 16, "B": 16}
    assert pin_frame("3070", 0.1, rings) == {("ring", o, i): (0, 0, 0)
                                             for o in "AB" for i in range(16)}  # dark first
    lit = [sum(c != (0, 0, 0) for k, c in pin_frame("3070", s, rings).items() if k[1] == "A")
           for s in (1.0, 3.1, 5.2, 7.3)]
    assert lit == [3, 10, 7, 10] == [pixels_for(d) for d in "3070"]
    assert pin_frame("3070", 8.5, rings) is None


# ---------------------------------------------------------------------- through the socket


def _until(check, seconds: float = 20.0):
    deadline = time.monotonic() + seconds
    while not (got := check()):
        assert time.monotonic() < deadline, "the condition never came"
        time.sleep(0.02)
    return got


def test_commands_over_the_socket_run_the_table_and_its_journal(service):
    d = service.dir
    assert stat.S_IMODE(os.stat(d / command_socket.SOCKET).st_mode) == 0o660
    _until(lambda: send(d, {"command": "status"})["can"]["start"])  # the board read: clear
    assert send(d, {"command": "start"})["ok"]
    starts = [e for e in service.journal.read().entries if e["t"] == "start"]
    assert len(starts) == 1 and starts[0]["game"] == "towers"
    _until(lambda: send(d, {"command": "status"})["state"] == "play")
    assert send(d, {"command": "pause"})["state"] == "paused"
    assert service.service.table.state == "paused"
    assert send(d, {"command": "resume"})["state"] == "play"
    refused = send(d, {"command": "new", "game": "stones"})
    assert refused == {"ok": False, "error": "a game is on: end it first, or play it to its end"}
    ended = send(d, {"command": "end"})
    assert ended["ok"] and "kept in journal-" in ended["message"]
    archived = list(d.glob("journal-*.jsonl"))
    assert len(archived) == 1 and '"t": "start"' in archived[0].read_text().replace(
        '"t":"start"', '"t": "start"')
    new = send(d, {"command": "new", "game": "stones", "options": {"size": "5x5"}})
    assert new["ok"] and new["state"] == "setup"
    now = send(d, {"command": "status"})
    assert (now["game"], now["options"]["rows"], now["state"]) == ("stones", 5, "setup")
    # the stones are not set out on the simulated board: the table says so, nothing starts
    refused = _until(lambda: (r := send(d, {"command": "start"}))["error"] != (
        "the table is still reading the board: try again in a second") and r)
    assert not refused["ok"] and "set the stones out" in refused["error"]
    assert not service.journal.path.exists() or not service.journal.unfinished()
    assert send(d, {"command": "new", "game": "towers", "options": {"hourglass": "90"}})["ok"]
    _until(lambda: send(d, {"command": "start"})["ok"])
    (start,) = [e for e in service.journal.read().entries if e["t"] == "start"]
    assert start["game"] == "towers" and start["options"]["hourglass_s"] == 90


def test_holding_the_menu_button_shows_the_pin_on_the_rings(service):
    shown = service.devices.leds
    pin = read_pin(service.dir)
    service.devices.buttons.press("menu", hold=True)
    first = pixels_for(pin[0])

    ring = next(n for kind, owner, n in shown.parts() if (kind, owner) == ("ring", "A"))

    def lit_on_ring_a():
        return sum(1 for i in range(ring) if _pixel(shown, ("ring", "A", i)) == palette.PIN)

    _until(lambda: lit_on_ring_a() == first, 10)
    told = service.service.table.lights  # what the page draws of the LEDs: never the PIN
    ring_a = next(s for s in told["strips"] if (s["strip"], s["owner"]) == ("ring", "A"))
    assert "#{:02x}{:02x}{:02x}".format(*palette.PIN) not in ring_a["colours"]


def test_the_page_hears_the_leds_as_they_show_strip_by_strip(service):
    leds, table = service.devices.leds, service.service.table

    def heard() -> dict:
        told = table.lights or {"strips": []}
        return {(s["strip"], s["owner"], i): tuple(int(c[k:k + 2], 16) for k in (1, 3, 5))
                for s in told["strips"] for i, c in enumerate(s["colours"])}

    def same() -> bool:  # every LED the game lights (the simulated strips have spare ones)
        told, shown = heard(), _frame(leds)
        return bool(told) and all(shown.get(key) == colour for key, colour in told.items())

    _until(same, 10)
    rods = [s for s in table.lights["strips"] if s["strip"] == "tower"]
    assert [(s["owner"], s["cols"], len(s["colours"])) for s in rods] == [("A", 3, 9),
                                                                          ("B", 3, 9)]


def _frame(leds) -> dict:
    keys = list(leds.keys())  # (the LEDs are no dict: ``in leds`` would not work)
    return {key: _pixel(leds, key) for key in keys}


def _only_lit(leds, key) -> bool:
    """The LED test's picture: that LED alone, in the test's colour."""
    return all(colour == (palette.LED_TEST if k == key else palette.OFF)
               for k, colour in _frame(leds).items())


def test_diag_through_the_service_lights_one_led_at_a_time_then_gives_the_picture_back(service):
    d, leds = service.dir, service.devices.leds
    game = _until(lambda: (a := _frame(leds)) == _frame(leds) and any(
        c != palette.OFF for c in a.values()) and a)  # the setup's picture, drawn
    keys = list(leds.keys())
    answer = send(d, {"command": "diag", "led": 3})
    assert answer["ok"] and answer["leds"] == len(keys) and answer["synced"] is True
    assert answer["lit"] == {"led": list(keys[3]), "chain": 0, "pixel": 3}
    assert "obelisk diag: profile sim (simulated table)" in answer["screen"]
    assert "link: connected, synced" in answer["screen"]
    _until(lambda: _only_lit(leds, keys[3]), 10)
    answer = send(d, {"command": "diag", "led": len(keys) + 1})  # counted round
    assert answer["lit"]["led"] == list(keys[1])
    _until(lambda: _only_lit(leds, keys[1]), 10)
    assert service.service.table.state == "setup"  # the game never heard of it
    assert send(d, {"command": "diag"})["lit"] is None  # the end of the test
    _until(lambda: _frame(leds) == game, 10)


def test_an_led_test_left_by_a_killed_diag_ends_by_itself(service, monkeypatch):
    from firmware.service import overlays
    monkeypatch.setattr(overlays, "LED_TEST_S", 0.3)
    d, leds = service.dir, service.devices.leds
    game = _until(lambda: (a := _frame(leds)) == _frame(leds) and any(
        c != palette.OFF for c in a.values()) and a)
    keys = list(leds.keys())
    key = keys[-1]  # the board's last square: no part of a towers game's picture
    send(d, {"command": "diag", "led": len(keys) - 1})  # and diag never asks again
    _until(lambda: _only_lit(leds, key), 10)
    _until(lambda: _frame(leds) == game, 10)


@pytest.mark.processes
def test_obelisk_diag_asks_the_running_service_instead_of_opening_its_devices(service):
    obelisk = Path(sys.executable).parent / "obelisk"
    run = subprocess.run([str(obelisk), "diag", "--state-dir", str(service.dir), "--seconds",
                          "0.6"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    where = f"through the table service on {service.dir}"
    lit = [line for line in run.stdout.splitlines() if line.startswith("LED test")]
    assert lit[:2] == [f"LED test {where}: ring A 0 lit (chain 0, pixel 0)",
                       f"LED test {where}: ring A 1 lit (chain 0, pixel 1)"]
    assert "link: connected, synced" in run.stdout
    # diag's last word ended the test: the game's own picture is back at once
    _until(lambda: service.service.led_test.lit is None, 10)


def _pixel(leds, key):
    try:
        return tuple(leds[key])
    except (KeyError, IndexError):
        return None


# ---------------------------------------------------------------------- a late answer


def _queued(played: Pressed) -> types.SimpleNamespace:
    """``played``'s table behind a queue no loop takes from (until the test does)."""
    return types.SimpleNamespace(events=queue.SimpleQueue(), after_input=[], table=played.table)


def _unopened(service: object, where: Path) -> CommandServer:
    """A command server for ``service`` that is not listening: its ``handle`` alone."""
    return CommandServer(where, service, TableMaker(load_profile("sim"), Journal(where)))


def test_a_command_refused_as_too_late_never_runs_afterwards(played, monkeypatch, tmp_path):
    waiting = _queued(played)  # a loop busy elsewhere
    server = _unopened(waiting, tmp_path)
    monkeypatch.setattr(command_queue, "ANSWER_S", 0.05)
    assert server.handle(b'{"command": "pause"}') == command_queue.refusal(command_queue.TOO_LATE)
    kind, request = waiting.events.get_nowait()
    assert kind == "control"
    request.carry_out(played.helper.now)  # the loop gets to it at last
    assert played.inputs == [] and played.table.state == "play"  # refused, so never done
    assert request.answer is None


def test_a_command_the_loop_comes_to_past_its_deadline_is_dropped_and_said_so(played, caplog):
    """The service was stopped a while: its loop and the thread that would have given up
    on the command wake together, and the loop must not do what the asker reported as
    not done."""
    command = parse(json.dumps({"command": "pause", "deadline": time.monotonic() - 0.5}))
    request = command_queue.Request(command, played.runner)
    with caplog.at_level("WARNING", logger="obelisk.control"):
        request.carry_out(played.helper.now)
    assert played.inputs == [] and played.table.state == "play"
    assert request.answer == command_queue.refusal(command_queue.TOO_LATE) and request.done.is_set()
    assert "dropped the pause command" in caplog.text
    # the asker's deadline, not only the table's own five seconds, is the one kept
    on_time = command_queue.Request(parse(json.dumps({"command": "pause",
                                                "deadline": time.monotonic() + 60})),
                                    played.runner)
    assert on_time.deadline <= time.monotonic() + command_queue.ANSWER_S
    on_time.carry_out(played.helper.now)
    assert on_time.answer["ok"] and played.table.state == "paused"


@pytest.mark.processes
def test_a_command_sent_to_a_stopped_service_is_not_done_when_it_wakes(tmp_path):
    obelisk = Path(sys.executable).parent / "obelisk"
    state, log = tmp_path / "state", tmp_path / "run.log"
    state.mkdir()
    with open(log, "w") as out:
        running = subprocess.Popen([str(obelisk), "run", "--state-dir", str(state)],
                                   stdout=out, stderr=subprocess.STDOUT)
    try:
        _until(lambda: (state / command_socket.SOCKET).exists())
        _until(lambda: send(state, {"command": "status"})["can"]["start"])
        running.send_signal(signal.SIGSTOP)  # as a Pi swapping hard, or a debugger, does
        try:
            with pytest.raises(command_socket.ControlUnavailable, match="so nothing was done"):
                send(state, {"command": "start"}, timeout=3.0)
        finally:
            running.send_signal(signal.SIGCONT)
        _until(lambda: "dropped the start command" in log.read_text())
        assert send(state, {"command": "status"})["state"] == "setup"  # never started
        assert not Journal(state).path.exists() or not Journal(state).read().entries
    finally:
        running.terminate()
        running.wait(20)


def test_a_command_the_loop_has_begun_is_waited_for_not_refused(played, monkeypatch, tmp_path):
    waiting = _queued(played)
    server = _unopened(waiting, tmp_path)
    monkeypatch.setattr(command_queue, "ANSWER_S", 0.05)
    begun, finish = threading.Event(), threading.Event()
    real = server.runner.carry_out

    def slow(command, now):  # the loop takes it up in time, then takes long over it
        begun.set()
        assert finish.wait(20)
        return real(command, now)

    server.runner.carry_out = slow

    def loop():
        _, request = waiting.events.get(timeout=20)
        request.carry_out(played.helper.now)

    runner = threading.Thread(target=loop)
    runner.start()
    answers = []
    asker = threading.Thread(target=lambda: answers.append(server.handle(b'{"command": "pause"}')))
    asker.start()
    assert begun.wait(20)
    asker.join(0.2)  # well past ANSWER_S: the asker still waits for the answer
    finish.set()
    asker.join(20)
    runner.join(20)
    assert answers[0]["ok"] and answers[0]["state"] == "paused"


def test_a_command_queued_when_the_socket_closes_is_given_up_and_never_runs(played, tmp_path):
    waiting = _queued(played)  # a loop that has stopped
    server = _unopened(waiting, tmp_path)
    answers: list[dict] = []
    asker = threading.Thread(target=lambda: answers.append(server.handle(b'{"command": "pause"}')))
    asker.start()
    _, request = waiting.events.get(timeout=20)
    started = time.monotonic()
    server.close()
    asker.join(20)
    assert answers == [command_queue.refusal(command_queue.TOO_LATE)]
    assert time.monotonic() - started < command_queue.ANSWER_S  # not left to its deadline
    request.carry_out(played.helper.now)  # a loop that wakes after all
    assert played.inputs == [] and played.table.state == "play"


# ---------------------------------------------------------------------- a new table first


def _no_table(*_: object) -> int:
    raise ValueError("no seed to be had")


def test_end_refused_for_a_table_that_cannot_be_made_keeps_the_game_and_its_journal(played):
    t = played.helper
    played.runner.maker = TableMaker(load_profile("sim"), t.journal, seed=_no_table)
    with pytest.raises(CommandRefused, match="cannot play that game: no seed"):
        played.do("end")
    assert not list(t.journal.dir.glob("journal-*.jsonl"))  # nothing archived
    assert t.journal.unfinished() and played.table.state == "play"


def test_new_after_the_end_refused_presses_nothing(played):
    t = played.helper
    played.table.machine.set_state("over", played.table)  # as a game played to its end
    assert played.table.state == "over"
    played.runner.maker = TableMaker(load_profile("sim"), t.journal, seed=_no_table)
    with pytest.raises(CommandRefused, match="cannot play that game"):
        played.do("new", game="stones")
    assert played.inputs == [] and played.table.state == "over"


# ---------------------------------------------------------------------- playing alone


@pytest.mark.parametrize("fields, words", [
    ({"solo": "C"}, 'solo is the computer\'s seat, "A" or "B"'),
    ({"solo": "A", "level": 5}, "level is 1 \\(easiest\\) to 4"),
    ({"solo": "A", "level": True}, "level is 1 \\(easiest\\) to 4"),
    ({"level": 2}, "the level is the computer's: choose its seat"),
    ({"solo": "none", "level": 2}, "the level is the computer's: choose its seat"),
])
def test_new_takes_solo_and_level_checked_as_the_command_line_checks_them(fields, words):
    with pytest.raises(CommandRefused, match=words):
        parse(json.dumps({"command": "new", **fields}))


def test_a_solo_table_made_fresh_keeps_the_computer_and_a_hint_is_the_persons_hold(tmp_path):
    from engine.stones.sensing import sight
    from firmware.games import GAMES
    from firmware.seats.solo import Computer, Solo
    from tests.support.tables import StonesHarness

    t = StonesHarness(tmp_path)
    t.table.solo = Computer(Solo(B, 2), "stones")
    t.started()
    pressed = Pressed(t)
    pressed.runner.maker = TableMaker(load_profile("sim"), t.journal, solo=Solo(B, 2))
    made, _ = pressed.runner.maker.make(GAMES["stones"], t.table.game.options, {},
                                          t.table.around)
    assert made.solo.solo == Solo(B, 2) and made is not t.table
    now = pressed.do("status")
    assert now["solo"] == {"seat": "B", "level": 2} and now["can"]["hint"] is True
    said = pressed.do("hint")
    assert pressed.inputs == [("A", "hold")]  # the person's hold, exactly as at the table
    (hint,) = t.table.solo.hinted
    assert said["message"] == "the hint is lit on the table and drawn on the board"
    words = t.table.solo.rules.words(t.table.position, (hint,))  # said once, by its event
    assert [e for e in t.events if e["event"] == "hint"][-1]["text"] == words
    assert [e for e in t.events if e["event"] == "hint"][-1]["player"] == "A"
    t.see(sight(t.table.position.apply_action(hint)))  # the computer's turn now
    assert pressed.do("status")["can"]["hint"] is False
    with pytest.raises(CommandRefused, match="wait for the computer's"):
        pressed.do("hint")
    assert pressed.inputs == [("A", "hold")]


def test_a_hint_needs_the_computer_at_the_table(played):
    assert played.do("status")["can"]["hint"] is False and played.do("status")["solo"] is None
    with pytest.raises(CommandRefused, match="a hint is for playing alone"):
        played.do("hint")
    assert played.inputs == []


def test_ending_a_solo_game_sets_up_another_game_alone(service):
    d = service.dir
    refused = send(d, {"command": "new", "solo": "A", "level": 9})
    assert not refused["ok"] and "level is 1 (easiest) to 4" in refused["error"]
    assert send(d, {"command": "new", "solo": "A", "level": 2})["ok"]
    assert send(d, {"command": "status"})["solo"] == {"seat": "A", "level": 2}
    _until(lambda: send(d, {"command": "start"})["ok"])
    assert send(d, {"command": "end"})["ok"]
    assert send(d, {"command": "status"})["solo"] == {"seat": "A", "level": 2}
    assert service.service.table.solo.seat is A and not service.service.table.started
    assert send(d, {"command": "new", "solo": "none"})["ok"]  # two people again
    assert send(d, {"command": "status"})["solo"] is None
    assert service.service.table.solo is None


def test_a_hold_after_a_new_pin_shows_the_new_one(service):
    old = read_pin(service.dir)
    assert service.service.pin_dir == service.dir  # as `obelisk run` makes it
    digit = "3" if old[0] != "3" else "5"
    (service.dir / "pin").write_text(f"{digit}000\n1\n")  # as `obelisk pin --new` leaves it
    shown = service.devices.leds
    ring = next(n for kind, owner, n in shown.parts() if (kind, owner) == ("ring", "A"))
    service.devices.buttons.press("menu", hold=True)
    _until(lambda: sum(1 for i in range(ring)
                       if _pixel(shown, ("ring", "A", i)) == palette.PIN) == int(digit), 10)
    assert service.service.pin == f"{digit}000"


def test_a_game_the_computer_cannot_play_alone_is_refused_in_words(tmp_path, monkeypatch):
    from firmware.games import GAMES
    from firmware.seats.solo import Solo
    from tests.support.toy import registered

    toy = dataclasses.replace(registered(), id="noughts-alone", solo="")
    monkeypatch.setitem(GAMES, toy.id, toy)  # a game that declares no lit moves
    maker = TableMaker(load_profile("sim"), Journal(tmp_path), solo=Solo(A, 1))
    with pytest.raises(CommandRefused, match=f"the computer does not play {toy.id}.*two people"):
        maker.make(toy, toy.options_with({}), {}, Surroundings())

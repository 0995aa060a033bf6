"""The High Rise table: weights to placements, repairs, resume, and no leaks."""

from __future__ import annotations

import json
import logging
import re

import pytest

from engine.core import square_name
from engine.highrise.game import HighriseGame
from firmware.highrise.table import HighriseTable
from firmware.run import report
from firmware.store.journal import Journal, JournalError
from firmware.store.seal import KEY_FILE, SealError
from hardware.buttons import ButtonEvent
from tests.support.highrise import L, M, S, same_first_other_values
from tests.support.tables import CAL, HighriseHarness


@pytest.fixture
def t(tmp_path):
    return HighriseHarness(tmp_path).covers()


def test_setup_asks_for_each_missing_cover_then_a_button(tmp_path):
    t = HighriseHarness(tmp_path)
    t.pads[0].append(L)
    t.settle()
    assert t.table.state == "setup" and "put a cover" in t.table.problem
    assert t.table.wrong == ((0, 1),)                    # b1 is the first without one
    t.table.on_button(ButtonEvent("A", "press"), t.now)
    assert t.table.state == "setup"                      # not ready: no start
    t.covers()
    assert t.table.state == "play"
    start, turn = t.events[-2:]
    assert start["event"] == "start" and start["first"] in ("A", "B")
    assert start["game"] == "highrise" and start["options"] == {"rows": 3, "cols": 3}
    assert start["observation"] == {"game": "highrise", "rows": 3, "cols": 3,
                                    "to_play": start["first"], "plies": 0,
                                    "pieces_left": {"A": 25, "B": 25}, "owners": {}}
    assert turn == {"event": "turn", "player": start["first"],
                    "doing": "put one of your pyramids on any stack"}
    # setup tells each change of what to set out, in words, and nothing of the covers' weights
    told = [e for e in t.events if e["event"] == "setup"]
    assert told[0]["problem"].startswith("put a cover")
    assert "press a player button" in told[-1]["problem"] and set(told[-1]) == {"event",
                                                                                "problem"}
    assert [e["event"] for e in t.events if e["event"] != "setup"] == ["start", "turn"]


def test_a_piece_on_a_square_is_the_movers_placement(t):
    first = t.table.position.to_play
    t.put(4, M)
    assert t.table.position.plies == 1 and t.table.position.stacks[4] == ((first, M),)
    accepted = [e for e in t.events if e["event"] == "accepted"]
    assert accepted == [{"event": "accepted", "player": first.value, "action": "placed",
                         "text": "placed a pyramid on b2",
                         "observation": {"game": "highrise", "rows": 3, "cols": 3,
                                         "to_play": first.other.value, "plies": 1,
                                         "pieces_left": {first.value: 24,
                                                         first.other.value: 25},
                                         "owners": {"b2": [first.value]}}}]
    assert t.events[-1] == {"event": "turn", "player": first.other.value,
                            "doing": "put one of your pyramids on any stack"}


RED, BLUE = (255, 0, 0), (0, 0, 255)


@pytest.mark.parametrize(("mistake", "words", "lit"), [
    ("two", "b1 and c1 changed at once", {(0, 1): RED, (0, 2): RED}),
    ("odd", "weighs like no pyramid", {(0, 1): RED}),
    ("lighter", "got lighter", {(0, 1): BLUE}),                  # put back what came off
])
def test_what_is_no_placement_is_lit_and_waited_out(t, mistake, words, lit):
    if mistake == "two":
        t.pads[1].append(S)
        t.put(2, S)
    elif mistake == "odd":
        t.table.on_view(tuple(r + (1000 if i == 1 else 0) for i, r in enumerate(t.reading())),
                        t.now)
        t.now += 0.31
        t.table.tick(t.now)
    else:
        t.pads[1].clear()                               # the cover taken away
        t.settle()
    assert t.table.state == "repair" and words in t.table.problem
    assert t.table.position.plies == 0
    refused = [e for e in t.events if e["event"] == "refused"]
    assert len(refused) == 1 and words in refused[0]["message"]
    assert [m["square"] for m in refused[0]["where"]] == [square_name(sq) for sq in lit]
    frame = t.table.led_frame(t.now, 16)
    assert {sq: frame[("board", "", sq[0] * 3 + sq[1])] for sq in lit} == lit
    assert sum(1 for k, v in frame.items() if k[0] == "board" and v != (0, 0, 0)) == len(lit)
    for pad in t.pads:                                  # put everything back
        pad[:] = [L]
    t.settle()
    assert t.table.state == "play" and t.events[-1]["event"] == "repaired"
    assert [e["t"] for e in t.journal.read().entries] == ["start"]


def test_a_size_the_player_has_run_out_of_is_refused(t):
    for _ in range(5):
        t.put(0, S)
        t.put(1, S)
    t.put(2, S)
    assert t.table.state == "repair" and "no small pieces left" in t.table.problem


def test_the_menu_pauses_and_a_piece_put_meanwhile_counts_after(t):
    mover = t.table.position.to_play
    t.table.on_button(ButtonEvent("menu", "press"), t.now)
    assert t.table.state == "paused" and t.events[-1] == {"event": "pause", "state": "paused"}
    frame = t.table.led_frame(t.now, 16)
    assert {v for k, v in frame.items() if k[0] == "ring"} == {(20, 20, 20)}
    t.put(4, M)
    assert t.table.position.plies == 0                   # nothing is read while paused
    t.table.on_button(ButtonEvent("menu", "press"), t.now)
    assert t.table.state == "play" and t.events[-1] == {"event": "pause", "state": "resumed"}
    t.settle()                                           # looked at afresh
    assert t.table.position.stacks[4] == ((mover, M),)


def test_the_journal_keeps_the_secrets_sealed(tmp_path):
    t = HighriseHarness(tmp_path, seed=11).covers()
    t.put(0, M)
    start, action = t.journal.read().entries
    assert set(start) == {"t", "game", "when", "options", "first", "sealed"}
    assert start["first"] == t.table.position.first.value
    assert set(action) == {"t", "n", "sealed"} and action["n"] == 1
    covers = [1000 + 1900] * 9                           # what the pads read at the start
    assert t.table.sealer.unseal(start["sealed"]) == {"seed": 11, "base": covers}
    assert t.table.sealer.unseal(action["sealed"]) == {"square": [0, 0], "size": 2,
                                                       "reading": list(t.reading())}


def test_a_sealed_entry_that_does_not_open_names_its_line(tmp_path):
    t = HighriseHarness(tmp_path, seed=11).covers()
    t.put(0, M)
    t.journal.append({"t": "action", "n": 2, "sealed": "not a seal"})
    with pytest.raises(JournalError, match=r"journal\.jsonl line 3: the placement cannot be "
                                           r"opened.*--new-game"):
        HighriseHarness(tmp_path)


def test_a_press_after_the_end_sets_up_a_new_game_with_new_values(tmp_path):
    t = HighriseHarness(tmp_path, seed=3).covers()
    for ply, size in enumerate([S] * 10 + [M] * 20 + [L] * 20):
        t.put(ply % 9, size)
    assert t.table.state == "over"
    seed = t.table.seed
    t.table.on_button(ButtonEvent("B", "press"), t.now)
    assert t.table.state == "setup" and t.table.problem == HighriseTable.SETUP
    assert t.table.seed != seed and t.table.actions == []
    for pad in t.pads:
        pad[:] = [L]
    t.settle()
    t.table.on_button(ButtonEvent("A", "press"), t.now)
    assert t.table.state == "play" and t.events[-2]["event"] == "start"
    assert t.table.position.plies == 0 and [e["t"] for e in t.journal.read().entries][-2:] \
        == ["over", "start"]


def test_a_restart_resumes_the_sealed_game(tmp_path):
    t = HighriseHarness(tmp_path, seed=11).covers()
    for i, size in enumerate((M, L, S, M)):
        t.put(i, size)
    again = HighriseHarness(tmp_path, seed=999)  # the seed is taken from the journal
    assert again.table.state == "play"
    resumed, whole, turn = again.events  # the replay, the whole state told again, the turn
    assert resumed == {"event": "resumed", "game": "highrise",
                       "options": {"rows": 3, "cols": 3}, "actions": 4,
                       "observation": t.table.position.observation()}
    assert whole["event"] == "table" and whole["actions"] == 4 and len(whole["moves"]) == 4
    assert "size" not in str(whole["moves"]) and "pips" not in str(whole)  # nothing hidden
    assert turn == {"event": "turn", "player": t.table.position.to_play.value,
                    "doing": "put one of your pyramids on any stack"}
    assert again.table.position == t.table.position
    assert again.table.position.values == t.table.position.values
    again.pads = t.pads
    again.put(5, L)
    assert again.table.position.plies == 5


def test_without_the_key_the_journal_opens_nothing_and_no_new_key_is_made(tmp_path):
    t = HighriseHarness(tmp_path, seed=11).covers()
    t.put(0, M)
    journal = t.journal.path.read_bytes()
    (tmp_path / KEY_FILE).unlink()
    with pytest.raises(SealError, match=r"seal\.key is missing.*put back the seal\.key"):
        HighriseHarness(tmp_path)
    assert not (tmp_path / KEY_FILE).exists()             # no new key to hide the old game
    assert t.journal.path.read_bytes() == journal         # and the journal is untouched


def _play_whole_game(state_dir, seed, sizes, caplog):
    """One game; the same squares each time, the sizes and hidden values differ."""
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="obelisk"):
        events: list[dict] = []

        def emit(event):
            events.append(event)
            report(event)

        t = HighriseHarness(state_dir, seed=seed, emit=emit).covers()
        before_end = []
        for ply in range(50):
            if ply == 7:                                  # a mistake, waited out
                t.pads[3].append(S)
                t.put(6, S)
                t.pads[3].pop()
                t.pads[6].pop()
                t.settle()
            t.put((ply * 4) % 9, sizes[ply])
            if ply == 48:
                before_end = list(t.journal.path.read_text().splitlines())
        logs = [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO]
    reveal = next(i for i, e in enumerate(events) if e["event"] == "reveal")
    log_end = next(i for i, m in enumerate(logs) if " holds " in m)  # the first reveal
    frames = t.frames[:-1]                               # the last one starts the reveal
    return t, events[:reveal], logs[:log_end], frames, before_end


def test_nothing_hidden_leaks_before_the_end(tmp_path, caplog):
    """Two games, same squares, different sizes and hidden values: before the
    reveal, every event, log line, LED frame and journal line (seals aside) is
    the same, so none of them carries a value or what a stack holds."""
    seed1, seed2 = same_first_other_values()
    small_first = [S] * 10 + [M] * 20 + [L] * 20        # both players alternate through these
    large_first = [L] * 20 + [M] * 20 + [S] * 10
    one = _play_whole_game(tmp_path / "one", seed1, small_first, caplog)
    two = _play_whole_game(tmp_path / "two", seed2, large_first, caplog)
    t1, t2 = one[0], two[0]
    assert t1.table.position.values != t2.table.position.values
    assert t1.table.position.stacks != t2.table.position.stacks
    assert t1.table.result() != t2.table.result()         # the end does tell them apart
    assert one[1] == two[1] and len(one[1]) > 50          # events
    for event in one[1]:                                  # observations included
        assert "stacks" not in event.get("observation", {}), event
        if event["event"] == "accepted":
            assert event["action"] == "placed"            # where is public, the size not
            assert re.fullmatch(r"placed a pyramid on [a-c][1-3]", event["text"]), event
    assert one[1][-1]["event"] == "accepted" and one[1][-1]["observation"]["to_play"] is None
    assert one[2] == two[2] and len(one[2]) > 50          # logs at INFO
    assert one[3] == two[3] and len(one[3]) > 50          # LED frames

    def unsealed(lines):
        entries = [json.loads(line) for line in lines]
        assert all(set(e) <= {"t", "n", "game", "when", "options", "first", "sealed"}
                   for e in entries)
        return [{k: v for k, v in e.items() if k not in ("sealed", "when")} for e in entries]

    assert unsealed(one[4]) == unsealed(two[4]) and len(one[4]) == 50   # start + 49 moves
    text = "\n".join(one[4])
    assert "value" not in text and "size" not in text and "reading" not in text


def test_the_end_reveals_square_by_square(tmp_path):
    t = HighriseHarness(tmp_path, seed=3).covers()
    sizes = [S] * 10 + [M] * 20 + [L] * 20
    for ply in range(50):
        t.put(ply % 9, sizes[ply])
    assert t.table.state == "over"
    reveals = [e for e in t.events if e["event"] == "reveal"]
    last = t.events[-1]
    assert last["event"] == "game_over" and last["game"] == "highrise"
    assert t.events[-10:-1] == reveals                    # the reveals, then the outcome
    assert [r["square"] for r in reveals] == [c + r for r in "123" for c in "abc"]
    assert [r["value"] for r in reveals] == list(t.table.position.values)
    assert [{k: v for k, v in r.items() if k != "event"} for r in reveals] \
        == last["observation"]["stacks"]
    outcome = last["outcome"]
    assert outcome == t.table.position.outcome().to_dict() == t.table.result()
    assert outcome["termination"] == "all_placed"
    for p in "AB":
        assert outcome["scores"][p] == sum(r["points"] for r in reveals if r["controller"] == p)
        assert len(outcome["breakdown"][p]) == sum(1 for r in reveals if r["controller"] == p)
    assert sum(r["pips"]["A"] + r["pips"]["B"] for r in reveals) == 2 * (5 + 20 + 30)
    # The LEDs show one more square every REVEAL_S seconds.
    start = t.table.over_at
    lit = [sum(1 for k, v in t.table.led_frame(start + dt, 16).items()
               if k[0] == "board" and v != (0, 0, 0)) for dt in (0.0, 0.9, 1.7, 30.0)]
    assert lit[0] <= 1 and lit[0] < lit[1] < lit[2] and lit[3] == 9
    assert t.journal.read().entries[-1] == {"t": "over", "result": outcome}


def test_a_game_whose_end_was_not_written_reveals_after_the_restart(tmp_path):
    t = HighriseHarness(tmp_path, seed=3).covers()
    for ply, size in enumerate([S] * 10 + [M] * 20 + [L] * 20):
        t.put(ply % 9, size)
    lines = t.journal.path.read_text().splitlines(keepends=True)
    t.journal.path.write_text("".join(lines[:-1]))         # the power went before "over"
    again = HighriseHarness(tmp_path)
    kinds = [e["event"] for e in again.events]
    assert kinds == ["resumed"] + ["reveal"] * 9 + ["game_over"]
    assert "stacks" not in again.events[0]["observation"]  # the reveals come first
    assert again.table.state == "over"
    assert again.events[-1]["outcome"] == t.events[-1]["outcome"]


def test_the_page_lays_the_board_lights_out_as_wide_as_the_physical_board(tmp_path):
    """A 3x3 game on an 8-wide board lights its corner: the page's rows are 8 LEDs wide, so
    a1's light is drawn at a1 and b1's beside it, not three rows up."""
    table = HighriseTable(HighriseGame(), Journal(tmp_path), CAL, seed=1, board_cols=8)
    table.start(0.0)
    table.tell_lights(table.led_frame(0.0, 16))
    (board,) = [s for s in table.lights["strips"] if s["strip"] == "board"]
    assert board["cols"] == 8 and len(board["colours"]) == 2 * 8 + 3

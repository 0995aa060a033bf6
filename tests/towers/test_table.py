"""The towers table's state machine, driven with exact views and a controlled clock."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine.players import Player
from engine.towers.blocks import Colour
from engine.towers.game import TowersGame
from engine.towers.sensing import TowersView, expected_towers
from engine.towers.tower import cell_name, resting_placements
from engine.towers.turns import EndReason, Phase
from firmware.core import events
from hardware.buttons import ButtonEvent
from tests.support.tables import TowersHarness
from tests.support.towers import COLUMN_A, COLUMN_B, cells, column, flat_table, position

A, B = Player.A, Player.B
@pytest.fixture
def t(block_set, tmp_path):
    return TowersHarness(block_set, tmp_path / "state").start_play()


EMPTY = frozenset()


def test_setup_waits_for_a_clear_table(block_set, tmp_path):
    t = TowersHarness(block_set, tmp_path)
    t.see((cells("a1:1"), EMPTY))
    assert t.table.state == "setup" and "clear both towers" in t.table.problem
    t.press(B)
    assert t.table.state == "setup"           # not while the table is not clear
    t.see()
    t.press(B)
    assert t.table.state == "toss"
    start = t.journal.read().entries[0]
    assert start["t"] == "start" and start["seed"] == 3 and start["extras"]["set"]["block"]
    told = t.of("start")[0]
    assert told["first"] == t.pos.active.value and told["observation"]["phase"] == "choose"
    assert not t.of("timer")                  # no hourglass while the coin is in the air
    t.wait(2.1)
    assert t.table.state == "play" and t.table.hourglass.running
    assert t.of("timer", state="started", player=t.pos.active.value, seconds=60.0)


def test_weights_in_the_zone_become_choices_and_a_placement_the_take(t):
    active = t.pos.active
    pads = t.deal("B01", "R01")
    assert t.pos.zone == ("B01", "R01") and not t.table.hourglass.started
    bar = resting_placements(t.pos.tower(active.other), t.block_set["R01"])[0]
    t.see(t.place_view(active.other, bar), (pads[0], None))
    assert t.pos.hands[active.index] == "B01" and t.pos.phase is Phase.PLACE
    assert [e["action"]["a"] for e in t.journalled_actions()] == ["choose", "choose", "place"]
    # the page draws the placement from data, never from its notation's text
    assert t.of("accepted")[-1]["move"] == {"a": "place", "tower": active.other.value,
                                            "block": "R01", "cells": sorted(map(list, bar))}


def test_the_hourglass_runs_out(t):
    first = t.pos.active
    t.see(t.towers(), t.zone_of("G01"))
    t.wait(59.0)
    assert t.pos.active is first
    t.wait(1.0)
    assert t.pos.active is first.other and t.pos.turn == 2
    assert t.of("timer", player=first.value, state="expired", left=0.0)
    assert t.of("accepted")[-1]["action"] == "timeout"
    assert t.table.state == "repair" and "back in the pile" in t.table.problem
    assert not t.table.hourglass.started          # the next glass waits for a clear zone
    t.see(t.towers(), (None, None))
    assert t.table.state == "play" and t.table.hourglass.running
    t.wait(59.9)
    assert t.pos.turn == 2


def test_an_illegal_placement_is_shown_never_recorded_then_corrected(t):
    active = t.pos.active
    pads = t.deal("B01", "R01")
    before = len(t.journalled_actions())
    bar = resting_placements(t.pos.tower(active.other), t.block_set["R01"])[0]
    floating = frozenset((x, y, z + 2) for x, y, z in bar)
    t.see(t.place_view(active.other, floating), (pads[0], None))
    assert t.table.state == "repair" and t.beeps == 1
    assert "floats 2 levels" in t.table.problem
    refused = t.events[-1]
    assert refused["event"] == "refused" and "floats 2 levels" in refused["message"]
    mark = refused["where"][0]  # a value: the tower and the cube, not words to parse
    assert mark["tower"] == active.other.value and mark["kind"] in ("extra", "missing")
    assert mark["words"] == f"tower {mark['tower']} {cell_name(tuple(mark['cells'][0]))} " \
        f"({mark['kind']})"
    assert len(t.journalled_actions()) == before and t.pos.phase is Phase.TAKE
    frame = t.table.led_frame(t.now, 16)
    lit = [k for k, v in frame.items() if k[0] == "tower" and v != (0, 0, 0)]
    assert lit == [("tower", active.other.value, lit[0][2])]
    assert frame[lit[0]] == (255, 0, 0)
    assert lit[0][2] in {y * 3 + x for x, y, _ in floating}
    t.see(t.place_view(active.other, bar), (pads[0], None))   # put where it rests
    assert t.table.state == "play" and t.pos.phase is Phase.PLACE
    frame = t.table.led_frame(t.now, 16)
    assert frame[("zone", "", 0)] == (0, 200, 0) and frame[("zone", "", 1)] == (0, 0, 0)
    assert len(t.journalled_actions()) == before + 1


def test_a_flat_bonus_declined_with_the_button(t):
    flat_table(t)
    pads = t.deal("G05", "R01")
    t.see(t.place_view(B, cells("a1:1", "b1:1", "c1:1")), (pads[0], None))
    t.see(t.place_view(A, cells("c1:1", "c2:1", "c3:1", "b3:1")), (None, None))
    assert t.pos.phase is Phase.BONUS and t.pos.bonus == (A,)
    t.press(B)                       # B has no bonus: nothing happens
    assert t.pos.phase is Phase.BONUS
    t.press(A)
    assert t.pos.phase is Phase.CHOOSE and len(t.pos.blacks) == 4


def test_a_flat_bonus_black_block_on_the_opponent(t):
    flat_table(t)
    pads = t.deal("G05", "R01")
    t.see(t.place_view(B, cells("a1:1", "b1:1", "c1:1")), (pads[0], None))
    t.see(t.place_view(A, cells("c1:1", "c2:1", "c3:1", "b3:1")), (None, None))
    t.see(t.place_view(B, cells("b2:1")))
    assert t.pos.phase is Phase.CHOOSE and len(t.pos.blacks) == 3
    assert t.pos.scores()[1] == 1 - 2


def test_over_the_top_ends_the_game_with_the_breakdown(t):
    pos = position(TowersGame(t.block_set).new_initial_state(first=A),
                   tower_a=column(t.block_set, COLUMN_A),
                   tower_b=column(t.block_set, COLUMN_B, owner=B))
    t.put_position(pos)
    t.see(t.towers())
    pads = t.deal("B09", "G03")
    low = min(resting_placements(t.pos.tower(B), t.block_set["G03"]),
              key=lambda p: max(z for *_, z in p))
    t.see(t.place_view(B, low), (pads[0], None))      # B chooses the green first
    square_post = cells("a1:9", "b1:9", "a2:9", "b2:9", "a1:10")
    t.see(t.place_view(A, square_post), (None, None))
    assert t.table.state == "over" and t.pos.end is EndReason.OVER_THE_TOP
    result = t.events[-1]
    assert result["event"] == "game_over" and result["game"] == "towers"
    outcome, seen = result["outcome"], result["observation"]
    assert outcome["termination"] == "over_the_top" and seen["penalties"]["A"] == 1
    assert "1 cube over the top: -1" in outcome["breakdown"]["A"]
    for name, blocks in seen["towers"].items():
        values = sum(Colour.from_label(b["colour"]).points for b in blocks)
        assert outcome["scores"][name] == values - seen["penalties"][name], name
    assert t.journal.read().entries[-1] == {"t": "over", "result": outcome}


def test_a_block_wholly_above_the_rods_is_confirmed_with_the_button(t):
    full = [*COLUMN_A, ("K01", "a1:9")]
    pos = position(TowersGame(t.block_set).new_initial_state(first=A),
                   tower_a=column(t.block_set, full))
    t.put_position(pos)
    t.see(t.towers())
    pads = t.deal("Y04", "G03")
    t.see(t.towers(), (None, pads[1]))     # the yellow pair leaves its pad
    assert t.pos.phase is Phase.TAKE
    t.press(A)                             # B has not chosen yet: A cannot have placed
    assert t.events[-1]["event"] == "notice" and "player B chooses first" in \
        t.events[-1]["message"]
    t.press(B)                             # B has nothing over the top to confirm
    assert t.events[-1]["event"] == "notice"
    t.see(t.towers(), (None, None))        # B took the green and handed A the yellow
    t.press(A)                             # A's pair sits on a1, above level 9: unseen
    assert t.table.state == "choose" and t.table.chooser is A   # but which block was it?
    assert len(t.table.candidates) == 2
    t.press(B, "hold")                     # not B's to say
    assert t.table.state == "choose"
    while t.pos.block(t.table.candidates[t.table.pick][-1].block).colour is not Colour.YELLOW:
        t.press(A)                         # a press lights the next one
    t.press(A, "hold")                     # a hold plays it
    assert t.table.state == "play"
    assert t.pos.hands[0] is None and t.pos.tower(A).overflow == 2
    assert t.pos.block(t.pos.hands[1]).colour is Colour.GREEN  # B got the green


def test_the_pile_running_out_ends_the_game(t):
    t.put_position(replace(t.pos, pile=("G01", "G02", "G03")))
    first = t.pos.active
    pads = t.deal("G01", "G02")
    t.see(t.place_view(first.other, cells("a1:1", "b1:1", "a2:1", "b2:1")), (pads[0], None))
    t.see(t.place_view(first, cells("a1:1", "b1:1", "a2:1", "b2:1")), (None, None))
    assert t.table.state == "over" and t.pos.end is EndReason.PILE_EMPTY
    assert t.events[-1]["event"] == "game_over"
    assert t.events[-1]["outcome"]["winner"] is None
    assert t.events[-1]["outcome"]["termination"] == "pile_empty"


def test_undo_takes_back_a_placement_once_it_is_lifted(t):
    active = t.pos.active
    pads = t.deal("B01", "R01")
    bar = resting_placements(t.pos.tower(active.other), t.block_set["R01"])[0]
    t.see(t.place_view(active.other, bar), (pads[0], None))
    before_place = t.table.history[-2]
    t.see(expected_towers(before_place), (pads[0], None))    # the bar is lifted off again
    assert t.table.state == "repair" and t.table.offer is not None
    t.press(active.other, "hold")
    assert t.table.state == "play" and t.pos == before_place
    assert t.journal.read().entries[-1] == {"t": "takeback", "to": len(t.table.actions)}
    assert t.of("offer", kind="takeback", players=[active.other.value])
    takeback = t.of("takeback")[-1]
    assert takeback["undone"] == 1 and takeback["why"] == "confirmed"
    assert takeback["actions"] == len(t.table.actions)


def test_a_restart_resumes_from_the_journal_and_guides_the_repair(t, block_set):
    active = t.pos.active
    pads = t.deal("B01", "R01")
    bar = resting_placements(t.pos.tower(active.other), block_set["R01"])[0]
    t.see(t.place_view(active.other, bar), (pads[0], None))
    saved = t.pos
    # The power goes; the service starts again on the same journal.
    again = TowersHarness(block_set, t.journal.dir)
    assert again.table.state == "play" and again.pos == saved
    resumed = again.events[0]
    assert resumed["event"] == "resumed" and resumed["game"] == "towers"
    assert resumed["actions"] == 3 and resumed["observation"] == saved.observation()
    knocked = sorted(bar)[0]                     # a cube of the bar got knocked off
    towers = list(expected_towers(saved))
    towers[active.other.index] -= {knocked}
    again.see(tuple(towers), (pads[0], None))
    assert again.table.state == "repair" and "missing" in again.table.problem
    frame = again.table.led_frame(again.now, 16)
    x, y, _ = knocked
    assert frame[("tower", active.other.value, y * 3 + x)] == (0, 0, 255)
    assert again.table.next_fix() == (active.other, knocked, False)
    again.see(expected_towers(saved), (pads[0], None))
    assert again.table.state == "play" and again.pos == saved


def test_pause_freezes_the_hourglass(t):
    t.wait(30.0)
    t.table.on_button(ButtonEvent("menu", "press"), t.now)
    assert t.table.state == "paused"
    t.wait(300.0)
    t.table.on_button(ButtonEvent("menu", "press"), t.now)
    assert t.table.state == "play"
    assert t.table.hourglass.remaining(t.now) == pytest.approx(30.0)
    paused, resumed = t.of("timer", state="paused")[0], t.of("timer", state="resumed")[0]
    assert paused["left"] == resumed["left"] == pytest.approx(30.0)
    assert [e["state"] for e in t.of("pause")] == ["paused", "resumed"]


def test_repairs_are_guided_one_fix_at_a_time(block_set, tmp_path):
    t = TowersHarness(block_set, tmp_path)
    t.see((cells("a1:1", "b1:1", "c3:1"), cells("b2:1")))   # leftovers from last time
    lit = [k for k, v in t.table.led_frame(t.now, 16).items()
           if k[0] == "tower" and v != (0, 0, 0)]
    assert lit == [("tower", "A", 8)]                        # one rod at a time: c3 first
    t.see((cells("a1:1", "b1:1"), cells("b2:1")))
    assert t.table.next_fix() == (A, (1, 0, 0), True)
    t.see()
    assert t.table.state == "setup" and t.table.next_fix() is None


def test_the_menu_chooses_options_before_a_game(block_set, tmp_path):
    t = TowersHarness(block_set, tmp_path)
    menu = ButtonEvent("menu", "press")
    seen = []
    for _ in range(4):
        t.table.on_button(menu, t.now)
        seen.append((t.table.game.options.hourglass_s, t.table.game.options.sudden_death))
    assert seen == [(90.0, False), (45.0, False), (60.0, True), (60.0, False)]
    assert [e["options"] for e in t.of("options")][-2] == {"hourglass_s": 60.0,
                                                          "sudden_death": True}
    t.table.on_button(menu, t.now)                      # 90 s
    ring = [t.table.led_frame(t.now, 16)[("ring", "A", i)] for i in range(16)]
    assert ring.count((0, 0, 0)) == 16 - 6              # six pixels: 90 s
    t.see()
    t.press(A)
    t.wait(2.1)
    assert t.table.hourglass.length_s == 90.0
    assert t.journal.read().entries[0]["options"]["hourglass_s"] == 90.0


def test_the_hourglass_keeps_time_across_a_game(block_set, tmp_path):
    """Twelve turns timed out in a row, the table driven as the service drives it.

    The clock is controlled: the loop sleeps until the table's next deadline or
    the next LED frame (50 ms), and every wake-up comes 0-3 ms late, as a busy
    Pi's would. Each turn must expire within 20 ms of its 60 s, measured from
    its own start, and the glass must not drift however long the game runs.
    """
    rng = random.Random(8)
    t = TowersHarness(block_set, tmp_path).start_play()
    view = TowersView((EMPTY, EMPTY), (None, None))
    turns: list[tuple[float, float]] = []             # (glass started, turn timed out)
    started = None
    seen = 0
    while len(turns) < 12:
        deadline = t.table.next_deadline()
        sleep = 0.05 if deadline is None else min(0.05, max(0.0, deadline - t.now))
        t.now += sleep + rng.uniform(0.0, 0.003)
        t.table.on_view(view, t.now)                   # the board's heartbeat
        glass = t.table.hourglass
        if started is None and t.table.state == "play" and glass.running:
            started = glass.expires_at() - 60.0
        t.table.tick(t.now)
        if any(e["event"] == "timer" and e["state"] == "expired" for e in t.events[seen:]):
            turns.append((started, t.now))
            started = None
        seen = len(t.events)
    for start, end in turns:
        assert 60.0 <= end - start <= 60.02, (start, end)
    begun, expiries = [s for s, _ in turns], [e for _, e in turns]
    assert expiries[-1] - begun[0] > 12 * 60.0          # a long game, and still on time


def test_a_restart_after_a_timeout_still_clears_the_zone(block_set, tmp_path):
    """Found by bench/faults.py: the lost turn's block left on its pad across a
    power cut must go back to the pile, not count as the next player's choice."""
    t = TowersHarness(block_set, tmp_path / "state").start_play()
    t.see(t.towers(), t.zone_of("G01"))
    t.wait(60.0)
    assert t.table.clear_zone and t.journalled_actions()[-1]["action"] == {"a": "timeout"}
    again = TowersHarness(block_set, tmp_path / "state")         # the power comes back
    actions = len(again.table.actions)
    again.see(again.towers(), again.zone_of("G01"))    # the block still on its pad
    assert len(again.table.actions) == actions
    assert again.table.state == "repair" and "back in the pile" in again.table.problem
    assert not again.table.hourglass.started             # the next glass waits for it
    again.see(again.towers(), (None, None))
    assert again.table.state == "play" and not again.table.clear_zone
    assert again.table.hourglass.running
    again.see(again.towers(), again.zone_of("B02"))
    assert len(again.table.actions) == actions + 1       # now a block is a choice again


def test_the_active_tower_waits_until_the_passive_player_has_chosen(t):
    active, passive = t.pos.active, t.pos.active.other
    pads = t.deal("B01", "R01")
    before = len(t.journalled_actions())
    bar = resting_placements(t.pos.tower(active), t.block_set["R01"])[0]
    t.see(t.place_view(active, bar), (pads[0], None))   # the blue still on its pad
    assert t.table.state == "repair" and f"{passive} chooses first" in t.table.problem
    assert len(t.journalled_actions()) == before and t.pos.phase is Phase.TAKE
    frame = t.table.led_frame(t.now, 16)
    lit = {k[2] for k, v in frame.items() if k[:2] == ("tower", active.value) and v != (0,) * 3}
    assert len(lit) == 1 and lit <= {y * 3 + x for x, y, _ in bar}   # one extra cube shown
    t.see(t.towers(), (pads[0], None))                     # it comes off again
    blue = resting_placements(t.pos.tower(passive), t.block_set["B01"])[0]
    t.see(t.place_view(passive, blue), (None, None))     # the passive player chose blue
    t.see(t.place_view(active, bar), (None, None))
    assert t.pos.turn == 2 and [e["action"]["a"] for e in t.journalled_actions()[-2:]] == \
        ["place", "place"]


def test_once_both_pads_are_empty_the_active_player_may_place_first(t):
    active, passive = t.pos.active, t.pos.active.other
    t.deal("B01", "R01")
    t.see(t.towers(), (None, None))                        # passive chose, handed over
    bar = resting_placements(t.pos.tower(active), t.block_set["R01"])[0]
    t.see(t.place_view(active, bar), (None, None))
    assert t.table.state == "play" and t.pos.phase is Phase.PLACE
    assert t.pos.hands[passive.index] == "B01"
    assert [e["action"]["a"] for e in t.journalled_actions()[-2:]] == ["take", "place"]


def test_only_the_owner_of_the_lifted_block_confirms_the_takeback(t):
    passive = t.pos.active.other
    pads = t.deal("B01", "R01")
    bar = resting_placements(t.pos.tower(passive), t.block_set["R01"])[0]
    t.see(t.place_view(passive, bar), (pads[0], None))
    placed = t.pos
    t.see(expected_towers(t.table.history[-2]), (pads[0], None))   # the bar lifted off
    assert t.table.offer is not None and f"{passive} may press" in t.table.problem
    t.press(passive.other)
    t.press(passive.other, "hold")
    assert t.pos == placed                                 # the other player cannot
    t.press(passive)
    assert t.pos == t.table.history[-1] != placed and t.of("takeback")
    assert t.of("offer", kind="takeback")[-1]["players"] == [passive.value]


def test_an_ambiguous_placement_is_chosen_with_the_button(t):
    """Only a1 level 9 shows, the pads are both empty: yellow pair or red corner?"""
    pos = position(TowersGame(t.block_set).new_initial_state(first=A),
                   tower_b=column(t.block_set, COLUMN_B, owner=B))
    t.put_position(pos)
    t.see(t.towers())
    t.deal("Y04", "R04")
    t.see(t.place_view(B, cells("a1:9")), (None, None))
    assert t.table.state == "choose" and t.table.chooser is B
    offer, turn = t.events[-2:]  # the choice, and the turn saying what it asks
    assert offer["event"] == "offer" and offer["kind"] == "choose" and offer["players"] == ["B"]
    assert turn["event"] == "turn" and turn["doing"].startswith("more than one placement fits")
    assert len(offer["candidates"]) == 2 and offer["pick"] == 0
    first = t.table.candidates[0]
    frame = t.table.led_frame(t.now, 16)
    assert any(v != (0, 0, 0) for k, v in frame.items() if k[:2] == ("tower", "B"))
    for x, y, _ in first[-1].cells:                        # the one a hold plays: white
        assert frame[("tower", "B", y * 3 + x)] == (255, 255, 255)
    t.press(A, "hold")                                     # not A's to say
    t.press(B)                                             # the next one lights
    assert t.table.pick == 1 and t.table.candidates[1] != first
    chosen = t.table.candidates[1]
    t.press(B, "hold")
    assert t.table.state == "play" and tuple(t.table.actions[-len(chosen):]) == chosen
    assert t.pos.hands[0] is not None                      # A holds the other block


def test_after_the_end_a_press_sets_up_a_new_game(t):
    t.put_position(replace(t.pos, pile=("G01", "G02", "G03")))
    first = t.pos.active
    pads = t.deal("G01", "G02")
    t.see(t.place_view(first.other, cells("a1:1", "b1:1", "a2:1", "b2:1")), (pads[0], None))
    t.see(t.place_view(first, cells("a1:1", "b1:1", "a2:1", "b2:1")), (None, None))
    assert t.table.state == "over"
    t.press(B)
    assert t.table.state == "setup" and "clear both towers" in t.table.problem
    t.see()
    t.press(A)
    t.wait(2.1)
    starts = [e for e in t.journal.read().entries if e["t"] == "start"]
    assert t.table.state == "play" and len(starts) == 2 and t.pos.turn == 1


def test_taking_back_the_placement_that_ended_a_turn_stops_the_next_hourglass(t):
    active, passive = t.pos.active, t.pos.active.other
    pads = t.deal("B01", "R01")
    bar = resting_placements(t.pos.tower(passive), t.block_set["R01"])[0]
    t.see(t.place_view(passive, bar), (pads[0], None))
    blue = resting_placements(t.pos.tower(active), t.block_set["B01"])[0]
    t.see(t.place_view(active, blue), (None, None))
    assert t.pos.turn == 2 and t.table.hourglass.running
    assert t.table.glass_of is passive                     # the next turn's glass runs
    t.see(expected_towers(t.table.history[-2]), (None, None))     # the blue lifted off
    t.press(active)
    assert t.pos.turn == 1 and t.pos.phase is Phase.PLACE
    assert not t.table.hourglass.started
    stopped = t.of("timer", state="stopped")[-1]
    assert stopped["player"] == passive.value and stopped["left"] == pytest.approx(60.0, abs=1)
    t.see(t.place_view(active, blue), (None, None))      # put back: the turn ends again
    assert t.pos.turn == 2 and t.table.hourglass.running


def test_a_reading_is_worked_out_once_for_its_short_window_and_its_decision(t, monkeypatch):
    """read_view tries placements on both towers: the short settle window asks it as the
    reading arrives, and the decision reuses that answer (it was asked twice)."""
    import firmware.towers.table as towers_table

    active = t.pos.active
    pads = t.deal("B01", "R01")
    bar = resting_placements(t.pos.tower(active.other), t.block_set["R01"])[0]
    reads = []
    real = towers_table.read_view
    monkeypatch.setattr(towers_table, "read_view", lambda *a, **k: reads.append(1) or real(*a, **k))
    t.table.on_view(TowersView(t.place_view(active.other, bar), (pads[0], None)), t.now)
    t.wait(t.table.settler.quick_s + 0.01)                # sure: it counts after the short window
    assert t.pos.phase is Phase.PLACE and len(reads) == 1


def test_a_reader_joining_mid_game_gets_the_hourglass_refusal_and_pause(t):
    """A page that starts reading mid-game must show what one there from the start shows:
    the running hourglass with what is left, a pause, the refusal with its marks."""
    active = t.pos.active
    t.wait(20.0)
    opening = t.table.opening(t.now)
    assert opening[0]["event"] == "table"
    glass = [e for e in opening if e["event"] == "timer"]
    assert glass == [{"event": "timer", "player": active.value, "state": "resumed",
                      "seconds": 60.0, "left": pytest.approx(40.0)}]
    t.table.on_button(ButtonEvent("menu", "press"), t.now)
    t.wait(100.0)
    opening = t.table.opening(t.now)
    assert {"event": "pause", "state": "paused"} in opening
    (glass,) = [e for e in opening if e["event"] == "timer"]
    assert glass["state"] == "paused" and glass["left"] == pytest.approx(40.0)
    t.table.on_button(ButtonEvent("menu", "press"), t.now)
    pads = t.deal("B01", "R01")
    bar = resting_placements(t.pos.tower(active.other), t.block_set["R01"])[0]
    floating = frozenset((x, y, z + 2) for x, y, z in bar)
    t.see(t.place_view(active.other, floating), (pads[0], None))
    told = t.of("refused")[-1]
    opening = t.table.opening(t.now)
    assert [e for e in opening if e["event"] == "refused"] == [told]
    assert not [e for e in opening if e["event"] == "pause"]
    for event in opening:
        events.check(event)


def test_the_button_for_a_block_above_the_rods_is_said_once_a_rod_is_full(t):
    from firmware.towers.table import over_the_top_hint

    game = TowersGame(t.block_set)
    full = position(game.new_initial_state(first=A),
                    tower_a=column(t.block_set, [*COLUMN_A, ("K01", "a1:9")]))
    assert "press your button" in over_the_top_hint(full, A)
    assert over_the_top_hint(full, B) == ""                     # B's tower is not full
    assert over_the_top_hint(game.new_initial_state(first=A), A) == ""  # nothing to say yet


def _pair_above_the_rods(t):
    """A's tower full to a1's top, the yellow and green pair dealt and both lifted off the
    pads: the next block A places can only go wholly above the rods."""
    full = [*COLUMN_A, ("K01", "a1:9")]
    t.put_position(position(TowersGame(t.block_set).new_initial_state(first=A),
                            tower_a=column(t.block_set, full)))
    t.see(t.towers())
    pads = t.deal("Y04", "G03")
    t.see(t.towers(), (None, pads[1]))
    return pads


def test_a_press_while_the_table_still_settles_counts_for_what_it_settles_on(t):
    """The block lowered above the rods and the button pressed at once: the press is about
    the table as it is now, not as it last settled (then the pair was not yet taken)."""
    _pair_above_the_rods(t)
    t.table.on_view(TowersView(t.towers(), (None, None)), t.now)  # not settled yet
    t.press(A)
    t.wait(0.31)
    assert not [e for e in t.of("notice") if "chooses first" in e["message"]], t.events
    assert t.table.state == "choose" and t.table.chooser is A
    assert len(t.table.candidates) == 2


def test_a_press_during_a_flicker_that_settles_back_counts_for_the_table_as_it_was(
        block_set, tmp_path):
    """A hand passing over the rods as a player presses to start: the press waits for the
    table to settle, and when the reading comes back to what had settled (the hand gone),
    the press counts for that table. It was lost: the board ready, the start never came."""
    t = TowersHarness(block_set, tmp_path)
    t.see()
    assert t.table.state == "setup" and "press a player button" in t.table.problem
    t.table.on_view(TowersView((cells("b2:1"), EMPTY), (None, None)), t.now)  # the hand
    t.wait(0.05)
    t.press(A)  # held: the table is settling
    t.table.on_view(TowersView((EMPTY, EMPTY), (None, None)), t.now)  # the hand gone
    t.wait(0.31)
    assert t.table.state == "toss", t.table.problem


def test_a_choice_that_no_longer_holds_is_withdrawn_where_people_see_it(t):
    """Asked which block went above the rods, the player puts it back on its pad: the
    choice is gone, and the pages that showed it are told; the turn line then follows the
    other block, still off its pad (issue 48: it no longer asks to take one from the zone)."""
    pads = _pair_above_the_rods(t)
    t.see(t.towers(), (None, None))
    t.press(A)
    assert t.table.state == "choose"
    offered = len(t.events)
    t.see(t.towers(), (pads[0], None))    # the yellow back on its pad
    assert t.table.state == "play"
    told = t.events[offered:]
    assert [e["event"] for e in told] == ["repaired", "turn"], told
    assert told[-1]["doing"].startswith("place the green block on your tower"), told


def test_the_hourglass_runs_out_while_something_is_wrong_and_the_turn_is_lost(t):
    """A black block set on a zone pad is refused, and the hourglass ran on to 0 s with
    nothing happening until it came off: a refusal does not stop the hourglass, and when
    it runs out the turn is lost as always, its blocks to go back."""
    active = t.pos.active
    t.see(t.towers(), (Colour.BLACK, None))
    assert t.table.state == "repair"
    t.wait(60.0)
    assert t.journalled_actions()[-1]["action"] == {"a": "timeout"}
    assert t.pos.active is active.other
    assert t.table.state == "repair" and "back in the pile" in t.table.problem
    assert t.of("refused")[-1]["kind"] == "task"
    assert not t.table.hourglass.started  # the next waits for an empty zone
    t.see(t.towers(), (None, None))
    assert t.table.state == "play" and t.table.hourglass.running


def test_a_bonus_black_block_resting_above_the_rods_is_told_with_the_button(t):
    """A flat tower's black block set on the other tower where it rests wholly above the
    rods: no switch sees it, and the button that tells such a block is also the one that
    declines the bonus. A press declined it (a walk of the computer's move found it: the
    computer asked for the black block up there, and the press telling it was refused as a
    decline). A press now offers both, the block above the rods first and the decline last,
    and a hold plays the one lit."""
    from engine.towers.actions import Decline, Place

    tower_a = column(t.block_set, [*COLUMN_A, ("Y03", "a1:9 a2:9")])
    start = TowersGame(t.block_set).new_initial_state(first=A)
    t.put_position(replace(position(start, tower_a=tower_a), phase=Phase.BONUS, bonus=(B,)))
    t.see(t.towers())
    played = len(t.table.actions)
    t.press(B)
    assert len(t.table.actions) == played, f"the press played {t.table.actions[-1]}"
    offer = t.of("offer")[-1]
    assert offer["kind"] == "choose" and offer["players"] == ["B"], offer
    assert "declines" in offer["candidates"][-1] and len(offer["candidates"]) >= 2, offer
    t.press(B, "hold")  # the one lit first: the black block above the rods
    made = t.table.actions[-1]
    assert isinstance(made, Place) and made.block.startswith("K"), made
    assert min(z for *_, z in made.cells) >= 9 and not isinstance(made, Decline)

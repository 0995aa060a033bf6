"""Playing alone (issue 18, the table side): the computer's move asked, made, checked."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
import types
from functools import partial
from pathlib import Path

import pytest

from engine.players import Player
from engine.stones.sensing import sight, stack_heights
from engine.towers.actions import Choose, Take
from engine.towers.turns import Phase
from firmware.core import events, palette
from firmware.games import GAMES
from firmware.seats.solo import Computer, Solo, SoloError
from firmware.store.history import export_text, finished_games
from tests.support import ROOT
from tests.support.ahead import started
from tests.support.service import Pressed
from tests.support.tables import StonesHarness, TowersHarness

A, B = Player.A, Player.B


SOLO_GAMES = {"towers": A, "stones": B, "highrise": A, "maze": B}
"""A whole game of each game alone, the computer in that seat at level 1."""


@pytest.fixture(scope="module", autouse=True)
def solo_games(request, tmp_path_factory):
    """The whole solo games the selected tests check, played ahead side by side from the
    module's first test (``tests.support.ahead``; they are checked last): each mostly waits on its
    simulated table's real time."""
    ahead = started(request, lambda game_id: partial(
        _solo_demo, game_id, SOLO_GAMES[game_id], tmp_path_factory.mktemp(game_id)),
        list(SOLO_GAMES), timeout=300)
    yield ahead
    ahead.close()


def _solo_demo(game_id: str, seat: Player, home: Path) -> tuple[list[dict], list[float], Path]:
    """``obelisk demo GAME --solo SEAT --level 1`` to its end (``tests.support.solo_demo``):
    its events, the computer's thinking time for each move, and its state directory."""
    state, thinks = home / "state", home / "thinks.json"
    run = subprocess.run([sys.executable, "-m", "tests.support.solo_demo", str(thinks), "demo",
                          game_id,
                          "--seed", "2", "--json", "--speed", "50", "--state-dir", str(state),
                          "--solo", seat.value, "--level", "1"],
                         capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    return ([json.loads(line) for line in run.stdout.splitlines()],
            json.loads(thinks.read_text()), state)


ASKS = "make the computer's move: "
"""How the turn line begins while the person is to make the computer's move."""


def _turns_say_the_ask(played: list[dict], seat: Player) -> None:
    """Each turn of the computer's seat says the move asked of the person, in the ask's own
    words, and never invites any move: the table takes only the one asked (a pass it plays
    itself is no one's turn to make)."""
    said = 0
    for i, event in enumerate(played):
        if event["event"] != "turn" or event["player"] != seat.value:
            continue
        asked = next(e for e in played[i + 1:] if e["event"] in ("asked", "accepted"))
        assert asked["event"] == "asked", (event, asked)
        assert event["doing"] == ASKS + asked["text"]
        said += 1
    assert said


@pytest.mark.processes
def test_the_computer_chooses_at_once_and_its_fetching_is_not_timed(block_set, tmp_path):
    t = TowersHarness(block_set, tmp_path)
    seat = t.pos.active  # the toss's winner: the computer chooses first
    t.table.solo = Computer(Solo(seat, 1), "towers")
    t.start_play()
    t.wait(2.5)  # the toss
    assert t.table.state == "play" and t.pos.phase is Phase.CHOOSE
    asked = t.of("asked")
    assert len(asked) == 1 and len(asked[0]["where"]) == 2  # both zone blocks at once
    assert not t.of("timer", state="started") and not t.table.hourglass.started
    frame = t.table.led_frame(t.now, 16)
    wanted = [a for a in t.table.solo.asked if isinstance(a, Choose)]
    colours = [palette.BLOCKS[t.pos.block(a.block).colour.label] for a in wanted]
    assert [frame[("zone", "", i)] for i in (0, 1)] == colours
    t.wait(600)  # ten minutes fetching: no hourglass runs out
    assert not t.table.actions and not t.of("timer") and t.pos.phase is Phase.CHOOSE
    # The person fetches one block of the first wanted colour: accepted, the other still asked.
    colour = t.pos.block(wanted[0].block).colour
    t.see(pads=(colour, None))
    (left,) = t.of("asked")[-1]["where"]
    assert t.of("turn")[-1]["doing"] == ASKS + t.of("asked")[-1]["text"]  # what is left of it
    other = t.pos.block(wanted[1].block)
    assert t.table.actions and left["zone"] == other.colour.label  # and its shape, bottom up
    assert left["words"].startswith(f"zone: {other.colour.label}: a1 level 1")
    assert sorted(map(tuple, left["cells"])) == sorted(other.cells)


def test_a_restart_midway_through_the_computers_move_asks_the_rest_of_the_same_move(
        block_set, tmp_path, monkeypatch):
    """The computer chose a blue and a green block; the person fetched the blue, then
    `obelisk play` was stopped and started again. The computer asked for a blue block
    again: its move, kept beside the journal with the actions played when it was asked,
    was dropped once one of its blocks had been played, and a new search chose otherwise."""
    t = TowersHarness(block_set, tmp_path)
    seat = t.pos.active
    t.table.solo = Computer(Solo(seat, 1), "towers")
    t.start_play()
    t.wait(2.5)
    wanted = [a for a in t.table.solo.asked if isinstance(a, Choose)]
    assert len(wanted) == 2
    t.see(pads=(t.pos.block(wanted[0].block).colour, None))  # the first block fetched
    assert len(t.table.actions) == 1
    rest = t.pos.block(wanted[1].block).colour

    def searched_otherwise(self, table, seat):  # a search capped in time, this time
        other = next(a for a in table.position.legal_actions()  # another colour
                     if isinstance(a, Choose) and table.position.block(a.block).colour != rest)
        return (other,)

    monkeypatch.setattr(Computer, "_search_move", searched_otherwise)
    again = TowersHarness(block_set, tmp_path)  # stopped and started again
    asked = again.table.solo.asked
    assert len(asked) == 1 and again.pos.block(asked[0].block).colour == rest, asked


def test_a_move_of_several_actions_is_thought_within_one_cap(block_set, tmp_path,
                                                            monkeypatch):
    """The towers' two zone blocks are two searches: each was given the whole cap, so the
    loop (and every LED) waited twice as long as the level allows. The second gets what the
    first left."""
    import firmware.seats.solo as solo

    clock = [1000.0]
    given = []

    def spends_all(opponent, state, seed, cap_s, clock_fn=None):
        given.append(cap_s)
        clock[0] += cap_s  # a search that uses every moment it is given
        return opponent.search(state, seed).run(), cap_s

    monkeypatch.setattr(solo, "think", spends_all)
    monkeypatch.setattr(solo, "time", types.SimpleNamespace(monotonic=lambda: clock[0]))
    t = TowersHarness(block_set, tmp_path)
    computer = Computer(Solo(t.pos.active, 1), "towers")
    t.table.solo = computer
    t.start_play()
    t.wait(2.5)
    assert len(given) == 2 and sum(given) == pytest.approx(computer.cap_s)


def _stones(tmp_path) -> StonesHarness:
    t = StonesHarness(tmp_path)
    t.table.solo = Computer(Solo(B, 1), "stones")
    t.started()
    return t


def _person_moves(t: StonesHarness) -> None:
    move = t.table.position.legal_actions()[0]
    t.see(sight(t.table.position.apply_action(move)))
    assert t.table.actions == [move]


def test_a_wrong_move_for_the_computer_is_refused_guided_and_corrected(tmp_path):
    t = _stones(tmp_path)
    _person_moves(t)
    asked = [e for e in t.events if e["event"] == "asked"]
    assert len(asked) == 1 and asked[0]["player"] == "B"
    # a page that joins now is told the move still asked, as one there from the start was
    assert [e for e in t.table.opening(t.now) if e["event"] == "asked"] == asked
    wanted = t.table.solo.asked[0]
    pos = t.table.position
    frame = t.table.led_frame(t.now, 8)
    cols = pos.options.cols
    assert frame[("board", "", wanted.to[0] * cols + wanted.to[1])] == palette.ASK
    assert frame[("board", "", wanted.frm[0] * cols + wanted.frm[1])] == palette.ASK_FROM
    other = next(m for m in pos.legal_actions() if m != wanted
                 and stack_heights(pos.apply_action(m)) != stack_heights(
                     pos.apply_action(wanted)))
    t.see(sight(pos.apply_action(other)))
    refused = [e for e in t.events if e["event"] == "refused"]
    assert t.table.state == "repair" and refused
    assert "the computer asked for" in refused[-1]["message"]
    # the move made, not the asked one again: the turn line says that (issue 48)
    assert pos.move_to_string(other) in refused[-1]["message"]
    assert pos.move_to_string(wanted) not in refused[-1]["message"]
    assert len(t.table.actions) == 1  # nothing recorded
    t.see(sight(pos))  # put back
    assert t.table.state == "play" and t.table.solo.asked == (wanted,)
    t.see(sight(pos.apply_action(wanted)))
    assert t.table.actions[-1] == wanted and not t.table.solo.asked


def test_a_hold_lights_a_hint_and_a_takeback_stays_reachable(tmp_path):
    t = _stones(tmp_path)
    pos = t.table.position
    t.press(A, "hold")
    hints = [e for e in t.events if e["event"] == "hint"]
    assert len(hints) == 1 and hints[0]["player"] == "A"
    assert [e for e in t.table.opening(t.now) if e["event"] == "hint"] == hints
    (hint,) = t.table.solo.hinted
    assert hint in pos.legal_actions() and not t.table.actions
    frame = t.table.led_frame(t.now, 8)
    cols = pos.options.cols
    assert frame[("board", "", hint.to[0] * cols + hint.to[1])] == palette.HINT
    t.see(sight(pos.apply_action(hint)))  # the person plays the hint: it goes out
    assert t.table.actions == [hint] and not t.table.solo.hinted
    t.press(B, "hold")  # the computer's seat asks no hints
    assert len([e for e in t.events if e["event"] == "hint"]) == 1


def test_the_computers_turn_says_the_move_it_asks_to_a_page_that_joins_too(tmp_path):
    t = _stones(tmp_path)
    _person_moves(t)
    asked = [e for e in t.events if e["event"] == "asked"][-1]
    turn = [e for e in t.events if e["event"] == "turn"][-1]
    assert turn["player"] == "B" and turn["doing"] == ASKS + asked["text"]
    assert t.table.public_state()["doing"] == turn["doing"]
    # the person's own turn invites any of their moves, as before
    t.see(sight(t.table.position.apply_action(t.table.solo.asked[0])))
    turn = [e for e in t.events if e["event"] == "turn"][-1]
    assert turn["player"] == "A" and turn["doing"].startswith("lift one of your stones")


def test_while_both_place_the_computers_turn_says_its_move_and_the_persons_too(block_set,
                                                                             tmp_path):
    t = TowersHarness(block_set, tmp_path)
    t.start_play()
    t.wait(2.5)
    state = t.pos
    for _ in range(2):  # the person (active) chooses two blocks for the zone
        state = state.apply_action(state.legal_actions()[0])
    seat = state.passive  # the computer takes one; both hold a block to place
    state = state.apply_action(next(a for a in state.legal_actions() if isinstance(a, Take)))
    assert state.to_move() == (A, B) and seat is A
    t.table.solo = Computer(Solo(seat, 1), "towers")
    t.put_position(state)
    t.table.turn.tell(None)
    asked, turn = t.of("asked")[-1], t.of("turn")[-1]
    assert turn["player"] == "A"
    assert turn["doing"] == f"{ASKS}{asked['text']}; and your own move too"


def test_a_level_out_of_range_is_refused_in_words():
    with pytest.raises(SoloError, match="--level 1, 2, 3 or 4"):
        Solo(A, 7)


def test_the_command_line_takes_solo_and_level(tmp_path):
    from firmware.cli import main
    from firmware.cli_parser import build_parser

    args = build_parser().parse_args(["demo", "stones", "--solo", "B", "--level", "2"])
    assert (args.solo, args.level) == ("B", 2)
    assert main(["run", "--level", "3", "--state-dir", str(tmp_path)]) == 2


def test_the_think_cap_stops_the_search_on_the_clock_it_is_given():
    from engine.search import opponent
    from firmware.seats.solo import think

    state = GAMES["stones"].make(GAMES["stones"].options()).new_initial_state()
    bot = opponent(GAMES["stones"].opponent_tuning(), 4)
    now = [0.0]
    searches = []
    real = bot.search

    class Watched:
        def search(self, s, seed):
            search = real(s, seed)
            simulate = search._simulate

            def timed() -> None:  # each simulation takes its time on the clock given
                now[0] += took[search.done % len(took)]
                simulate()

            search._simulate = timed
            searches.append(search)
            return search

    # 10 ms each, 105 ms: ten simulations fit, an eleventh would end past the cap
    took = [0.01]
    action, seconds = think(Watched(), state, 3, 0.105, lambda: now[0])
    assert action in state.legal_actions()
    assert searches[-1].done == 10 and seconds <= 0.105, (searches[-1].done, seconds)
    # every fifth takes 30 ms (a long rollout), 205 ms: 14 end at 180 ms, and the 15th, a
    # long one, would end at 210 (the mean so far, 12.9 ms, says it would fit)
    took, now[0] = [0.01, 0.01, 0.01, 0.01, 0.03], 0.0
    action, seconds = think(Watched(), state, 3, 0.205, lambda: now[0])
    assert searches[-1].done == 14 and seconds <= 0.205, (searches[-1].done, seconds)
    took = [0.01]
    action, seconds = think(Watched(), state, 3, 1e9, lambda: now[0])
    assert searches[-1].done == bot.simulations  # no cap reached: the whole budget
    assert action == bot.choose(state, 3)  # and the move the engine picks by itself
    assert gc.isenabled()  # the collector, off while it searched, is back


# ------------------------------------------------------------------ kept across a restart


def test_a_restart_resumes_alone_with_the_same_seat_and_level_and_asks_again(tmp_path):
    t = StonesHarness(tmp_path)
    t.table.solo = Computer(Solo(B, 2), "stones")
    t.started()
    _person_moves(t)
    asked = [e for e in t.events if e["event"] == "asked"][-1]
    assert t.journal.read().entries[0]["solo"] == {"seat": "B", "level": 2}
    again = StonesHarness(tmp_path)  # started again as systemd does: no --solo
    computer = again.table.solo
    assert computer is not None and computer.solo == Solo(B, 2)
    kinds = [e["event"] for e in again.events]
    assert kinds[0] == "resumed" and "asked" in kinds
    assert [e for e in again.events if e["event"] == "asked"][-1] == asked  # the same move


def test_a_restart_asking_another_solo_setting_is_refused_untouched(tmp_path):
    from engine.stones.game import StonesGame
    from firmware.seats.seating import seated
    from firmware.stones.table import StonesTable
    from firmware.store.journal import Journal, JournalError

    t = StonesHarness(tmp_path)
    t.table.solo = Computer(Solo(B, 2), "stones")
    t.started()
    _person_moves(t)
    before = t.journal.path.read_bytes()
    for other in (Solo(A, 2), Solo(B, 3)):  # the seat is settled before a table is made
        with pytest.raises(JournalError, match="without --solo and --level"):
            seated(Journal(tmp_path), "stones", Computer(other, "stones"))
    assert t.journal.path.read_bytes() == before
    resumed = seated(Journal(tmp_path), "stones", None)  # started again without --solo
    assert isinstance(resumed, Computer) and resumed.solo == Solo(B, 2)
    table = StonesTable(StonesGame(), Journal(tmp_path), emit=lambda e: None, solo=resumed)
    table.start(0.0)
    assert table.started and len(table.actions) == len(t.table.actions)


@pytest.mark.processes
def test_a_killed_solo_demo_resumes_alone_and_asks_its_move_again(tmp_path):
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    obelisk = str(Path(sys.executable).parent / "obelisk")
    state = str(tmp_path / "state")
    args = [obelisk, "demo", "stones", "--seed", "2", "--json", "--speed", "50",
            "--state-dir", state]
    first = subprocess.Popen([*args, "--solo", "B", "--level", "2"], stdout=subprocess.PIPE,
                             text=True)
    mine = 0
    deadline = time.monotonic() + 120
    for line in first.stdout:
        event = json.loads(line)
        mine += event["event"] == "accepted" and event["player"] == "B"
        if mine >= 2 or time.monotonic() > deadline:
            break
    first.send_signal(signal.SIGKILL)
    first.wait()
    first.stdout.close()
    assert mine >= 2
    again = subprocess.run(args, capture_output=True, text=True, timeout=300)  # no --solo
    assert again.returncode == 0, again.stderr
    played = [json.loads(line) for line in again.stdout.splitlines()]
    assert played[0]["event"] == "resumed" and played[-1]["event"] == "game_over"
    asked = [e for e in played if e["event"] == "asked"]
    assert asked and all(e["player"] == "B" for e in asked)  # still alone, same seat
    assert not [e for e in played if e["event"] == "refused" and "computer" in e["message"]]
    start = json.loads(Path(state, "journal.jsonl").read_text().splitlines()[0])
    assert start["solo"] == {"seat": "B", "level": 2}


def test_the_computers_towers_ask_says_each_thing_once(block_set):
    """Two blocks of one colour for the zone are asked as two, not the same clause twice."""
    from engine.towers.actions import Choose
    from engine.towers.game import TowersGame
    from firmware.towers.solo import words

    pos = TowersGame(block_set).new_initial_state()
    assert words(pos, (Choose("G01"), Choose("G02"))) == \
        "put two green blocks from the pile on the zone pads"
    assert words(pos, (Choose("G01"), Choose("R01"))) == (
        "put a green block from the pile on a zone pad; put a red block from the pile on a "
        "zone pad")


def test_a_refusal_of_the_computers_towers_move_does_not_say_the_turn_line_again(block_set):
    """A block placed wrong for the computer was refused with the whole turn line again,
    under that same turn line ("... asked to take the green block from the zone; place it
    ...", the block taken long since). Each refusal says what was made and how to put it
    right; what was asked, the turn line says."""
    from engine.towers.actions import Place
    from engine.towers.game import TowersGame
    from firmware.towers.solo import differs, words

    pos = TowersGame(block_set).new_initial_state(first=Player.A)
    asked_place = Place(Player.B, "G01", frozenset({(0, 0, 0)}))
    cases = [((Take("G01"), asked_place), Place(Player.B, "G01", frozenset({(1, 0, 0)})),
              "b1 level 1"),
             ((Take("G01"), asked_place), Place(Player.B, "R01", frozenset({(0, 0, 0)})), "red"),
             ((Choose("G01"),), Choose("R01"), "red")]
    for asked, made, named in cases:
        said = differs(pos, asked, made)
        assert named in said and said.startswith("the computer asked for "), said
        for part in words(pos, asked).split("; "):
            assert part not in said, (part, said)


def test_a_block_of_the_asked_colour_but_another_shape_is_told_as_such(block_set):
    """The pads weigh colours only: the red a person set there may be another shape than
    the one the computer planned for. Told "asked for this block elsewhere: place it on the
    lit rods", they were sent to rods that block cannot cover; the shape is what differs,
    and another red of the lit shape from the pile will do (the record follows the shape)."""
    from engine.towers.actions import Place
    from engine.towers.game import TowersGame
    from firmware.towers.solo import differs

    pos = TowersGame(block_set).new_initial_state(first=Player.A)
    line = frozenset({(0, 0, 0), (0, 1, 0), (0, 2, 0)})  # R01: three in a row
    bend = frozenset({(0, 0, 0), (1, 0, 0), (1, 1, 0)})  # R02: a bend
    said = differs(pos, (Take("R01"), Place(Player.B, "R01", line)),
                   Place(Player.B, "R02", bend))
    assert "another shape" in said and "elsewhere" not in said, said
    assert "pile" in said, said


@pytest.mark.processes
def test_the_lit_shape_from_the_pile_makes_the_computers_move_when_the_zones_red_is_another(
        block_set, tmp_path, monkeypatch):
    """On the table: the person sets a red on a pad (another red than the table's guess),
    the computer plans for the guessed one. That red on the lit rods' tower is refused in
    words that name the shape; a red of the lit shape, fetched from the pile, is its move."""
    from engine.towers.actions import Place

    t = TowersHarness(block_set, tmp_path)
    computer = t.pos.active.other  # the person chooses; the computer takes first
    line = frozenset({(0, 0, 0), (0, 1, 0), (0, 2, 0)})  # R01's shape
    monkeypatch.setattr(Computer, "_search_move", lambda self, table, seat: (
        Take("R01"), Place(seat, "R01", line)))
    t.table.solo = Computer(Solo(computer, 1), "towers")
    t.start_play()
    pads = t.deal("R01", "G01")  # the pads weigh a red and a green
    assert [a.block for a in t.table.solo.asked if isinstance(a, Take)] == ["R01"]
    towers = list(t.towers())
    towers[computer.index] = frozenset({(0, 0, 0), (1, 0, 0), (1, 1, 0)})  # a bent red
    t.see(towers, (None, pads[1]))
    assert t.table.state == "repair" and "another shape" in t.table.problem, t.table.problem
    towers[computer.index] = line  # the bent one back to the pile, the straight one fetched
    t.see(towers, (None, pads[1]))
    placed = [pb.block.id for pb in t.pos.tower(computer).blocks]
    assert t.table.state == "play" and placed == ["R01"], (t.table.problem, placed)


def test_the_computers_asked_move_outlives_a_restart(tmp_path, monkeypatch):
    """Its search is capped in time, so after a restart it might choose another move: the
    one it asked is kept and asked again (a newcomer saw the maze's asked wall turn into a
    pass)."""
    t = _stones(tmp_path)
    _person_moves(t)
    (asked,) = t.table.solo.asked
    other = next(a for a in t.table.position.legal_actions() if a != asked)
    monkeypatch.setattr(Computer, "_search", lambda self, state, seed, cap_s: other)
    again = StonesHarness(tmp_path)  # the table started again on the same journal
    assert again.table.solo.asked == (asked,)
    told = [e for e in again.events if e["event"] == "asked"]
    assert told and told[-1]["action"] == [e for e in t.events
                                           if e["event"] == "asked"][-1]["action"]
    again.see(sight(again.table.position.apply_action(asked)))  # made: the next is worked out
    assert again.table.actions[-1] == asked


# ------------------------------------------------------------------ whole games alone


@pytest.mark.processes
@pytest.mark.parametrize(("game_id", "seat"), list(SOLO_GAMES.items()))
def test_a_solo_game_of_each_game_through_the_table(game_id, seat, solo_games):
    played, thinks, state = solo_games.result(game_id)
    for event in played:
        events.check(event)
    assert played[-1]["event"] == "game_over"
    asked = [e for e in played if e["event"] == "asked"]
    assert asked and all(e["player"] == seat.value for e in asked)
    _turns_say_the_ask(played, seat)
    # Every asked move was made as asked: no refusal ever names the computer's move.
    assert not [e for e in played if e["event"] == "refused" and "computer" in e["message"]]
    mine = [e for e in played if e["event"] == "accepted" and e["player"] == seat.value]
    assert mine  # the computer's moves went through the sensors like any other
    # it searched for its moves (how long: capped on a controlled clock above, measured in
    # bench/opponents.py; a wall-clock bound here failed on a loaded machine)
    assert thinks and all(seconds >= 0 for seconds in thinks)
    if game_id == "highrise":  # which size went where stays hidden until the reveal, from
        end = next(i for i, e in enumerate(played) if e["event"] == "reveal")  # every reader
        # (before the game, the covers are neutral large pyramids for all to see)
        told = json.dumps([e for e in played[:end] if e["event"] != "setup"])
        assert not any(size in told for size in ("small", "medium", "large")), told
    # The players are named with the computer's seat marked (the page shows these names).
    start = next(e for e in played if e["event"] == "start")
    seats = GAMES[game_id].table_class().SEATS
    assert start["players"] == {**seats, seat.value: f"{seats[seat.value]} (computer, level 1)"}
    # Its record says who the computer was, as the game names the seat, and at which level.
    (finished,), _ = finished_games(state)
    assert f'[Computer "{seats[seat.value]}, level 1"]' in export_text(finished, state)


def test_a_towers_move_asked_above_the_rods_is_any_with_the_same_future(block_set):
    """The computer asked a green block wholly above the rods at c1, b2, c2; the person's
    hold picked the same block above the rods at a1, b1, b2 (no switch tells them apart,
    and the game goes on the same: the same cubes over the top). The table refused it as
    not the move asked, the demo pressed again, and so on for ever (found as a solo demo
    that hung under load)."""
    from engine.towers.actions import Place
    from engine.towers.game import TowersGame
    from engine.towers.placement import future, visible
    from engine.towers.tower import LEVELS, resting_placements
    from firmware.towers.solo import same
    from tests.support.towers import COLUMN_B, column, position

    start = TowersGame(block_set).new_initial_state(first=Player.A)
    pos = position(start, tower_b=column(block_set, COLUMN_B, owner=Player.B))
    groups: dict = {}
    for block in block_set.blocks:
        for cells in resting_placements(pos.tower(Player.B), block):
            if max(c[2] for c in cells) >= LEVELS:  # some of it over the top
                place = Place(Player.B, block.id, cells)
                groups.setdefault((visible(cells), future(pos, place)), []).append(place)
    alike = [g for g in groups.values() if len({p.cells for p in g}) > 1]
    assert alike, "no two placements over the top the switches cannot tell apart"
    for wanted, *others in alike:
        assert all(same(pos, wanted, made) for made in others)
    different = [(a[0], b[0]) for a, b in zip(groups.values(), list(groups.values())[1:],
                                               strict=False)]
    assert different and not any(same(pos, a, b) for a, b in different)


def test_a_hint_asked_from_the_page_is_said_once(tmp_path):
    """The hint stood under the turn line (the ``hint`` event) and again under the Hint
    button, in the same words: the button's answer says it is lit, not the move again."""
    helper = StonesHarness(tmp_path)
    helper.table.solo = Computer(Solo(Player.B, 1), "stones")  # the person plays A, first
    stones = Pressed(helper.started())
    said = stones.do("hint")["message"]
    hint = [e for e in helper.events if e["event"] == "hint"][-1]["text"]
    assert hint not in said and "hint" in said, said


def test_the_computers_move_is_logged_once_by_its_turn(tmp_path):
    """"What happened" and the terminal said each computer move twice: "the computer (player
    B) asks: ..." and "player B's turn: make the computer's move: ...". The turn says it."""
    from engine.stones.sensing import sight
    from firmware.readers.terminal.screen import headline, seat_names

    helper = StonesHarness(tmp_path)
    helper.table.solo = Computer(Solo(Player.B, 1), "stones")
    helper.started()
    move = helper.table.position.legal_actions()[0]
    helper.see(sight(helper.table.position.apply_action(move)))  # the person's move
    names = seat_names("stones")
    lines = [headline(e, names) for e in helper.events]
    asked = [e for e in helper.events if e["event"] == "asked"][-1]["text"]
    assert sum(asked in line for line in lines) == 1, [ln for ln in lines if asked in ln]
    assert any(line.startswith("player B's turn: make the computer's move") and asked in line
               for line in lines), lines


def test_the_computers_two_blocks_of_one_colour_stay_asked_whichever_the_person_fetches(
        block_set, tmp_path, monkeypatch):
    """The computer asked for two green blocks; the block the table took for the first one
    fetched was the second it named. The other green stayed asked: before, the first named
    was struck off instead, the one left named a block already on its pad, no longer
    legal, and a new search asked for a red block the person had not been shown."""
    t = TowersHarness(block_set, tmp_path)
    seat = t.pos.active
    greens = sorted((a for a in t.pos.legal_actions() if isinstance(a, Choose)
                     and t.pos.block(a.block).colour.label == "green"), key=lambda a: a.block)
    assert len(greens) >= 2, "the set has two green blocks"
    searched = []

    def two_greens_then_red(self, table, seat):
        # the first ask: two greens, the later-numbered first; any search after it: a red
        searched.append(len(table.actions))
        if not table.actions:
            return (greens[-1], greens[0])
        return (next(a for a in table.position.legal_actions() if isinstance(a, Choose)
                     and table.position.block(a.block).colour.label == "red"),)

    monkeypatch.setattr(Computer, "_search_move", two_greens_then_red)
    t.table.solo = Computer(Solo(seat, 1), "towers")
    t.start_play()
    t.wait(2.5)
    assert [a.block for a in t.table.solo.asked] == [greens[-1].block, greens[0].block]
    green = t.pos.block(greens[0].block).colour
    t.see(pads=(green, None))  # a green fetched: the table names the block it takes
    assert len(t.table.actions) == 1
    (left,) = t.of("asked")[-1]["where"]
    assert left["zone"] == "green", t.of("asked")[-1]["text"]
    assert searched == [0], "the computer searched again after half its move was made"
    t.see(pads=(green, green))  # the second green: the computer's choosing is done
    assert len(t.table.actions) == 2 and not t.of("refused")

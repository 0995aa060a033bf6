"""A match's asks between two tables, in-process: a takeback, a pause, the end.

Two stones tables, the person at one in seat A, at the other in seat B; what
the link would carry (an ask, an answer, an action) is handed over by hand.
Stones reads no takebacks of its own (towers and the maze do), so the pieces
lifted off are read as one here (``_lift``), as the old test of the match did.
Nothing happens at either table until the other's player agrees, and then
both do it: both journals hold the same actions and takebacks.
"""

from __future__ import annotations

import json

from engine.players import Player
from engine.reading import Reading, Takeback
from engine.stones.sensing import sight
from firmware.core.table_state import TableState
from firmware.match.negotiation_dicts import ask_from_dict
from firmware.match.negotiation_values import AskKind, PlacedAsk
from firmware.match.seat import Match, MatchSeat
from firmware.readers.terminal.screen import headline
from firmware.store.journal import GameEntries
from hardware.buttons import ButtonEvent
from tests.support.tables import StonesHarness

A, B = Player.A, Player.B


def _tables(tmp_path) -> tuple[StonesHarness, StonesHarness]:
    tables = []
    for seat in (A, B):
        t = StonesHarness(tmp_path / seat.value)
        t.table.solo = MatchSeat(Match("derby", seat), "stones")
        t.started()
        tables.append(t)
    return tables[0], tables[1]


def _lift(t: StonesHarness, to: int) -> None:
    """The pieces here stand as the game did before action ``to``: read as a takeback."""
    owners = frozenset(t.table.history[k].current_player() for k in range(to, len(
        t.table.actions)))
    t.table._reading = lambda view: Reading(takeback=Takeback(to, owners))
    try:
        t.see(sight(t.table.history[to]))
    finally:
        del t.table._reading


def _menu(t: StonesHarness) -> None:
    t.table.on_button(ButtonEvent("menu", "press"), t.now)


def _asks(t: StonesHarness, state: str) -> list[PlacedAsk]:
    return [ask_from_dict(e["ask"]) for e in t.events
            if e["event"] == "match" and e["state"] == state]


def _sent(t: StonesHarness) -> list[dict]:
    """What ``t``'s table sends again now (its last ``negotiation`` event)."""
    said = [e for e in t.events if e["event"] == "negotiation"]
    return said[-1]["messages"] if said else []


def _carry(src: StonesHarness, dst: StonesHarness) -> None:
    """What the link carries: every message ``src`` sends again, to ``dst``'s asks."""
    said = [e for e in src.events if e["event"] == "negotiation"]
    for message in said[-1]["messages"] if said else []:
        dst.table.solo.asking.received(dst.table, message)


def _journal(t: StonesHarness) -> list[tuple]:
    return [(e["t"], e.get("action"), e.get("to")) for e in t.table.journal.read().entries
            if e["t"] in ("action", "takeback")]


def _a_moves_and_b_makes_it(a: StonesHarness, b: StonesHarness):
    move = a.table.position.legal_actions()[0]
    a.see(sight(a.table.position.apply_action(move)))
    assert b.table.solo.offered(b.table, 0, move).startswith("lit for")
    b.table.ask_far_seat()
    b.see(sight(b.table.position.apply_action(move)))
    assert a.table.actions == b.table.actions == [move]
    return move


def test_a_takeback_is_asked_and_happens_at_both_tables_only_once_agreed(tmp_path):
    a, b = _tables(tmp_path)
    _a_moves_and_b_makes_it(a, b)
    _lift(a, 0)  # A lifts their stone off again
    assert a.table.offer is not None and a.table.actions  # offered, nothing undone yet
    a.press(B)  # the other seat's button at A's table means nothing in a match
    assert not _asks(a, "asked")
    a.press(A)  # the person's press asks the other table
    [ask] = _asks(a, "asked")
    assert ask.kind is AskKind.TAKEBACK and ask.to == 0 and len(a.table.actions) == 1
    _carry(a, b)
    assert "the other table (player A) asks to take back the last action" in _asks_words(b)
    b.press(B)  # B agrees: B's table waits for its pieces, and says which
    [agreed] = _asks(b, "agreed")
    assert agreed == ask and len(b.table.actions) == 1
    doing = b.table.turn.doing()
    made = a.table._done(a.table.actions[0], a.table.history[0])  # in words, as it was said
    # who made it, and where its pieces go (a walk: no player named, nor where the block went)
    assert doing.endswith(f"as agreed with the other table, take back the last action (player "
                          f"A {made}): put the pieces back as they stood before it")
    notation = b.table.history[0].action_to_string(b.table.actions[0])
    assert made != notation and f"take back {notation}" not in doing  # words, not notation
    b.see(sight(b.table.position))  # nothing lifted yet: a new move would be refused
    assert len(b.table.actions) == 1
    _lift(b, 0)  # B lifts the stone: taken back at B
    assert b.table.actions == [] and b.table.solo.asking.agreed == 1
    _carry(b, a)  # the answer reaches A
    assert a.table.actions == [] and a.table.solo.asking.agreed == 1
    assert _journal(a) == _journal(b)
    assert [e.get("agreed") for e in a.table.journal.read().entries if e["t"] == "takeback"] \
        == [True]
    # an action of the line taken back is not lit again; the new line's is
    old = b.table.history[0].legal_actions()[0]
    assert b.table.solo.offered(b.table, 0, old, agreed=0) == "taken back already"
    assert b.table.solo.offered(b.table, 0, old, agreed=2).startswith("waiting")
    _carry(b, a)  # a repeat changes nothing
    assert a.table.actions == [] and a.table.solo.asking.agreed == 1


def test_the_asker_who_lifted_its_pieces_plays_on_once_its_takeback_is_agreed(tmp_path):
    """A person lifts their last move off and presses: their table offers the takeback (a
    repair) and asks the other table. Once the other agrees, the takeback is done at the
    asker and the offer is gone with it: play goes on, with no "a piece came off ... press
    their button" left standing (the asker's page and LEDs kept it, and refused the next
    move, while the other table played on)."""
    a, b = _tables(tmp_path)
    _a_moves_and_b_makes_it(a, b)
    _lift(a, 0)
    assert a.table.state == TableState.repair and "came off" in a.table.problem
    a.press(A)
    _carry(a, b)
    b.press(B)
    _lift(b, 0)
    _carry(b, a)
    assert a.table.actions == [] and a.table.offer is None
    assert a.table.state == b.table.state == TableState.play, (a.table.problem,
                                                                b.table.problem)
    assert a.table.problem == ""


def test_the_move_of_a_line_taken_back_is_not_lit_again_at_the_other_table(tmp_path):
    """B made A's move as lit; A took it back, B agreed and lifted it off: B's table does
    not light that move again as the other table's next one (A has not made it again, and
    may make another), neither in its turn's words nor on its LEDs."""
    a, b = _tables(tmp_path)
    _a_moves_and_b_makes_it(a, b)
    _lift(a, 0)
    a.press(A)
    _carry(a, b)
    b.press(B)
    since = len(b.events)
    _lift(b, 0)
    assert b.table.actions == []
    assert not b.table.solo.asked
    assert not [e for e in b.events[since:] if e["event"] == "asked"]
    assert "make the other table's move" not in b.table.turn.doing()


def _asks_words(t: StonesHarness) -> str:
    return " ".join(e["message"] for e in t.events if e["event"] == "match")


def test_a_declined_takeback_changes_nothing_and_the_pieces_go_back(tmp_path):
    a, b = _tables(tmp_path)
    _a_moves_and_b_makes_it(a, b)
    _lift(a, 0)
    a.press(A)
    [ask] = _asks(a, "asked")
    _carry(a, b)
    _menu(b)  # B's menu button declines
    assert _asks(b, "declined") == [ask] and len(b.table.actions) == 1
    _carry(b, a)
    assert len(a.table.actions) == 1 and "declined" in _asks_words(a)
    assert not b.table.solo.on_takeback(b.table, 0)  # nothing agreed: no takeback at B


def test_a_pause_is_asked_and_both_pause_once_agreed(tmp_path):
    a, b = _tables(tmp_path)
    _menu(a)  # the menu button asks; A's table plays on until B agrees
    assert a.table.state == "play"
    [ask] = _asks(a, "asked")
    assert ask.kind is AskKind.PAUSE
    _carry(a, b)
    _carry(a, b)  # a repeat is offered once
    assert len(_asks(b, "offered")) == 1
    b.press(B)
    assert b.table.state == "paused"
    _carry(b, a)
    assert a.table.state == "paused"
    _carry(b, a)  # a repeat changes nothing
    assert len(_asks(a, "agreed")) == 1
    _menu(b)  # B asks to play on
    [resume] = _asks(b, "asked")
    assert resume.kind is AskKind.RESUME and b.table.state == "paused"
    _carry(b, a)
    a.press(A)
    _carry(a, b)
    assert a.table.state == b.table.state == "play"


def test_an_ask_that_comes_after_the_game_moved_on_lapses_at_both_tables(tmp_path):
    a, b = _tables(tmp_path)
    _a_moves_and_b_makes_it(a, b)
    b.see(sight(b.table.position.apply_action(b.table.position.legal_actions()[0])))
    _Service(a).do("end")  # before B's move reached A
    [end] = _asks(a, "asked")
    _carry(a, b)  # B moved past the place the end was asked at
    assert _asks(b, "lapsed") == [end] and not _asks(b, "offered")
    _carry(b, a)
    assert _asks(a, "lapsed") == [end] and a.table.solo.asking.mine is None
    said = [e["message"] for t in (a, b) for e in t.events if e["event"] == "match"
            and e["state"] == "lapsed"]
    assert said == ["the ask to end the game here (unfinished) lapsed: the game moved on since "
                    "it was asked"] * 2


def test_a_pause_agreed_one_action_apart_is_played_on_and_the_move_made(tmp_path):
    """A's move left before B's agreement to A's pause came back: A pauses one action past
    B. Both play on when asked (a pause is bound to the line, not the count), and B then
    makes A's move, which waited, lit, while B was paused."""
    a, b = _tables(tmp_path)
    _menu(a)
    _carry(a, b)
    b.press(B)  # B agrees: B pauses
    move = a.table.position.legal_actions()[0]
    a.see(sight(a.table.position.apply_action(move)))  # A moves: its pause not back yet
    assert b.table.solo.offered(b.table, 0, move).startswith("lit for")
    _carry(b, a)
    assert a.table.state == b.table.state == "paused"
    assert (len(a.table.actions), len(b.table.actions)) == (1, 0)
    _menu(b)  # B asks to play on, from one action behind
    _carry(b, a)
    assert _asks(a, "offered")[-1].kind is AskKind.RESUME
    a.press(A)
    _carry(a, b)
    assert a.table.state == b.table.state == "play"
    b.table.ask_far_seat()
    b.see(sight(b.table.position.apply_action(move)))
    assert _journal(a) == _journal(b) == [("action", a.table.record.action_to_dict(move), None)]
    assert a.table.state == b.table.state == "play"


def test_the_end_agreed_is_due_at_both_tables(tmp_path):
    a, b = _tables(tmp_path)
    a.table.solo.asking.propose(a.table, "end")
    [ask] = _asks(a, "asked")
    assert ask.words() == "end the game here (unfinished)" and not a.table.solo.asking.end_due
    _carry(a, b)
    b.table.solo.asking.answer(b.table, agree=True)
    assert b.table.solo.asking.end_due
    _carry(b, a)
    assert a.table.solo.asking.end_due


class _Service:
    """A stand-in service for the commands: its table, swapped for a fresh one at the end."""

    def __init__(self, t: StonesHarness) -> None:
        from firmware.service.command_runner import CommandRunner
        from firmware.service.table_maker import TableMaker
        from hardware.profile import load_profile

        self.t, self.table = t, t.table
        self.runner = CommandRunner(self, TableMaker(load_profile("sim"), t.journal,
                                                  solo=t.table.solo.solo))

    def swap_table(self, table, view_of, now: float) -> None:
        self.table = table

    def do(self, name: str, **fields) -> dict:
        from firmware.service.commands import parse

        said = self.runner.carry_out(parse(json.dumps({"command": name, **fields})),
                                       self.t.now)
        self.runner.follow_up(self.t.now)  # as the service's loop does after any input
        return said


def test_the_end_is_asked_by_command_and_both_tables_set_the_game_aside_once_agreed(tmp_path):
    import pytest

    from firmware.service.commands import CommandRefused

    a, b = _tables(tmp_path)
    _a_moves_and_b_makes_it(a, b)
    at_a, at_b = _Service(a), _Service(b)
    with pytest.raises(CommandRefused, match="the other table asks nothing now"):
        at_b.do("answer", agree=True)
    assert "asked the other table to end the game" in at_a.do("end")["message"]
    assert at_a.table is a.table and at_a.table.game_on()  # nothing ends before the answer
    at_b.do("negotiation", ask=_sent(a)[0])
    assert at_b.do("status")["can"]["answer"] is True
    at_b.do("answer", agree=True)
    assert at_b.table is not b.table and not at_b.table.started  # set aside, set up again
    for message in _sent(b):  # B's table is on the next game: its decision still comes
        at_a.do("negotiation", ask=message)
    assert at_a.table is not a.table and not at_a.table.started
    for seat in "AB":  # each table kept the game it set aside, its one action in it
        [kept] = (tmp_path / seat).glob("journal-*.jsonl")
        entries = [json.loads(line) for line in kept.read_text().splitlines()]
        assert [e["t"] for e in entries if e["t"] != "negotiation"] == ["start", "action",
                                                                        "ended"]
    assert at_a.table.solo.match == Match("derby", A)  # the match goes on, a game afresh
    assert at_b.table.solo.match == Match("derby", B)


def test_a_claim_needs_the_links_leave_and_sets_the_game_aside_at_both_tables(tmp_path):
    import pytest

    from firmware.service.commands import CommandRefused
    from firmware.store.history import SET_ASIDE

    a, b = _tables(tmp_path)
    _a_moves_and_b_makes_it(a, b)
    at_a, at_b = _Service(a), _Service(b)
    with pytest.raises(CommandRefused, match="claimed only in a match whose other table"):
        at_a.do("claim")  # B is there: nothing to claim
    assert at_a.do("status")["can"]["claim"] is False
    at_a.do("link", state="claimable", message="the other table has been out of touch")
    assert at_a.do("status")["can"]["claim"] is True
    at_a.do("link", state="linked", message="back")  # it came back: the offer is gone
    assert at_a.do("status")["can"]["claim"] is False
    at_a.do("link", state="claimable", message="out of touch again, long enough")
    assert "claimed by player A" in at_a.do("claim")["message"]
    assert at_a.table is not a.table and not at_a.table.started
    claimed = [e for e in a.events if e["event"] == "remote"]  # the fresh table's too
    assert claimed[-1]["state"] == "claimed"
    with pytest.raises(CommandRefused, match="no game of this match"):
        at_b.do("peer_claim", player="B")  # only the other seat's claim counts
    at_b.do("peer_claim", player="A")  # B's table back: A's claim reaches it
    assert at_b.table is not b.table
    for seat in "AB":
        [kept] = (tmp_path / seat).glob("journal-*.jsonl")
        ended = json.loads(kept.read_text().splitlines()[-1])
        assert ended == {"t": "ended", "how": "claim-A"}
    assert SET_ASIDE["claim-A"].startswith("claimed by player A")


def test_a_claim_drops_the_moves_the_absent_table_made_after_it(tmp_path):
    """B's link was down, but its player moved (B's table records without a network). A
    claimed at 1 action; B's move never reached A. B hears the claim with its place: its
    own later move is dropped before the game is set aside, so both keep the same game."""
    a, b = _tables(tmp_path)
    _a_moves_and_b_makes_it(a, b)
    b.see(sight(b.table.position.apply_action(b.table.position.legal_actions()[0])))
    assert len(b.table.actions) == 2  # made at B, out of touch: never sent
    at_a, at_b = _Service(a), _Service(b)
    at_a.do("link", state="claimable", message="out of touch long enough")
    at_a.do("claim")
    at_b.do("peer_claim", player="A", n=1, agreed=0)
    standing = []
    for seat in "AB":
        [kept] = (tmp_path / seat).glob("journal-*.jsonl")
        entries = [json.loads(line) for line in kept.read_text().splitlines()]
        assert entries[-1] == {"t": "ended", "how": "claim-A"}
        standing.append(GameEntries(kept, tuple(entries)).standing())
    assert standing[0] == standing[1] == 1
    dropped = [e for e in b.events if e["event"] == "takeback"]
    assert headline(dropped[-1]) == ("1 action dropped: the other table claimed the game "
                                     "before them")


def test_every_ask_and_answer_is_said_in_words_at_both_tables(tmp_path):
    """What happened, at either table, says the ask and its answer in words: never the ask's
    fields as a dict (the page and the terminal both read ``headline``)."""
    from firmware.readers.terminal.screen import headline

    a, b = _tables(tmp_path)
    _menu(a)
    _carry(a, b)
    b.press(B)
    _carry(b, a)
    said = {t: [headline(e) for e in t.events if e["event"] == "match"] for t in (a, b)}
    assert said[a] == ["the match: asked the other table to pause the game: it happens when "
                       "its player agrees", "the match: the other table agreed to pause the game"]
    assert said[b][0].startswith("the match: the other table (player A) asks to pause the game")
    assert said[b][1] == "the match: the other table's ask to pause the game was agreed"
    assert not any("{" in line or "'kind'" in line for lines in said.values() for line in lines)


def test_a_takeback_confirmed_on_the_page_in_a_match_says_it_asked_the_other_table(tmp_path):
    a, b = _tables(tmp_path)
    _a_moves_and_b_makes_it(a, b)
    _lift(a, 0)
    answer = _Service(a).do("takeback", player="A")
    assert answer["ok"], answer
    [ask] = _asks(a, "asked")
    assert ask.kind is AskKind.TAKEBACK
    assert "the other table" in answer["message"], answer
    assert "the other owner confirms" not in answer["message"]  # no owner here to press


def test_a_takeback_asked_ahead_of_the_other_table_is_offered_once_it_catches_up(tmp_path):
    """Issue 47: A took back a move B had not made yet; B held the ask, and offers it once
    it stands where it was asked (today's B judged it stale and dropped it for good)."""
    a, b = _tables(tmp_path)
    move = a.table.position.legal_actions()[0]
    a.see(sight(a.table.position.apply_action(move)))
    _lift(a, 0)
    a.press(A)  # asked before B made A's move
    [ask] = _asks(a, "asked")
    _carry(a, b)
    assert not _asks(b, "offered") and not _asks(b, "lapsed")  # it waits at B
    assert b.table.solo.offered(b.table, 0, move).startswith("lit for")
    b.table.ask_far_seat()
    b.see(sight(b.table.position.apply_action(move)))  # B catches up
    assert _asks(b, "offered") == [ask]
    b.press(B)
    _lift(b, 0)
    _carry(b, a)
    assert a.table.actions == b.table.actions == []
    assert _journal(a) == _journal(b) == [("action", a.table.record.action_to_dict(move), None),
                                          ("takeback", None, 0)]


def test_the_end_agreed_while_the_askers_link_is_away_reaches_it_from_the_next_game(tmp_path):
    """Issue 47: B agreed to A's end and set up the match's next game while nothing reached
    A; B still sends its decision (it is in B's journal), and A adopts it then."""
    a, b = _tables(tmp_path)
    _a_moves_and_b_makes_it(a, b)
    at_a, at_b = _Service(a), _Service(b)
    at_a.do("end")
    at_b.do("negotiation", ask=_sent(a)[0])
    at_b.do("answer", agree=True)  # what B sent now is lost: A's link is away
    assert at_b.table is not b.table and at_b.table.solo.asking.game == 2
    kept = [e for e in json.loads("[" + ",".join((tmp_path / "B").glob(
        "journal-*.jsonl").__next__().read_text().splitlines()) + "]")
        if e["t"] == "negotiation"]
    assert [e["m"] for e in kept] == ["decided"] and kept[0]["outcome"] == "agreed"
    [standing] = [e for e in at_b.table.solo.standing(at_b.table)
                  if e["event"] == "negotiation"]  # what B's link sends on (re)connection
    for message in standing["messages"]:
        at_a.do("negotiation", ask=message)
    assert at_a.table is not a.table and at_a.table.solo.asking.game == 2
    assert not at_a.table.started and not at_b.table.started  # both on the next game
    said = [e["message"] for e in a.events if e["event"] == "notice"]  # (the fresh table's)
    assert said[-1].endswith("; game 2 of the match is set up: set out the pieces and press "
                             "a player button, as the other table does")  # (a walk: nothing
    # on either page said the match goes on)
    assert [e["message"] for e in a.events if e["event"] == "match"][-1] == \
        "the other table agreed to end the game here (unfinished)"
    for message in _sent(a):  # A's acknowledgement: B need not send its decision again
        at_b.do("negotiation", ask=message)
    assert not at_b.table.solo.asking.negotiation.made


def test_a_table_restarted_from_its_journal_keeps_its_asks_and_decisions(tmp_path):
    """After a restart each table rebuilds its side of the asks from its journal: the asker
    still waits for its ask, the answerer still sends its decision, and the asker adopts it
    once (the game number kept in the start entry too)."""
    from firmware.seats.seating import seated
    from firmware.store.journal import Journal

    a, b = _tables(tmp_path)
    _a_moves_and_b_makes_it(a, b)
    _menu(a)
    _carry(a, b)
    b.press(B)  # B agrees and pauses; nothing reached A yet
    assert b.table.state == "paused" and a.table.state == "play"
    start = b.table.journal.read().entries[0]
    assert start["remote"] == {"match": "derby", "seat": "B", "game": 1}

    def restarted(t: StonesHarness, seat: Player) -> MatchSeat:
        again = seated(Journal(t.table.journal.dir), "stones",
                       MatchSeat(Match("derby", seat), "stones"))
        assert isinstance(again, MatchSeat) and again.asking.game == 1
        return again

    at_b, at_a = restarted(b, B).asking, restarted(a, A).asking
    [asked] = _asks(a, "asked")
    assert at_a.mine == asked and at_a.negotiation.numbered == (1, 1)
    [decision] = at_b.negotiation.made
    assert decision.ask == asked and decision.outcome.value == "agreed"
    for message in at_b.again():  # what B's restarted table sends again
        a.table.solo.asking.received(a.table, message)
    assert a.table.state == "paused" and len(_asks(a, "agreed")) == 1
    for message in at_b.again():  # and again: adopted once
        a.table.solo.asking.received(a.table, message)
    assert len(_asks(a, "agreed")) == 1


def test_what_the_asks_send_again_is_for_the_link_only(tmp_path):
    """The ``negotiation`` event carries the protocol's messages to the link: no line of it
    reaches a person (the terminal, the page's What happened, the logs, the club)."""
    from firmware.core.events import QUIET
    from firmware.readers.terminal.screen import headline

    a, _ = _tables(tmp_path)
    _menu(a)
    said = [e for e in a.events if e["event"] == "negotiation"]
    assert said and said[-1]["messages"][0]["m"] == "asked"
    assert all(headline(e) == "" for e in said) and "negotiation" in QUIET


def test_while_the_other_tables_move_has_not_come_the_turn_speaks_to_the_person_here(tmp_path):
    """The turn line is for the person at this table: while the other table's player is to
    move and nothing has come, it says so (it once told the absent player to lift a stone)."""
    a, b = _tables(tmp_path)
    _a_moves_and_b_makes_it(a, b)  # now B is to move, at both tables
    turns = [e for e in a.events if e["event"] == "turn"]
    assert turns[-1]["player"] == "B"
    assert turns[-1]["doing"] == ("the other table is to move: its move is lit here when it "
                                  "comes, for you to make with the pieces")
    assert b.table.turn.doing() == b.table._phase_words()  # at B's table: B's own words


def test_a_table_whose_end_or_takeback_waits_makes_no_move_of_its_own_meanwhile(tmp_path):
    """A move made while the person's own end (or takeback) waits could end the game here
    while the other table agrees to undo it: the two would part ways for good. So the table
    refuses it in words until the answer comes; the other table's moves still count."""
    a, b = _tables(tmp_path)
    _Service(a).do("end")
    move = a.table.position.legal_actions()[0]
    a.see(sight(a.table.position.apply_action(move)))
    assert a.table.actions == []
    assert a.table.problem.startswith("you asked the other table to end the game here "
                                      "(unfinished): wait for its answer before you move")
    assert a.table.solo.next_game_held(a.table) == (
        "the next game is set up once the other table has answered your ask to end the game "
        "here (unfinished): press again then")
    _carry(a, b)
    _menu(b)  # B's player declines with the menu button
    _carry(b, a)
    assert a.table.solo.asking.mine is None and a.table.solo.next_game_held(a.table) == ""
    a.see(sight(a.table.position))  # the piece put back as it was: the refusal is over
    a.see(sight(a.table.position.apply_action(move)))
    assert a.table.actions == [move]


def test_once_the_person_asked_for_a_takeback_the_table_no_longer_asks_them_to_press(tmp_path):
    """A person's walk: after B pressed, B's table still said "a piece came off: player B may
    press their button to take it back" beside "asked the other table"."""
    a, b = _tables(tmp_path)
    _a_moves_and_b_makes_it(a, b)
    _lift(a, 0)
    assert "may press their button" in a.table.problem
    a.press(A)
    assert a.table.problem == "leave the pieces off until the other table answers"
    _carry(a, b)
    b.press(B)
    _lift(b, 0)
    _carry(b, a)
    assert a.table.actions == b.table.actions == [] and a.table.problem == ""


def test_a_takeback_on_offer_in_a_match_says_the_other_table_decides(tmp_path):
    """A walk: "player A may take back 1 action: each presses their button to agree" at A,
    whose other player is at the other table."""
    a, b = _tables(tmp_path)
    _a_moves_and_b_makes_it(a, b)
    _lift(a, 0)
    [offer] = [e for e in a.events if e["event"] == "offer"]
    assert headline(offer) == ("player A may take back 1 action: a press of their button asks "
                               "the other table")


def test_while_an_ask_waits_the_controls_offer_only_its_answer(tmp_path):
    """A person's walk through a match saw Pause, Resume and End offered while an ask waited,
    and 'Resume' beside 'Agree' while play on was asked: each would only be refused, or ask
    again what was asked. While an ask of either table waits, the asker is offered none of
    them and the other table only Agree and Decline; once it is decided they come back."""
    a, b = _tables(tmp_path)
    _a_moves_and_b_makes_it(a, b)
    at_a, at_b = _Service(a), _Service(b)
    assert at_a.do("status")["can"]["pause"] and at_a.do("status")["can"]["end"]
    at_a.do("pause")
    at_b.do("negotiation", ask=_sent(a)[0])
    for service, answer in ((at_a, False), (at_b, True)):
        can = service.do("status")["can"]
        offered = {k for k in ("pause", "resume", "end", "answer") if can[k]}
        assert offered == ({"answer"} if answer else set()), (service, can)
    at_b.do("answer", agree=True)  # paused at B; A hears it
    for message in _sent(b):
        at_a.do("negotiation", ask=message)
    for service in (at_a, at_b):
        can = service.do("status")["can"]
        assert can["resume"] and not can["pause"] and not can["answer"], can
    at_b.do("resume")  # play on asked by B: A is offered its answer, not Resume beside it
    for message in _sent(b):
        at_a.do("negotiation", ask=message)
    can = at_a.do("status")["can"]
    assert can["answer"] and not can["resume"] and not can["end"], can

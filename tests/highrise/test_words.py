"""High Rise in the rules' words: each player's pieces counted by size, and alone against the
computer the size it asks for said beside its ring while a wrong one is refused."""

from __future__ import annotations

import pytest

from firmware.games import GAMES


@pytest.mark.parametrize(("size", "small", "medium", "large"), [((3, 3), 5, 10, 10),
                                                                 ((5, 5), 20, 25, 25)])
def test_the_high_rise_rules_count_each_players_pieces_by_size(size, small, medium, large):
    """"2 stashes of their own colours with five small pieces set aside: ...; 25 pieces in
    all": the sheet says plainly how many pyramids of each size a player has (as
    docs/playing.md and the set: a stash's small pyramids less one of each colour)."""
    from engine.highrise.game import HighriseGame, HighriseOptions

    game = HighriseGame(HighriseOptions(rows=size[0], cols=size[1]))
    sheet = " ".join(GAMES["highrise"].rules_text(game).split())
    total = small + medium + large
    assert (f"Each player has {total} pyramids in their own colours: {small} small (1 pip), "
            f"{medium} medium (2 pips) and {large} large (3 pips).") in sheet, sheet
    assert "set aside:" not in sheet and "pieces in all" not in sheet


def test_high_rise_alone_a_wrong_size_is_refused_and_the_asked_size_stays_said(tmp_path):
    """A pyramid of another size on the square the computer asked for is refused; the ring
    keeps showing the size asked for, and the page's line under the ring keeps saying it in
    words ("the ring shows a small pyramid (1 pip)") while the refusal shows.
    The refusal, which every reader of the table gets (the log, a club's broker), names the
    square and how the ring shows the size, never the size: which went where stays hidden."""
    from engine.core import counted, square_name
    from engine.highrise.game import Size
    from firmware.core import palette

    t = _high_rise_alone(tmp_path)
    wanted = t.table.solo.asked[0]
    square = square_name(wanted.square)
    wrong = next(s for s in Size if s is not wanted.size)
    t.put(t.table.position.index(wanted.square), wrong)
    assert t.table.state == "repair"
    refusal = t.events[-1]
    assert refusal["event"] == "refused", refusal
    message = refusal["message"]
    assert "the computer asked for" in message and square in message, message
    legend = "(a third of the ring lit: small, two thirds: medium, all of it: large)"
    assert legend in message, message
    assert not any(s.label in message.replace(legend, "") for s in Size), message
    frame = t.table.led_frame(t.now, 16)
    lit = sum(frame[("ring", "B", i)] == palette.ASK for i in range(16))
    assert lit == -(-16 * wanted.size.value // 3)  # the ring still shows the size asked
    t.table.tell_lights(frame)
    ring = next(s for s in t.events[-1]["strips"] if s["strip"] == "ring" and s["owner"] == "B")
    size = wanted.size
    assert ring.get("says") == (f"the ring shows a {size.label} pyramid "
                                f"({counted(size.value, 'pip')})")
    assert ring.get("piece") == size.label  # as a value too, for the page's hands to choose
    person = next(s for s in t.events[-1]["strips"] if s["strip"] == "ring" and s["owner"] == "A")
    assert "piece" not in person and "says" not in person


def test_high_rise_alone_a_pyramid_on_another_square_is_refused_naming_both(tmp_path):
    """A newcomer set a pyramid on c3 while the computer asked for b2, and read "this is not
    the pyramid the computer asked for on b2: take it off": off b2, where nothing stood.
    The refusal names the square it was put on and the one asked for."""
    from engine.core import square_name

    t = _high_rise_alone(tmp_path)
    wanted = t.table.solo.asked[0]
    other = next(a for a in t.table.position.legal_actions() if a.square != wanted.square)
    t.put(t.table.position.index(other.square), other.size)
    assert t.table.state == "repair"
    message = t.events[-1]["message"]
    put, asked = square_name(other.square), square_name(wanted.square)
    assert f"asked for a pyramid on {asked}, not on {put}: take it off {put}" in message, \
        message


def _high_rise_alone(tmp_path):
    """High Rise against the computer (it plays B), the computer's first pyramid asked."""
    from engine.players import Player
    from firmware.seats.solo import Computer, Solo
    from tests.support.tables import HighriseHarness as Table

    t = Table(tmp_path)
    t.table.solo = Computer(Solo(Player.B, 1), "highrise")
    t.covers()
    if t.table.position.to_play is Player.A:
        t.put(4, t.table.position.legal_actions()[0].size)
    assert t.table.solo.asked
    return t

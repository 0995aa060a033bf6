"""A settled view's meaning is worked out once: the short settle window asks the game's
``_reading`` as the view arrives, and the decision takes what that found (the core keeps
it, ``Table._meaning``), so a sure move costs one reading, not two."""

from __future__ import annotations

from collections import Counter

from engine.stones.sensing import sight
from tests.support.tables import StonesHarness


def _counted(table) -> Counter:
    """Count the game's ``_reading`` of each view, on this table alone."""
    calls: Counter = Counter()
    reading = table._reading

    def counting(view):
        calls[view] += 1
        return reading(view)

    table._reading = counting
    return calls


def test_each_settled_view_is_read_once(tmp_path):
    h = StonesHarness(tmp_path).started()
    calls = _counted(h.table)
    decided = []
    decide = h.table._decide
    h.table._decide = lambda view, now: (decided.append(view), decide(view, now))
    for _ in range(6):
        move = h.pos.legal_actions()[0]
        h.see(sight(h.pos.apply_action(move)))
        assert h.table.actions[-1] == move  # the sure move was played
    assert len(decided) == 6
    assert [calls[view] for view in decided] == [1] * 6, calls


def test_a_refused_view_is_read_once_too(tmp_path):
    h = StonesHarness(tmp_path).started()
    calls = _counted(h.table)
    first, second = h.pos.legal_actions()[:2]
    both = sight(h.pos.apply_action(first)).squares | sight(h.pos.apply_action(second)).squares
    h.see(both)  # two stones at once: nothing legal, waited out in full and refused
    assert h.table.state == "repair"
    assert list(calls.values()) == [1], calls

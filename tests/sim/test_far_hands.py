"""The demo's hand for a far seat (the computer, the other table) makes each move it reads
off the LEDs once: a towers block wholly above the rods, made while the table still read
the zone pads, was made again 10 ms later on top of itself, then again, until it floated
("it floats 2 levels above the tower") and the demo of a whole remote match stopped."""

from __future__ import annotations

from types import SimpleNamespace

from firmware.sim import far_hands
from firmware.sim.far_hands import SoloPlayers


class Rules:
    """A far seat's rules: the move its LEDs show, and what the hand did of it."""

    def __init__(self) -> None:
        self.move = ("place it above the rods",)
        self.hands: list = []
        self.agains: list = []

    def shown(self, players, table):
        return self.move

    def notation(self, pos, actions):
        return actions[0]

    def hand(self, players, table, actions):
        self.hands.append(actions)

    def again(self, players, table, actions):
        self.agains.append(actions)


def _playing(rules: Rules):
    table = SimpleNamespace(state="play", position=object(), chooser=None,
                            solo=SimpleNamespace(rules=rules, seat="A"))
    return table, SoloPlayers(SimpleNamespace(act=lambda: None), table)  # the bots: idle


def test_a_move_made_is_not_made_again_while_the_table_has_not_taken_it(monkeypatch):
    rules = Rules()
    table, hand = _playing(rules)
    now = [100.0]
    monkeypatch.setattr(far_hands.time, "monotonic", lambda: now[0])
    hand.act()
    made = rules.move
    rules.move = ("the same, one level up",)  # the LEDs read against the tower as it stands
    hand.act()  # 10 ms on: the table has not taken it yet
    assert rules.hands == [made] and rules.agains == []
    now[0] += far_hands.AGAIN_S + 0.1  # a while on, still not taken: press again, once
    hand.act()
    hand.act()
    assert rules.hands == [made] and rules.agains == [made]
    table.position = object()  # taken: the next move shown is made
    rules.move = ("the next",)
    hand.act()
    assert rules.hands == [made, ("the next",)]
    table.state = "repair"  # refused: once put right, it is made again
    hand.act()
    table.state = "play"
    hand.act()
    assert rules.hands == [made, ("the next",), ("the next",)]

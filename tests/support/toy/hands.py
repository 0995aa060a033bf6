"""A person's hands on the toy's board: five stones for A, four for B, put on squares.

The pieces-on-squares hands every square board shares (``firmware.sim.hands``)
do it all, and the page draws them with the panel for pieces on squares
(the declaration's default ``hands_page``).
"""

from __future__ import annotations

from firmware.sim.hands import SquareHands


class Hands(SquareHands):
    PIECES = (*(f"A {n}" for n in range(1, 6)), *(f"B {n}" for n in range(1, 5)))

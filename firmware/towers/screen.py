"""The towers table in text, from the public observation."""

from __future__ import annotations

from engine.towers.blocks import WIDTH, Colour
from engine.towers.tower import LEVELS

_LETTERS = {c.label: c.letter for c in Colour}


def draw(seen: dict) -> str:
    """Both towers side by side, the turn, the pile, the zone and the hands, the scores."""
    left, right = (_tower(seen["towers"][p]) for p in "AB")
    tall = max(len(left), len(right))  # one tower may reach over the top
    left, right = ([""] * (tall - len(t)) + t for t in (left, right))
    width = max(len(line) for line in left)
    pile = ", ".join(f"{n} {colour}" for colour, n in seen["pile"].items()) or "empty"
    zone = ", ".join(_block(b) for b in seen["zone"]) or "empty"
    hands = "; ".join(f"{p} holds the {_block(b)}" for p, b in seen["hands"].items() if b)
    scores, penalties = seen["scores"], seen["penalties"]
    over = "".join(f", {p} -{n} over the top" for p, n in penalties.items() if n)
    return "\n".join([
        _phase(seen),
        f"pile: {pile}; black blocks left: {seen['blacks_left']}",
        f"zone: {zone}" + (f"; {hands}" if hands else ""),
        f"{'tower A':<{width}}   tower B",
        *(f"{a:<{width}}   {b}" for a, b in zip(left, right, strict=True)),
        f"score A {scores['A']}, B {scores['B']}{over}",
    ])


def _block(block: dict) -> str:
    """A block as the table can tell it: its colour (``green block``); the wooden blocks
    carry no labels, and the pads weigh only a block's colour."""
    return f"{block['colour']} block"


def _phase(seen: dict) -> str:
    """What the table waits for, in a line."""
    active = seen["active"]
    passive = "B" if active == "A" else "A"
    turn = f"turn {seen['turn']}: "
    match seen["phase"]:
        case "choose":
            return turn + f"player {active} chooses blocks for the zone ({len(seen['zone'])} of 2)"
        case "take":
            return turn + f"player {passive} takes one of the two zone blocks"
        case "place":
            return turn + " and ".join(f"player {p} places the {_block(seen['hands'][p])}"
                                       for p in seen["to_move"])
        case "bonus":
            who = " and ".join(f"player {p}" for p in seen["bonus"])
            return turn + f"{who} may put a black block on the other tower (flat bonus)"
        case "over":
            return "the game is over"
        case phase:
            return turn + phase


def _tower(blocks: list[dict]) -> list[str]:
    """A tower from the side, level by level, each level's rows 3, 2, 1 (^: over the top)."""
    letter = {tuple(cell): _LETTERS[b["colour"]] for b in blocks for cell in b["cells"]}
    top = max([LEVELS, *(z + 1 for _, _, z in letter)])
    lines = []
    for z in reversed(range(top)):
        rows = ("".join(letter.get((x, y, z), ".") for x in range(WIDTH))
                for y in reversed(range(WIDTH)))
        lines.append(f"{z + 1:>2}{'^' if z >= LEVELS else ' '} " + " ".join(rows))
    lines.append("     " + " ".join(f"r{y + 1} " for y in reversed(range(WIDTH))))
    return lines

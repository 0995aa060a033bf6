"""Whether the lines a page shows still hold, by rules against the table's state as its events say.

``RECORD`` is installed in a page: after each event the page handles, it keeps the event
and every line the page then shows (the turn line, what is wrong, the notice, the status,
the answer under Run the table's buttons, the hands' prompt, the newest lines of What
happened). ``contradictions`` replays those events into ``Truth`` (whose turn, paused,
over, what was refused, what the computer asked, where the maze's obelisk stands) and
names every shown line a rule finds untrue after a step the page drew as it came (a
backlog is drawn once it is all in). The rules are explicit and each can fail: on the
code before issue 48's point 3, the demo pages of all four games and
``tests/browser/test_true_lines.py`` fail on them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

LOOK = """(() => {
  const visible = (id) => {
    const el = document.getElementById(id);
    return Boolean(el) && !el.closest("[hidden]");
  };
  const text = (id) => (visible(id) ? document.getElementById(id).textContent : "");
  return () => ({
    turn: text("turn"),
    problem: visible("problem") ? text("problem-text") : "",
    notice: text("notice"),
    status: text("status"),
    said: text("controls-said"),
    hands: [...document.querySelectorAll("#hands:not([hidden]) .hands-held")]
      .map((el) => el.textContent),
    log: [...document.querySelectorAll("#log li")].slice(0, 3).map((li) => li.textContent),
  });
})()"""
"""A function that gives every line a page shows now: the turn line, what is wrong, the
notice, the status, the answer under Run the table's buttons, the hands' prompt, the newest
lines of What happened."""

RECORD = f"""() => {{
  // every line the page shows after each event it handled, kept as it happens
  window.shownAfter = [];
  const look = {LOOK};
  // installed in a page already loaded, its table's backlog is in: what comes is live
  let live = document.readyState === "complete";
  // a page that lost its server draws what it missed once it is all in (app.js): the lines
  // are judged again from its next "live" on
  const watch = () => {{
    const status = document.getElementById("status");
    new MutationObserver(() => {{
      if (status.textContent.includes("lost its server")) live = false;
    }}).observe(status, {{ childList: true, characterData: true, subtree: true }});
  }};
  if (document.getElementById("status")) watch();
  else document.addEventListener("DOMContentLoaded", watch);
  window.addEventListener("obelisk:event", (e) => {{
    const event = e.detail;
    if (event.event === "live") live = true;
    // after the page's own handling and drawing of this event, before the next one
    // (every event, for the table's state; only those drawn as they came are judged)
    const drawn = live;
    queueMicrotask(() => {{ window.shownAfter.push({{ event, live: drawn, shown: look() }}); }});
  }});
}}"""
"""Installed in a page (``page.evaluate``, or an init script: ``f"({RECORD})()"``) before its
table's events come."""

ASKS_A_MOVE = re.compile(
    r"\b(click a (stone|square|block)|put (a|an|the|one|segment|it|two)|move the|make the "
    r"computer's move|place the|stand a wall|take (the|one)|lift (it|the|one))\b")
"""Words that ask a person for a move: no line says them once the game is over."""

AWAY = ("no table is running", "out of reach", "did not answer", "lost its server",
        "the table has stopped", "lost the table")
"""Words of a line about a connection that is not there."""

OFF = re.compile(r"the obelisk is off ([a-h][1-8])")

FOLLOW_UPS = frozenset({"turn", "lights", "timer", "offer", "asked", "game_over", "reveal"})
"""Events a table tells with the one before, in the same step (an action, then the next
turn's words and lights, or the end): the lines are judged once the step is told."""


def lines_now(page: Any) -> dict:
    """What ``page`` shows now, as ``RECORD`` keeps it after an event."""
    return page.evaluate(f"() => {LOOK}()")


def recorded(page: Any) -> list[dict]:
    """Each event the page handled, with the lines it showed after it and whether it drew
    them as the event came (``live``; a backlog is drawn once it is all in)."""
    return page.evaluate("() => window.shownAfter")


@dataclass
class Truth:
    """The table's state as its events so far say it."""

    names: dict[str, str] = field(default_factory=dict)
    machine: str = ""
    turn: str | None = None
    doing: str = ""
    paused: bool = False
    over: str = ""  # the outcome's words, once the game is over
    refused: str = ""  # the refusal standing, if any
    asked: str = ""  # the computer's (or other table's) move asked, in its words
    obelisk: str | None = None  # the maze: the obelisk's square in the game
    read_since_turn: bool = False  # a refusal or an action since the turn was last said

    def take(self, e: dict) -> None:
        kind = e["event"]
        obs = e.get("observation")
        if isinstance(obs, dict) and "obelisk" in obs:
            self.obelisk = obs["obelisk"]
        handler = getattr(self, f"_on_{kind}", None)
        if handler is not None:
            handler(e)

    def _fresh(self) -> None:
        self.refused = self.asked = self.over = ""
        self.paused = self.read_since_turn = False

    def _on_table(self, e: dict) -> None:
        self._fresh()
        self.names = e["players"]
        self.machine, self.turn, self.doing = e["state"], e["turn"], e["doing"]
        self.refused = e["problem"] if e["state"] == "repair" else ""
        self.over = "over" if e["state"] == "over" else ""

    def _on_start(self, e: dict) -> None:
        self._fresh()
        self.names = e["players"]
        self.machine, self.turn = "play", e["first"]

    def _on_setup(self, e: dict) -> None:
        self.machine = "setup"

    def _on_turn(self, e: dict) -> None:
        self.turn, self.doing, self.read_since_turn = e["player"], e["doing"], False

    def _on_accepted(self, e: dict) -> None:
        self.refused = self.asked = ""
        self.read_since_turn = True
        self.machine = "play"

    def _on_takeback(self, e: dict) -> None:
        self._on_accepted(e)

    def _on_refused(self, e: dict) -> None:
        self.refused, self.machine, self.read_since_turn = e["message"], "repair", True

    def _on_repaired(self, e: dict) -> None:
        self.refused, self.machine = "", "play"

    def _on_pause(self, e: dict) -> None:
        self.paused = e["state"] == "paused"

    def _on_asked(self, e: dict) -> None:
        self.asked = e["text"]

    def _on_game_over(self, e: dict) -> None:
        self.over, self.machine, self.turn = e["outcome"]["words"], "over", None
        self.refused = self.asked = ""

    def name(self, seat: str) -> str:
        return self.names.get(seat, f"player {seat}")

    def bare(self, seat: str) -> str:
        """The seat's name as the turn line says it: without the computer's mark, which
        its card carries ("player B (computer, level 1)" is "player B" there)."""
        return re.sub(r" \([^)]*\)$", "", self.name(seat))


def _clauses(words: str) -> list[str]:
    """The parts of a line a person reads as one thing each (long enough to be telling)."""
    return [c.strip() for c in re.split(r"[;:]", words) if len(c.strip()) >= 25]


def _over(truth: Truth, shown: dict) -> list[str]:
    """Over: the turn line gives the result; no line asks for a move (the hands' prompt,
    drawn once they have looked at the table again, is judged by ``asks_a_move`` once they
    have)."""
    out = []
    if truth.over != "over" and not shown["turn"].startswith(truth.over):
        out.append(f"over, yet the turn line does not give the result: {shown['turn']!r}")
    for what in ("turn", "notice", "problem"):
        if ASKS_A_MOVE.search(shown[what]):
            out.append(f"over, yet the {what} line asks for a move: {shown[what]!r}")
    return out


def _playing(truth: Truth, shown: dict) -> list[str]:
    """Paused: the turn line says so, and asks for no move; else it names whose turn it is
    and says what the table told, and a refusal or the notice does not say it again."""
    if truth.paused:
        out = [] if shown["turn"].startswith("paused") else [
            f"paused, yet the turn line says {shown['turn']!r}"]
        out += [f"paused, yet the {what} line asks for a move: {shown[what]!r}"
                for what in ("turn", "notice") if ASKS_A_MOVE.search(shown[what])]
        return out
    out = []
    if truth.turn and not shown["turn"].startswith(f"{truth.bare(truth.turn)}: "):
        out.append(f"{truth.name(truth.turn)}'s turn, yet the turn line says {shown['turn']!r}")
    for said in ("problem", "notice"):
        repeated = [c for c in _clauses(shown["turn"]) if c in shown[said]]
        if repeated:
            out.append(f"the {said} line says the turn line again ({repeated[0]!r}): "
                       f"{shown[said]!r}")
    if truth.asked and truth.asked in shown["problem"]:
        out.append(f"the refusal says the asked move again: {shown['problem']!r}")
    return out


def _places(truth: Truth, shown: dict) -> list[str]:
    """A line naming where the maze's obelisk is off names where it stands now, and only
    while the table reads it lifted (a refusal or a move since: the table read it put down)."""
    out = []
    for what in ("turn", "notice", "problem"):
        for square in OFF.findall(shown[what]):
            if square != truth.obelisk:
                out.append(f"the {what} line says the obelisk is off {square}; it stands on "
                           f"{truth.obelisk} in the game")
            elif truth.read_since_turn and what == "turn":
                out.append(f"the turn line says the obelisk is off {square}, said before the "
                           "table read it put down")
    return out


def _connection(shown: dict) -> list[str]:
    """While the table's events come, no line says that it or the page's server is away."""
    return [f"the table runs, yet the {what} says {shown[what]!r}" for what in ("status", "said")
            if any(words in shown[what] for words in AWAY)]


def contradictions(records: list[dict], skip: tuple[str, ...] = ()) -> list[str]:
    """Every shown line the rules find untrue after the step of the table it followed (an
    event and its ``FOLLOW_UPS``; ``skip``: rules left out, by name: ``over``, ``playing``,
    ``places``, ``connection``)."""
    truth = Truth()
    found: list[str] = []
    for n, record in enumerate(records):
        event, shown = record["event"], record["shown"]
        truth.take(event)
        following = records[n + 1]["event"]["event"] if n + 1 < len(records) else ""
        if not record["live"] or event["event"] in ("absent", "live") \
                or following in FOLLOW_UPS:
            continue
        rules: list[tuple[str, list[str]]] = [("places", _places(truth, shown))]
        if truth.over:
            rules.append(("over", _over(truth, shown)))
        elif truth.machine in ("play", "repair", "choose"):
            rules.append(("playing", _playing(truth, shown)))
        if event["event"] != "table":  # (the answer under the buttons is the next poll's)
            rules.append(("connection", _connection({**shown, "said": ""})))
        found += [f"after event {n} ({event['event']}): {line}" for rule, lines in rules
                  if rule not in skip for line in lines]
    return found


def stale_connection(shown: dict) -> list[str]:
    """The lines about a connection, once the table answers again (the buttons drawn)."""
    return _connection(shown)


def asks_a_move(shown: dict) -> list[str]:
    """The lines that ask for a move (none may, once a game is over)."""
    lines = [shown["turn"], shown["notice"], shown["problem"], *shown["hands"]]
    return [line for line in lines if ASKS_A_MOVE.search(line)]

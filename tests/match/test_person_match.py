"""A person's whole match by docs/clubs.md: two ``obelisk play towers`` tables on one machine
through a local mosquitto, each driven only as its person drives it.

Towers, because it is the flagship and has takebacks (stones and High Rise have none; the
maze has one too, but its walls are turned by presses that make a longer script). Each
table is the recipe's command with its own ``--state-dir`` and ``--port``; its person
acts only through what the page itself sends: the PIN (``POST /session``), the hands
panel's acts and the table's buttons (``POST /hands``), and the controls (``POST
/control/<command>``: Pause, Resume, Agree and Decline, End the game). What each table
tells (its event stream, its status, its journal) is only read, to check after every step
that the two tables agree: the same actions and takebacks in both journals, the same
state, and no ask left pending at either.

The match: both start; moves each way, the other table's move made at each table once it
is lit there; a takeback asked at one table and agreed at the other; a pause asked and
agreed, then play on asked and agreed; one ``obelisk play`` stopped with Ctrl-C and typed
again; more moves; the end asked and agreed, after which ``obelisk games`` says the same at
both.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from firmware.service.pin import read_pin
from tests.support.broker import Mosquitto
from tests.support.http import Phone
from tests.support.person import Follow, lower_plan, plan
from tests.support.play import Play
from tests.support.processes import OBELISK, free_port, until

pytestmark = [pytest.mark.broker, pytest.mark.processes]

WAIT_S = 60.0
"""How long one step may take on a busy 2-core machine (a move crossing, a restart)."""
END_S = 30.0
"""How long both tables may take to set the game aside once its end is agreed (an answer
crosses in about a second: the other asks of the match cross in that time)."""
ASKING = ("asked", "offered")
"""A ``match`` event's states that leave an ask pending until it is answered."""


def _journal(where: Path) -> list[dict]:
    path = where / "journal.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _played(where: Path) -> list[dict]:
    """The journal's entries the two tables must hold alike: the actions, takebacks and the
    end (the start names its own seat, and the asks' records are each table's own side)."""
    return [e for e in _journal(where) if e.get("t") not in ("negotiation", "start")]


def _standing(where: Path) -> list[dict]:
    """The actions the game stands on: the journal's, less those taken back."""
    actions: list[dict] = []
    for entry in _journal(where):
        if entry.get("t") == "action":
            actions.append(entry["action"])
        elif entry.get("t") == "takeback":
            del actions[entry["to"]:]
    return actions


class Seat:
    """One table of the match and the person at it: the command as docs/clubs.md types it,
    the page's requests as its person sends them (``phone``), and the table's events, read."""

    def __init__(self, home: Path, seat: str, match: str, broker: str) -> None:
        self.seat = seat
        self.dir = home / f"table-{seat.lower()}"
        self.play = Play("towers", self.dir, "--remote", match, "--seat", seat, "--broker",
                         broker, port=free_port(), logs=home, name=f"table-{seat.lower()}")
        self.phone: Phone | None = None
        self.follow: Follow | None = None

    def open(self) -> Seat:
        """Its page opened (the command typed already) and the PIN it printed entered."""
        self.phone = Phone(self.play.url.rstrip("/"))
        status, answer, _ = self.phone.enter(read_pin(self.dir))
        assert status == 200, answer
        self.follow = Follow(self.dir)
        return self

    @property
    def events(self) -> list[dict]:
        assert self.follow is not None
        return self.follow.events

    def hands(self, act: dict) -> dict:
        """One act of the hands panel, or a press of a table button, as the page sends it."""
        assert self.phone is not None
        if act["act"] == "press":
            body: dict[str, Any] = {"press": act["seat"], "hold": bool(act.get("hold"))}
        else:
            body = act
        status, answer, _ = self.phone.call("POST", "/hands", body)
        assert status == 200 and answer.get("ok", True), (act, answer)
        return answer

    def look(self) -> dict:
        assert self.phone is not None
        status, answer, _ = self.phone.call("GET", "/hands")
        assert status == 200, answer
        return answer["table"]

    def control(self, command: str, **fields: Any) -> dict:
        """A button of the page's controls (``Agree`` is ``answer`` with ``agree``)."""
        assert self.phone is not None
        status, answer, _ = self.phone.call("POST", f"/control/{command}", fields)
        assert status == 200 and answer.get("ok"), (command, answer)
        return answer

    def status(self) -> dict:
        """What the page's controls are drawn from."""
        assert self.phone is not None
        status, answer, _ = self.phone.call("POST", "/control/status", {})
        return answer if status == 200 else {}

    def obs(self) -> dict:
        assert self.follow is not None and self.follow.obs is not None
        return self.follow.obs

    def asks(self) -> list[dict]:
        return [e for e in self.events if e["event"] == "match"]

    def restart(self) -> None:
        """Ctrl-C, then the same command again; the page at the same address."""
        assert self.follow is not None
        url = self.play.url
        self.follow.close()
        assert self.play.restart() == url
        self.follow = Follow(self.dir)

    def close(self) -> None:
        if self.follow is not None:
            self.follow.close()
        self.play.stop()
        self.play.close()


def _mover(obs: dict) -> str:
    """The seat whose action is next (the one ``plan`` plans)."""
    phase = obs["phase"]
    if phase == "choose":
        return obs["active"]
    if phase == "take":
        return "B" if obs["active"] == "A" else "A"
    if phase == "bonus":
        return obs["bonus"][0]
    return obs["to_move"][0]


class Match:
    """The two tables and what a person does at each, with the check after every step."""

    def __init__(self, a: Seat, b: Seat) -> None:
        self.a, self.b = a, b
        self.seats = {"A": a, "B": b}
        self.played = False  # the match up to its end

    def other(self, seat: Seat) -> Seat:
        return self.b if seat is self.a else self.a

    def agree(self, step: str, timeout: float = WAIT_S) -> None:
        """After ``step``: both journals hold the same actions and takebacks, both tables
        are in the same state, and no ask is pending at either (nor offered on a page)."""
        def alike() -> bool:
            sa, sb = self.a.status(), self.b.status()
            return (_played(self.a.dir) == _played(self.b.dir) and bool(sa) and bool(sb)
                    and sa["state"] == sb["state"]
                    and not sa["can"]["answer"] and not sb["can"]["answer"]
                    and not any(s.asks() and s.asks()[-1]["state"] in ASKING
                                for s in (self.a, self.b)))

        try:
            until(alike, timeout, f"both tables alike after {step}", every=0.1)
        except AssertionError as exc:
            raise AssertionError(f"{exc}: {self.seen()}") from None

    def seen(self) -> str:
        """What each table holds and says now, for a failure's message."""
        out = []
        for seat in (self.a, self.b):
            status = seat.status()
            out.append(f"table {seat.seat}: {status.get('state')} {status.get('problem')!r}, "
                       f"Agree {status.get('can', {}).get('answer')}, last ask "
                       f"{seat.asks()[-1:]}, journal {_played(seat.dir)[-3:]}")
        return "; ".join(out)

    def start(self) -> None:
        """Each person sets out nothing (the simulated table stands ready) and presses their
        own button until their table starts."""
        for seat in (self.a, self.b):
            assert seat.follow is not None
            seat.follow.start_game(lambda s=seat: s.hands({"act": "press", "seat": s.seat}))
        self.agree("the start")

    def move(self, acts: list[dict] | None = None) -> str:
        """The next action (``acts``, else a legal one planned): made by the person at the
        mover's table, then, once it is lit at the other, made there with the same acts; the
        seat that moved."""
        mover = _mover(self.a.obs())
        here = self.seats[mover]
        there = self.other(here)
        acts = acts or plan(here.obs(), here.look())
        before, lit_from = len(_standing(here.dir)), len(there.events)
        for act in acts:
            here.hands(act)
        until(lambda: len(_standing(here.dir)) > before, WAIT_S, f"{mover}'s move taken here")
        made = _standing(here.dir)[-1]
        until(lambda: any(e["event"] == "asked" for e in there.events[lit_from:]), WAIT_S,
              f"{mover}'s move lit at the other table")
        for act in acts:
            there.hands(act)
        until(lambda: _standing(there.dir)[before:] == [made], WAIT_S,
              f"{mover}'s move made at the other table")
        self.agree(f"{mover}'s move {made}")
        return mover

    def ask(self, asker: Seat, ask: Callable[[], Any], agree: bool = True) -> None:
        """``asker`` asks (``ask``: what its person does); the other table's person answers
        with the page's Agree (or Decline) once the page offers it."""
        other = self.other(asker)
        offered_from = len(other.events)
        ask()
        until(lambda: any(e["event"] == "match" and e["state"] == "offered"
                          for e in other.events[offered_from:]), WAIT_S,
              f"the ask offered at the other table (asker {asker.seat})")
        until(lambda: other.status().get("can", {}).get("answer"), WAIT_S,
              "Agree on the other page")
        other.control("answer", agree=agree)


@pytest.fixture(scope="module")
def match():
    """The two tables of the module's match on a mosquitto of their own (the tests play it
    in turn: the match up to its end, then its end); every process stopped at the end."""
    home = Path(tempfile.mkdtemp(prefix="obelisk-pm-", dir="/tmp"))  # sockets' paths short
    mosquitto = Mosquitto(home / "broker").start()
    seats = [Seat(home, seat, "friday", mosquitto.url) for seat in "AB"]
    try:
        for seat in seats:  # both commands typed, then both pages opened
            seat.play.start()
        for seat in seats:
            seat.open()
        yield Match(*seats)
    finally:
        for seat in seats:
            seat.close()
        mosquitto.stop()
        shutil.rmtree(home, ignore_errors=True)


def _games(seat: Seat) -> list[str]:
    """What `obelisk games` lists at ``seat``'s table, each game without its id (each table
    names its own archive)."""
    listed = subprocess.run([OBELISK, "games", "--state-dir", str(seat.dir)],
                            capture_output=True, text=True, timeout=60, check=True).stdout
    return [line.split(None, 1)[1] for line in listed.splitlines() if line.strip()]


def _takes_back(match: Match, seat: Seat) -> None:
    """``seat``'s person lifts their last block off their tower and presses their button:
    their table asks the other, whose person agrees and lifts the same block off there;
    then the block is placed again, held as it was lifted."""
    block = seat.obs()["towers"][seat.seat][-1]["id"]
    lift = {"act": "lift", "seat": seat.seat, "tower": "AB".index(seat.seat), "block": block}
    before = len(_standing(seat.dir))
    seat.hands(lift)
    until(lambda: seat.follow.offer and seat.follow.offer["kind"] == "takeback", WAIT_S,
          "the takeback offered to the owner")
    other = match.other(seat)
    match.ask(seat, lambda: seat.hands({"act": "press", "seat": seat.seat}))
    until(lambda: len(_standing(seat.dir)) == before - 1, WAIT_S, "taken back at the asker")
    other.hands(lift)  # the page says which: the other person lifts it off too
    until(lambda: len(_standing(other.dir)) == before - 1, WAIT_S, "taken back at the other")
    match.agree(f"the takeback of {block}")

    match.move(lower_plan(seat.look(), seat.seat, block, "AB".index(seat.seat)))


def _pauses_and_plays_on(match: Match, seat: Seat) -> None:
    """``seat``'s person presses Pause, the other agrees; then Resume, agreed as well."""
    match.ask(seat, lambda: seat.control("pause"))
    match.agree("the pause")
    assert seat.status()["state"] == "paused"
    match.ask(seat, lambda: seat.control("resume"))
    match.agree("play on")
    assert seat.status()["state"] != "paused"


def _played_up_to_the_end(match: Match) -> None:
    """Everything of the match before its end, each step checked (once per module)."""
    if match.played:
        return
    a, b = match.a, match.b
    match.start()
    for _ in range(3):  # A chooses two blocks; B places the one it took
        match.move()
    _takes_back(match, b)  # ...and B places it again
    for _ in range(2):  # A places the other; B begins the next turn
        match.move()
    _pauses_and_plays_on(match, a)
    match.move()
    b.restart()  # Ctrl-C at table B, and the same command again
    match.agree("table B's restart")
    for _ in range(3):
        match.move()
    match.played = True


def test_a_person_plays_a_match_by_the_docs_with_a_takeback_a_pause_and_a_restart(match):
    _played_up_to_the_end(match)


def test_the_end_of_a_person_s_match_asked_and_agreed_sets_it_aside_alike_at_both(match):
    _played_up_to_the_end(match)
    a, b = match.a, match.b
    match.ask(a, lambda: a.control("end"))
    match.agree("the end", timeout=END_S)
    until(lambda: _games(a) == _games(b) and "no games" not in " ".join(_games(a)), WAIT_S,
          "both tables listing the game set aside alike")

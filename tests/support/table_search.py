"""A randomized search of a match between two REAL tables: each game's table on the simulated
sensors, each with its real link (``firmware.match.link``), over a fake broker that loses,
doubles, reorders and delays messages, replays retained ones on every (re)connection, and
restarts (keeping its retained messages or losing them); either table restarts from its
journal, either link restarts or loses the broker.

A schedule is a list of plain steps drawn from a seed (``schedule``): the people at the two
tables move, make the other table's lit move with the pieces, ask (pause, play on, a
takeback by lifting pieces off and pressing, the end), answer (their button or the menu,
or the page's ``answer``), and set up the match's next game; the network and the machines
do the rest. ``run`` plays a schedule, then lets the two tables settle with nothing lost
(both tables and links up and connected, each link stepping, every message delivered; the
people answer what is put to them, make what is lit, put pieces right and play on when
paused), and checks at quiescence (``check``). A failing schedule says its seed and steps;
``run(game, steps)`` with those steps is the test to keep.

Not searched, because the tables do not have them: a withdrawal (no table takes its ask
back), and a claim through the protocol (a claim still travels on its own topic, outside
the asks, see docs/match-protocol.md).
"""

from __future__ import annotations

import json
import random
import shutil
import tempfile
from pathlib import Path
from typing import Any

from engine.players import Player
from firmware.match.negotiation_dicts import facts_in
from firmware.match.negotiation_values import Adopted, AskKind, Decided
from firmware.match.seat import Match
from firmware.store.journal import Journal
from firmware.store.seal import Sealer
from tests.support.match_search import Run, random_steps
from tests.support.table_hands import make, set_out, view_of
from tests.support.table_link import FakeBroker, TableAtDesk, in_process

GAMES = ("stones", "towers", "highrise", "maze")
GAMES_MAX = 3
"""Games of the match a schedule may set up: enough to cross from one game to the next."""
SETTLE_ROUNDS = 60
CALM_ROUNDS = 3
"""Rounds of the settling in which nothing changes at either table before it is at rest: a
link sends again what was not acknowledged only after ``RESEND_S``."""
LINK_S = 2.5
"""How far each round of the settling moves the links' clocks: past ``RESEND_S``, so a link
sends again what the other has not acknowledged."""
SEATS = ("A", "B")

STEPS = (("move", 14), ("make", 12), ("ask", 6), ("takeback", 3), ("answer", 8),
         ("deliver", 30), ("drop", 5), ("double", 3), ("link", 12), ("wait", 2),
         ("crash", 2), ("boot", 3), ("relink", 1), ("disconnect", 2), ("connect", 3),
         ("broker", 1), ("broker-lost", 1), ("next", 3))
KINDS = ("pause", "resume", "end")


def schedule(seed: int, length: int = 40) -> list[tuple[Any, ...]]:
    """A random schedule of the real tables (an ask: a kind their people ask by hand)."""
    return random_steps(seed, length, STEPS, lambda rng: (rng.choice(KINDS),
                                                         rng.randrange(1000)))


class TableMatch:
    """Two real tables of one match, their links, and the fake broker between them."""

    def __init__(self, game_id: str, home: Path, seed: int) -> None:
        self.game_id = game_id
        self.broker = FakeBroker()
        self.rng = random.Random(seed)  # the people's answers in the settling
        self.desks: dict[str, TableAtDesk] = {}
        self.by_dir: dict[Path, TableAtDesk] = {}
        self.home = home

    def begin(self) -> None:
        """Both tables made, linked and connected, the match's first game set out at each
        (under ``in_process``)."""
        for seat in SEATS:
            match = Match("derby", Player(seat), "tulip")
            desk = TableAtDesk(self.game_id, self.home / seat, match, self.broker,
                               f"table-{seat.lower()}")
            self.desks[seat] = desk
            self.by_dir[desk.dir] = desk
        for desk in self.desks.values():
            self.broker.join(desk.client)
        for seat in SEATS:  # (the maze: the Architect's table first, seat A)
            set_out(self.desks[seat].h, self.game_id)
            self.desks[seat].follow_up()
            self.desks[seat].step()

    # ---------------------------------------------------------------- one step

    def step(self, step: tuple[Any, ...]) -> str:
        what, seat = step[0], step[1]
        desk = self.desks[seat]
        if what in ("broker", "broker-lost"):
            self.broker.restart(keep=what == "broker")
            return "broker restarted"
        if what in ("deliver", "drop", "double"):
            return self._flight(desk, what, step[-1])
        if what in ("link", "relink", "disconnect", "connect"):
            return self._link(desk, what)
        if what == "boot":
            if desk.up:
                return "up already"
            desk.boot()
            return "booted from its journal"
        if not desk.up:
            return "down"
        if what == "crash":
            desk.crash()
            return "crashed"
        if what == "wait":
            desk.h.wait(LINK_S)
            desk.link_now += LINK_S
            desk.follow_up()
            return "time passed"
        said = self._person(desk, step)
        desk.follow_up()
        return said

    def _flight(self, desk: TableAtDesk, what: str, number: int) -> str:
        inbox = desk.client.inbox
        if not inbox:
            return "nothing in flight"
        index = number % len(inbox)
        topic = inbox[index][0].rsplit("/", 2)[-2:]
        if what == "drop":
            inbox.pop(index)
            return f"dropped {'/'.join(topic)}"
        if what == "double":
            inbox.append(inbox[index])
        desk.client.hand(index)
        return f"delivered {'/'.join(topic)}"

    def _link(self, desk: TableAtDesk, what: str) -> str:
        if what == "link":
            desk.step()
            return "link stepped"
        if what == "relink":
            desk.relink()
            return "link restarted"
        if what == "disconnect":
            self.broker.leave(desk.client, will=True)
            return "link lost the broker"
        if desk.client.connected:
            return "connected already"
        self.broker.join(desk.client)
        return "link connected"

    def _person(self, desk: TableAtDesk, step: tuple[Any, ...]) -> str:
        what, number = step[0], step[-1]
        if what == "move":
            return self._move(desk, number)
        if what == "make":
            return self._make_lit(desk)
        if what == "ask":
            return self._ask(desk, step[2], number)
        if what == "takeback":
            return self._takeback(desk, 1 + number % 2)
        if what == "answer":
            return self._answer(desk, number)
        return self._next(desk)

    # ---------------------------------------------------------------- the people

    def _move(self, desk: TableAtDesk, number: int) -> str:
        """The person here makes one of their legal moves with the pieces."""
        table, person = desk.table, desk.table.solo.person
        if table.state != "play":
            return f"no move: the table is in {table.state}"
        pos = table.position
        mine = [a for a in pos.legal_actions() if pos.actor(a) is person]
        if not mine or table.solo.first_to_act(pos):
            return "no move: not this seat's to make"
        action = mine[number % len(mine)]
        after = pos.apply_action(action)
        while view_of(self.game_id, after) == view_of(self.game_id, pos) and \
                not after.is_terminal():  # (the towers' take is made with its placement)
            more = [a for a in after.legal_actions() if after.actor(a) is person]
            if not more:
                break
            after = after.apply_action(more[number % len(more)])
        n = len(table.actions)
        desk.h.show(view_of(self.game_id, after))
        if len(table.actions) > n:
            return f"moved: {len(table.actions) - n} recorded"
        desk.h.show(view_of(self.game_id, pos))  # not taken: put back as it stood
        return f"not taken: {table.problem[:60]}"

    def _make_lit(self, desk: TableAtDesk) -> str:
        """The person makes the other table's move the table lights."""
        table = desk.table
        asked = table.solo.asked
        if not asked or table.state != "play":
            return "nothing lit"
        return "made the lit move" if make(desk.h, self.game_id, asked[0]) else \
            f"lit move not taken: {table.problem[:60]}"

    def _ask(self, desk: TableAtDesk, kind: str, number: int) -> str:
        """The person asks: the menu button (pause or play on), or the page's command."""
        if kind != "end" and number % 2 == 0:
            desk.h.press("menu")
            return "menu pressed"
        said = desk.do({"command": kind})
        return str(said.get("message") or said.get("error"))[:60]

    def _takeback(self, desk: TableAtDesk, back: int) -> str:
        """The person lifts the last ``back`` actions' pieces off and presses: a takeback
        where the game reads one (else the pieces go back)."""
        table = desk.table
        if table.state != "play" or len(table.actions) < back:
            return "nothing to take back"
        pos = table.position
        desk.h.show(view_of(self.game_id, table.history[len(table.actions) - back]))
        if table.offer is None:
            desk.h.show(view_of(self.game_id, pos))
            return "no takeback read: put back"
        desk.h.press(table.solo.person)
        return "takeback pressed"

    def _answer(self, desk: TableAtDesk, number: int) -> str:
        seat = desk.table.solo
        if seat.asking.theirs is None:
            return "nothing to answer"
        how = number % 4
        if how == 0:
            desk.h.press(seat.person)
            return "agreed by the button"
        if how == 1:
            desk.h.press("menu")
            return "declined by the menu"
        said = desk.do({"command": "answer", "agree": how == 2})
        return str(said.get("message") or said.get("error"))[:60]

    def _next(self, desk: TableAtDesk) -> str:
        """The person sets up the match's next game (after one ended, or was set aside)."""
        table = desk.table
        if table.solo.asking.game >= GAMES_MAX:
            return "no more games"
        if table.started and table.between_games() and table.may_new_game():
            desk.h.press(Player.A)
        if desk.table.started:
            return "a game is on"
        set_out(desk.h, self.game_id)
        return f"set out game {desk.table.solo.asking.game}"

    # ---------------------------------------------------------------- quiescence

    def settle(self) -> str:
        """``_settle``, marked ``DISAGREED`` when a table stopped the match meanwhile."""
        why = self._settle()
        stopped = [d for d in self.desks.values() if d.table.solo.problem]
        return f"{DISAGREED}{why}" if why and stopped else why

    def _settle(self) -> str:
        """Nothing lost from now on: both tables and links up and connected, the links step
        and every message is delivered, the people do what is put to them; "" once nothing
        changes, else why it did not come to rest."""
        for desk in self.desks.values():
            if not desk.up:
                desk.boot()
            self.broker.join(desk.client)
        calm_rounds = 0
        for _ in range(SETTLE_ROUNDS):
            before = self._fingerprint()
            for desk in self.desks.values():
                desk.link_now += LINK_S
                desk.step()
            self._deliver_all()
            for desk in self.desks.values():
                self._settle_person(desk)
                desk.follow_up()
                self._deliver_all()
            calm_rounds = calm_rounds + 1 if before == self._fingerprint() else 0
            if calm_rounds >= CALM_ROUNDS:  # (a link may still send again what a paused
                # table holds back: what counts is that nothing changes at either table)
                calm_rounds = 0
                paused = [d for d in self.desks.values() if d.table.may_resume()]
                calm = all(d.table.solo.asking.mine is None and
                           d.table.solo.asking.negotiation.theirs is None
                           for d in self.desks.values())
                if not paused or not calm:
                    return ""
                paused[0].h.press("menu")  # the people play on in the end: one asks
                paused[0].follow_up()
        return f"still changing after {SETTLE_ROUNDS} rounds"

    def _settle_person(self, desk: TableAtDesk) -> None:
        """What the person at a table does while nothing is lost: answer, make what is lit,
        lift what an agreed takeback needs, put pieces right (playing on is ``settle``'s)."""
        table, seat = desk.table, desk.table.solo
        if seat.asking.theirs is not None:  # (play on agreed, by the button or the page:
            # declined at random it may be asked and declined longer than the settling lasts)
            resume = seat.asking.theirs.kind is AskKind.RESUME
            self._answer(desk, self.rng.choice((0, 2)) if resume else self.rng.randrange(4))
        elif seat.asking.agreed_to is not None:
            desk.h.show(view_of(self.game_id, table.history[seat.asking.agreed_to]))
        elif seat.asked and table.state == "play":
            self._make_lit(desk)
        elif table.state == "repair":
            desk.h.show(view_of(self.game_id, table.position))
        elif self._behind(desk):
            self._next(desk)

    def _behind(self, desk: TableAtDesk) -> bool:
        """Whether the other table has begun a later game of the match than this one: its
        person is told so ("the other table ... has started the game: press a player button
        here to start it too") and sets it out."""
        other = next(d for d in self.desks.values() if d is not desk)
        at = (desk.table.solo.asking.game, desk.table.started)
        return other.up and at < (other.table.solo.asking.game, other.table.started)

    def _deliver_all(self) -> None:
        """Every message in flight delivered, in order."""
        for _ in range(10_000):
            waiting = [d for d in self.desks.values() if d.client.inbox]
            if not waiting:
                return
            for desk in waiting:
                desk.client.hand(0)
        raise AssertionError("messages kept coming: more than 10,000 in one delivery")

    def _fingerprint(self) -> tuple[Any, ...]:
        return tuple((len(d.table.journal.read().entries), d.table.solo.asking.negotiation,
                      d.table.state, len(d.table.actions), d.table.solo.asking.game,
                      sorted(d.link.broker.other.inbox), bool(d.table.solo.asked))
                     for d in self.desks.values())

    # ---------------------------------------------------------------- the check

    def check(self) -> str:
        """Why the two tables disagree at quiescence ("": they agree)."""
        a, b = self.desks["A"], self.desks["B"]
        for desk in (a, b):
            if desk.table.solo.problem:
                return f"{DISAGREED}{desk.name}: {desk.table.solo.problem}"
        unlinked = [d.name for d in (a, b) if d.link.broker.other.name is None]
        games = {seat: journalled(desk.dir) for seat, desk in self.desks.items()}
        if games["A"] != games["B"]:
            return f"{UNLINKED if unlinked else ''}the journals differ: A {games['A']} " \
                   f"B {games['B']}"
        shown = {seat: standing(desk) for seat, desk in self.desks.items()}
        if shown["A"] != shown["B"]:
            return f"the tables show different games: A {shown['A']} B {shown['B']}"
        for desk in (a, b):
            asking = desk.table.solo.asking
            if asking.mine is not None or asking.negotiation.theirs is not None:
                return f"{desk.name} still has an ask waiting: " \
                       f"{asking.mine or asking.negotiation.theirs}"
        for asker, answerer in ((a, b), (b, a)):
            asked, _, adopted = decisions(asker.dir, asker.table.solo.asking.unwritten)
            _, made, _ = decisions(answerer.dir, answerer.table.solo.asking.unwritten)
            theirs = {k: d for k, d in made.items() if k.seat == asker.table.solo.person.value}
            if asked != set(adopted) or any(theirs.get(k) != d for k, d in adopted.items()):
                return f"{asker.name}'s asks: asked {sorted(asked)}, decided there " \
                       f"{theirs}, adopted {adopted}"
        return ""


UNLINKED = "UNLINKED: "
"""A failure's mark when a link never learned the other table (as when a hello, retained,
was lost on a live connection, before the links published theirs again every few seconds:
``BrokerSide.say_again``)."""
DISAGREED = "DISAGREED: "
"""A failure's mark when a table stopped the match, the two tables disagreeing on an action
(as the maze did after its first action was taken back, before a table dropped the other
table's move of a line taken back)."""
KNOWN: tuple[str, ...] = ()
"""The marks of faults found, reported and not fixed, whose failures the bench counts apart
(``known``): none now."""


def standing(desk: TableAtDesk) -> tuple[Any, ...]:
    """The game a table shows: which game of the match, begun or not, its actions, paused
    or not, over or not."""
    table = desk.table
    actions = tuple(json.dumps(table.record.action_to_dict(a), sort_keys=True)
                    for a in table.actions)
    return (table.solo.asking.game, table.started, actions, table.may_resume(),
            table.between_games())


def _files(state_dir: Path) -> list[Path]:
    """A table's journals, oldest first: the games set aside (archived), then the one kept."""
    kept = sorted(state_dir.glob("journal-*.jsonl"), key=lambda p: p.stat().st_mtime_ns)
    return [*kept, state_dir / "journal.jsonl"]


def journalled(state_dir: Path) -> dict[int, tuple[Any, ...]]:
    """Every game of the match a table's journals hold, by its number: its actions and the
    takebacks agreed, and how it ended."""
    games: dict[int, tuple[Any, ...]] = {}
    sealer = Sealer(state_dir)
    for path in _files(state_dir):
        game: list[Any] = []
        number = 0
        for entry in Journal(state_dir).read(path).entries:
            if entry.get("t") == "start":
                number = entry.get("remote", {}).get("game", 1)
                game = []
            elif entry.get("t") in ("action", "takeback", "over", "ended"):
                game.append((entry["t"], _action(sealer, entry), entry.get("to"),
                             entry.get("how")))
            games[number] = tuple(game)
    games.pop(0, None)
    return games


def _action(sealer: Sealer, entry: dict[str, Any]) -> Any:
    """An action as the journal keeps it (High Rise seals it with the table's own key)."""
    if "sealed" not in entry:
        return entry.get("action")
    opened = sealer.unseal(entry["sealed"])
    return {k: v for k, v in opened.items() if k != "reading"}


def decisions(state_dir: Path, unwritten: Any = ()) -> tuple[set[Any], dict[Any, Any],
                                                             dict[Any, Any]]:
    """A table's asks, as all its journals record them (and ``unwritten``: the records it
    holds until its next game's start is journalled, made between two games): the ids it
    asked, the decisions it made (by id), the decisions it adopted (by id)."""
    asked: set[Any] = set()
    made: dict[Any, Any] = {}
    adopted: dict[Any, Any] = {}
    journalled = [fact for path in _files(state_dir)
                  for fact in facts_in(Journal(state_dir).read(path).entries)]
    for fact in (*journalled, *unwritten):
        if isinstance(fact, Decided):
            made[fact.decision.ask.id] = fact.decision
        elif isinstance(fact, Adopted):
            adopted[fact.decision.ask.id] = fact.decision
        elif hasattr(fact, "ask"):
            asked.add(fact.ask.id)
    return asked, made, adopted


def tally(state_dir: Path, seen: dict[tuple[str, str], int]) -> None:
    """Count each decision a table made, by the ask's kind and its outcome."""
    for decision in decisions(state_dir)[1].values():
        key = (decision.ask.kind.value, decision.outcome.value)
        seen[key] = seen.get(key, 0) + 1


def run(game_id: str, steps: list[tuple[Any, ...]], seed: int = 0,
        seen: dict[tuple[str, str], int] | None = None) -> Run:
    """Play ``steps`` on a match of ``game_id`` between two real tables, settle, check;
    ``seen``: each decision made is counted there by kind and outcome."""
    home = Path(tempfile.mkdtemp(prefix="obelisk-search-"))
    done = Run(game_id, steps)
    match = TableMatch(game_id, home, seed)
    try:
        with in_process(match.broker, match.by_dir):
            match.begin()
            for step in steps:
                done.said.append(match.step(step))
            done.failure = match.settle() or match.check()
            for desk in match.desks.values():
                if seen is not None:
                    tally(desk.dir, seen)
    except Exception as exc:  # (a fault of a table, even a traceback, is the finding)
        done.failure = f"raised {type(exc).__name__}: {exc}"
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return done


def search(seeds: range, games: tuple[str, ...] = GAMES, length: int = 40,
           seen: dict[tuple[str, str], int] | None = None) -> list[tuple[int, Run]]:
    """Every failing schedule of ``seeds`` over ``games`` (each seed on one game, in turn);
    ``seen``: the decisions made, counted by kind and outcome."""
    failed = []
    for seed in seeds:
        game_id = games[seed % len(games)]
        done = run(game_id, schedule(seed, length), seed, seen)
        if done.failure:
            failed.append((seed, done))
    return failed

"""A randomized search of the asks between two tables: two model tables, each the pure
negotiation (``firmware.match.negotiation``) beside a small model of the game, over a fake
broker that loses, doubles, reorders and delays messages, replays retained ones on every
(re)connection, and restarts either table (from its journal alone) or itself (keeping its
retained messages, or losing them).

A schedule is a list of plain steps drawn from a seed (``schedule``); ``run`` plays it,
then lets the two tables settle with nothing lost (both up and connected, each link sending
again what it recorded, each person answering what is put to them) and checks at
quiescence that both hold the same games, the same outcome for every ask and no ask
waiting. A failing schedule says its seed and its steps; ``run(shape, steps)`` with those
steps is the test to keep.

The game is a model of the four games' turn shapes (``SHAPES``): alternating turns (stones,
with a far ply limit), the towers' placing (both seats place in a turn, each may place first
at its own table, A's is recorded first at both), and games that end by themselves (High
Rise when the board is full; the maze's Architect may end it with any move). Both tables
apply the same actions in the same order; a game ended is followed by the match's next.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from firmware.match.negotiation import Negotiation, Step, unfit
from firmware.match.negotiation_values import (
    Acknowledged,
    Adopted,
    Asked,
    AskId,
    AskKind,
    AskOutcome,
    AskUnfit,
    CarryOut,
    Decided,
    Decision,
    GamePlace,
    Message,
    PlacedAsk,
    Standing,
    Withdrawn,
)

SEATS = ("A", "B")
GAMES_MAX = 3
"""Games of the match a schedule may reach: enough to cross from one game to the next."""
SETTLE_ROUNDS = 60


@dataclass(frozen=True)
class Shape:
    """A game's turn shape, as far as the asks between tables care."""

    name: str
    placing: bool = False  # the towers: both place in a turn, either first at its table
    limit: int = 0  # the game ends by itself after this many actions (0: never)
    finishing: bool = False  # a move may end the game (the maze's last segment claimed)

    def mover(self, index: int) -> str:
        """The seat whose action is the game's action ``index`` (in the order recorded)."""
        return SEATS[index % 2]


SHAPES = {
    "stones": Shape("stones", limit=200),
    "towers": Shape("towers", placing=True, limit=12),
    "highrise": Shape("highrise", limit=9),
    "maze": Shape("maze", limit=20, finishing=True),
}


@dataclass(frozen=True)
class Action:
    """One action of the model game: where it stands and who made it."""

    game: int
    line: int  # the takebacks agreed before it
    index: int
    seat: str
    final: bool = False


@dataclass(frozen=True)
class Variant:
    """How the link behaves: ``Variant()`` is the protocol; the others are today's main's
    behaviour, kept to show the search catches it."""

    drop_ahead: bool = False  # an ask ahead of the answering table is dropped, sent once
    answers_of_this_game: bool = False  # decisions sent (and retained) for the current game


NEW = Variant()
OLD_AHEAD = Variant(drop_ahead=True)
OLD_NEXT_GAME = Variant(answers_of_this_game=True)


class Disagreement(AssertionError):
    """The two model tables hold different games, or an ask's outcome differs."""


@dataclass
class Game:
    """One table's game of the match as it stands (rebuilt from the journal)."""

    number: int = 1
    line: int = 0
    actions: list[Action] = field(default_factory=list)
    paused: bool = False
    ended: bool = False  # set aside as agreed (an end or a claim)
    early: Action | None = None  # this table's placement made before the other's came

    @property
    def over(self) -> bool:
        return self.ended or bool(self.actions and self.actions[-1].final)

    def standing(self) -> Standing:
        return Standing(self.number, GamePlace(self.line, len(self.actions)), self.paused,
                        self.over)

    def summary(self) -> tuple[Any, ...]:
        return (self.number, self.line, tuple(self.actions), self.paused, self.over)


class Broker:
    """The fake broker: a queue per subscriber, retained messages by topic."""

    def __init__(self) -> None:
        self.retained: dict[tuple[str, str], Any] = {}
        self.queues: dict[str, list[Any]] = {seat: [] for seat in SEATS}
        self.subscribed: set[str] = set()

    def publish(self, sender: str, topic: str | None, message: Any) -> None:
        if sender not in self.subscribed:
            return  # a link that is not connected sends nothing (it sends again later)
        if topic is not None:
            self.retained[(sender, topic)] = message
        receiver = other(sender)
        if receiver in self.subscribed:
            self.queues[receiver].append(message)

    def connect(self, seat: str) -> None:
        self.subscribed.add(seat)
        self.queues[seat] = [m for (sender, _), m in self.retained.items()
                             if sender == other(seat)]

    def disconnect(self, seat: str) -> None:
        self.subscribed.discard(seat)
        self.queues[seat] = []

    def restart(self, keep: bool) -> None:
        self.subscribed = set()
        self.queues = {seat: [] for seat in SEATS}
        if not keep:
            self.retained = {}


def other(seat: str) -> str:
    return "B" if seat == "A" else "A"


class Table:
    """A model table: its journal (all that survives a restart), its game and negotiation
    in memory, its link to the broker."""

    def __init__(self, seat: str, shape: Shape, broker: Broker, variant: Variant,
                 rng: random.Random) -> None:
        self.seat, self.shape, self.broker, self.variant = seat, shape, broker, variant
        self.rng = rng  # the person's answers in the settling
        self.journal: list[Any] = []
        self.finished: list[tuple[Any, ...]] = []
        self.peer_game = 0  # the other table's game, as its last hello said
        self.up = True
        self.game = Game()
        self.asks = Negotiation(seat)
        self.problem = ""

    # ---------------------------------------------------------------- restarts

    def crash(self) -> None:
        self.up = False
        self.broker.disconnect(self.seat)

    def boot(self) -> None:
        """Started again: everything rebuilt from the journal, then connected."""
        self.up, self.game, self.finished, self.peer_game = True, Game(), [], 0
        facts = []
        for entry in self.journal:
            if isinstance(entry, Action):
                self._take(entry, record=False)
            elif entry == "next":
                self._next()
            else:
                facts.append(entry)
                if isinstance(entry, Decided | Adopted) and \
                        entry.decision.outcome is AskOutcome.AGREED:
                    self._carry_out(entry.decision)
        self.asks = Negotiation.restored(self.seat, facts)
        self.connect()

    def connect(self) -> None:
        self.broker.connect(self.seat)
        self.again()

    # ---------------------------------------------------------------- the person here

    def move(self, final: bool) -> str:
        """The person here makes the next action they may (or nothing)."""
        game = self.game
        if game.over or game.paused:
            return "no move: the game is over or paused"
        if any(not ask.kind.of_the_clock for ask in self.asks.mine):
            return "no move: this table's takeback or end waits for its answer"
        index = len(game.actions)
        if self.shape.mover(index) != self.seat:
            if not (self.shape.placing and index % 2 == 0 and game.early is None):
                return "no move: not this seat's turn"
            index += 1  # the towers' placing: B places before A's placement came
        last = index + 1 == self.shape.limit or (self.shape.finishing and final)
        action = Action(game.number, game.line, index, self.seat, last)
        self._take(action)
        self.broker.publish(self.seat, None, action)
        self._moved()
        return f"moved {index}"

    def ask(self, kind: AskKind, back: int) -> str:
        here = self.game.standing()
        try:
            to = here.at.actions - back if kind is AskKind.TAKEBACK else -1
            step = self.asks.ask(here, kind, to)
        except AskUnfit as exc:
            return f"refused: {exc}"
        self._apply(step)
        return f"asked {kind.value}"

    def fitting(self) -> list[AskKind]:
        """The kinds of ask that fit the game here now (the takeback: of the last action)."""
        here = self.game.standing()
        return [kind for kind in KINDS
                if not unfit(PlacedAsk(AskId(0, self.seat, 0), kind, here.at, here.at.actions - 1),
                             here)]

    def withdraw(self) -> str:
        if not self.asks.mine:
            return "nothing to withdraw"
        self._apply(self.asks.withdraw(self.asks.mine[-1].id))
        return "withdrew"

    def answer(self, agree: bool) -> str:
        if not self.asks.offered:
            return "nothing to answer"
        self._apply(self.asks.answer(self.game.standing(), agree))
        return "agreed" if agree else "declined"

    # ---------------------------------------------------------------- the link

    def again(self) -> None:
        """The link sends again what the table recorded: hello, actions, asks, decisions."""
        if not self.up:
            return
        game = self.game
        self.broker.publish(self.seat, "hello", ("hello", game.number, game.line,
                                                 len(game.actions)))
        behind = [f for f in self.finished if f[0] == self.peer_game]
        kept = list(behind[0][2]) if behind else []  # a game set aside here, not yet there
        for action in [*kept, *game.actions, *[game.early] * (game.early is not None)]:
            self.broker.publish(self.seat, None, action)
        for message in self.asks.again(game.number):
            if self.variant.drop_ahead and isinstance(message, Asked | Withdrawn):
                continue  # today: an ask is published once, when it is made
            if self.variant.answers_of_this_game and isinstance(message, Decided) and \
                    message.decision.ask.id.game != game.number:
                continue  # today: the link follows only the game its journal plays
            self.broker.publish(self.seat, _topic(message), message)

    def receive(self, message: Any) -> None:
        if isinstance(message, tuple):  # the other table's hello
            behind = message[1] < self.game.number and message[1] != self.peer_game
            self.peer_game = message[1]
            if behind:  # it lags a game behind: what this table holds of that game, again
                self.again()
        elif isinstance(message, Action):
            if self.game.paused and message.seat != self.seat:
                return  # as a real table: paused, it makes no move; the link sends it again
            self._take(message)
            self._moved()
        elif isinstance(message, Asked | Withdrawn | Decided | Acknowledged):
            if self.variant.drop_ahead and isinstance(message, Asked) and \
                    _ahead(message, self.game.standing()):
                return  # today: "the game moved on", dropped and never offered again
            if self.variant.answers_of_this_game and isinstance(message, Asked | Withdrawn) \
                    and message_game(message) != self.game.number:
                return  # today: the link opens only what the game it follows seals
            self._apply(self.asks.received(message, self.game.standing()))

    # ---------------------------------------------------------------- the game here

    def _take(self, action: Action, record: bool = True) -> None:
        """An action, this table's or the other's: recorded (``record``) and applied when
        it is the game's next, or this table's placement made before the other's."""
        game = self.game
        if (action.game, action.line) != (game.number, game.line) or game.ended:
            return
        have = len(game.actions)
        if action.index < have:
            if game.actions[action.index] != action:
                self.problem = f"action {action.index} differs: {action} here " \
                               f"{game.actions[action.index]}"
            return
        if game.over:
            return
        if action.index == have:
            if record:
                self.journal.append(action)
            game.actions.append(action)
            early = game.early
            if early is not None and early.index == len(game.actions) and not action.final:
                game.actions.append(early)
                game.early = None
        elif action.index == have + 1 and action.seat == self.seat and self.shape.placing \
                and game.early != action:  # (its own placement sent back: held already)
            if record:
                self.journal.append(action)
            game.early = action

    def _moved(self) -> None:
        self._apply(self.asks.moved(self.game.standing()))
        self._next_if_due()

    def _next_if_due(self) -> None:
        """The match's next game, once this one is over and every ask of this table in it is
        decided (the match sets the game aside and sets up the next by itself)."""
        if self.game.over and self.asks.settled(self.game.number) and \
                self.game.number < GAMES_MAX:
            self.journal.append("next")
            if self.variant.answers_of_this_game:  # today: the link follows the new game
                self.broker.retained.pop((self.seat, f"answers/{self.game.number}"), None)
            self._next()
            self._apply(self.asks.moved(self.game.standing()))
            self.again()

    def _next(self) -> None:
        self.finished.append(self.game.summary())
        self.game = Game(self.game.number + 1)

    def _apply(self, step: Step) -> None:
        self.journal.extend(step.records)  # recorded before it is acted on
        self.asks = step.state
        for message in step.sends:
            self.broker.publish(self.seat, _topic(message), message)
        carried = [e.decision for e in step.effects if isinstance(e, CarryOut)]
        for decision in carried:
            self._carry_out(decision)
        if carried:
            self._moved()
        else:
            self._next_if_due()

    def _carry_out(self, decision: Decision) -> None:
        game, ask = self.game, decision.ask
        if ask.kind.of_the_clock and (ask.id.game != game.number or game.over):
            return  # as a real table: a game over here is neither paused nor played on
        if ask.id.game != game.number:
            self.problem = f"{decision} carried out in game {game.number}"
            return
        if ask.kind in (AskKind.PAUSE, AskKind.RESUME):
            game.paused = ask.kind is AskKind.PAUSE
            return
        if ask.at.takebacks != game.line or len(game.actions) < ask.at.actions:
            self.problem = f"{decision} carried out at line {game.line}, " \
                           f"{len(game.actions)} actions"
            return
        game.early = None
        if ask.kind is AskKind.TAKEBACK:
            del game.actions[ask.to:]
            game.line += 1
        else:  # the end, or a claim: set aside as it stood when asked
            del game.actions[ask.at.actions:]
            game.ended = True

    # ---------------------------------------------------------------- what is compared

    def decisions(self, kind: type[Decided] | type[Adopted]) -> dict[Any, Decision]:
        return {e.decision.ask.id: e.decision for e in self.journal if isinstance(e, kind)}

    def fingerprint(self) -> tuple[Any, ...]:
        return (len(self.journal), self.asks, self.game.summary(), self.peer_game)


def _topic(message: Message) -> str | None:
    """The retained topic a message is kept under (None: not retained)."""
    if isinstance(message, Asked):
        return "asks"
    if isinstance(message, Decided):
        return f"answers/{message.decision.ask.id.game}"
    if isinstance(message, Acknowledged):
        return "acknowledged"
    return None


def message_game(message: Asked | Withdrawn) -> int:
    return message.ask.id.game if isinstance(message, Asked) else message.id.game


def _ahead(message: Asked, here: Standing) -> bool:
    ask = message.ask
    return (ask.id.game, ask.at) > (here.game, here.at)


# -------------------------------------------------------------------- schedules

STEPS = (("move", 16), ("ask", 10), ("answer", 10), ("withdraw", 2), ("deliver", 30),
         ("drop", 6), ("double", 4), ("again", 8), ("crash", 2), ("boot", 3),
         ("disconnect", 2), ("connect", 3), ("broker", 1), ("broker-lost", 1))
KINDS = tuple(AskKind)


def random_steps(seed: int, length: int, weighted: tuple[tuple[str, int], ...],
                 ask: Callable[[random.Random], tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """A random schedule of ``length`` steps drawn from ``weighted`` (a step's name and
    weight), each a plain tuple (what, seat, a number), so that a failing one can be pasted
    into a test; an ask's tail is ``ask``'s (the model's and the real tables' differ)."""
    rng = random.Random(seed)
    names = [name for name, _ in weighted]
    weights = [w for _, w in weighted]
    steps: list[tuple[Any, ...]] = []
    for _ in range(length):
        what = rng.choices(names, weights)[0]
        seat = rng.choice(SEATS)
        steps.append((what, seat, *ask(rng)) if what == "ask" else
                     (what, seat, rng.randrange(1000)))
    return steps


def schedule(seed: int, length: int = 60) -> list[tuple[Any, ...]]:
    """A random schedule of the model tables (an ask: any kind, or one that fits here)."""
    return random_steps(seed, length, STEPS, lambda rng: (
        str(rng.choice([*KINDS, *["fitting"] * 5])), rng.randint(1, 2)))


@dataclass
class Run:
    """A schedule played: its steps with what each did, and why it failed ("": it held)."""

    shape: str
    steps: list[tuple[Any, ...]]
    said: list[str] = field(default_factory=list)
    failure: str = ""

    def report(self, seed: int | None = None) -> str:
        lines = [f"{'FAILED' if self.failure else 'held'}: {self.shape}"
                 + (f" seed {seed}" if seed is not None else "")
                 + (f": {self.failure}" if self.failure else "")]
        lines += [f"  {step!r},  # {said}" for step, said in zip(self.steps, self.said,
                                                                 strict=False)]
        return "\n".join(lines)


class Match:
    """Two model tables over one fake broker."""

    def __init__(self, shape: Shape, variant: Variant, seed: int) -> None:
        self.broker = Broker()
        rng = random.Random(seed)
        self.tables = {seat: Table(seat, shape, self.broker, variant, rng) for seat in SEATS}
        for seat in SEATS:
            self.broker.connect(seat)  # (nothing in flight: each link sends at its first turn)

    def step(self, step: tuple[Any, ...]) -> str:
        what, seat = step[0], step[1]
        table = self.tables[seat]
        if what in ("broker", "broker-lost"):
            self.broker.restart(keep=what == "broker")
            return self._reconnect_all()
        if what == "boot":
            if table.up:
                return "up already"
            table.boot()
            return "booted from its journal"
        if not table.up:
            return "down"
        return self._at(table, step)

    def _at(self, table: Table, step: tuple[Any, ...]) -> str:
        what, seat, number = step[0], step[1], step[-1]
        queue = self.broker.queues[seat]
        if what in ("deliver", "drop", "double"):
            if not queue:
                return "nothing in flight"
            message = queue.pop(number % len(queue))
            if what == "drop":
                return f"dropped {message}"
            if what == "double":
                queue.append(message)
            table.receive(message)
            return f"delivered {message}"
        return self._person(table, step)

    def _person(self, table: Table, step: tuple[Any, ...]) -> str:
        what, seat, number = step[0], step[1], step[-1]
        if what == "move":
            return table.move(final=number % 7 == 0)
        if what == "ask":
            kinds = table.fitting() if step[2] == "fitting" else [AskKind(step[2])]
            return table.ask(kinds[(number - 1) % len(kinds)], number) if kinds else "no ask fits"

        if what == "answer":
            return table.answer(agree=number % 2 == 0)
        if what == "withdraw":
            return table.withdraw()
        if what == "again":
            table.again()
            return "sent again"
        if what == "crash":
            table.crash()
            return "crashed"
        if what == "disconnect":
            self.broker.disconnect(seat)
            return "disconnected"
        if seat in self.broker.subscribed:
            return "connected already"
        table.connect()
        return "connected"

    def _reconnect_all(self) -> str:
        for table in self.tables.values():
            if table.up:
                table.connect()
        return "broker restarted"

    # ---------------------------------------------------------------- quiescence

    def settle(self) -> str:
        """Nothing lost from now on: both up and connected, links send again, people answer;
        "" once nothing changes, else why it did not come to rest."""
        for table in self.tables.values():
            if not table.up:
                table.boot()
            elif table.seat not in self.broker.subscribed:
                table.connect()
        for _ in range(SETTLE_ROUNDS):
            before = [t.fingerprint() for t in self.tables.values()]
            for table in self.tables.values():
                table.again()
            self._deliver_all()
            for table in self.tables.values():
                if table.asks.offered:
                    table.answer(agree=table.rng.random() < 0.5)
                    self._deliver_all()
            if before == [t.fingerprint() for t in self.tables.values()]:
                paused = [t for t in self.tables.values()
                          if t.game.paused and not t.asks.mine and not t.asks.offered]
                if not paused:
                    return ""
                paused[0].ask(AskKind.RESUME, 0)  # the people play on in the end
                self._deliver_all()
        return f"still changing after {SETTLE_ROUNDS} rounds of sending again"

    def _deliver_all(self) -> None:
        for _ in range(10_000):
            waiting = [seat for seat in SEATS if self.broker.queues[seat]]
            if not waiting:
                return
            for seat in waiting:
                self.tables[seat].receive(self.broker.queues[seat].pop(0))
        raise Disagreement("messages kept coming: more than 10,000 in one delivery")

    def check(self) -> str:
        """Why the two tables disagree at quiescence ("": they agree)."""
        a, b = self.tables["A"], self.tables["B"]
        problems = [t.problem for t in (a, b) if t.problem]
        if problems:
            return problems[0]
        if a.game.summary() != b.game.summary() or a.finished != b.finished:
            return f"the games differ: A {a.game.summary()} B {b.game.summary()}"
        for table in (a, b):
            if table.asks.mine or table.asks.theirs is not None:
                waiting = table.asks.mine or table.asks.theirs
                return f"{table.seat} still has an ask waiting: {waiting}"
        for asker, answerer in ((a, b), (b, a)):
            made, adopted = answerer.decisions(Decided), asker.decisions(Adopted)
            asked = {e.ask.id for e in asker.journal if isinstance(e, Asked)}
            if asked != set(adopted) or any(made.get(i) != d for i, d in adopted.items()):
                return f"{asker.seat}'s asks: decided {made} adopted {adopted}"
        return ""


def run(shape: str, steps: list[tuple[Any, ...]], variant: Variant = NEW,
        seed: int = 0) -> Run:
    """Play ``steps`` on a match of ``shape``, settle, check."""
    match = Match(SHAPES[shape], variant, seed)
    done = Run(shape, steps)
    for step in steps:
        done.said.append(match.step(step))
    done.failure = match.settle() or match.check()
    return done


def search(seeds: range, shapes: tuple[str, ...] = tuple(SHAPES), length: int = 60,
           variant: Variant = NEW) -> list[tuple[int, Run]]:
    """Every failing schedule of ``seeds`` over ``shapes`` (each seed on one shape)."""
    failed = []
    for seed in seeds:
        shape = shapes[seed % len(shapes)]
        done = run(shape, schedule(seed, length), variant, seed)
        if done.failure:
            failed.append((seed, done))
    return failed


def kinds_decided(seeds: range, length: int = 60) -> dict[tuple[str, str], int]:
    """How often each kind of ask ended in each outcome over ``seeds`` (what the search
    covered)."""
    seen: dict[tuple[str, str], int] = {}
    for seed in seeds:
        shape = tuple(SHAPES)[seed % len(SHAPES)]
        match = Match(SHAPES[shape], NEW, seed)
        for step in schedule(seed, length):
            match.step(step)
        match.settle()
        for table in match.tables.values():
            for decision in table.decisions(Decided).values():
                key = (decision.ask.kind.value, decision.outcome.value)
                seen[key] = seen.get(key, 0) + 1
    return seen


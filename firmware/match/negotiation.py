"""The asks between two tables as one pure protocol: asked, then agreed, declined or lapsed,
decided by the answering table alone and adopted by the asking one, once.

Why it is shaped so (docs/match-protocol.md says it at length): messages between the tables
may be lost, doubled, late or out of order, and either table may restart from its journal.
So an ask carries its place in the game and waits at a table that has not reached it yet;
one decision per ask exists, made where the ask is answered and recorded before it is
acted on; the asking table adopts what it receives, keyed by the ask's id, and keeps its ask
standing until then; what a table recorded it sends again until the other acknowledges it.
An ask that meets one of the answering table's own (both asked at once) lapses, so two
decisions never change the game at the same time at the two tables.

Values in, values out: no I/O, no clock, no threads. A table calls a method with the game
as it stands here (``Standing``) and gets a ``Step``: the negotiation's new state, the
messages to send, the facts to record (first) and what to do (``Offer``, ``CarryOut``,
``Told``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from engine.core import counted
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
    Effect,
    Fact,
    Message,
    NothingAsked,
    Offer,
    PlacedAsk,
    Standing,
    Told,
    Withdrawn,
)

SEATS = ("A", "B")


def unfit(ask: PlacedAsk, here: Standing) -> str:
    """Why ``ask`` cannot happen in the game as it stands here, at the ask's own place
    ("": it can)."""
    if here.over:
        return "the game is over"
    if here.paused and not ask.kind.of_the_clock:
        return "the game is paused: ask to play on first"
    if ask.kind is AskKind.PAUSE and here.paused:
        return "the game is paused already"
    if ask.kind is AskKind.RESUME and not here.paused:
        return "the game is not paused"
    if ask.kind is AskKind.TAKEBACK and not 0 <= ask.to < ask.at.actions:
        return f"there are not {counted(ask.at.actions - ask.to, 'action')} to take back"
    return ""


def place(ask: PlacedAsk, here: Standing) -> str | None:
    """Where the game here stands to ``ask``: None while it has not reached the ask's place
    (the ask waits), "" at it, else why the ask lapsed."""
    if ask.id.game < here.game:
        return "that game is over"
    if ask.id.game == here.game and here.over:
        return "the game is over"
    if ask.id.game > here.game:
        return None
    if ask.kind.of_the_clock:  # bound to the line: the tables pause where each stands
        ahead, behind = (ask.at.takebacks > here.at.takebacks,
                         ask.at.takebacks < here.at.takebacks)
    elif here.paused:  # no move is made here until play goes on: a later place never comes
        return unfit(ask, here)
    else:
        ahead, behind = ask.at > here.at, ask.at < here.at
    if ahead:
        return None
    if behind:
        return "the game moved on since it was asked"
    return unfit(ask, here)


@dataclass(frozen=True)
class Step:
    """What one input did: the new state, then what to record (before anything else), send
    and do."""

    state: Negotiation
    records: tuple[Fact, ...] = ()
    sends: tuple[Message, ...] = ()
    effects: tuple[Effect, ...] = ()

    def then(self, other: Step) -> Step:
        """This step followed by ``other`` (made from this one's state)."""
        return Step(other.state, self.records + other.records, self.sends + other.sends,
                    self.effects + other.effects)


@dataclass(frozen=True)
class Negotiation:
    """One table's side of the asks of a match: its own asks waiting for a decision, the
    other table's ask it holds, and the decisions it made that the other has not
    acknowledged yet."""

    seat: str
    mine: tuple[PlacedAsk, ...] = ()
    withdrawn: frozenset[AskId] = frozenset()
    numbered: tuple[int, int] = (0, 0)  # (game, number) of this table's last ask
    theirs: PlacedAsk | None = None
    offered: bool = False
    made: tuple[Decision, ...] = ()
    acked: tuple[int, int] = (0, 0)  # the other's asks decided there up to (game, number)

    def __post_init__(self) -> None:
        if self.seat not in SEATS:
            raise AskUnfit(f"a table of a match plays seat A or B, not {self.seat!r}")

    @property
    def other(self) -> str:
        return "B" if self.seat == "A" else "A"

    # ------------------------------------------------------------ the person here asks

    def ask(self, here: Standing, kind: AskKind, to: int = -1) -> Step:
        """The person here asks the other table; AskUnfit (with why) when it cannot be."""
        if self.theirs is not None and self.offered:
            raise AskUnfit(f"the other table asked to {self.theirs.words()} first: agree or "
                           "decline that first")
        game, last = self.numbered
        number = last + 1 if game == here.game else 1
        ask = PlacedAsk(AskId(here.game, self.seat, number), kind, here.at, to)
        why = unfit(ask, here)
        if why:
            raise AskUnfit(f"the other table cannot be asked to {ask.words()}: {why}")
        state = replace(self, mine=(*self.mine, ask), numbered=(here.game, number))
        return Step(state, (Asked(ask),), (Asked(ask),))

    def withdraw(self, id: AskId) -> Step:
        """The person here takes their ask back: the other table decides what that means."""
        if id not in {ask.id for ask in self.mine}:
            raise NothingAsked("this table has no such ask waiting for the other's answer")
        gone = Withdrawn(id)
        return Step(replace(self, withdrawn=self.withdrawn | {id}), (gone,), (gone,))

    def settled(self, game: int) -> bool:
        """Whether every ask of this table in ``game`` (and before) is decided: only then may
        it set the game aside and start the next (a takeback agreed could still undo its
        end)."""
        return all(ask.id.game > game for ask in self.mine)

    # ------------------------------------------------------------ the person here answers

    def answer(self, here: Standing, agree: bool) -> Step:
        """The person here agrees to, or declines, the other table's ask on offer."""
        ask = self.theirs
        if ask is None or not self.offered:
            raise NothingAsked("the other table asks nothing now")
        why = place(ask, here)
        if why:  # (``moved`` lapses it first, so only a caller that skipped it lands here)
            return self._decide(ask, AskOutcome.LAPSED, why)
        return self._decide(ask, AskOutcome.AGREED if agree else AskOutcome.DECLINED)

    def moved(self, here: Standing) -> Step:
        """The game here changed (an action, a takeback, a pause, the next game): the other
        table's ask it holds may now be offered, or lapse."""
        ask = self.theirs
        if ask is None:
            return Step(self)
        if ask.kind is AskKind.RESUME and (ask.id.game < here.game or here.over):
            # The game ended here while the asking table stood paused before its last
            # move: it must play on to make that move, and nothing here changes.
            return self._decide(ask, AskOutcome.AGREED, "the game is over at this table")
        where = place(ask, here)
        if where is None:
            return Step(self)
        if where:
            return self._decide(ask, AskOutcome.LAPSED, where)
        if self.mine:
            return self._decide(ask, AskOutcome.LAPSED, "both tables asked at once: ask again "
                                "once this table's ask is answered")
        if ask.kind is AskKind.CLAIM:  # the table answers a claim: its player was away
            return self._decide(ask, AskOutcome.AGREED)
        if self.offered:
            return Step(self)
        return Step(replace(self, offered=True), effects=(Offer(ask),))

    # ------------------------------------------------------------ what the other table sends

    def received(self, message: Message, here: Standing) -> Step:
        """A message of the other table's negotiation (any number of times, in any order)."""
        if isinstance(message, Asked) and message.ask.id.seat == self.other:
            return self._heard(message.ask, here)
        if isinstance(message, Withdrawn) and message.id.seat == self.other:
            return self._withdrawn(message.id, here)
        if isinstance(message, Decided) and message.decision.ask.id.seat == self.seat:
            return self._adopt(message.decision)
        if isinstance(message, Acknowledged) and message.seat == self.other:
            upto = max(self.acked, (message.game, message.number))
            made = tuple(d for d in self.made if _key(d.ask.id) > upto)
            return Step(replace(self, acked=upto, made=made))
        return Step(self)

    def _heard(self, ask: PlacedAsk, here: Standing) -> Step:
        kept = self._made(ask.id)
        if kept is not None:
            return Step(self, sends=(Decided(kept),))  # (its decision may have been lost)
        if _key(ask.id) <= self.acked or ask == self.theirs:
            return Step(self)
        held = [] if self.theirs is None else [_key(self.theirs.id)]
        newest = max([_key(d.ask.id) for d in self.made] + held, default=(0, 0))
        if _key(ask.id) < newest:
            return self._decide(ask, AskOutcome.LAPSED, "a newer ask of the other table "
                                "replaced it")
        step = Step(self)
        if self.theirs is not None:
            step = self._decide(self.theirs, AskOutcome.LAPSED, "a newer ask of the other "
                                "table replaced it")
        holding = replace(step.state, theirs=ask, offered=False)
        return step.then(holding.moved(here))

    def _withdrawn(self, id: AskId, here: Standing) -> Step:
        kept = self._made(id)
        if kept is not None:
            return Step(self, sends=(Decided(kept),))
        if self.theirs is not None and self.theirs.id == id:
            return self._decide(self.theirs, AskOutcome.LAPSED, "the other table took it back")
        return Step(self)  # (its ask has not come yet: the asking table sends both again)

    def _adopt(self, decision: Decision) -> Step:
        if decision.ask.id not in {ask.id for ask in self.mine}:
            return Step(self)  # adopted already (or never asked here): once only
        mine = tuple(ask for ask in self.mine if ask.id != decision.ask.id)
        state = replace(self, mine=mine, withdrawn=self.withdrawn - {decision.ask.id})
        return Step(state, (Adopted(decision),), (), _effects(decision))

    def _decide(self, ask: PlacedAsk, outcome: AskOutcome, why: str = "") -> Step:
        decision = Decision(ask, outcome, why)
        state = replace(self, made=(*self.made, decision))
        if self.theirs == ask:
            state = replace(state, theirs=None, offered=False)
        return Step(state, (Decided(decision),), (Decided(decision),), _effects(decision))

    def _made(self, id: AskId) -> Decision | None:
        return next((d for d in self.made if d.ask.id == id), None)

    # ------------------------------------------------------------ sent again, rebuilt

    def again(self, game: int) -> tuple[Message, ...]:
        """What this table sends again (its link does, from what it recorded, until the other
        table shows it has it): its asks waiting and their withdrawals, the decisions it made
        that were not acknowledged, and how far its own asks are decided (in ``game``)."""
        waiting = tuple(Asked(ask) for ask in self.mine)
        gone = tuple(Withdrawn(id) for id in sorted(self.withdrawn))
        made = tuple(Decided(d) for d in self.made)
        numbers = [ask.id.number for ask in self.mine if ask.id.game == game]
        last = self.numbered[1] if self.numbered[0] == game else 0
        upto = min(numbers) - 1 if numbers else last
        return (*waiting, *gone, *made, Acknowledged(game, self.seat, upto))

    @classmethod
    def restored(cls, seat: str, facts: Iterable[Fact]) -> Negotiation:
        """This table's negotiation as its recorded facts leave it (after a restart: what it
        held only in memory, such as the other's ask on offer, comes again)."""
        state = cls(seat)
        for fact in facts:
            state = state._replayed(fact)
        return state

    def _replayed(self, fact: Fact) -> Negotiation:
        if isinstance(fact, Asked):
            return replace(self, mine=(*self.mine, fact.ask),
                           numbered=max(self.numbered, _key(fact.ask.id)))
        if isinstance(fact, Withdrawn):
            return replace(self, withdrawn=self.withdrawn | {fact.id})
        if isinstance(fact, Decided):
            return replace(self, made=(*self.made, fact.decision))
        return self._adopt(fact.decision).state


def _key(id: AskId) -> tuple[int, int]:
    return (id.game, id.number)


def _effects(decision: Decision) -> tuple[Effect, ...]:
    told = Told(decision)
    return (CarryOut(decision), told) if decision.outcome is AskOutcome.AGREED else (told,)

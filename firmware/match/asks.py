"""What one table of a match asks the other: a pause, play on, the end, a takeback, carried
out as the asks' protocol (``firmware.match.negotiation``) says.

Both tables of a match (``firmware.match.seat``) must hold the same game, so none of these
happens at one table alone. The person here asks (the menu button or the page's Pause, the
page's End the game, their press confirming a takeback of pieces they lifted off); the
other table's player agrees (their own button, or Agree on their page) or declines (the
menu button, or Decline). Only the answering table decides; the asking one adopts the
decision, whatever game the answering table plays by then.

Every input goes through one ``Negotiation`` value, replaced by each step: its records are
journalled first (``{"t": "negotiation", ...}`` entries), then what it sends again is told
to the link (a ``negotiation`` event), then its effects are carried out here: an ask put
to the person, a pause, play on, a takeback or the end, and the words that say it.

A takeback agreed happens at each table once its pieces stand as the game did before the
moves taken back (lifted off there, if they were not yet): neither table ever shows a
position its pieces do not. Each agreed takeback is journalled as one (``"agreed": true``),
so both tables count them alike, and an ask's place counts them too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.players import Player
from firmware.match.negotiation import Negotiation, Step
from firmware.match.negotiation_dicts import (
    ask_to_dict,
    fact_to_entry,
    message_from_dict,
    message_to_dict,
)
from firmware.match.negotiation_values import (
    Acknowledged,
    Adopted,
    AskKind,
    AskOutcome,
    AskUnfit,
    CarryOut,
    Decided,
    Decision,
    Effect,
    Fact,
    GamePlace,
    Offer,
    PlacedAsk,
    Standing,
    last_actions,
)

if TYPE_CHECKING:
    from engine.core import S
    from firmware.core.hooks import CoreTable, V

AskRefused = AskUnfit  # (the name the service's commands catch)


class Asks:
    """A match's asks at one table: its side of the negotiation, the game of the match it
    plays, and what was agreed (held by ``firmware.match.seat.MatchSeat``)."""

    def __init__(self, seat: Player, agreed: int = 0, game: int = 1,
                 facts: tuple[Fact, ...] = ()) -> None:
        """``seat``: the other table's; ``agreed``: the takebacks agreed in the game so far;
        ``game``: which game of the match; ``facts``: the asks' records of the journal (a
        resumed game rebuilds its side from them)."""
        self.seat = seat
        self.person = seat.other  # the person here
        self.negotiation = Negotiation.restored(self.person.value, facts)
        self.game = game
        self.agreed_to: int | None = None  # a takeback agreed: the actions that stay
        self.agreed = agreed  # takebacks agreed in this game
        self.end_due = False  # the end was agreed: the service sets the game aside
        self.unwritten: list[Fact] = []  # records made before the game's start was journalled
        self.left_paused = _left_paused(facts, game)  # (as the journal leaves the game)

    # ---------------------------------------------------------------- what the others read

    @property
    def mine(self) -> PlacedAsk | None:
        """This table's ask waiting for the other's decision (the newest)."""
        waiting = self.negotiation.mine
        return waiting[-1] if waiting else None

    @property
    def holding(self) -> PlacedAsk | None:
        """This table's ask that holds its person's moves until it is decided: a takeback or
        the end, bound to the place it was asked at. A move made meanwhile could end the
        game here while the other table agrees to undo it, and the two would part ways."""
        return next((ask for ask in self.negotiation.mine if not ask.kind.of_the_clock), None)

    @property
    def theirs(self) -> PlacedAsk | None:
        """The other table's ask on offer to the person here."""
        held = self.negotiation
        return held.theirs if held.offered else None

    def here(self, table: CoreTable[V, S]) -> Standing:
        """The game here as the negotiation needs it; a game not started yet stands before
        every place of it (an ask of it waits)."""
        if not table.started:
            return Standing(self.game, GamePlace(-1, -1))
        return Standing(self.game, GamePlace(self.agreed, len(table.actions)),
                        paused=table.may_resume(), over=table.between_games())

    def settled(self) -> bool:
        """Every ask this table made in its game is decided: it may set the game aside."""
        return self.negotiation.settled(self.game)

    def follow(self, before: Asks) -> None:
        """This table's next game of the match after ``before``'s: its negotiation goes on
        (decisions not acknowledged are sent again), recorded again once this game starts."""
        self.game, self.agreed, self.agreed_to = before.game + 1, 0, None
        self.negotiation = before.negotiation
        self.unwritten = [m for m in self.negotiation.again(self.game)
                          if not isinstance(m, Acknowledged)]

    # ---------------------------------------------------------------- the inputs

    def propose(self, table: CoreTable[V, S], kind: str, to: int = -1) -> str:
        """The person here asks the other table (``kind``); the words that say so."""
        if not table.game_on():
            raise AskRefused("no game is on: the other table is asked during a game only")
        step = self.negotiation.ask(self.here(table), AskKind(kind), to)
        ask = step.state.mine[-1]
        words = (f"asked the other table to {ask.words()}: it happens when its player "
                 "agrees")
        self._apply(table, step)
        table.tell("match", state="asked", ask=ask_to_dict(ask), message=words)
        return words

    def answer(self, table: CoreTable[V, S], agree: bool) -> PlacedAsk:
        """The person here answers the other table's ask on offer; the ask answered."""
        ask = self.theirs
        if ask is None:
            raise AskRefused("the other table asks nothing now")
        self._apply(table, self.negotiation.answer(self.here(table), agree))
        return ask

    def moved(self, table: CoreTable[V, S]) -> None:
        """The game here changed: the other table's ask held may be offered, or lapse."""
        self._apply(table, self.negotiation.moved(self.here(table)))

    def received(self, table: CoreTable[V, S], data: object) -> str:
        """A message of the other table's negotiation, as the link carried it."""
        message = message_from_dict(data)
        self._apply(table, self.negotiation.received(message, self.here(table)))
        return "taken"

    def again(self) -> list[dict[str, Any]]:
        """What this table sends the other again, as dicts (the link keeps it retained)."""
        return [message_to_dict(m) for m in self.negotiation.again(self.game)]

    # ---------------------------------------------------------------- a step, carried out

    def _apply(self, table: CoreTable[V, S], step: Step) -> None:
        """Records first, then what is sent, then what is done."""
        before = self.again()
        self.negotiation = step.state
        self.unwritten += step.records
        if table.game_on() and self.unwritten:  # (after its end: with the next game's start)
            for fact in self.unwritten:
                table.journal.append(fact_to_entry(fact))
            self.unwritten = []
        if step.sends or self.again() != before:
            table.tell("negotiation", messages=self.again())
        for effect in step.effects:
            self._effect(table, effect)

    def _effect(self, table: CoreTable[V, S], effect: Effect) -> None:
        if isinstance(effect, Offer):
            table.tell("match", state="offered", ask=ask_to_dict(effect.ask),
                       message=self._offer_words(effect.ask, table))
        elif isinstance(effect, CarryOut):
            self._carry_out(table, effect.decision.ask)
        else:
            decision = effect.decision
            table.tell("match", state=decision.outcome.value, ask=ask_to_dict(decision.ask),
                       message=self._told(decision))

    def _told(self, decision: Decision) -> str:
        """A decision as the person here reads it: as the asker, or as the answerer."""
        ask, outcome = decision.ask, decision.outcome
        if outcome is AskOutcome.LAPSED:
            return f"the ask to {ask.words()} lapsed: {decision.why}"
        if ask.id.seat == self.person.value:
            return f"the other table {outcome.value} to {ask.words()}"
        return f"the other table's ask to {ask.words()} was {outcome.value}"

    def _offer_words(self, ask: PlacedAsk, table: CoreTable[V, S]) -> str:
        who = table.SEATS.get(ask.id.seat, f"player {ask.id.seat}")  # as the game names them
        return (f"the other table ({who}) asks to {ask.words()}: press your button or Agree "
                "to agree; the menu button or Decline to decline")

    def _carry_out(self, table: CoreTable[V, S], ask: PlacedAsk) -> None:
        if ask.kind.of_the_clock and ask.id.game != self.game:
            return  # play on in a game over here (the other table still had moves to make)
        if ask.kind is AskKind.PAUSE:
            if table.may_pause():
                table.pause()
        elif ask.kind is AskKind.RESUME:
            if table.may_resume():
                table.resume()
        elif ask.kind in (AskKind.END, AskKind.CLAIM):
            self.end_due = True  # the service sets the game aside (``follow_up``)
        else:
            self.agreed_to = ask.to
            table.take_back_agreed()

    # ---------------------------------------------------------------- a takeback agreed

    def takeback_words(self, table: CoreTable[V, S]) -> str:
        """While an agreed takeback waits for the pieces: what to lift off here."""
        to = self.agreed_to
        if to is None:
            return ""
        done = "; then ".join(self._made(table, k) for k in range(to, len(table.actions)))
        undone = len(table.actions) - to
        return (f"as agreed with the other table, take back {last_actions(undone)} ({done}): "
                "put the pieces back as they stood before it")

    @staticmethod
    def _made(table: CoreTable[V, S], k: int) -> str:
        """Action ``k`` in words, with who made it ("player A placed ...")."""
        action, pos = table.actions[k], table.history[k]
        actor = pos.actor(action)
        who = table.SEATS[actor.value] if actor is not None else ""
        return f"{who} {table._done(action, pos)}".strip()

    def on_takeback(self, table: CoreTable[V, S], to: int) -> bool:
        """The pieces here stand as the game did before ``to`` of its actions: True when a
        takeback of the match was done, or refused in words (not offered as at a table of
        two people)."""
        if self.agreed_to is None:
            return False
        if to != self.agreed_to:
            table.repair.refuse(self.takeback_words(table), kind="task")
            return True
        self.agreed_to = None
        self.agreed += 1
        table.takebacks.take_back(to, why="agreed")
        self.moved(table)
        return True

    def confirms(self, table: CoreTable[V, S], player: Player) -> bool:
        """A press confirming a takeback on offer: in a match it asks the other table (the
        person's press), and the other seat's button means nothing here. True: taken."""
        if player is self.person and table.offer is not None and self.mine is None:
            self.propose(table, "takeback", table.offer.to)
            if self.negotiation.mine:  # the line asking to press is untrue now (the ask's
                table.repair.refuse("leave the pieces off until the other table answers",
                                    kind="takeback")  # own line says what was asked)
        return True

    def standing(self, table: CoreTable[V, S]) -> list[dict[str, Any]]:
        """The asks that stand, as events: for a reader that joins (a page, the link)."""
        out = [table.event("negotiation", messages=self.again())]
        mine = self.mine
        if mine is not None:
            out.append(table.event("match", state="asked", ask=ask_to_dict(mine),
                                   message=f"asked the other table to {mine.words()}"))
        theirs = self.theirs
        if theirs is not None:
            out.append(table.event("match", state="offered", ask=ask_to_dict(theirs),
                                   message=self._offer_words(theirs, table)))
        return out


def _left_paused(facts: tuple[Fact, ...], game: int) -> bool:
    """Whether the last pause or play on agreed in ``game`` (decided here or adopted) was a
    pause: the game stands paused at both tables until one is agreed to play on."""
    paused = False
    for fact in facts:
        if isinstance(fact, Decided | Adopted) and fact.decision.outcome is AskOutcome.AGREED \
                and fact.decision.ask.id.game == game and fact.decision.ask.kind.of_the_clock:
            paused = fact.decision.ask.kind is AskKind.PAUSE
    return paused

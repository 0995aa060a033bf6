"""What one table of a match asks the other: a pause, play on, the end, a takeback.

Both tables of a match (``firmware.match.seat``) must hold the same game,
so none of these happens at one table alone. The person here asks (the menu
button or the page's Pause, the page's End the game, their press confirming
a takeback of pieces they lifted off); ``obelisk remote`` carries the ask to
the other table, whose player agrees (their own button, or Agree on their
page) or declines (the menu button, or Decline). Only an agreement makes the
tables pause, play on, end or take back, and each table then does it itself.

A takeback agreed happens at each table once its pieces stand as the game
did before the moves taken back (lifted off there, if they were not yet):
neither table ever shows a position its pieces do not. Each agreed takeback
is journalled as one (``"agreed": true``), so both tables count them alike;
the link sends each action with that count, and an action of a line that
was taken back is never lit.

A takeback is bound to the game as it stood when it was asked (its actions,
its takebacks so far): one that comes after the game moved on is stale and
changes nothing. A pause, play on or the end holds while the game is in that
state, and an answer counts only for the ask still waiting here, so a repeat
(the broker keeps a table's last ask and last answer) never does anything
twice.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from engine.core import counted
from engine.errors import ObeliskError
from engine.players import Player

if TYPE_CHECKING:
    from engine.core import S
    from firmware.core.hooks import CoreTable, V

KINDS = ("pause", "resume", "end", "takeback")


class AskRefused(ObeliskError):
    """An ask or an answer that makes no sense now; the message says why."""


@dataclass(frozen=True)
class Ask:
    """One table's ask of the other, as both tables see it."""

    kind: str  # one of KINDS
    by: str  # the seat whose player asks: "A" or "B"
    n: int  # the game's actions when it was asked
    agreed: int  # the takebacks agreed in the game before it
    to: int = -1  # a takeback: how many actions stay

    def words(self) -> str:
        """What is asked, as the other player reads it."""
        if self.kind == "takeback":
            undone = self.n - self.to
            return f"take back the last {undone} action{'s' if undone != 1 else ''}"
        return {"pause": "pause the game", "resume": "play on",
                "end": "end the game here, unfinished"}[self.kind]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: object) -> Ask:
        """An ask as the link carried it; AskRefused when it is not one."""
        fields = data if isinstance(data, dict) else {}
        kind, by, n, agreed = (fields.get(k) for k in ("kind", "by", "n", "agreed"))
        to = fields.get("to", -1)
        if not (isinstance(kind, str) and kind in KINDS and by in ("A", "B")
                and type(n) is int and type(agreed) is int and type(to) is int
                and min(n, agreed, to) >= -1) or set(fields) - {"kind", "by", "n", "agreed",
                                                                "to"}:
            raise AskRefused(f"{str(data)[:80]} is not an ask of the other table")
        return cls(kind, str(by), n, agreed, to)


class Asks:
    """A match's asks at one table: the one made here and the other table's, each waiting
    for its answer, and what was agreed (held by ``firmware.match.seat.MatchSeat``)."""

    def __init__(self, seat: Player, agreed: int = 0) -> None:
        """``seat``: the other table's; ``agreed``: the takebacks agreed in the game so far
        (a resumed game's journal counts them again)."""
        self.seat = seat
        self.person = seat.other  # the person here
        self.mine: Ask | None = None  # asked of the other table, not answered yet
        self.theirs: Ask | None = None  # the other table's, for the person here to answer
        self.agreed_to: int | None = None  # a takeback agreed: the actions that stay
        self.agreed = agreed  # takebacks agreed in this game
        self.end_due = False  # the end was agreed: the service sets the game aside

    # ---------------------------------------------------------------- asking

    def propose(self, table: CoreTable[V, S], kind: str, to: int = -1) -> str:
        """The person here asks the other table (``kind``); the words that say so."""
        if self.theirs is not None:
            raise AskRefused(f"the other table asked to {self.theirs.words()} first: agree "
                             "or decline that first")
        ask = Ask(kind, self.person.value, len(table.actions), self.agreed, to)
        why = self._stale(table, ask)
        if why:
            raise AskRefused(why)
        self.mine = ask
        words = (f"asked the other table to {ask.words()}: it happens when its player "
                 "agrees")
        table.tell("match", state="asked", ask=ask.to_dict(), message=words)
        return words

    def answered(self, table: CoreTable[V, S], ask: Ask, agree: bool) -> str:
        """The other table's player answered an ask of this table's (``peer_answer``)."""
        if ask.by != self.person.value:
            raise AskRefused("that answer is to an ask of the other table's own")
        why = self._stale(table, ask)
        if not why and ask != self.mine and ask.kind != "takeback":
            why = "this table asks nothing of the kind now"  # (a repeat from the broker)
        if why:
            return f"nothing to do: {why}"
        self.mine = None if self.mine == ask else self.mine
        state = "agreed" if agree else "declined"
        table.tell("match", state=state, ask=ask.to_dict(),
                   message=f"the other table {state} to {ask.words()}")
        if agree:
            self._carry_out(table, ask)
        return state

    # ---------------------------------------------------------------- answering

    def offered_ask(self, table: CoreTable[V, S], ask: Ask) -> str:
        """The other table asks (``peer_ask``): put to the person here, once."""
        if ask.by != self.seat.value:
            raise AskRefused("an ask of the other table comes from its own seat")
        why = self._stale(table, ask)
        if why:
            return f"nothing to answer: {why}"
        if ask == self.theirs:
            return "asked already"
        self.theirs = ask
        table.tell("match", state="offered", ask=ask.to_dict(),
                   message=self._offer_words(ask, table))
        return "put to the person here"

    def _offer_words(self, ask: Ask, table: CoreTable[V, S]) -> str:
        who = table.SEATS.get(ask.by, f"player {ask.by}")  # as the game names its seats
        return (f"the other table ({who}) asks to {ask.words()}: press your button or Agree "
                "to agree; the menu button or Decline to decline")

    def answer(self, table: CoreTable[V, S], agree: bool) -> Ask:
        """The person here answers the other table's ask; the ask answered."""
        ask = self.theirs
        if ask is None:
            raise AskRefused("the other table asks nothing now")
        self.theirs = None
        why = self._stale(table, ask)
        state = "agreed" if agree and not why else "declined"
        words = f"the other table's ask to {ask.words()} was {state}" + (
            f": {why}" if agree and why else "")
        table.tell("match", state=state, ask=ask.to_dict(), message=words)
        if state == "agreed":
            self._carry_out(table, ask)
        return ask

    # ---------------------------------------------------------------- both tables

    def _stale(self, table: CoreTable[V, S], ask: Ask) -> str:
        """Why ``ask`` no longer fits the game here ("": it fits)."""
        if ask.kind == "takeback" and (ask.agreed != self.agreed or ask.n != len(
                table.actions)):
            return "the game moved on since it was asked"
        if ask.kind == "pause" and not table.may_pause():
            return "the game is not in play" if not table.may_resume() else "it is paused"
        if ask.kind == "resume" and not table.may_resume():
            return "the game is not paused"
        if ask.kind == "end" and not table.game_on():
            return "no game is on"
        if ask.kind == "takeback" and not 0 <= ask.to < ask.n:
            return f"there are not {ask.n - ask.to} actions to take back"
        return ""

    def _carry_out(self, table: CoreTable[V, S], ask: Ask) -> None:
        self.mine = None
        if ask.kind == "pause":
            table.pause()
        elif ask.kind == "resume":
            table.resume()
        elif ask.kind == "end":
            self.end_due = True  # the service sets the game aside (``CommandRunner.follow_up``)
        else:
            self.agreed_to = ask.to
            table.take_back_agreed()

    def takeback_words(self, table: CoreTable[V, S]) -> str:
        """While an agreed takeback waits for the pieces: what to lift off here."""
        to = self.agreed_to
        if to is None:
            return ""
        done = "; then ".join(table._done(table.actions[k], table.history[k])
                              for k in range(to, len(table.actions)))
        undone = len(table.actions) - to
        return (f"as agreed with the other table, take back the last "
                f"{counted(undone, 'action')} ({done}): lift those pieces off as they were "
                "before")

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
        return True

    def confirms(self, table: CoreTable[V, S], player: Player) -> bool:
        """A press confirming a takeback on offer: in a match it asks the other table (the
        person's press), and the other seat's button means nothing here. True: taken."""
        if player is self.person and table.offer is not None and self.mine is None:
            self.propose(table, "takeback", table.offer.to)
        return True

    def standing(self, table: CoreTable[V, S]) -> list[dict[str, Any]]:
        """The asks that stand, as events: for a reader that joins (a page, the link)."""
        out = []
        if self.mine is not None:
            out.append(table.event("match", state="asked", ask=self.mine.to_dict(),
                                   message=f"asked the other table to {self.mine.words()}"))
        if self.theirs is not None:
            out.append(table.event("match", state="offered", ask=self.theirs.to_dict(),
                                   message=self._offer_words(self.theirs, table)))
        return out

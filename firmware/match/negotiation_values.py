"""The values the asks between two tables are made of: an ask, its place in the game, the
answering table's decision, the messages that carry them and the facts a table records.

All are frozen and plain, so the negotiation (``negotiation``) stays a function of values:
the same inputs give the same new state, messages and records, at either table and after
any restart. Why an ask carries its place: the answering table may be behind or ahead of
the asking one, and only the place says whether the ask still fits there.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.core import counted
from engine.errors import ObeliskError


class AskUnfit(ObeliskError):
    """An ask or an answer that does not fit the game here now; the message says why."""


class NothingAsked(AskUnfit):
    """An answer when the other table asks nothing of the person here."""


class AskKind(StrEnum):
    """What one table may ask of the other."""

    PAUSE = "pause"
    RESUME = "resume"
    TAKEBACK = "takeback"
    END = "end"
    CLAIM = "claim"

    @property
    def of_the_clock(self) -> bool:
        """A pause or play on: it stops or starts the hourglasses and changes no action, so
        it is bound to the line it was asked in, not to its count. A paused table makes and
        records no move, so the two tables may pause one action apart (a move that was on
        its way); that move is made once play goes on."""
        return self in (AskKind.PAUSE, AskKind.RESUME)


class AskOutcome(StrEnum):
    """What became of an ask: only the answering table decides it."""

    AGREED = "agreed"
    DECLINED = "declined"
    LAPSED = "lapsed"


def last_actions(n: int) -> str:
    """"the last action", "the last 3 actions": how a takeback names what it undoes."""
    return "the last action" if n == 1 else f"the last {counted(n, 'action')}"


@dataclass(frozen=True, order=True)
class GamePlace:
    """Where a game stands: the takebacks agreed in it, then its actions. Ordered so, since a
    game only moves forward in that order (an agreed takeback starts a new line)."""

    takebacks: int
    actions: int


@dataclass(frozen=True, order=True)
class AskId:
    """Which ask: the game of the match, the seat asking, its number among that seat's asks
    in that game (from 1). Both tables key every decision by it."""

    game: int
    seat: str
    number: int


@dataclass(frozen=True)
class PlacedAsk:
    """One table's ask, bound to the place in the game where it was asked."""

    id: AskId
    kind: AskKind
    at: GamePlace
    to: int = -1  # a takeback: how many actions stay

    def words(self) -> str:
        """What is asked, as a player reads it."""
        if self.kind is AskKind.TAKEBACK:
            return f"take back {last_actions(self.at.actions - self.to)}"
        return {AskKind.PAUSE: "pause the game", AskKind.RESUME: "play on",
                AskKind.END: "end the game here (unfinished)",
                AskKind.CLAIM: "claim the game (the other table was out of touch)"}[self.kind]


@dataclass(frozen=True)
class Decision:
    """The answering table's decision on one ask, with its reason in a player's words."""

    ask: PlacedAsk
    outcome: AskOutcome
    why: str = ""

    def words(self) -> str:
        said = f"the ask to {self.ask.words()} was {self.outcome.value}"
        return f"{said}: {self.why}" if self.why else said


@dataclass(frozen=True)
class Standing:
    """The game at this table as the negotiation needs it: which game of the match, where
    it stands, paused or not, over or not."""

    game: int
    at: GamePlace
    paused: bool = False
    over: bool = False


@dataclass(frozen=True)
class Asked:
    """Message and record: this table asks (sent again until decided)."""

    ask: PlacedAsk


@dataclass(frozen=True)
class Withdrawn:
    """Message and record: the asking table takes its ask back; the answering table decides
    what that means (a lapse, unless it decided already)."""

    id: AskId


@dataclass(frozen=True)
class Decided:
    """Message and record: the answering table's decision (recorded before it is acted on,
    sent again until the asking table acknowledges it, whatever game is played by then)."""

    decision: Decision


@dataclass(frozen=True)
class Adopted:
    """Record: the asking table took the answering table's decision as its own."""

    decision: Decision


@dataclass(frozen=True)
class Acknowledged:
    """Message: every ask of ``seat`` in ``game`` up to ``number`` is decided at its table;
    the answering table need not send those decisions again."""

    game: int
    seat: str
    number: int


Message = Asked | Withdrawn | Decided | Acknowledged
"""What crosses between the two tables' negotiations."""
Fact = Asked | Withdrawn | Decided | Adopted
"""What a table records (its journal) and rebuilds its negotiation from after a restart."""


@dataclass(frozen=True)
class Offer:
    """Effect: put this ask to the person here (their button agrees, the menu declines)."""

    ask: PlacedAsk


@dataclass(frozen=True)
class CarryOut:
    """Effect: the game does what was agreed (pause, play on, take back to ``ask.to``, end
    or claimed at ``ask.at``); recorded already as ``Decided`` or ``Adopted``."""

    decision: Decision


@dataclass(frozen=True)
class Told:
    """Effect: say a decision to the person here (both tables say every outcome)."""

    decision: Decision


Effect = Offer | CarryOut | Told
"""What the table does after a step of the negotiation."""

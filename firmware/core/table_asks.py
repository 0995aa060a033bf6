"""What the table asks of the players: their turn, and before play goes on a repair, a
choice, a takeback.

``Asking`` is a part of ``firmware.core.table.Table`` (its state is the table's):

- the turn: whose it is and what to do (playing alone, the computer's move
  for the person to make, worked out first so its turn says it);

- the repair: what breaks the rules is refused, beeped and waited out, one
  problem at a time; nothing illegal is ever recorded;
- choosing: when several actions fit what the sensors saw, the candidates
  light one after another; the chooser's press steps, a hold plays;
- takebacks: lifting the last placements off again offers them back, and
  only the players whose pieces came off confirm.

A settled reading comes here as the game's ``Reading`` (``_read_settled``):
one decision for every game turns it into a repair, a choice, a takeback or
actions to play. When the table is as the game says again, ``_settled_back``
ends whichever it was.
"""

from __future__ import annotations

from typing import Any

from engine.core import counted, square_name
from engine.errors import InferenceError, ObeliskError, PutBackFirst
from engine.players import Player
from engine.reading import Reading, Takeback
from firmware.core.events import Mark
from firmware.core.table_parts import Actions, TableParts
from firmware.core.table_state import TableState


class Asking(TableParts):
    """The table's turns, repair, choices and takebacks (a part of ``Table``)."""

    # ------------------------------------------------------------------ the turn

    def _tell_turn(self, before: Any) -> None:
        """Say whose turn it is and what to do, if new since ``before`` (None: say it). The
        computer's move first (playing alone): its turn says it; one needing no hands is
        played at once."""
        solo = self.solo
        if solo is not None:
            played = solo.turn(self)
            if played:
                self._accept(played)
                return
        player = self.position.current_player()
        doing = self._doing()
        if player is not None and (before is None or before.current_player() is not player
                                   or doing != self._turn_said):
            self._turn_said = doing
            self.tell("turn", player=player.value, doing=doing)
        if solo is not None:
            solo.ask(self)

    def ask_far_seat(self) -> None:
        """The far seat's move came (the other table's, by the command socket): said in the
        turn's words and asked now, or played at once if it needs no hands."""
        self._tell_turn(None)

    def _doing(self) -> str:
        """The phase's words, or the computer's move it asks of the person (``solo``)."""
        words = self._phase_words()
        return words if self.solo is None else self.solo.doing(self, words)

    # ------------------------------------------------------------------ presses about the pieces

    def _view_button(self, player: Player, kind: str) -> None:
        """A press about the pieces (set out, a block above the rods, a pass...): the
        settled view is the table as it is."""
        if self.state == TableState.setup:
            self._setup_button(player, kind)
        elif self.solo is None or not self.solo.button(self, player, kind):
            self._play_button(player, kind)

    def _press_held_over(self) -> None:
        """A press held while the table settled, now that it has (and if it still means the
        same: the reading may have moved the table on to a choice or a repair), or now that
        the reading came back to what had settled (a hand passed over): it is about that."""
        if self.settler.deadline() is not None:  # still settling
            return
        held, self._held_press = self._held_press, None
        if held is not None and held[2] == self.state and (
                self.state == TableState.setup or self.in_plain_play()):
            self._view_button(held[0], held[1])

    # ------------------------------------------------------------------ a settled reading

    def _read_settled(self, view: Any, now: float) -> None:
        """What a settled reading means, acted on the same way in every game; then the
        turn's words again if the reading changed them (the maze's obelisk lifted: where it
        may go), so that no settled reading goes unanswered."""
        self._read_meaning(view)
        if self.state in (TableState.play, TableState.choose) and not self.position.is_terminal():
            self._tell_turn(self.position)

    def _read_meaning(self, view: Any) -> None:
        """A refusal to repair, a takeback to confirm, a choice to pick (a lifted piece's
        destinations lit), or the actions to play."""
        self.lifted = None
        try:
            reading = self._meaning(view)
        except ObeliskError as exc:
            self.offer, self.confirmed = None, set()
            task = isinstance(exc, PutBackFirst)  # pieces to put back, no rule broken
            self._wrong(str(exc), self._to_fix(view, exc), kind="task" if task else "rule")
            return
        if reading.takeback is not None:
            if self.solo is None or not self.solo.on_takeback(self, reading.takeback.to):
                self._offer_takeback(reading.takeback)  # (a match's are agreed first)
            return
        self.offer, self.confirmed = None, set()  # what came off is back: no takeback
        self.lifted = reading.lifted
        reading = self._asked_only(reading)
        if reading.choices:
            if self.state == TableState.repair:
                self._settled_back()
            assert reading.chooser is not None
            known = () if self.solo is None else self.solo.chosen(self.position, reading)
            if not known:
                self._ask(reading.chooser, reading.choices, self._question(reading))
                return
            self.candidates, self.chooser = (), None  # the far seat's: the one it asked
            if self.state == TableState.choose:
                self.picked()
            self._accept(known)
            return
        if reading.amends is not None:
            self._takeback(reading.amends, why="slide")
        self._settled_back(moving_on=bool(reading.actions))
        if reading.actions:
            self._accept(reading.actions)

    def _asked_only(self, reading: Reading) -> Reading:
        """Only the far seat's asked move counts for it: a lifted piece whose choices are the
        far seat's, none of them the asked move, is only in the hand on its way there, and
        nobody is asked to pick one."""
        solo = self.solo
        if (reading.lifted is None or solo is None or not solo.asked
                or reading.chooser is not solo.seat or solo.chosen(self.position, reading)):
            return reading
        return Reading(lifted=reading.lifted)

    def _reading(self, view: Any) -> Reading:
        """What a settled view means in the game (its ``sensing``); an ``ObeliskError``
        when it means nothing legal."""
        raise NotImplementedError

    def _to_fix(self, view: Any, exc: ObeliskError) -> tuple:
        """Where a refused reading is lit: the squares the refusal names (a game that
        knows better, the first piece to put right, says so)."""
        return exc.squares if isinstance(exc, InferenceError) else ()

    def _question(self, reading: Reading) -> str:
        """How a choice is asked (a game may have its own words). One candidate is no
        choice among moves: the player only says it was that one, or sets the piece down."""
        if len(reading.choices) > 1:
            return ""  # ``_ask``'s words: press for the next, hold on the right one
        assert reading.chooser is not None  # a choice always names who chooses
        who = self.SEATS[reading.chooser.value]
        words = ", ".join(self._words(a) for a in reading.choices[0])
        if reading.lifted is not None:
            return (f"{who}: set the piece down on a lit square; if it already stands as "
                    f"{words}, hold your button")
        return f"{who}: if that was {words}, hold your button"

    # ------------------------------------------------------------------ repair

    def _wrong(self, message: str, where: tuple = (), kind: str = "rule") -> None:
        """Show what stops play and record nothing: go to repair, or say a new problem there.
        ``kind`` says what it is (events.WORDS["refused"]): a rule broken, or a ``task`` to
        put right, or the table's own ``fault``; pages word and colour it by that."""
        changed = (message, kind) != (self.problem, self.problem_kind)
        self.problem, self.problem_kind = message, kind
        self.wrong = where
        self.candidates, self.chooser = (), None
        if self.state != TableState.repair and self.may_go_wrong():
            self.go_wrong()
        elif changed:
            self.beep()
            self._tell_refused()

    def _tell_refused(self) -> None:
        self.emit(self._refused_event())

    def _refused_event(self) -> dict:
        return self.event("refused", message=self.problem, kind=self.problem_kind,
                          where=[self._mark(w).to_dict() for w in self.wrong])

    def _mark(self, place: Any) -> Mark:
        """A place the LEDs light as a value the page draws: a square of the board (a
        game whose places are something else, the towers' cubes, says so)."""
        return Mark.on_square(square_name(place))

    def on_enter_repair(self) -> None:
        self.beep()
        self._tell_refused()

    def _settled_back(self, moving_on: bool = False) -> None:
        """The table is as the game says again: leave a repair, a stale choice or offer.
        A choice withdrawn is told (pages drop it), unless actions follow at once
        (``moving_on``: their own events say it)."""
        self.candidates, self.chooser, self.wrong = (), None, ()
        self.offer, self.confirmed = None, set()
        if self.state == TableState.choose:
            self.picked()
            if not moving_on:
                self.tell("repaired")
        elif self.state == TableState.repair:
            self.fixed()
            self.tell("repaired")

    def on_enter_play(self) -> None:
        self.problem = ""

    def _checked(self, actions: list | tuple) -> list[tuple[Any, Any]] | None:
        """Each action with the position after it, all checked by the rules before any is
        journalled; None, with the refusal shown, when the rules refuse one."""
        pos, steps = self.position, []
        for action in actions:
            try:
                pos = self._apply(pos, action)
            except ObeliskError as exc:
                self._wrong(*self._refusal(action, exc))
                return None
            steps.append((action, pos))
        return steps

    def _refusal(self, action: Any, exc: ObeliskError) -> tuple[str, tuple]:
        """What the players are told of an action the rules refuse, and where it is lit."""
        return str(exc), ()

    # ------------------------------------------------------------------ choosing

    def _ask(self, chooser: Player, candidates: tuple[Actions, ...], problem: str = "") -> None:
        """Light the candidates; the chooser steps with a press and plays one with a hold."""
        if candidates != self.candidates:
            self.pick = 0
        self.chooser, self.candidates = chooser, candidates
        self.problem = problem or (f"{self.SEATS[chooser.value]}: more than one move fits "
                                   "what the table sees; "
                                   "press your button to light the next, hold it on the "
                                   "right one")
        if self.state != TableState.choose:
            self.ask()
        self.emit(self._choose_event())

    def _choose_event(self) -> dict:
        assert self.chooser is not None
        return self.event("offer", kind="choose", players=[self.chooser.value], pick=self.pick,
                          candidates=self.candidate_words())

    def candidate_words(self) -> list[str]:
        """The candidates of the choice on offer, each in a player's words: the ``offer``
        event names them so, and the command socket's ``status`` too."""
        return [", ".join(self._words(a) for a in c) for c in self.candidates]

    def _choose(self, kind: str) -> None:
        if kind == "press":  # the next candidate lights, and the page's list follows
            self.pick = (self.pick + 1) % len(self.candidates)
            self.emit(self._choose_event())
            return
        actions = list(self.candidates[self.pick])
        if self._checked(actions) is None:  # refused (a wall that shuts a square off)
            return
        self.candidates, self.chooser = (), None
        self.picked()
        self._accept(actions)

    # ------------------------------------------------------------------ takebacks

    def _offer_takeback(self, offer: Takeback) -> None:
        if offer != self.offer:
            self.confirmed = set()
            self.emit(self._takeback_event(offer))
        self.offer = offer
        self.problem = self._takeback_words(offer.owners)
        self.problem_kind = "takeback"
        self.candidates, self.chooser = (), None
        if self.state == TableState.choose:
            self.picked()
        if self.state == TableState.play:
            self.go_wrong()

    def _takeback_words(self, owners: frozenset) -> str:
        """Who may take it back: the computer presses no button, so the person presses its
        seat's button for it."""
        far = self._pressed_for_computer(owners)
        if far is None:
            names = " and ".join(self.SEATS[p.value] for p in sorted(owners,
                                                                     key=lambda p: p.value))
            return (f"a piece came off: {names} may press their button to take it back, or "
                    "put it back")
        mine = "your button and " if len(owners) > 1 else ""
        return (f"a piece came off: to take it back, press {mine}{self.SEATS[far.value]}'s "
                "button for the computer; or put it back")

    def _pressed_for_computer(self, owners: frozenset) -> Any:
        """The computer's seat among ``owners`` (its button the person presses), or None."""
        solo = self.solo
        return solo.seat if solo is not None and solo.pressed_here and \
            solo.seat in owners else None

    def _takeback_event(self, offer: Takeback) -> dict:
        owners = sorted(offer.owners, key=lambda p: p.value)
        far = self._pressed_for_computer(offer.owners)
        extra = {} if far is None else {"computer": far.value}
        return self.event("offer", kind="takeback", players=[p.value for p in owners],
                          candidates=["take back "
                                      + counted(len(self.actions) - offer.to, "action")],
                          **extra)

    def _confirm_takeback(self, player: Player) -> None:
        """An owner of a lifted piece confirms; the other player's button does nothing."""
        assert self.offer is not None
        if self.solo is not None and self.solo.confirms(self, player):
            return  # a match: the other table is asked
        if player not in self.offer.owners:
            return
        self.confirmed.add(player)
        if self.confirmed >= self.offer.owners:
            self._takeback(self.offer.to)

    def _takeback(self, to: int, why: str = "confirmed") -> None:
        """Undo the actions after ``to`` (journalled first); ``why`` is "confirmed" for a
        player's takeback, "slide" when a piece moved on and its move is replaced."""
        undone = len(self.actions) - to
        agreed = {"agreed": True} if why == "agreed" else {}  # a match's: both count them
        self.journal.append({"t": "takeback", "to": to, **agreed})
        self._rewind(to)
        self.offer, self.confirmed = None, set()
        self.tell("takeback", undone=undone, actions=to, why=why,
                  observation=self.position.observation())
        self._tell_turn(None)
        if why == "confirmed":
            if self.state == TableState.repair:
                self.fixed()
            self.reconsider()

    def take_back_agreed(self) -> None:
        """A takeback the two tables of a match agreed: now, if the pieces here stand so
        already (lifted off for the ask), else once they do (the turn's words say which)."""
        if self.offer is not None and self.solo.on_takeback(self, self.offer.to):
            return
        self._tell_turn(None)

    def _rewind(self, to: int) -> None:
        self.history = self.history[: to + 1]
        self.actions = self.actions[:to]
        self.position = self.history[-1]

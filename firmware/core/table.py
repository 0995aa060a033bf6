"""The table core: what every game's table is, whatever its sensors and rules.

``Table`` is the model of a ``transitions`` machine:

    setup --begin / resumed--> play <--go_wrong / fixed--> repair
      ^                         | ^  ^                       |
      |               ask       | |  `-- resume -- paused <--'-- pause (menu)
      |                         v | picked
      |                        choose
      `-- new_game -- over <-- finish (from play, choose or repair)

It holds everything that does not depend on the game:

- settling: a sensor view counts once it has held still (``Settler``), and
  each settled view is handed once to the game's ``_decide``;
- recording: an action is journalled (fsynced) before it is applied, shown
  or announced; a refusal of the journal leaves nothing applied;
- the repair: what breaks the rules is refused, beeped and waited out, one
  problem at a time; nothing illegal is ever recorded;
- choosing: when several actions fit what the sensors saw, the candidates
  light one after another; the chooser's press steps, a hold plays;
- takebacks: lifting the last placements off again offers them back, and
  only the players whose pieces came off confirm;
- pause and resume (the menu button), the end (``Outcome``), a new game after it;
- resuming: the journal's unfinished game is rebuilt through the engine's
  rules from its seed and actions (``firmware.store.resume.replay_journal``).

The table is one class with collaborators that keep their own state, made with it:
``Turn`` (whose turn, and the decision on each settled reading), ``Repair``,
``Choosing``, ``Takebacks``, ``Start`` (start and resume, the seed) and ``Lighting``.

A game's table adds only what differs, through the hooks declared in
``firmware.core.hooks`` (what a settled view means, whether the board is set out, its
LED frame, what its buttons mean, its words, its journal entries, its own clocks); the
core calls nothing else of it. Everything it tells the world goes through
``events.make`` in the one vocabulary.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar, Generic, NamedTuple

from transitions import Machine

from engine.core import Outcome, S, seeded_start, square_name
from engine.errors import InferenceError, ObeliskError
from engine.players import PLAYERS, Player
from engine.reading import Reading, Takeback
from engine.record import options_to_dict
from firmware.core import events
from firmware.core.choosing import Actions, Choosing
from firmware.core.events import Mark
from firmware.core.hooks import Records, SeatAfar, TableGame, V
from firmware.core.lighting import Lighting
from firmware.core.palette import Frame
from firmware.core.repair import Repair
from firmware.core.settle import QUICK_S, Settler
from firmware.core.start import Start, fresh_seed
from firmware.core.surroundings import Listener, Surroundings
from firmware.core.table_state import READING_STATES, TableState
from firmware.core.takebacks import Takebacks
from firmware.core.turn import Turn
from firmware.store import standing
from firmware.store.journal import GameEntries, Journal
from hardware.buttons import ButtonEvent
from hardware.profile import Profile


class Prepared(NamedTuple, Generic[S]):
    """One action of a sure reading, worked out while the reading settles: the position
    before and after it, its words as the ``accepted`` event says them, the observation
    after it."""

    before: S
    after: S
    text: str
    seen: dict[str, Any]


CORE_STATES: tuple[StrEnum, ...] = tuple(TableState)
CORE_TRANSITIONS = (
    {"trigger": "begin", "source": TableState.setup, "dest": TableState.play},
    {"trigger": "resumed", "source": TableState.setup, "dest": TableState.play},
    {"trigger": "ask", "source": [TableState.play, TableState.repair], "dest": TableState.choose},
    {"trigger": "picked", "source": TableState.choose, "dest": TableState.play},
    {"trigger": "go_wrong", "dest": TableState.repair,
     "source": [TableState.play, TableState.choose]},
    {"trigger": "fixed", "source": TableState.repair, "dest": TableState.play},
    {"trigger": "pause", "dest": TableState.paused,
     "source": [TableState.play, TableState.choose, TableState.repair]},
    {"trigger": "resume", "source": TableState.paused, "dest": TableState.play},
    {"trigger": "finish", "dest": TableState.over,
     "source": [TableState.play, TableState.choose, TableState.repair]},
    {"trigger": "new_game", "dest": TableState.setup, "after": "_next_game",
     "source": TableState.over},
)


class Table(Generic[V, S]):
    """One game on a physical (or simulated) table; subclass it for a game.

    A subclass sets ``record`` (its engine record module) and ``SETUP`` (what
    the players are asked before a game), may add states and transitions
    (``EXTRA_STATES``, ``EXTRA_TRANSITIONS``, replacing core ones of the same
    trigger and source), and implements ``_reading(view)``: what a settled reading
    means while a game is played, as a ``Reading`` (the core acts on it).
    """

    STATES: ClassVar[tuple[StrEnum, ...]] = CORE_STATES
    TRANSITIONS: ClassVar[tuple[dict[str, Any], ...]] = CORE_TRANSITIONS
    EXTRA_STATES: ClassVar[tuple[StrEnum, ...]] = ()
    EXTRA_TRANSITIONS: ClassVar[tuple[dict[str, Any], ...]] = ()
    SETUP: ClassVar[str] = "set the pieces out for a new game, then press a player button"
    READY: ClassVar[str] = "the board is set: press a player button to start"
    PAUSED: ClassVar[str] = "paused: nothing changes until play resumes"  # (towers: its glass)
    SEATS: ClassVar[dict[str, str]] = {p.value: str(p) for p in PLAYERS}
    """The seats as the game names them (the maze names its roles), in every word said."""
    record: ClassVar[Records]  # engine.<game>.record: action_to_dict, action_from_dict
    draw_leds: ClassVar[Callable[..., Frame]]  # <game>/leds.py frame(table, now, ring_pixels)

    if TYPE_CHECKING:  # what the ``transitions`` machine adds to its model: the state and
        # its triggers, each with its ``may_`` (whether it may happen now)
        state: StrEnum

        def begin(self) -> bool: ...
        def resumed(self) -> bool: ...
        def ask(self) -> bool: ...
        def picked(self) -> bool: ...
        def go_wrong(self) -> bool: ...
        def fixed(self) -> bool: ...
        def pause(self) -> bool: ...
        def resume(self) -> bool: ...
        def finish(self) -> bool: ...
        def new_game(self) -> bool: ...
        def may_begin(self) -> bool: ...
        def may_resumed(self) -> bool: ...
        def may_ask(self) -> bool: ...
        def may_picked(self) -> bool: ...
        def may_go_wrong(self) -> bool: ...
        def may_fixed(self) -> bool: ...
        def may_pause(self) -> bool: ...
        def may_resume(self) -> bool: ...
        def may_finish(self) -> bool: ...
        def may_new_game(self) -> bool: ...

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        replaced = {(t["trigger"], str(t["source"])) for t in cls.EXTRA_TRANSITIONS}
        cls.STATES = CORE_STATES + cls.EXTRA_STATES
        cls.TRANSITIONS = tuple(t for t in CORE_TRANSITIONS
                                if (t["trigger"], str(t["source"])) not in replaced) \
            + cls.EXTRA_TRANSITIONS

    def __init__(self, game: TableGame[S], journal: Journal, *, around: Surroundings | None = None,
                 emit: Listener | None = None,
                 beep: Callable[[], None] | None = None, settle_s: float = 0.3,
                 quick_s: float = QUICK_S, seed: int | None = None,
                 solo: SeatAfar | None = None) -> None:
        """``around``: what surrounds the table (its lock, listeners, buzzer, what is known
        of the devices), handed on from the table before; a table on its own may be given
        only a listener (``emit``) and a buzzer (``beep``) instead."""
        if around is None:
            around = Surroundings(listeners=() if emit is None else (emit,),
                                  **({} if beep is None else {"beep": beep}))
        elif emit is not None or beep is not None:
            raise ValueError("a table given its surroundings takes its listeners and buzzer "
                             "from them")
        self.around = around
        self.game: TableGame[S] = game
        self.journal = journal
        seed = fresh_seed() if seed is None else seed
        if solo is not None:  # a match's tables both start from the match's own seed
            seed = solo.first_seed(seed)
        self.solo = solo  # a far seat: the computer (Computer), a match's other table (MatchSeat)
        self.settler: Settler[V] = Settler(settle_s, quick_s)
        self._prepared: dict[Any, Prepared[S]] = {}  # a sure reading's actions, worked out
        # (position, view and key, its Reading or refusal)
        self._meant: tuple[S, tuple[V, object], Reading | ObeliskError] | None = None
        self.view: V | None = None
        self.decided: V | None = None  # the last settled view fully dealt with
        self.problem = ""  # what stands between the players and play now, in words
        self._end_due = False  # the game is over, but its end is not written yet (a full disk)
        self.position: S = seeded_start(game, seed)[0]  # the start, until a game
        self.history: list[S] = [self.position]
        self.actions: list[Any] = []
        self._now = 0.0
        # the collaborators, each keeping its own part of the table's state
        self.choosing = Choosing(self)
        self.repair = Repair(self, self.choosing)
        self.takebacks = Takebacks(self, self.repair, self.choosing)
        self.turn = Turn(self, self.repair, self.choosing, self.takebacks)
        self.starter = Start(self, seed, self.turn, self.choosing, self.takebacks)
        self.lighting = Lighting(self)
        self.machine = Machine(model=self, states=list(self.STATES),
                               transitions=[dict(t) for t in self.TRANSITIONS],
                               initial=TableState.setup, auto_transitions=False, queued=True)

    # ------------------------------------------------------------------ the collaborators' state

    @property
    def seed(self) -> int:
        """The game's seed (its chance: the towers' toss, High Rise's hidden values)."""
        return self.starter.seed

    @property
    def started(self) -> bool:
        """The journal holds this game's start."""
        return self.starter.started

    @property
    def candidates(self) -> tuple[Actions, ...]:
        """The choice on offer's candidates (none: no choice)."""
        return self.choosing.candidates

    @property
    def chooser(self) -> Player | None:
        return self.choosing.chooser

    @property
    def pick(self) -> int:
        """Which candidate is lit."""
        return self.choosing.pick

    @property
    def offer(self) -> Takeback | None:
        """The takeback on offer, if any."""
        return self.takebacks.offer

    @property
    def confirmed(self) -> set[Player]:
        """Who of the takeback's owners confirmed it."""
        return self.takebacks.confirmed

    @property
    def lifted(self) -> tuple[int, int] | None:
        """A piece held in the air: where it may go is lit."""
        return self.turn.lifted

    @property
    def wrong(self) -> tuple[Any, ...]:
        """Where the LEDs light what is wrong."""
        return self.repair.where

    @property
    def lights(self) -> dict[str, Any] | None:
        """What the LEDs show, as last told (a ``lights`` event)."""
        return self.lighting.told

    # ------------------------------------------------------------------ telling

    @property
    def lock(self) -> threading.RLock:
        """The lock the service and the people's hands take turns with (``around``'s)."""
        return self.around.lock

    def emit(self, event: dict[str, Any]) -> None:
        """Hand one event to whoever listens (``around``'s listeners)."""
        self.around.tell(event)

    def beep(self) -> None:
        self.around.beep()

    def tell(self, name: str, /, **fields: object) -> None:
        """Emit one event of the vocabulary (checked)."""
        self.emit(self.event(name, **fields))

    def event(self, name: str, /, **fields: object) -> dict[str, Any]:
        """One event of the vocabulary, as this table tells it (checked)."""
        return events.make(name, **self._shown(name, fields))

    def public_state(self) -> dict[str, Any]:
        """The whole public state as a ``table`` event: what a new reader starts from."""
        player = self.position.current_player() if self.started else None
        match = {} if self.solo is None else self.solo.public()  # a match: its name, seat
        return self.event("table", game=self.game.id,
                          options=options_to_dict(self.game.options), players=self.players(),
                          state=self.state, turn=player.value if player else None,
                          doing=self.turn.doing() if player else "", problem=self.problem,
                          actions=len(self.actions), observation=self.starter.observation(),
                          moves=self.moves(), **match)

    def moves(self) -> list[dict[str, Any]]:
        """Every action of the game so far, each as its ``accepted`` event told it (its number,
        who, in words): a page that joins late, or follows a table started again on its
        journal, lists the moves from the first."""
        return [{"n": n + 1, "player": _actor(self.history[n], action).value,
                 "text": self._done(action, self.history[n])}
                for n, action in enumerate(self.actions)]

    def opening(self, now: float) -> list[dict[str, Any]]:
        """What a new reader of the stream starts from: the whole public state, then what
        stands at this moment beyond it (a pause, a refusal, an offer, an hourglass), so a
        page that joins mid-game shows what one there from the start shows."""
        events = [self.public_state()]
        if self.state == TableState.paused:
            events.append(self.event("pause", state="paused"))
        if self.state == TableState.repair and self.problem:
            events.append(self.repair.event())
        if self.state == TableState.choose and self.chooser is not None:
            events.append(self.choosing.event())
        if self.offer is not None:
            events.append(self.takebacks.event(self.offer))
        if self.solo is not None:
            events += self.solo.standing(self)
        if self.around.missing:  # a table not wired up yet: what is missing stays said
            events.append(self.event("devices", missing=self.around.missing))
        if self.around.scanner is not None:
            events.append(self.around.scanner)
        if self.lights is not None:
            events.append(self.lights)
        return events + self._lasting_events(now)

    def players(self) -> dict[str, Any]:
        """Who plays, as the game names its seats (a game may name roles); playing alone, the
        computer's seat says so ("player B (computer, level 2)")."""
        seats = dict(self.SEATS)
        return seats if self.solo is None else self.solo.solo.marked(seats)

    # ------------------------------------------------------------------ inputs

    def on_view(self, view: V, now: float) -> None:
        """A fresh (unsettled) reading of the table: a new one is looked at once (whether
        the game is sure of it decides how long it must hold)."""
        view = self._sensed(view)
        self.view = view
        self.settle_on(view, now)

    def settle_on(self, view: V, now: float) -> None:
        """A reading for the settler (the board read again): a new one restarts its clock."""
        if self.settler.is_new(view):
            sure = self.settler.may_hurry(view) and self._sure_now(view)
            self.settler.feed(view, now, sure)

    def reconsider(self) -> None:
        """Decide the pending reading once more when it has settled (after a resync, a
        repair, a retry of the journal): the position changed, so whether the game is sure
        of it is asked again."""
        self.settler.forget()
        pending = self.settler.pending
        if pending is not None and self.settler.may_hurry(pending) and self._sure_now(pending):
            self.settler.hurry()

    def tick(self, now: float) -> None:
        """Let time pass: write a game's end the disk refused, decide on a view the first
        time it has held still."""
        self._now = now
        if self._end_due and self.may_finish():
            self._end()
        settled = self.settler.settled(now)
        if settled is not None:
            try:
                self._decide(settled, now)
            finally:
                self.decided = settled
        self.turn.held_over()
        self._clocks(now)

    def next_deadline(self) -> float | None:
        """When ``tick`` next has something to do (for the service's sleep)."""
        times = [t for t in (self.settler.deadline(), self._clocks_due()) if t is not None]
        return min(times) if times else None

    def on_button(self, event: ButtonEvent, now: float) -> None:
        """A button: the menu pauses, a player's press or hold means what the state says."""
        self._now = now
        if event.button == "menu":
            if event.kind == "press":
                self._menu()
            return
        player = Player(event.button)
        if self.solo is None or not self.solo.answers(self, player, event.kind):
            self._player_button(player, event)  # (else: the other table's ask, agreed)

    def _player_button(self, player: Player, event: ButtonEvent) -> None:
        """A player's press or hold, as the state says."""
        if self.may_new_game():
            held = "" if self.solo is None else self.solo.next_game_held(self)
            if event.kind == "press" and held:
                self.tell("notice", message=held)
            elif event.kind == "press":
                self.new_game()
        elif self.state == TableState.choose:
            if player is self.chooser:
                self.choosing.press(event.kind)
        elif self.takeback_waiting():
            self.takebacks.confirm(player)
        elif self.state == TableState.setup or self.in_plain_play():
            if self.settler.deadline() is not None:  # about the table as it settles now
                self.turn.hold(player, event.kind)
            else:
                self.turn.press(player, event.kind)

    def _menu(self) -> None:
        if self.solo is not None and self.solo.menu(self):
            return  # a match: the other table is asked (or its ask declined)
        if self.may_pause():
            self.pause()
        elif self.may_resume():
            self.resume()
        elif self.state == TableState.setup:
            self._setup_menu()

    # What may be done now. The machine's own ``may_<trigger>()`` answers for its
    # triggers (``may_pause``, ``may_resume``, ``may_begin``, ``may_new_game``...); these
    # answer for what is no trigger, here once for the buttons and the command socket.

    def between_games(self) -> bool:
        """No game is under way: one may begin (setup), or a new one be set up (over). The
        command socket's ``new`` sets another game up at these moments only."""
        return self.may_begin() or self.may_new_game()

    def game_on(self) -> bool:
        """A game is under way: journalled and not over (the command socket's ``end``)."""
        return self.started and not self.between_games()

    def in_plain_play(self) -> bool:
        """Plain play, no choice, repair or takeback awaited: a player's button means the
        game's own thing (a bonus declined, a hint asked) and a sure reading counts early."""
        return self.state == TableState.play and self.offer is None

    def takeback_waiting(self) -> bool:
        """A takeback is on offer that its owners' buttons may confirm now (not paused)."""
        return self.offer is not None and self.state in (TableState.play, TableState.repair)

    def choice_waiting(self) -> bool:
        """A choice awaits its chooser: presses step through the candidates, a hold plays."""
        return self.may_picked() and self.choosing.waiting

    def _setup_button(self, player: Player, kind: str) -> None:
        """A player's button before a game: start it once the table is set up."""
        if kind == "press" and self.decided is not None and self.ready(self.decided):
            self.starter.begin()

    def _decide(self, view: V, now: float) -> None:
        """A settled reading, dealt with once: before a game, whether the pieces are set out;
        while one is played (or a choice or a repair is awaited), what it means; in any
        other state (paused, over) nothing."""
        if self.state == TableState.setup:
            was, shown = self.problem, self.setup_seen(self.decided)
            self._setup_view(view)
            seen = self.setup_seen(view)
            if self.state == TableState.setup and (self.problem != was or seen != shown):
                # what to set out next, and what of it stands already
                self.tell("setup", problem=self.problem,
                          **({} if seen is None else {"observation": seen}))
        elif self.state in READING_STATES:
            self.turn.read(view)

    def _sure_now(self, view: V) -> bool:
        """Whether a fresh reading may count after the short window: only in plain play,
        nothing offered, and the game sure it is complete legal actions. Those are applied
        now, while the reading settles, with what their ``accepted`` events will say, so
        that the decision has less to do between the window's end and the LEDs."""
        if not self.in_plain_play():
            return False
        try:
            actions = self._sure(view)
            pos, prepared = self.position, {}
            for action in actions:
                after = pos.apply_action(action)
                after.legal_actions()  # worked out once, kept by the position
                prepared[action] = Prepared(pos, after, self._done(action, pos),
                                            after.observation())
                pos = after
            if actions and not pos.is_terminal():  # the next turn's words, asked now: a
                self._phase_words(pos)  # game that keeps them (stones) has them ready
        except (ObeliskError, KeyError, ValueError):
            return False
        self._prepared = prepared
        return bool(actions)

    def _meaning(self, view: V) -> Reading:
        """The game's ``_reading`` of ``view``, worked out once and kept: the short settle
        window asks it as the view arrives, the decision once it has settled. A position
        always follows the same history, so the position itself (not an equal one), the view
        and what else the game reads (``_reading_key``) are the key; a refusal is kept too."""
        kept = self._meant
        if kept is not None and kept[0] is self.position and kept[1] == (view,
                                                                         self._reading_key()):
            meant = kept[2]
        else:
            try:
                meant = self._reading(view)
            except ObeliskError as exc:
                meant = exc
            self._meant = (self.position, (view, self._reading_key()), meant)
        if isinstance(meant, ObeliskError):
            raise meant
        return meant

    def _apply(self, pos: S, action: Any) -> S:
        """The position after ``action`` (worked out already if the reading was sure)."""
        prepared = self._prepared.get(action)
        if prepared is not None and prepared.before is pos:
            return prepared.after
        return pos.apply_action(action)

    def _foreseen(self, action: Any) -> Prepared[S] | None:
        """What a sure reading worked out for ``action`` made in the position now, if it did:
        the ``accepted`` event's words and observation are then ready."""
        prepared = self._prepared.get(action)
        return prepared if prepared is not None and prepared.before is self.position else None

    # ------------------------------------------------------------------ recording

    def _accept(self, actions: list[Any] | tuple[Any, ...]) -> None:
        """Journal each action (fsynced), apply it, tell it; the LEDs follow. Nothing the
        rules refuse reaches the journal, not even the first of several actions."""
        if self.solo is not None:  # a far seat's move made here is journalled as it asked it
            actions = [self.solo.recorded(self.position, action) for action in actions]
        steps = self._checked(actions)
        if steps is None:
            return
        before = self.position
        for action, after in steps:
            actor = _actor(self.position, action)
            refusal = self.solo.refuse(self, action, actor) if self.solo is not None else None
            if refusal is not None:  # made for the computer, but not the move it asked
                self.repair.refuse(*refusal)
                return
            self.journal.append({"t": "action", "n": len(self.actions) + 1,
                                 **self._entry_of(action)})
            foreseen = self._foreseen(action)
            told: dict[str, object] = {
                "action": self._notation(action),
                "text": self._done(action) if foreseen is None else foreseen.text}
            move = self._public_move(action)
            if move is not None:
                told["move"] = move
            self._record(action, after)
            seen = foreseen.seen if foreseen is not None and foreseen.after is after \
                else self.position.observation()
            self.tell("accepted", player=actor.value, **told, observation=seen)
        self._accepted(before)
        if self.position.is_terminal():
            self._end()
        else:
            self.turn.tell(before)

    def _record(self, action: Any, after: S) -> None:
        self.position = after
        self.turn.lifted = None  # a piece lifted was read in the one before
        self.history.append(self.position)
        self.actions.append(action)

    def cannot_record(self, message: str) -> None:
        """The journal refused the last action (a full disk): nothing was confirmed.

        The table shows why and waits; the service tries the same reading
        again a little later, so the action is recorded once the disk allows.
        """
        self.repair.refuse(message, kind="fault")

    # ------------------------------------------------------------------ pause, the end

    def on_enter_paused(self) -> None:
        self.tell("pause", state="paused")
        self._on_pause()

    def on_exit_paused(self) -> None:
        self.tell("pause", state="resumed")
        self.reconsider()  # what changed while paused is looked at afresh

    def _end(self) -> None:
        """The end is an accepted action like any other: on disk before it shows. When the
        journal refuses it (a full disk) the game stays where it is, the table says why,
        no press starts a new game, and each ``tick`` tries again until it is written."""
        self._end_due = True
        self.journal.append({"t": "over", "result": self.result()})
        self._end_due = False
        self.problem = ""
        self.repair.where = ()
        self.finish()

    def on_enter_over(self) -> None:
        outcome = self.final_outcome()
        self._ending(outcome)
        self.tell("game_over", game=self.game.id, outcome=outcome.to_dict(self.SEATS),
                  observation=self.position.observation())

    def result(self) -> dict[str, Any]:
        """The outcome as plain data (``Outcome.to_dict``)."""
        return self.final_outcome().to_dict(self.SEATS)

    def final_outcome(self) -> Outcome:
        """How the game ended: asked only once the position is terminal (the end's event,
        the journal, the rings' colours)."""
        outcome = self.position.outcome()
        assert outcome is not None, "a finished game always has its outcome"
        return outcome

    # ------------------------------------------------------------------ start, resume, stop

    def start(self, now: float) -> None:
        """Resume the journal's unfinished game, or wait in setup for a new one."""
        self._now = now
        self.starter.start(now)

    def stopping(self, now: float) -> str:
        """The table stops: keep what the journal does not, for the resume. Returns what
        could not be kept, in words ("" when all was)."""
        return self.starter.stopping(now)

    def _next_game(self) -> None:
        """After a game (the machine's ``new_game``): the players set up again."""
        self.starter.next_game()

    LOST_AT_STOP: ClassVar[str] = "what stood beyond the moves is not kept"
    """Said when ``stopping`` could not keep it: what the resume will lack."""

    # ------------------------------------------------------------------ the LEDs

    def led_frame(self, now: float, ring_pixels: int) -> Frame:
        """Every LED now: the game's picture with the far seat's asked move over it."""
        return self.lighting.frame(now, ring_pixels)

    def tell_lights(self, frame: Frame) -> None:
        """Tell the page what the LEDs show (``Lighting.tell``)."""
        self.lighting.tell(frame)

    def board_shape(self) -> tuple[int, int]:
        """The game's board, rows and columns, as its observation says (0, 0: none)."""
        seen = self.position.observation()
        size = int(seen.get("size") or 0)
        return int(seen.get("rows") or size), int(seen.get("cols") or size)

    # ------------------------------------------------------------------ the far seat's asks

    def tell_turn(self, before: S | None = None) -> None:
        """Say whose turn it is and what to do, if new since ``before`` (``Turn.tell``)."""
        self.turn.tell(before)

    def ask_far_seat(self) -> None:
        """The far seat's move came (the other table's, by the command socket): said in the
        turn's words and asked now, or played at once if it needs no hands."""
        self.turn.tell(None)

    def take_back_agreed(self) -> None:
        """A takeback the two tables of a match agreed (``Takebacks.agreed``)."""
        self.takebacks.agreed()

    # ------------------------------------------------------------------ leaving a question

    def settled_back(self, moving_on: bool = False) -> None:
        """The table is as the game says again: leave a repair, a stale choice or offer.
        A choice withdrawn is told (pages drop it), unless actions follow at once
        (``moving_on``: their own events say it)."""
        self.choosing.withdraw()
        self.repair.where = ()
        self.takebacks.withdraw()
        if self.state == TableState.choose:
            self.picked()
            if not moving_on:
                self.tell("repaired")
        elif self.state == TableState.repair:
            self.fixed()
            self.tell("repaired")

    def on_enter_repair(self) -> None:
        self.repair.entered()

    def on_enter_play(self) -> None:
        self.problem = ""
        self._on_play()

    def _checked(self, actions: list[Any] | tuple[Any, ...]) -> list[tuple[Any, S]] | None:
        """Each action with the position after it, all checked by the rules before any is
        journalled; None, with the refusal shown, when the rules refuse one."""
        pos, steps = self.position, []
        for action in actions:
            try:
                pos = self._apply(pos, action)
            except ObeliskError as exc:
                self.repair.refuse(*self._refusal(action, exc))
                return None
            steps.append((action, pos))
        return steps

    def _play_game(self, game: TableGame[S]) -> None:
        """From now on the table plays ``game`` (a resume: the options its journal says)."""
        self.game = game

    def rewind(self, to: int) -> None:
        """Back to the position after the first ``to`` actions (a takeback)."""
        self.history = self.history[: to + 1]
        self.actions = self.actions[:to]
        self.position = self.history[-1]

    # ------------------------------------------------------------------ hooks: the defaults
    # What a game's table may say of itself (``firmware.core.hooks.GameHooks``): each is
    # asked by the core at one moment, and a game overrides none but these.

    def _reading(self, view: V) -> Reading:
        """What a settled view means in the game (its ``sensing``); an ``ObeliskError``
        when it means nothing legal."""
        raise NotImplementedError

    def _to_fix(self, view: V, exc: ObeliskError) -> tuple[Any, ...]:
        """Where a refused reading is lit: the squares the refusal names (a game that
        knows better, the first piece to put right, says so)."""
        return exc.squares if isinstance(exc, InferenceError) else ()

    def _question(self, reading: Reading) -> str:
        """How a choice is asked (a game may have its own words). One candidate is no
        choice among moves: the player only says it was that one, or sets the piece down."""
        if len(reading.choices) > 1:
            return ""  # ``Choosing.ask``'s words: press for the next, hold on the right one
        words = ", ".join(self._words(a) for a in reading.choices[0])
        if reading.lifted is not None:
            return (f"set the piece down on a lit square; if it already stands as {words}, "
                    "hold your button")
        return f"if that was {words}, hold your button"

    def _refusal(self, action: Any, exc: ObeliskError) -> tuple[str, tuple[Any, ...]]:
        """What the players are told of an action the rules refuse, and where it is lit."""
        return str(exc), ()

    def _mark(self, place: Any) -> Mark:
        """A place the LEDs light as a value the page draws: a square of the board (a
        game whose places are something else, the towers' cubes, says so)."""
        return Mark.on_square(square_name(place))

    def light_cols(self, strip: str, count: int) -> int:
        """How many LEDs a row of ``strip`` holds, to lay it out as the table does (a board
        as wide as the game's; anything else in one row)."""
        if strip == "board":
            return self.board_shape()[1] or count
        return count

    def light_places(self, strip: str, count: int) -> list[str] | None:
        """The square (or rod) each LED of ``strip`` lights, by its index, for the page to
        draw it there ("": an LED beyond the game's board, a 3x3 game's on an 8x8 strip);
        None for a strip that lights no square (a ring, the zone pads). The board's LEDs
        run row by row, ``light_cols`` to a row, as every game's ``leds`` numbers them."""
        if strip != "board":
            return None
        rows, cols = self.board_shape()
        width = self.light_cols(strip, count)
        places = [""] * count
        for row in range(rows):
            for col in range(cols):
                if row * width + col < count:
                    places[row * width + col] = square_name((row, col))
        return places

    def _check_journal(self) -> None:
        """Before the journal is read at start (High Rise: the key its sealed games need)."""

    def _open_start(self, entries: GameEntries) -> None:
        """Before an unfinished game is replayed (High Rise opens its sealed start)."""

    def _start_seed(self, start: dict[str, Any]) -> int:
        """The seed a journalled start holds."""
        seed = start.get("seed", 0)  # journals before chance moved into the engine: none
        if type(seed) is not int:
            raise ValueError(f"the seed {seed!r} is not a whole number")
        return seed

    def _initial(self, start: dict[str, Any], seed: int) -> S:
        """The first position of a journalled game (chance from its seed)."""
        return seeded_start(self.game, seed)[0]

    def _resumed_from(self, entries: GameEntries, kept: standing.Kept) -> None:
        """After a resume: what a game must restore beyond its position (``kept``: what
        ``standing`` said at the last stop)."""

    def standing(self, now: float) -> dict[str, Any]:
        """What stands now beyond the moves, as plain values: a pause (and a game's own, as
        a turn's hourglass); {}: nothing."""
        return {"paused": True} if self.state == TableState.paused else {}

    def _start_entry(self, entry: dict[str, Any], state: S) -> dict[str, Any]:
        """The journal's start line (``entry``: the core's) as the game writes it."""
        return entry

    def extras(self) -> dict[str, Any]:
        """What the game is made of beyond its options (a towers set), for the journal; the
        command socket's ``end`` and ``new`` set the same game up again with it."""
        return {}

    def _beginning(self) -> None:
        """Just before a new game's start is journalled."""

    def _set_up_again(self) -> None:
        """After a game, once the players are asked to set up the next (a game's own
        clocks stop)."""

    def setup_seen(self, view: V | None) -> dict[str, Any] | None:
        """Before a game: the game's start as far as the sensors (``view``; None: no reading
        yet) see it set out, as an observation, for a game whose start has pieces on the
        board (stones); None where the start's own observation shows the table as it is."""
        return None

    def _taken_back(self) -> None:
        """After a takeback (a turn it undid stops its hourglass)."""

    def _clocks(self, now: float) -> None:
        """A game's own clocks, at each ``tick`` after the reading (the towers' coin toss
        and hourglass)."""

    def _on_play(self) -> None:
        """Play begins or goes on (a game's own clocks run)."""

    def _on_pause(self) -> None:
        """The menu paused play (a game's own clocks stop)."""

    def _clocks_due(self) -> float | None:
        """When the game's own clocks next have something to do (None: never)."""
        return None

    def _sensed(self, view: V) -> V:
        """The part of a fresh reading the game reads (High Rise: its board's pads)."""
        return view

    def _shown(self, name: str, fields: dict[str, Any]) -> dict[str, Any]:
        """An event's fields as this game lets the world see them (High Rise hides its
        stacks until the end)."""
        return fields

    def _lasting_events(self, now: float) -> list[dict[str, Any]]:
        """A game's own lasting state for a new reader (its hourglass), as events."""
        return []

    @classmethod
    def for_service(cls, game: Any, journal: Journal, profile: Profile, *, seed: int,
                    around: Surroundings, solo: SeatAfar | None = None) -> Table[Any, Any]:
        """The table ``obelisk run`` plays on ``profile`` (``solo``: the computer's seat, a
        ``firmware.seats.solo.Computer``, or None); a game whose table needs more of the profile
        (wall switches, load cells) checks it here first. ``game`` is Any: each game's table
        takes its own game class here, which no one parameter type of the core admits."""
        return cls(game, journal, around=around, seed=seed, solo=solo)

    def led_change(self, now: float, ring_pixels: int) -> float | None:
        """When the LED frame next changes with only time passing (None: only input changes
        it); a game whose frame moves on its own sets this to its ``leds.next_change``."""
        return None

    def _setup_menu(self) -> None:
        """The menu button before a game (towers: the next options)."""

    def ready(self, view: V) -> bool:
        """Whether a settled view is the table set up for a new game."""
        return False

    def decliners(self) -> tuple[Player, ...]:
        """The players who may decline something now with their button (a game with
        nothing to decline: nobody)."""
        return ()

    def _play_button(self, player: Player, kind: str) -> None:
        """A player's button during play (a game's own meaning: decline, pass, a move...)."""

    def _setup_view(self, view: V) -> None:
        """Before a game: tell the players whether the table is set out (``ready``)."""
        self.problem = self.READY if self.ready(view) else self.SETUP

    def _sure(self, view: V) -> tuple[Any, ...]:
        """The complete legal actions ``view`` surely means, or (): a reading that is only
        actions (no choice, nothing lifted or offered back)."""
        return self._meaning(view).sure()

    def _reading_key(self) -> object:
        """What a game's ``_reading`` reads besides the position and the view (none)."""
        return None

    def _words(self, action: Any, pos: S | None = None) -> str:
        """An action in a player's words, made in ``pos`` (by default the position now): its
        notation unless the game says more."""
        return (self.position if pos is None else pos).action_to_string(action)

    def still_to_do(self, asked: tuple[Any, ...]) -> tuple[Any, ...]:
        """Of the far seat's asked actions, what the person has still to do with the pieces
        (a game whose sensors see the first one done before it counts says so: the towers'
        block taken off its pad is in the hand, to place)."""
        return asked

    def _done(self, action: Any, pos: S | None = None) -> str:
        """An action made in ``pos`` as something its player did: the words after their name
        in the moves list and the terminal (``moved the capstone d1-c2 (step)``). A game
        whose ``_words`` already say it so keeps them. Given ``pos``, neither looks at
        anything else of the table: a finished game's replay asks a bare one (records.py)."""
        return self._words(action, pos)

    def _notation(self, action: Any) -> str:
        """An action as the ``accepted`` event names it (its notation, unless that is secret)."""
        return self.position.action_to_string(action)

    def _public_move(self, action: Any) -> dict[str, Any] | None:
        """An action as data the page may draw from (its record form), or None when it
        would tell a secret."""
        return self.record.action_to_dict(action)

    def _entry_of(self, action: Any) -> dict[str, Any]:
        """What the journal keeps of an action (High Rise seals it)."""
        return {"action": self.record.action_to_dict(action)}

    def _action_of(self, entry: dict[str, Any]) -> Any:
        """The action a journal entry holds (``_entry_of``'s inverse)."""
        return self.record.action_from_dict(entry["action"])

    def _accepted(self, before: S) -> None:
        """After actions were recorded (a game's clocks, its extra words)."""

    def _phase_words(self, state: S | None = None) -> str:
        """What the player to act is to do, in a sentence."""
        state = self.position if state is None else state
        return state.describe_phase()

    def _ending(self, outcome: Outcome) -> None:
        """Just before the game_over event (High Rise reveals its stacks)."""


def _actor(pos: S, action: Any) -> Player:
    """Who made ``action`` in ``pos``: an action accepted at the table always has a maker
    (only a chance node has none, and the table never records one)."""
    actor = pos.actor(action)
    assert actor is not None, "an accepted action always has its maker"
    return actor

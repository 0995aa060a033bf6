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

The repair, choosing and takebacks are written in ``firmware.service.table_asks``
(``Asking``), starting and resuming in ``firmware.service.table_start``
(``Starting``); ``Table`` is made of both, and this module holds the rest.

A game's table adds only what differs: what a settled view means
(``_reading``, an ``engine.reading.Reading`` the core acts on), which
buttons mean what during play (``_play_button``), its LED frame
(``<game>/leds.py``) and, when it must, how its journal entries look
(High Rise seals them). Everything it tells the world goes through
``events.make`` in the one vocabulary.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from enum import StrEnum
from typing import Any, ClassVar, Generic, NamedTuple, TypeVar

from transitions import Machine

from engine.core import seeded_start
from engine.errors import ObeliskError
from engine.players import PLAYERS, Player
from engine.reading import Reading, Takeback
from engine.record import options_to_dict
from firmware.service import events
from firmware.service.settle import QUICK_S, Settler
from firmware.service.surroundings import Surroundings
from firmware.service.table_asks import Asking
from firmware.service.table_lights import Lighting
from firmware.service.table_parts import Actions
from firmware.service.table_start import Starting, fresh_seed
from firmware.service.table_state import READING_STATES, TableState
from firmware.store.journal import Journal
from hardware.buttons import ButtonEvent

V = TypeVar("V")


class Prepared(NamedTuple):
    """One action of a sure reading, worked out while the reading settles: the position
    before and after it, its words as the ``accepted`` event says them, the observation
    after it."""

    before: Any
    after: Any
    text: str
    seen: dict


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


class Table(Starting, Asking, Lighting, Generic[V]):
    """One game on a physical (or simulated) table; subclass it for a game.

    A subclass sets ``record`` (its engine record module) and ``SETUP`` (what
    the players are asked before a game), may add states and transitions
    (``EXTRA_STATES``, ``EXTRA_TRANSITIONS``, replacing core ones of the same
    trigger and source), and implements ``_reading(view)``: what a settled reading
    means while a game is played, as a ``Reading`` (the core acts on it).
    """

    STATES: ClassVar[tuple[StrEnum, ...]] = CORE_STATES
    TRANSITIONS: ClassVar[tuple[dict, ...]] = CORE_TRANSITIONS
    EXTRA_STATES: ClassVar[tuple[StrEnum, ...]] = ()
    EXTRA_TRANSITIONS: ClassVar[tuple[dict, ...]] = ()
    SETUP: ClassVar[str] = "set the pieces out for a new game, then press a player button"
    READY: ClassVar[str] = "the board is set: press a player button to start"
    PAUSED: ClassVar[str] = "paused: nothing changes until play resumes"  # (towers: its glass)
    SEATS: ClassVar[dict[str, str]] = {p.value: str(p) for p in PLAYERS}
    """The seats as the game names them (the maze names its roles), in every word said."""
    record: ClassVar[Any]  # engine.<game>.record: action_to_dict, action_from_dict
    draw_leds: ClassVar[Callable[..., dict]]  # <game>/leds.py frame(table, now, ring_pixels)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        replaced = {(t["trigger"], str(t["source"])) for t in cls.EXTRA_TRANSITIONS}
        cls.STATES = CORE_STATES + cls.EXTRA_STATES
        cls.TRANSITIONS = tuple(t for t in CORE_TRANSITIONS
                                if (t["trigger"], str(t["source"])) not in replaced) \
            + cls.EXTRA_TRANSITIONS

    def __init__(self, game: Any, journal: Journal, *, around: Surroundings | None = None,
                 emit: Callable[[dict], None] | None = None,
                 beep: Callable[[], None] | None = None, settle_s: float = 0.3,
                 quick_s: float = QUICK_S, seed: int | None = None, solo: Any = None) -> None:
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
        self.game = game
        self.journal = journal
        self.seed = fresh_seed() if seed is None else seed
        if solo is not None:  # a match's tables both start from the match's own seed
            self.seed = solo.first_seed(self.seed)
        self.settler: Settler[V] = Settler(settle_s, quick_s)
        self._prepared: dict[Any, Prepared] = {}  # a sure reading's actions, worked out
        self._meant: tuple | None = None  # (position, view and key, its Reading or refusal)
        self.view: V | None = None
        self.decided: V | None = None  # the last settled view fully dealt with
        # a player's press that came while a reading settled: (player, kind, state then)
        self._held_press: tuple[Player, str, StrEnum] | None = None
        self.problem = ""
        self.problem_kind = "rule"  # what ``problem`` is, when play stops on it (``_wrong``)
        self._turn_said = ""  # the words of the last turn told
        self._end_due = False  # the game is over, but its end is not written yet (a full disk)
        self.wrong: tuple = ()  # where the game lights what is wrong
        self.candidates: tuple[Actions, ...] = ()
        self.chooser: Player | None = None
        self.pick = 0
        self.offer: Takeback | None = None
        self.lifted: Any = None  # a piece held in the air: where it may go is lit
        self.confirmed: set[Player] = set()
        self.position: Any = seeded_start(game, self.seed)[0]  # the start, until a game
        self.history: list = [self.position]
        self.actions: list = []
        self.started = False  # the journal holds this game's start
        self.solo: Any = solo  # a far seat: the computer (solo.Computer), a peer (remote.Peer)
        self.lights: dict | None = None  # what the LEDs show, as last told (an event)
        self._now = 0.0
        self.machine = Machine(model=self, states=list(self.STATES),
                               transitions=[dict(t) for t in self.TRANSITIONS],
                               initial=TableState.setup, auto_transitions=False, queued=True)

    # ------------------------------------------------------------------ telling

    @property
    def lock(self) -> threading.RLock:
        """The lock the service and the people's hands take turns with (``around``'s)."""
        return self.around.lock

    def emit(self, event: dict) -> None:
        """Hand one event to whoever listens (``around``'s listeners)."""
        self.around.tell(event)

    def beep(self) -> None:
        self.around.beep()

    def tell(self, name: str, /, **fields: object) -> None:
        """Emit one event of the vocabulary (checked)."""
        self.emit(self.event(name, **fields))

    def event(self, name: str, /, **fields: object) -> dict:
        """One event of the vocabulary, as this table tells it (checked)."""
        return events.make(name, **fields)

    def public_state(self) -> dict:
        """The whole public state as a ``table`` event: what a new reader starts from."""
        player = self.position.current_player() if self.started else None
        match = {} if self.solo is None else self.solo.public()  # a match: its name, seat
        return self.event("table", game=self.game.id,
                          options=options_to_dict(self.game.options), players=self.players(),
                          state=self.state, turn=player.value if player else None,
                          doing=self._doing() if player else "", problem=self.problem,
                          actions=len(self.actions), observation=self._observation(),
                          moves=self.moves(), **match)

    def moves(self) -> list[dict]:
        """Every action of the game so far, each as its ``accepted`` event told it (its number,
        who, in words): a page that joins late, or follows a table started again on its
        journal, lists the moves from the first."""
        return [{"n": n + 1, "player": self.history[n].actor(action).value,
                 "text": self._done(action, self.history[n])}
                for n, action in enumerate(self.actions)]

    def opening(self, now: float) -> list[dict]:
        """What a new reader of the stream starts from: the whole public state, then what
        stands at this moment beyond it (a pause, a refusal, an offer, an hourglass), so a
        page that joins mid-game shows what one there from the start shows."""
        events = [self.public_state()]
        if self.state == TableState.paused:
            events.append(self.event("pause", state="paused"))
        if self.state == TableState.repair and self.problem:
            events.append(self._refused_event())
        if self.state == TableState.choose and self.chooser is not None:
            events.append(self._choose_event())
        if self.offer is not None:
            events.append(self._takeback_event(self.offer))
        if self.solo is not None:
            events += self.solo.standing(self)
        if self.around.missing:  # a table not wired up yet: what is missing stays said
            events.append(self.event("devices", missing=self.around.missing))
        if self.around.scanner is not None:
            events.append(self.around.scanner)
        if self.lights is not None:
            events.append(self.lights)
        return events + self._standing(now)

    def _standing(self, now: float) -> list[dict]:
        """A game's own lasting state for a new reader (its hourglass), as events."""
        return []

    def players(self) -> dict:
        """Who plays, as the game names its seats (a game may name roles); playing alone, the
        computer's seat says so ("player B (computer, level 2)")."""
        seats = dict(self.SEATS)
        return seats if self.solo is None else self.solo.solo.marked(seats)

    # ------------------------------------------------------------------ inputs

    def on_view(self, view: V, now: float) -> None:
        """A fresh (unsettled) reading of the table: a new one is looked at once (whether
        the game is sure of it decides how long it must hold)."""
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
        self._press_held_over()

    def next_deadline(self) -> float | None:
        """When ``tick`` next has something to do (for the service's sleep)."""
        return self.settler.deadline()

    @classmethod
    def for_service(cls, game: Any, journal: Journal, profile: Any, *, seed: int,
                    around: Surroundings, solo: Any = None) -> Table:
        """The table ``obelisk run`` plays on ``profile`` (``solo``: the computer's seat, a
        ``firmware.service.solo.Computer``, or None); a game whose table needs more of the profile
        (wall switches, load cells) checks it here first."""
        return cls(game, journal, around=around, seed=seed, solo=solo)

    def led_change(self, now: float, ring_pixels: int) -> float | None:
        """When the LED frame next changes with only time passing (None: only input changes
        it); a game whose frame moves on its own sets this to its ``leds.next_change``."""
        return None

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
            if event.kind == "press":
                self.new_game()
        elif self.state == TableState.choose:
            if player is self.chooser:
                self._choose(event.kind)
        elif self.takeback_waiting():
            self._confirm_takeback(player)
        elif self.state == TableState.setup or self.in_plain_play():
            if self.settler.deadline() is not None:  # about the table as it settles now
                self._held_press = (player, event.kind, self.state)
            else:
                self._view_button(player, event.kind)

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
        return self.may_picked() and bool(self.candidates) and self.chooser is not None

    def _setup_menu(self) -> None:
        """The menu button before a game (towers: the next options)."""

    def _setup_button(self, player: Player, kind: str) -> None:
        """A player's button before a game: start it once the table is set up."""
        if kind == "press" and self.decided is not None and self.ready(self.decided):
            self._begin_game()
            self.begin()
            self._announce_start()

    def ready(self, view: V) -> bool:
        """Whether a settled view is the table set up for a new game."""
        return False

    def decliners(self) -> tuple[Player, ...]:
        """The players who may decline something now with their button (a game with
        nothing to decline: nobody)."""
        return ()

    def _play_button(self, player: Player, kind: str) -> None:
        """A player's button during play (a game's own meaning: decline, pass, a move...)."""

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
            self._read_settled(view, now)

    def _setup_view(self, view: V) -> None:
        """Before a game: tell the players whether the table is set out (``ready``)."""
        self.problem = self.READY if self.ready(view) else self.SETUP

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

    def _sure(self, view: V) -> tuple:
        """The complete legal actions ``view`` surely means, or (): a reading that is only
        actions (no choice, nothing lifted or offered back)."""
        return self._meaning(view).sure()

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

    def _reading_key(self) -> object:
        """What a game's ``_reading`` reads besides the position and the view (none)."""
        return None

    def _apply(self, pos: Any, action: Any) -> Any:
        """The position after ``action`` (worked out already if the reading was sure)."""
        prepared = self._prepared.get(action)
        if prepared is not None and prepared.before is pos:
            return prepared.after
        return pos.apply_action(action)

    def _foreseen(self, action: Any) -> Prepared | None:
        """What a sure reading worked out for ``action`` made in the position now, if it did:
        the ``accepted`` event's words and observation are then ready."""
        prepared = self._prepared.get(action)
        return prepared if prepared is not None and prepared.before is self.position else None

    # ------------------------------------------------------------------ recording

    def _accept(self, actions: list | tuple) -> None:
        """Journal each action (fsynced), apply it, tell it; the LEDs follow. Nothing the
        rules refuse reaches the journal, not even the first of several actions."""
        if self.solo is not None:  # a far seat's move made here is journalled as it asked it
            actions = [self.solo.recorded(self.position, action) for action in actions]
        steps = self._checked(actions)
        if steps is None:
            return
        before = self.position
        for action, after in steps:
            actor = self.position.actor(action)
            refusal = self.solo.refuse(self, action, actor) if self.solo is not None else None
            if refusal is not None:  # made for the computer, but not the move it asked
                self._wrong(*refusal)
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
            self._tell_turn(before)

    def _words(self, action: Any, pos: Any = None) -> str:
        """An action in a player's words, made in ``pos`` (by default the position now): its
        notation unless the game says more."""
        return (self.position if pos is None else pos).action_to_string(action)

    def _done(self, action: Any, pos: Any = None) -> str:
        """An action made in ``pos`` as something its player did: the words after their name
        in the moves list and the terminal (``moved the capstone d1-c2 (step)``). A game
        whose ``_words`` already say it so keeps them. Given ``pos``, neither looks at
        anything else of the table: a finished game's replay asks a bare one (records.py)."""
        return self._words(action, pos)

    def _notation(self, action: Any) -> str:
        """An action as the ``accepted`` event names it (its notation, unless that is secret)."""
        return self.position.action_to_string(action)

    def _public_move(self, action: Any) -> dict | None:
        """An action as data the page may draw from (its record form), or None when it
        would tell a secret."""
        return self.record.action_to_dict(action)

    def _entry_of(self, action: Any) -> dict:
        """What the journal keeps of an action (High Rise seals it)."""
        return {"action": self.record.action_to_dict(action)}

    def _action_of(self, entry: dict) -> Any:
        """The action a journal entry holds (``_entry_of``'s inverse)."""
        return self.record.action_from_dict(entry["action"])

    def _accepted(self, before: Any) -> None:
        """After actions were recorded (a game's clocks, its extra words)."""

    def _record(self, action: Any, after: Any) -> None:
        self.position, self.lifted = after, None  # a piece lifted was read in the one before
        self.history.append(self.position)
        self.actions.append(action)

    def _phase_words(self, state: Any | None = None) -> str:
        """What the player to act is to do, in a sentence."""
        state = self.position if state is None else state
        return state.describe_phase()

    def cannot_record(self, message: str) -> None:
        """The journal refused the last action (a full disk): nothing was confirmed.

        The table shows why and waits; the service tries the same reading
        again a little later, so the action is recorded once the disk allows.
        """
        self._wrong(message, kind="fault")

    # ------------------------------------------------------------------ pause, the end

    def on_enter_paused(self) -> None:
        self.tell("pause", state="paused")

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
        self.problem, self.wrong = "", ()
        self.finish()

    def on_enter_over(self) -> None:
        outcome = self.position.outcome()
        self._ending(outcome)
        self.tell("game_over", game=self.game.id, outcome=outcome.to_dict(self.SEATS),
                  observation=self.position.observation())

    def _ending(self, outcome: Any) -> None:
        """Just before the game_over event (High Rise reveals its stacks)."""

    def result(self) -> dict:
        """The outcome as plain data (``Outcome.to_dict``)."""
        return self.position.outcome().to_dict(self.SEATS)

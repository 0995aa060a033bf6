"""The towers game on the table: a state machine between sensors and rules.

``TowersTable`` is the model of a ``transitions`` machine:

    setup --begin--> toss --tossed--> play <--go_wrong / fixed--> repair
      ^ \\                             | ^ ^                         |
      |  `-------resumed------------->| | `---resume-- paused <--pause-'
      |                        ask /  | | picked
      |                               v |
      |                              choose
      `---------new_game--- over <--finish--' (from play, choose or repair)

It is fed settled sensor views, button events and clock ticks, and it never
keeps a running tally of sensor events: each settled view is compared with
the accepted position and with the positions legal actions would produce.
The engine decides; the table journals each accepted action (on disk before
anything is shown), then lights the LEDs. Anything the rules do not allow is
shown, beeped and waited out; nothing illegal is ever recorded.

Time comes from the ``now`` arguments, so tests (and the fast demo) control
the clock.
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from engine.core import seeded_start
from engine.errors import AmbiguousPlacementError, ObeliskError
from engine.players import PLAYERS, Player
from engine.record import options_from_dict, options_to_dict
from engine.towers.blocks import Colour, block_set_from_dict, block_set_to_dict
from engine.towers.game import (
    Action,
    Choose,
    Decline,
    Phase,
    Place,
    PutBack,
    Take,
    Timeout,
    TowersGame,
    TowersOptions,
    TowersState,
)
from engine.towers.record import action_from_dict, action_to_dict
from engine.towers.sensing import find_placement, handover_placement, over_the_top_placements
from engine.towers.tower import cells_text
from firmware.hourglass import Hourglass
from firmware.journal import Journal
from firmware.resume import read_start, replay, start_extras
from firmware.table import BoardTable
from firmware.towers.view import UNKNOWN, TowersView, expected_towers, zone_fits
from hardware.buttons import ButtonEvent

RGB = tuple[int, int, int]
PLAYER_COLOURS: dict[Player, RGB] = {Player.A: (0, 90, 255), Player.B: (255, 60, 160)}
GOOD: RGB = (0, 200, 0)
EXTRA: RGB = (255, 0, 0)
MISSING: RGB = (0, 0, 255)
OFF: RGB = (0, 0, 0)
BLOCK_COLOURS: dict[Colour, RGB] = {
    Colour.BLACK: (40, 40, 40), Colour.YELLOW: (255, 200, 0), Colour.RED: (255, 0, 0),
    Colour.GREEN: (0, 200, 0), Colour.BLUE: (0, 0, 255),
}


PRESETS = (
    TowersOptions(hourglass_s=60.0),
    TowersOptions(hourglass_s=90.0),
    TowersOptions(hourglass_s=45.0),
    TowersOptions(hourglass_s=60.0, sudden_death=True),
)
"""What the menu button cycles through before a game starts."""


@dataclass(frozen=True)
class _Offer:
    """The table went back to an earlier accepted position: a takeback to confirm.

    Only the players whose blocks came off (``owners``) may confirm it.
    """

    to: int
    owners: frozenset[Player]


@dataclass(frozen=True)
class _Ask:
    """More than one action fits what the rods see: ``chooser`` picks with their button."""

    chooser: Player
    candidates: tuple[tuple[Action, ...], ...]


class TowersTable(BoardTable[TowersView]):
    """One towers game on a physical (or simulated) table."""

    STATES = ("setup", "toss", "play", "choose", "repair", "paused", "over")
    TRANSITIONS = (
        {"trigger": "begin", "source": "setup", "dest": "toss"},
        {"trigger": "resumed", "source": "setup", "dest": "play"},
        {"trigger": "tossed", "source": "toss", "dest": "play"},
        {"trigger": "ask", "source": ["play", "repair"], "dest": "choose"},
        {"trigger": "picked", "source": "choose", "dest": "play"},
        {"trigger": "go_wrong", "source": ["play", "choose"], "dest": "repair"},
        {"trigger": "fixed", "source": "repair", "dest": "play"},
        {"trigger": "pause", "source": ["play", "choose", "repair"], "dest": "paused"},
        {"trigger": "resume", "source": "paused", "dest": "play"},
        {"trigger": "finish", "source": ["play", "choose", "repair"], "dest": "over"},
        {"trigger": "new_game", "source": "over", "dest": "setup", "after": "_next_game"},
    )

    def __init__(self, game: TowersGame, journal: Journal, *, seed: int = 0,
                 emit: Callable[[dict], None] = lambda event: None,
                 beep: Callable[[], None] = lambda: None,
                 settle_s: float = 0.3, toss_s: float = 2.0) -> None:
        self.game = game
        self.journal = journal
        self.seed = seed
        self.toss_s = toss_s
        self.hourglass = Hourglass(game.options.hourglass_s)
        self.position: TowersState | None = None
        self.history: list[TowersState] = []
        self.actions: list[Action] = []
        self.first: Player | None = None
        self.offer: _Offer | None = None
        self.confirmed: set[Player] = set()  # owners who pressed to confirm the offer
        self.chooser: Player | None = None  # who picks among ``candidates``
        self.pick = 0
        self.clear_zone = False  # blocks of a lost turn must go back to the pile
        self._toss_until = 0.0
        self._now = 0.0
        super().__init__(emit, beep, settle_s)

    @classmethod
    def for_service(cls, game: TowersGame, journal: Journal, profile, *, seed: int,
                    emit: Callable[[dict], None]) -> TowersTable:
        """The table ``obelisk run`` plays on this profile."""
        return cls(game, journal, seed=seed, emit=emit)

    @property
    def last_place(self) -> Place | None:
        """The last accepted placement (its rods light green)."""
        return next((a for a in reversed(self.actions) if isinstance(a, Place)), None)

    # ------------------------------------------------------------------ starting

    def start(self, now: float) -> None:
        """Resume the journal's unfinished game, or wait in setup for a clear table."""
        self._now = now
        entries = self.journal.unfinished()
        if not entries:
            self.problem = "clear both towers and the zone pads to start a game"
            return
        self.first, self.seed, self.game = read_start(entries, self._game_of)
        self.hourglass = Hourglass(self.game.options.hourglass_s)
        replayed = replay(entries, self.game.new_initial_state(first=self.first),
                          lambda entry: action_from_dict(entry["action"]))
        self.history, self.actions = list(replayed.history), list(replayed.actions)
        self.position = replayed.state
        if self.actions and isinstance(self.actions[-1], Timeout):
            # The lost turn's blocks may still be on the pads: they go back to the pile,
            # never count as the next player's choice.
            self.clear_zone = True
        self.emit({"event": "resumed", "game": "towers", "actions": len(self.actions)})
        self.resumed()
        if self.position.is_terminal():  # its end was not written before the stop
            self.finish()

    def _game_of(self, start: dict) -> tuple[Player, int, TowersGame]:
        """Who went first, the seed, and the game (set and options) a start entry names."""
        kept = start_extras(start).get("set")  # older journals named the default set only
        block_set = block_set_from_dict(kept) if isinstance(kept, dict) else self.game.block_set
        return (Player(start["first"]), int(start.get("seed", self.seed)),
                TowersGame(block_set, options_from_dict(TowersOptions, start["options"])))

    def _new_position(self, state: TowersState) -> None:
        self.position = state
        self.history = [state]
        self.actions = []

    # ------------------------------------------------------------------ inputs

    def on_button(self, event: ButtonEvent, now: float) -> None:
        self._now = now
        if event.button == "menu":
            if event.kind == "press" and self.state == "setup":
                self._next_preset()
            elif event.kind == "press" and self.state in ("play", "repair"):
                self.pause()
            elif event.kind == "press" and self.state == "paused":
                self.resume()
            return
        player = Player(event.button)
        pos = self.position
        if self.state == "setup":
            clear = self.decided is not None and not any(self.decided.towers) \
                and not self.decided.zone_colours()
            if clear and event.kind == "press":
                self._start_game()
                self.problem = ""
                self.begin()
            return
        if self.state == "over":
            if event.kind == "press":
                self.new_game()
            return
        if self.state == "choose":
            if player is self.chooser:
                self._choose(event.kind)
            return
        if self.offer is not None and self.state in ("play", "repair"):
            self._confirm_takeback(player)
        elif pos is None or event.kind != "press" or self.state != "play":
            return
        elif pos.phase is Phase.BONUS and player in pos.bonus:
            self._accept([Decline(player)])
        elif pos.phase in (Phase.TAKE, Phase.PLACE):
            self._over_the_top(pos, player)

    def _confirm_takeback(self, player: Player) -> None:
        """An owner of a lifted block confirms; the other player's button does nothing."""
        assert self.offer is not None
        if player not in self.offer.owners:
            return
        self.confirmed.add(player)
        if self.confirmed >= self.offer.owners:
            self._takeback(self.offer.to)

    def _choose(self, kind: str) -> None:
        """In choose: a press lights the next candidate, a hold plays the lit one."""
        if kind == "press":
            self.pick = (self.pick + 1) % len(self.candidates)
            return
        actions = list(self.candidates[self.pick])
        self._leave_choose()
        self._accept(actions)

    def _next_preset(self) -> None:
        """Menu in setup: the next set of options (shown on the rings)."""
        options = self.game.options
        index = PRESETS.index(options) + 1 if options in PRESETS else 0
        options = PRESETS[index % len(PRESETS)]
        self.game = TowersGame(self.game.block_set, options)
        self.hourglass = Hourglass(options.hourglass_s)
        self.emit({"event": "options", "hourglass_s": options.hourglass_s,
                   "sudden_death": options.sudden_death})

    @staticmethod
    def _taken_colour(pos: TowersState, view: TowersView | None) -> Colour | None:
        """While taking: the colour of the one zone block no longer on its pad."""
        if pos.phase is not Phase.TAKE or view is None:
            return None
        taken = Counter(pos.block(b).colour for b in pos.zone) - view.zone_colours()
        return next(iter(taken)) if len(taken) == 1 else None

    def _over_the_top(self, pos: TowersState, player: Player) -> None:
        """The player says their block landed wholly above the rods."""
        takes: list[tuple[Action, ...]] = [()]
        if self._handed_over(pos, self.decided) and player is pos.active:
            # The passive player took one and handed over the other, but nothing
            # shows which: each is a candidate.
            takes = [(Take(kept),) for kept in dict.fromkeys(pos.zone)]
        fits: list[tuple[Action, ...]] = []
        errors: list[ObeliskError] = []
        for before in takes:
            try:
                state = pos.apply_action(before[0]) if before else pos
                fits += [(*before, place) for place in over_the_top_placements(
                    state, player, self._taken_colour(state, self.decided))]
            except ObeliskError as exc:
                errors.append(exc)
        if not fits:
            self.emit({"event": "notice", "player": player.value, "message": str(errors[0])})
        elif len(fits) == 1:
            self._accept(list(fits[0]))
        else:
            self._ask(_Ask(player, tuple(fits)))

    @staticmethod
    def _handed_over(pos: TowersState, view: TowersView | None) -> bool:
        """During the take, both pads empty: the passive player has chosen and handed over."""
        return pos.phase is Phase.TAKE and view is not None and not view.zone_colours()

    def tick(self, now: float) -> None:
        """Let time pass: the coin toss, settling, the hourglass."""
        self._now = now
        if self.state == "toss" and now >= self._toss_until:
            self.tossed()
        super().tick(now)
        pos = self.position
        if (self.state == "play" and pos is not None and pos.phase is Phase.CHOOSE
                and self.hourglass.expired(now)):
            active = pos.active
            self._accept([Timeout()])
            self.emit({"event": "timeout", "player": active.value})
            if self.view is not None and self.view.zone_colours():
                self.clear_zone = True  # the next hourglass waits for an empty zone
                self.hourglass.stop()
                self._wrong("the hourglass ran out: put the zone blocks back in the pile")
            else:
                self.settler.forget()

    def next_deadline(self) -> float | None:
        """When ``tick`` next has something to do (for the service's sleep)."""
        times = [super().next_deadline()]
        if self.state == "toss":
            times.append(self._toss_until)
        if self.state == "play":
            times.append(self.hourglass.expires_at())
        times = [t for t in times if t is not None]
        return min(times) if times else None

    # ------------------------------------------------------------------ states

    def _start_game(self) -> None:
        """The engine tosses the coin (from the seed); the start is journalled before it shows."""
        start = seeded_start(self.game, self.seed)[0]
        self.journal.append({"t": "start", "game": "towers", "first": start.active.value,
                             "seed": self.seed,
                             "extras": {"set": block_set_to_dict(self.game.block_set)},
                             "options": options_to_dict(self.game.options)})
        self.first = start.active
        self._new_position(start)

    def on_enter_toss(self) -> None:
        self._toss_until = self._now + self.toss_s
        self.emit({"event": "toss", "first": self.first.value})

    def on_enter_play(self) -> None:
        """Back to play: a new or resumed turn's hourglass starts; a running one runs on."""
        super().on_enter_play()
        pos = self.position
        if pos is not None and pos.phase is Phase.CHOOSE and not self.hourglass.started:
            self.hourglass.start(self._now)
        self.settler.forget()

    def on_enter_paused(self) -> None:
        self.hourglass.pause(self._now)
        self.emit({"event": "paused"})

    def on_exit_paused(self) -> None:
        self.hourglass.resume(self._now)
        self.emit({"event": "resumed_play"})

    def _next_game(self) -> None:
        """After a game: a new one begins on a clear table (the journal keeps the old one)."""
        self.position, self.history, self.actions = None, [], []
        self.first, self.offer, self.clear_zone = None, None, False
        self.seed = secrets.randbits(32)  # the next coin toss
        self.hourglass.stop()
        self.problem = "clear both towers and the zone pads to start a game"
        self.settler.forget()

    def on_enter_over(self) -> None:
        self.hourglass.stop()
        result = self.result()
        self.journal.append({"t": "over", "result": result})
        self.emit(result)

    # ------------------------------------------------------------------ deciding

    def _decide(self, view: TowersView, now: float) -> None:
        if self.state == "setup":
            if not any(view.towers) and not view.zone_colours():
                self.problem = "the table is clear: press a player button to start"
            else:
                self.problem = "clear both towers and the zone pads to start a game"
            return
        if self.state not in ("play", "choose", "repair") or self.position is None:
            return
        outcome = self._interpret(view)
        if isinstance(outcome, str):
            self._wrong(outcome)
            return
        if isinstance(outcome, _Offer):
            if outcome != self.offer:
                self.confirmed = set()
            self.offer = outcome
            owners = " and ".join(str(p) for p in sorted(outcome.owners, key=lambda p: p.value))
            self.problem = (f"a block came off: {owners} may press their button to take it "
                            "back, or put it back")
            self._leave_choose()
            if self.state == "play":
                self.go_wrong()
            return
        self.offer = None
        if isinstance(outcome, _Ask):
            self._ask(outcome)
            return
        self._leave_choose()
        if outcome:
            self._accept(outcome)
        if self.state == "repair":
            self.emit({"event": "repaired"})
            self.fixed()

    def _ask(self, ask: _Ask) -> None:
        """Light the candidates; the chooser steps with a press and plays one with a hold."""
        if ask.candidates != self.candidates:
            self.pick = 0
        self.chooser, self.candidates = ask.chooser, ask.candidates
        self.problem = (f"{ask.chooser}: more than one placement fits what the rods see; "
                        "press your button to light the next, hold it on the right one")
        if self.state != "choose":
            self.ask()
        self.emit({"event": "choose", "player": ask.chooser.value,
                   "candidates": [", ".join(str(a) for a in c) for c in ask.candidates]})

    def _leave_choose(self) -> None:
        self.candidates = ()
        self.chooser = None
        if self.state == "choose":
            self.picked()

    def _interpret(self, view: TowersView) -> list[Action] | _Offer | _Ask | str:
        """What a settled view means: actions to accept, a takeback, or what is wrong."""
        pos = self.position
        assert pos is not None
        pads = [i + 1 for i, c in enumerate(view.zone) if c == UNKNOWN]
        if pads:
            return f"zone pad {pads[0]} weighs something that is not a block: take it off"
        zone = view.zone_colours()
        if self.clear_zone:
            if zone:
                return "the hourglass ran out: put the zone blocks back in the pile"
            self.clear_zone = False
        expect = expected_towers(pos)
        added = [view.towers[i] - expect[i] for i in (0, 1)]
        removed = [expect[i] - view.towers[i] for i in (0, 1)]
        if any(removed):
            # Lifting the last placements off again offers a takeback; older
            # positions never do, so a knocked-over tower cannot undo a game.
            for k in range(len(self.history) - 2, max(-1, len(self.history) - 4), -1):
                undone = self.actions[k:]
                if (all(isinstance(a, Place) for a in undone)
                        and expected_towers(self.history[k]) == view.towers):
                    return _Offer(k, frozenset(self.history[i].actor(a)
                                               for i, a in enumerate(undone, k)))
            t = 0 if removed[0] else 1
            return (f"cubes are missing from tower {'AB'[t]} ({cells_text(removed[t])}): "
                    "put the block back")
        if not any(added):
            if pos.phase is Phase.CHOOSE:
                return self._zone_actions(pos, zone)
            if zone_fits(pos, zone):
                return []
            return "the zone pads do not match the game: put the blocks back as they were"
        if pos.phase is Phase.CHOOSE:
            return "wait: the passive player takes a block from the zone before anyone places"
        actions: list[Action] = []
        state = pos
        order = (pos.passive, pos.active) if pos.phase is Phase.TAKE else PLAYERS
        try:
            for player in order:
                if not added[player.index]:
                    continue
                cells = added[player.index]
                if self._handed_over(state, view) and player is state.active:
                    found = list(handover_placement(state, cells))
                else:
                    found = [find_placement(state, player, cells,
                                            self._taken_colour(state, view))]
                for action in found:
                    state = state.apply_action(action)
                actions += found
        except AmbiguousPlacementError as exc:
            fits = tuple(c if isinstance(c, tuple) else (c,) for c in exc.candidates)
            return _Ask(player, tuple((*actions, *c) for c in fits))
        except ObeliskError as exc:
            return str(exc)
        if not zone_fits(state, zone):
            return "the zone pads do not match the game: put the blocks back as they were"
        return actions

    def _zone_actions(self, pos: TowersState, zone) -> list[Action] | str:
        if sum(zone.values()) > 2:
            return "only two blocks go in the building zone: put the extra one back"
        want = {}
        for b in pos.zone:
            want.setdefault(pos.block(b).colour, []).append(b)
        actions: list[Action] = []
        for colour, ids in want.items():
            for b in ids[zone.get(colour, 0):]:
                actions.append(PutBack(b))
        for colour, n in zone.items():
            for _ in range(n - len(want.get(colour, []))):
                spare = [b for b in pos.pile if pos.block(b).colour is colour
                         and all(getattr(a, "block", None) != b for a in actions)]
                if not spare:
                    return f"there is no {colour} block left in the pile to choose"
                actions.append(Choose(spare[0]))
        return actions

    # ------------------------------------------------------------------ accepting

    def _record(self, action: Action) -> None:
        assert self.position is not None
        self.position = self.position.apply_action(action)
        self.history.append(self.position)
        self.actions.append(action)

    def _accept(self, actions: list[Action]) -> None:
        """Journal (fsynced), then apply; the LEDs follow on the next render."""
        assert self.position is not None
        turn = self.position.turn
        for action in actions:
            actor = self.position.actor(action)
            self.journal.append({"t": "action", "n": len(self.actions) + 1,
                                 "action": action_to_dict(action)})
            self._record(action)
            self.emit({"event": "accepted", "player": actor.value, "action": str(action),
                       "turn": self.position.turn})
        if self.position.is_terminal():
            self.finish()
            return
        if self.position.phase is not Phase.CHOOSE or self.position.turn != turn:
            self.hourglass.stop()
        if self.position.phase is Phase.CHOOSE and not self.hourglass.started:
            self.hourglass.start(self._now)

    def _rewind(self, to: int) -> None:
        self.history = self.history[: to + 1]
        self.actions = self.actions[:to]
        self.position = self.history[-1]

    def _takeback(self, to: int) -> None:
        undone = len(self.actions) - to
        self.journal.append({"t": "takeback", "to": to})
        self._rewind(to)
        self.offer = None
        self.confirmed = set()
        self.emit({"event": "takeback", "undone": undone, "actions": to})
        if self.state == "repair":
            self.fixed()
        self.settler.forget()

    # ------------------------------------------------------------------ results

    def result(self) -> dict:
        """The game_over event: winner and each player's score breakdown."""
        pos = self.position
        assert pos is not None and pos.is_terminal()
        outcome = pos.outcome()
        players = {}
        for p in PLAYERS:
            blocks = [pb.block.colour.label for pb in pos.tower(p).blocks]
            players[p.value] = {"score": pos.scores()[p.index], "blocks": blocks,
                                "overflow": pos.penalties[p.index]}
        return {"event": "game_over", "game": "towers",
                "winner": outcome.winner.value if outcome.winner else None,
                "players": players}

    # ------------------------------------------------------------------ LEDs

    def led_frame(self, now: float, ring_pixels: int) -> dict[tuple[str, str, int], RGB]:
        """Every logical LED of the towers game at ``now``."""
        frame: dict[tuple[str, str, int], RGB] = {}
        pos = self.position
        for p in PLAYERS:
            colour = PLAYER_COLOURS[p]
            ring: list[RGB] = [OFF] * ring_pixels
            if self.state == "setup":  # the options: 15 s a pixel, red for sudden death
                shown = (255, 0, 0) if self.game.options.sudden_death else (60, 60, 60)
                lit = min(ring_pixels, round(self.game.options.hourglass_s / 15))
                ring = [shown] * lit + [OFF] * (ring_pixels - lit)
            elif self.state == "toss":
                lit = int(now * 8) % ring_pixels
                ring[lit] = colour
            elif self.state == "over" and pos is not None:
                winner = pos.outcome().winner
                ring = [GOOD if winner is p else (255, 200, 0) if winner is None else EXTRA] \
                    * ring_pixels
            elif self.state == "paused":
                ring = [(20, 20, 20)] * ring_pixels
            elif pos is not None and pos.phase is Phase.CHOOSE and pos.active is p:
                ring = self.hourglass.ring(now, ring_pixels)
            elif pos is not None and p in pos.to_move():
                ring = [colour] * ring_pixels
            for i, rgb in enumerate(ring):
                frame[("ring", p.value, i)] = rgb
        self._tower_leds(frame)
        if self.view is not None:
            for i, colour in enumerate(self.view.zone):
                frame[("zone", "", i)] = BLOCK_COLOURS.get(colour, EXTRA) if colour else OFF
        return frame

    def next_fix(self) -> tuple[Player, tuple[int, int, int], bool] | None:
        """The one difference to put right next: (tower, cell, True if it is extra).

        Extra cubes come off first (from the top), then missing ones go back
        (from the bottom), so the players are guided one fix at a time.
        """
        if self.view is None:
            return None
        expect = expected_towers(self.position) if self.position is not None \
            else (frozenset(), frozenset())
        for t, p in enumerate(PLAYERS):
            extra = self.view.towers[t] - expect[t]
            if extra:
                return p, max(extra, key=lambda c: (c[2], c[1], c[0])), True
        for t, p in enumerate(PLAYERS):
            missing = expect[t] - self.view.towers[t]
            if missing:
                return p, min(missing, key=lambda c: (c[2], c[1], c[0])), False
        return None

    def _tower_leds(self, frame: dict) -> None:
        for p in PLAYERS:
            for rod in range(9):
                frame[("tower", p.value, rod)] = OFF
        if self.state == "choose" and self.candidates:  # the lit candidate's rods
            place = self.candidates[self.pick][-1]
            colour = BLOCK_COLOURS[self.position.block(place.block).colour]
            for x, y, _ in place.cells:
                frame[("tower", place.tower.value, y * 3 + x)] = colour
        elif self.state in ("setup", "repair"):
            fix = self.next_fix()
            if fix is not None:
                p, (x, y, _), extra = fix
                frame[("tower", p.value, y * 3 + x)] = EXTRA if extra else MISSING
        elif self.last_place is not None:
            p = self.last_place.tower
            for x, y, _ in self.last_place.cells:
                if 0 <= x < 3 and 0 <= y < 3:
                    frame[("tower", p.value, y * 3 + x)] = GOOD


def state_diagram() -> str:
    """The table's state machine as a Mermaid diagram, drawn by ``transitions``."""
    from transitions.extensions import GraphMachine  # only needed for the picture

    class _Model:
        pass

    machine = GraphMachine(model=_Model(), states=list(TowersTable.STATES),
                           transitions=list(TowersTable.TRANSITIONS), initial="setup",
                           auto_transitions=False, graph_engine="mermaid",
                           title="The towers table")
    lines = machine.get_graph().draw(None).splitlines()
    keep = [line for line in lines if "classDef" not in line and "Class " not in line]
    return "\n".join(line for line in keep if line.strip()) + "\n"

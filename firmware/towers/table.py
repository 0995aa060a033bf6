"""The towers game on the table: rods and zone pads, the toss and the hourglass.

``TowersTable`` is the table core (``firmware.core.table.Table``) with the towers
sensors: a switch per cube position on both towers' rods, and a load cell
under each building-zone pad that tells a block's colour from its weight.
What a settled view means is the engine's (``engine.towers.sensing``):
blocks chosen or put back, placements, a takeback of the last placements
lifted off again, placements to choose among, or what is wrong.

The towers add to the core's machine a coin toss before the first turn
(chance in the engine, resolved from the seed; the rings show it for
``toss_s``), and the active player's hourglass: it runs while they choose,
pauses with the table, and when it runs out the turn is lost and the zone
blocks go back to the pile before the next turn counts. A flat tower's
bonus is declined with the earner's button; a block that landed wholly
above the rods is announced with the placer's button. Before a game the
menu button steps through the option presets.

Time comes from the ``now`` arguments, so tests (and the fast demo) control
the clock.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Any, ClassVar

from engine.core import Outcome, seeded_start
from engine.errors import ObeliskError
from engine.players import Player
from engine.reading import Reading
from engine.record import options_to_dict
from engine.towers import record
from engine.towers.actions import Action, Decline, Place, Take, Timeout
from engine.towers.blocks import WIDTH, Cell, block_set_to_dict
from engine.towers.game import TowersGame, TowersOptions, TowersState
from engine.towers.placement import over_the_top_placements
from engine.towers.sensing import (
    LOST_TURN,
    TowersView,
    expected_towers,
    next_fix,
    over_the_top_fits,
    read_view,
    taken_colour,
)
from engine.towers.tower import LEVELS, cell_name, rod_name
from engine.towers.turns import Phase
from firmware.core.events import Mark
from firmware.core.hooks import Records
from firmware.core.hourglass import Hourglass
from firmware.core.palette import Frame
from firmware.core.table import Table
from firmware.core.table_state import TableState
from firmware.store.journal import GameEntries, Journal
from firmware.store.standing import Kept
from firmware.towers import leds
from firmware.towers.table_state import TowersTableState

PRESETS = (
    TowersOptions(hourglass_s=60.0),
    TowersOptions(hourglass_s=90.0),
    TowersOptions(hourglass_s=45.0),
    TowersOptions(hourglass_s=60.0, sudden_death=True),
)
"""What the menu button cycles through before a game starts."""

OVER_THE_TOP = ("; a block resting wholly above the rods touches no switch: press your "
                "button once it is down")
"""Said with a placement once it can happen: the one reading the rods cannot make."""


def over_the_top_hint(state: TowersState, player: Player | None) -> str:
    """The button's use, said once it can matter: a rod of the player's tower is full, so a
    block may come to rest wholly above the rods."""
    if player is None or max(state.tower(player).heights, default=0) < LEVELS:
        return ""
    return OVER_THE_TOP


CHOOSE_PLACEMENT = ("more than one placement fits what the rods see; press your button "
                    "to light the next, hold it on the right one")
CHOOSE_BONUS = ("the black block set where it rests above the rods, or the bonus declined? "
                "press your button to light the next, hold it on the right one")


class TowersTable(Table[TowersView, TowersState]):
    """One towers game on a physical (or simulated) table."""

    game: TowersGame  # the table plays its own game (its options, its block set)

    EXTRA_STATES: ClassVar[tuple[StrEnum, ...]] = tuple(TowersTableState)
    EXTRA_TRANSITIONS: ClassVar[tuple[dict[str, Any], ...]] = (
        {"trigger": "begin", "source": TableState.setup, "dest": TowersTableState.toss},
        {"trigger": "tossed", "source": TowersTableState.toss, "dest": TableState.play,
         "conditions": "toss_over"},
    )
    PAUSED = "paused: the hourglass is stopped"
    SETUP = "clear both towers and the zone pads, then press a player button"
    READY = "the table is clear: press a player button to start"
    record: ClassVar[Records] = record
    # the table is what its LEDs read of it (``leds.LitTable``): mypy checks it here
    draw_leds: ClassVar[Callable[[TowersTable, float, int], Frame]] = leds.frame
    led_change = leds.next_change
    # the coin toss's trigger, bound onto each table by its machine (``transitions``)
    tossed: Callable[[], bool]
    may_tossed: Callable[[], bool]

    def __init__(self, game: TowersGame, journal: Journal, *, toss_s: float = 2.0,
                 **kwargs: Any) -> None:
        super().__init__(game, journal, **kwargs)
        self.toss_s = toss_s
        self.hourglass = Hourglass(game.options.hourglass_s)
        self.glass_of: Player | None = None  # whose hourglass runs
        self.clear_zone = False  # blocks of a lost turn must go back to the pile
        self._sand_kept: float | None = None  # a resumed turn's sand, kept at the stop
        self._toss_until = 0.0

    @property
    def last_place(self) -> Place | None:
        """The last accepted placement (its rods light green)."""
        return next((a for a in reversed(self.actions) if isinstance(a, Place)), None)

    def next_fix(self) -> tuple[Player, Cell, bool] | None:
        """The one cube to put right next (tower, position, True if extra), for the LEDs."""
        return None if self.view is None else next_fix(self.position, self.view)

    # ---------------------------------------------------------------- the game's parts

    def extras(self) -> dict:
        return {"set": block_set_to_dict(self.game.block_set)}

    def _initial(self, start: dict, seed: int) -> TowersState:
        state = super()._initial(start, seed)
        if "first" in start:  # written before the toss was the engine's: who went first
            state = self.game.new_initial_state(first=Player(start["first"]))
        return state

    def _resumed_from(self, entries: GameEntries, kept: Kept) -> None:
        self.hourglass = Hourglass(self.game.options.hourglass_s)
        # The lost turn's blocks may still be on the pads: they go back to the pile,
        # never count as the next player's choice.
        self.clear_zone = self._turn_lost()
        self._sand_kept = self._sand_of(kept)

    def standing(self, now: float) -> dict:
        """The sand left in the turn's hourglass (and a pause), kept at a stop for the
        resumed turn."""
        glass, kept = self.hourglass, super().standing(now)
        if self.glass_of is None or not glass.started or glass.expired(now):
            return kept
        return {**kept, "glass": {"player": self.glass_of.value,
                                  "left": round(glass.remaining(now), 3)}}

    LOST_AT_STOP = "the turn's hourglass will start full when the table starts again"

    def _sand_of(self, kept: Kept) -> float | None:
        """The sand the stop kept for the turn now to choose (None: a full hourglass), and
        a word on the page when what was kept could not be read."""
        glass = kept.values.get("glass")
        said = kept.said
        if glass is not None and not said:
            left = glass.get("left") if isinstance(glass, dict) else None
            if (isinstance(left, bool) or not isinstance(left, int | float)
                    or not isinstance(glass.get("player"), str)):
                said = f"the hourglass kept at the stop ({glass!r}) makes no sense"
            elif (self.position.phase is Phase.CHOOSE and glass["player"]
                    == self.position.active.value and 0 < left <= self.hourglass.length_s):
                return float(left)
        if said:
            self.tell("notice", message=f"{said}: the turn's hourglass starts full")
        return None

    def _use(self, game: TowersGame) -> None:
        """Before a game: play ``game`` (other options), from this seed's toss."""
        self.game = game
        self.hourglass = Hourglass(game.options.hourglass_s)
        self.position = seeded_start(game, self.seed)[0]
        self.history, self.actions = [self.position], []

    def _words(self, action: Action, pos: TowersState | None = None) -> str:
        """An action in words; the passive player's placement also says what the other gets."""
        pos = self.position if pos is None else pos
        left = _left_over(action, pos)
        also = f"; {pos.active} gets {_handed(pos, action, left)}" if left else ""
        return pos.action_words(action) + also

    def _done(self, action: Action, pos: TowersState | None = None) -> str:
        """What the player did (``chose a green block ...``), and what the other got."""
        pos = self.position if pos is None else pos
        left = _left_over(action, pos)
        also = f"; {pos.active} got {_handed(pos, action, left)}" if left else ""
        return pos.done_words(action) + also

    def _turn_lost(self) -> bool:
        """Whether the last action was a turn lost to the hourglass."""
        return bool(self.actions) and isinstance(self.actions[-1], Timeout)

    def _lost_before(self, state: TowersState) -> str:
        """Words for the turn after a lost one: the turn line moved to the other player
        without a word, and a person at the page missed that their time had run out."""
        if state is not self.position or not self._turn_lost():
            return ""
        return f" ({state.active.other} ran out of time: the turn passed)"

    def _phase_words(self, state: TowersState | None = None) -> str:
        """What the player to act is to do (the turn event names them)."""
        state = self.position if state is None else state
        if state.phase is Phase.CHOOSE:
            return ("put one more block from the pile in the building zone" if state.zone
                    else "put two blocks from the pile in the building zone"
                    ) + self._lost_before(state)
        mover = state.current_player()
        # a block lifted off its pad, the towers as the game has them: it is in the passive
        # player's hand, and the line follows it (placed wrong, the refusal says so)
        view = self.view if state is self.position else None
        taken = taken_colour(state, view)
        if taken is not None and view is not None and view.towers == expected_towers(state):
            return f"place the {taken.label} block on your tower{over_the_top_hint(state, mover)}"
        if state.phase is Phase.TAKE:
            return ("take one of the two blocks in the building zone and place it on your "
                    f"tower{over_the_top_hint(state, mover)}")
        if state.phase is Phase.PLACE:  # those to move are those holding a block
            (_, block), *also_placing = [(p, state.block(hand)) for p in state.to_move()
                                         if (hand := state.hands[p.index]) is not None]
            also = "".join(f" ({p} places the {other} too)" for p, other in also_placing)
            return (f"place the {block} on your tower{also}"
                    f"{over_the_top_hint(state, mover)}")
        if state.phase is Phase.BONUS:
            also = "".join(f" ({p} too)" for p in state.to_move()[1:])
            return ("your tower is flat: put a black block on the other tower, or press "
                    f"your button to decline{also}")
        return state.describe_phase()

    def _mark(self, place: tuple[Player, Cell, bool]) -> Mark:
        """A cube of a tower that should not be there (extra), or should (missing)."""
        player, cell, extra = place
        kind = "extra" if extra else "missing"
        return Mark(f"tower {player.value} {cell_name(cell)} ({kind})", tower=player.value,
                    cells=(cell,), kind=kind)

    # ---------------------------------------------------------------- setup, the toss

    def ready(self, view: TowersView) -> bool:
        return not any(view.towers) and not view.zone_colours()

    def _setup_menu(self) -> None:
        """Menu in setup: the next preset of options (shown on the rings)."""
        options = self.game.options
        index = PRESETS.index(options) + 1 if options in PRESETS else 0
        self._use(TowersGame(self.game.block_set, PRESETS[index % len(PRESETS)]))
        self.tell("options", game=self.game.id, options=options_to_dict(self.game.options))

    def on_enter_toss(self) -> None:
        self._toss_until = self._now + self.toss_s

    def toss_over(self) -> bool:
        """The coin toss has been shown its ``toss_s``: the condition of ``tossed``."""
        return self._now >= self._toss_until

    def _set_up_again(self) -> None:
        self._glass_stop()
        self.clear_zone = False

    # ---------------------------------------------------------------- time

    def _clocks(self, now: float) -> None:
        """Time passes: the coin toss is shown its time, the turn's sand runs."""
        if self.may_tossed():
            self.tossed()
        pos = self.position
        # a refusal does not stop the hourglass: out while something is wrong, the turn is lost
        if (self.state in (TableState.play, TableState.repair) and pos.phase is Phase.CHOOSE
                and self.hourglass.expired(now)):
            self._lose_turn()

    def _clocks_due(self) -> float | None:
        """When the coin toss ends, or the turn's sand runs out."""
        times: list[float | None] = []
        if self.state == TowersTableState.toss:
            times.append(self._toss_until)
        if self.state in (TableState.play, TableState.repair):
            times.append(self.hourglass.expires_at())
        known = [t for t in times if t is not None]
        return min(known) if known else None

    def _lose_turn(self) -> None:
        """The hourglass ran out: the turn is lost, the zone blocks go back to the pile."""
        self._glass_told("expired", 0.0)
        self.hourglass.stop()
        self.clear_zone = self.view is not None and bool(self.view.zone_colours())
        if self.state == TableState.repair:  # what was wrong is read again after the lost turn
            self.settled_back(moving_on=True)
        self._accept([Timeout()])
        if self.state != TableState.play:
            return
        if self.clear_zone:
            self.repair.refuse(LOST_TURN, kind="task")  # the next hourglass waits for an empty zone
        else:
            self.reconsider()

    def _glass_due(self) -> None:
        """Start the active player's hourglass if they are to choose and it is not running.

        After a lost turn it waits until the zone is empty again.
        """
        if (self.state == TableState.play and self.position.phase is Phase.CHOOSE
                and not self.hourglass.started and not self.clear_zone
                and not self._computer_chooses()):
            self.glass_of = self.position.active
            left, self._sand_kept = self._sand_kept, None
            self.hourglass.start(self._now, left)
            self._glass_told("started" if left is None else "resumed",
                             self.hourglass.remaining(self._now))

    def _computer_chooses(self) -> bool:
        """Playing alone, the computer chooses at once: the person fetching its blocks is
        not timed."""
        return self.solo is not None and self.solo.seat is self.position.active

    def _glass_stop(self) -> None:
        if self.hourglass.started:
            left = self.hourglass.remaining(self._now)
            self.hourglass.stop()
            self._glass_told("stopped", left)

    def _glass_told(self, state: str, left: float) -> None:
        if self.glass_of is not None:
            self.emit(self._glass_event(state, left))

    def _glass_event(self, state: str, left: float) -> dict:
        assert self.glass_of is not None
        return self.event("timer", player=self.glass_of.value, state=state,
                          seconds=self.hourglass.length_s, left=round(left, 3))

    def _lasting_events(self, now: float) -> list[dict]:
        """The hourglass as it is now, running or paused."""
        glass = self.hourglass
        if not glass.started or self.glass_of is None:
            return []
        state = ("expired" if glass.expired(now) else "resumed" if glass.running
                 else "paused")
        return [self._glass_event(state, glass.remaining(now))]

    def _on_play(self) -> None:
        """Back to play: a paused hourglass runs on (only a pause stops one: play comes
        back from it alone); a new or resumed turn's starts."""
        if self.hourglass.started and not self.hourglass.running:
            self.hourglass.resume(self._now)
            self._glass_told("resumed", self.hourglass.remaining(self._now))
        self._glass_due()
        self.reconsider()  # what was seen meanwhile is looked at afresh

    def _on_pause(self) -> None:
        if self.hourglass.running:
            self.hourglass.pause(self._now)
            self._glass_told("paused", self.hourglass.remaining(self._now))

    def _ending(self, outcome: Outcome) -> None:
        self._glass_stop()

    def _accepted(self, before: TowersState) -> None:
        """The active player's hourglass runs while they choose, a new one each turn."""
        pos = self.position
        if pos.phase is not Phase.CHOOSE or pos.turn != before.turn:
            self._glass_stop()
        self._glass_due()

    def _taken_back(self) -> None:
        """Placements taken back: a turn they had ended is not begun, nor is its hourglass."""
        if self.position.phase is not Phase.CHOOSE:
            self._glass_stop()

    # ---------------------------------------------------------------- deciding

    def _reading(self, view: TowersView) -> Reading:
        """``read_view`` (the core keeps it: it tries placements on both towers). Once a
        lost turn's blocks are back in the pile, the next turn's hourglass may start."""
        if self.clear_zone and not view.zone_colours():
            self.clear_zone = False
            self._glass_due()
        return read_view(self.history, self.actions, view, clear_zone=self.clear_zone)

    def _reading_key(self) -> object:
        """A lost turn's blocks still to go back change what a view means."""
        return self.clear_zone

    def _to_fix(self, view: TowersView, exc: ObeliskError) -> tuple:
        """The first cube to put right (or take off) is lit, one at a time."""
        fix = next_fix(self.position, view)
        return (fix,) if fix else ()

    def still_to_do(self, asked: tuple[Any, ...]) -> tuple[Any, ...]:
        """An asked take whose block is off its pad, the towers as the game has them: in the
        person's hand, only its placement is left to say."""
        view = self.view
        if not asked or not isinstance(asked[0], Take) or view is None:
            return asked
        taken = taken_colour(self.position, view)
        if taken is None or view.towers != expected_towers(self.position) \
                or self.position.block(asked[0].block).colour is not taken:
            return asked
        return asked[1:]

    def _question(self, reading: Reading) -> str:
        return CHOOSE_PLACEMENT

    def _sure(self, view: TowersView) -> tuple:
        """Blocks the sensors place without a doubt (none while a lost turn's blocks are
        still to go back to the pile)."""
        return () if self.clear_zone else super()._sure(view)

    def light_cols(self, strip: str, count: int) -> int:
        """A tower's rods are lit as the 3 x 3 square they stand in."""
        return WIDTH if strip == "tower" else super().light_cols(strip, count)

    def light_places(self, strip: str, count: int) -> list[str] | None:
        """Each rod's light by the rod's name, a1 to c3 (``leds``: rod y * 3 + x)."""
        if strip == "tower":
            return [rod_name(i % WIDTH, i // WIDTH) for i in range(count)]
        return super().light_places(strip, count)

    def decliners(self) -> tuple[Player, ...]:
        """Who may decline the flat bonus they earned."""
        return self.position.bonus if self.position.phase is Phase.BONUS else ()

    def _play_button(self, player: Player, kind: str) -> None:
        """Declining a flat bonus, or a block that landed wholly above the rods."""
        pos = self.position
        if kind != "press":
            return
        if player in self.decliners():
            self._bonus_press(player)
        elif pos.phase in (Phase.TAKE, Phase.PLACE):
            self._over_the_top(player)

    def _bonus_press(self, player: Player) -> None:
        """A press of a flat bonus's earner: the bonus declined, or the black block set on
        the other tower where it rests wholly above the rods (no switch sees it, and the same
        press tells it). Where it could rest so, the player picks which it was: the block up
        there first, the decline last."""
        try:
            above = over_the_top_placements(self.position, player.other)
        except ObeliskError:  # nowhere on that tower is above the rods
            above = ()
        if not above:
            self._accept([Decline(player)])
            return
        self.choosing.ask(player, (*((place,) for place in above), (Decline(player),)),
                          CHOOSE_BONUS)

    def _over_the_top(self, player: Player) -> None:
        """The player says their block landed wholly above the rods (no switch saw it)."""
        try:
            fits = over_the_top_fits(self.position, player, self.decided)
        except ObeliskError as exc:
            self.tell("notice", player=player.value, message=str(exc))
            return
        if len(fits) == 1:
            self._accept(fits[0])
        else:
            self.choosing.ask(player, fits, CHOOSE_PLACEMENT)


def state_diagram() -> str:
    """The table's state machine as a Mermaid diagram, drawn by ``transitions``."""
    from transitions.extensions import GraphMachine  # only needed for the picture

    class _Model:
        pass

    first = (TableState.setup, TowersTableState.toss)  # drawn in the order a game goes
    states = [*first, *(s for s in TowersTable.STATES if s not in first)]
    machine = GraphMachine(model=_Model(), states=states,
                           transitions=[dict(t) for t in TowersTable.TRANSITIONS],
                           initial=TableState.setup, auto_transitions=False, graph_engine="mermaid",
                           title="The towers table")
    lines = machine.get_graph().draw(None).splitlines()
    keep = [line for line in lines if "classDef" not in line and "Class " not in line]
    return "\n".join(line for line in keep if line.strip()) + "\n"


def _left_over(action: Action, pos: TowersState) -> str | None:
    """The block the active player is handed when the passive player's placement takes the
    other zone block (None for any other action)."""
    if not isinstance(action, Place) or pos.phase is not Phase.TAKE:
        return None
    try:
        return pos.apply_action(action).hands[pos.active.index]
    except ObeliskError:
        return None


def _handed(pos: TowersState, action: Action, left: str) -> str:
    """The block the active player is handed, by its colour: "the other" when the passive
    player placed one of the same colour (the table cannot tell the two apart)."""
    block = pos.block(left)
    placed = getattr(action, "block", None)
    same = (isinstance(placed, str) and placed in pos.game.block_set
            and pos.block(placed).colour is block.colour)
    return f"the other {block}" if same else f"the {block}"

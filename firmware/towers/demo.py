"""``obelisk demo towers``: two bots play a whole game on the simulated table.

The bots act physically: they put blocks on the zone pads (weights), thread
blocks onto the rods (cubes closing switches), press buttons, and follow the
table's guidance when it says something is wrong. Everything else is the
real stack: scanner code, pseudo-terminal, parser, service, engine, journal,
LED buffers. Each game has one hourglass timeout (a bot dawdles) and one
illegal placement (a block left floating) that is then corrected.

The bots decide from the accepted position only, with randomness seeded by
the game seed and the number of accepted actions, so the same seed plays the
same game, also when a killed demo resumes from its journal.
"""

from __future__ import annotations

import random
from collections import Counter

from engine.errors import AmbiguousPlacementError, ObeliskError
from engine.players import PLAYERS, Player
from engine.towers.blocks import Cell, Colour
from engine.towers.game import TowersState
from engine.towers.placement import find_placement
from engine.towers.sensing import TowersView, expected_towers
from engine.towers.tower import LEVELS, resting_placements
from engine.towers.turns import Phase
from firmware.core.settle import QUICK_S
from firmware.core.surroundings import Surroundings
from firmware.core.table_state import TableState
from firmware.sim.demo_runner import DemoSettings, run_table_demo
from firmware.store.journal import Journal
from firmware.store.resume import Resolved
from firmware.towers.table import TowersTable
from firmware.towers.view import ZONE_PADS, ZoneScale, view_of
from hardware.devices import TableDevices
from hardware.sim.table import GRAMS_TO_COUNTS, LOAD_OFFSET


class DemoPlayers:
    """Both players' hands, acting on the simulated table when it waits for them."""

    def __init__(self, table: TowersTable, devices: TableDevices, seed: int) -> None:
        self.table = table
        self.devices = devices
        sim = devices.sim
        assert sim is not None  # a demo's table is the simulated one
        self.sim = sim
        self.seed = seed
        plan = random.Random(seed)
        self.timeout_turn = plan.randint(2, 3)
        self.illegal_turn = self.timeout_turn + plan.randint(1, 2)
        self.illegal_done = False
        self.dawdled_turn = 0
        self.pads: list[str | None] = [None] * len(ZONE_PADS)
        self.held: dict[Player, str] = {}
        self.put: frozenset = frozenset()
        self.put_kind: object = None
        self.scale = ZoneScale()

    # ------------------------------------------------------------ the physical table

    def physical(self) -> dict:
        """The physical table and the hands, as plain data (it survives a power cut)."""
        return {"cubes": [sorted(map(list, c)) for c in self.sim.cubes],
                "grams": list(self.sim.grams), "pads": self.pads,
                "held": {p.value: b for p, b in self.held.items()},
                "illegal_done": self.illegal_done, "dawdled_turn": self.dawdled_turn}

    def restore(self, data: dict) -> None:
        """Put the physical table back as it was before the demo was killed."""
        for t, cells in enumerate(data["cubes"]):
            self.sim.place(t, {tuple(c) for c in cells})
        for pad, grams in enumerate(data["grams"]):
            self.sim.weigh(pad, grams)
        self.pads = list(data["pads"])
        self.held = {Player(p): b for p, b in data["held"].items()}
        self.illegal_done = data["illegal_done"]
        self.dawdled_turn = data["dawdled_turn"]

    # ------------------------------------------------------------ looking

    def _truth(self) -> TowersView:
        towers = tuple(frozenset(c for c in self.sim.cubes[t] if c[2] < LEVELS) for t in (0, 1))
        zone = tuple(self.scale.colour(LOAD_OFFSET + int(self.sim.grams[p] * GRAMS_TO_COUNTS))
                     for p in ZONE_PADS)
        return TowersView((towers[0], towers[1]), zone)

    def waiting(self) -> bool:
        """The table has seen and decided on the table as it physically is."""
        table = self.table
        return table.decided == self._truth() and \
            table.state in (TableState.setup, TableState.play, TableState.choose, TableState.repair)

    def _rng(self, role: str) -> random.Random:
        return random.Random(f"{self.seed}:{len(self.table.actions)}:{role}")

    # ------------------------------------------------------------ hands

    def set_pad(self, pad: int, block: str | None) -> None:
        """Put ``block`` on zone pad ``pad`` (None: take what is there off); the computer's
        hand in ``firmware/towers/solo.py`` fetches and places its blocks so too."""
        colour = self.table.game.block_set[block].colour if block else None
        self.pads[pad] = block
        self.sim.weigh(ZONE_PADS[pad], self.scale.grams(colour))

    def physical_pile(self, pos: TowersState) -> list[str]:
        """The blocks still in the pile beside the table, as the hands know it (what the
        pads may ask to fetch: ``firmware/towers/solo.py`` reads the computer's move off
        the LEDs against it)."""
        used = {pb.block.id for p in PLAYERS for pb in pos.tower(p).blocks}
        used |= {b for b in self.pads if b} | set(self.held.values()) | set(pos.removed)
        return [b.id for b in pos.game.block_set.blocks
                if b.colour is not Colour.BLACK and b.id not in used]

    def _placement(self, pos: TowersState, player: Player, block: str,
                   rng: random.Random) -> frozenset[Cell]:
        """A low placement the table can recognise from its sensors."""
        fits = resting_placements(pos.tower(player), pos.block(block))
        heights = sum(pos.tower(player).heights)

        def key(p: frozenset[Cell]) -> tuple[int, int, float]:
            gaps = sum(pos.tower(player).heights_after(p)) - heights - len(p)
            return (max(z for *_, z in p), gaps, rng.random())

        unseen = asked = None
        for cells in sorted(fits, key=key):
            seen = frozenset(c for c in cells if c[2] < LEVELS)
            if not seen:
                unseen = unseen or cells
                continue
            try:  # the table can tell what it is (it knows the colour from the pads)
                find_placement(pos, player, seen, pos.block(block).colour)
            except AmbiguousPlacementError:
                asked = asked or cells  # partly over the top: the table will ask which
                continue
            except ObeliskError:
                continue
            return cells
        if unseen is not None:
            return unseen  # wholly above the rods: the player will press their button
        if asked is not None:
            return asked
        raise RuntimeError(f"{block} has no placement on {player}'s tower")

    def _put_on_tower(self, pos: TowersState, player: Player, block: str) -> None:
        rng = self._rng(f"place-{player.value}")
        cells = self._placement(pos, player, block, rng)
        self.put = cells  # the hand knows where it put the block, if the rods cannot tell
        self.put_kind = pos.block(block).kind  # and which block it was
        if all(z >= LEVELS for *_, z in cells):
            self.sim.place(player.index, cells)  # sits above the rods, unseen
            self.devices.buttons.press(player.value)
            return
        if pos.turn == self.illegal_turn and not self.illegal_done and player is pos.passive:
            self.illegal_done = True  # leave it floating one level up: the table refuses it
            cells = frozenset((x, y, z + 1) for x, y, z in cells)
        self.sim.place(player.index, cells)

    # ------------------------------------------------------------ acting

    def act(self) -> None:
        """One physical act, if the table is waiting for one."""
        table = self.table
        pos = table.position
        if table.state != TableState.setup:  # after a power cut, a hand may hold a played block
            waiting = Counter(pos.block(b).colour for b in (*pos.zone, *pos.hands) if b)
            for player, block in list(self.held.items()):
                if waiting[pos.block(block).colour] > 0:
                    waiting[pos.block(block).colour] -= 1  # zone blocks are known by colour
                else:
                    del self.held[player]
        if table.state == TableState.setup and table.decided is not None \
                and not any(table.decided.towers):
            self.devices.buttons.press("A")  # the table is clear: start
        elif table.state == TableState.choose and table.chooser is not None:
            self._pick(table.chooser)
        elif table.state == TableState.repair or table.clear_zone:
            self._repair(pos)
        elif table.state == TableState.play:
            self._play(pos)

    def _repair(self, pos: TowersState) -> None:
        """Do what the LEDs ask: put the table back as the accepted position has it."""
        expect = expected_towers(pos)
        for t in (0, 1):
            extra = self.sim.cubes[t] - expect[t]
            missing = expect[t] - self.sim.cubes[t]
            if extra:
                self.sim.lift(t, extra)
            if missing:
                self.sim.place(t, missing)
        if self.table.clear_zone:
            want: list[str] = []
        elif pos.phase in (Phase.CHOOSE, Phase.TAKE):
            want = list(pos.zone)
        elif pos.phase is Phase.PLACE:
            want = [h for h in pos.hands if h is not None]
        else:
            want = []
        colours = Counter(pos.block(b).colour for b in want)
        have = Counter(pos.block(b).colour for b in self.pads if b)
        if colours != have:
            self.held.clear()
            for pad in range(len(self.pads)):
                self.set_pad(pad, want[pad] if pad < len(want) else None)

    def _pick(self, player: Player) -> None:
        """The table asks which placement it was: step to the one the hand made, hold."""
        candidates = self.table.candidates
        pos = self.table.position
        # Still to place, physically: what the hands hold and the pads still carry.
        unplaced = Counter(pos.block(b).kind for b in (*self.held.values(), *self.pads) if b)

        def fit(i: int) -> tuple[bool, bool, bool]:
            after = pos
            for action in candidates[i]:
                after = after.apply_action(action)
            held = Counter(after.block(h).kind for h in after.hands if h is not None)
            place = candidates[i][-1]
            return (held != unplaced, pos.block(place.block).kind != self.put_kind,
                    place.cells != self.put)

        fits = [fit(i) for i in range(len(candidates))]
        mine = sorted((i for i in range(len(candidates)) if fits[i] != (True, True, True)),
                      key=lambda i: fits[i])
        if mine and self.table.pick != mine[0]:
            self.devices.buttons.press(player.value)
        else:
            self.devices.buttons.press(player.value, hold=True)

    def _play(self, pos: TowersState) -> None:
        """The hands' act for the phase the game is in."""
        if pos.phase is Phase.CHOOSE:
            self._play_choose(pos)
        elif pos.phase is Phase.TAKE:
            self._play_take(pos)
        elif pos.phase is Phase.PLACE:
            self._play_place(pos)
        elif pos.phase is Phase.BONUS:
            self._play_bonus(pos)

    def _play_choose(self, pos: TowersState) -> None:
        """The active player sets a block from the pile on a free pad; on the turn planned
        for it, one block and then nothing, so the demo shows an hourglass running out."""
        active = pos.active
        if pos.turn == self.timeout_turn and self.dawdled_turn != pos.turn:
            if self.pads[0] is None:
                self.set_pad(0, self.physical_pile(pos)[0])
                return
            self.dawdled_turn = pos.turn  # now wait for the hourglass to run out
            return
        if self.dawdled_turn == pos.turn:
            return
        rng = self._rng(f"choose-{active.value}")
        pile = self.physical_pile(pos)
        free = [i for i, b in enumerate(self.pads) if b is None]
        if free:
            self.set_pad(free[0], rng.choice(pile))

    def _play_take(self, pos: TowersState) -> None:
        """The passive player picks a block up from a pad, then puts it on a tower."""
        passive = pos.passive
        if passive not in self.held:  # first pick a block up from a pad
            rng = self._rng(f"take-{passive.value}")
            pad, block = rng.choice([(i, b) for i, b in enumerate(self.pads) if b])
            self.held[passive] = block
            self.set_pad(pad, None)
            return
        self._put_on_tower(pos, passive, self.held.pop(passive))

    def _play_place(self, pos: TowersState) -> None:
        """The first player still to place puts a block on a tower: the one in hand, else
        one from a pad (none anywhere: the table is put right first)."""
        for player in pos.to_move():
            block = self.held.pop(player, None)
            if block is None:
                on_pads = [(i, b) for i, b in enumerate(self.pads) if b]
                if not on_pads:  # the block is nowhere to hand: do what the table asks
                    self._repair(pos)
                    return
                pad, block = on_pads[0]
                self.set_pad(pad, None)
            self._put_on_tower(pos, player, block)
            return

    def _play_bonus(self, pos: TowersState) -> None:
        """The bonus earner declines it half the time, else puts a black block on the
        other player's tower, so a demo shows both answers."""
        earner = pos.bonus[0]
        rng = self._rng(f"bonus-{earner.value}")
        if rng.random() < 0.5:
            self.devices.buttons.press(earner.value)  # declines the black block
        else:
            victim = earner.other
            cells = self._placement(pos, victim, pos.blacks[0], rng)
            self.sim.place(victim.index, cells)


# ---------------------------------------------------------------- running


def run_demo(settings: DemoSettings) -> int:
    """Play one towers game through the whole simulated stack; 0 when it ends."""

    def make_table(resolved: Resolved, journal: Journal, around: Surroundings, seed: int,
                   solo) -> TowersTable:
        return TowersTable(resolved.make(), journal, seed=seed, around=around,
                           settle_s=max(0.3, 0.15 * settings.speed),
                           quick_s=max(QUICK_S, 0.15 / 3 * settings.speed), toss_s=2.0,
                           solo=solo)

    return run_table_demo("towers", settings, make_table, DemoPlayers, view_of)


__all__ = ["DemoPlayers", "run_demo"]

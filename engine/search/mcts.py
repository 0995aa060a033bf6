"""Monte Carlo tree search over the one game API, in steps a caller can stop.

Each simulation walks down the tree choosing moves by UCT (the mean result
plus an exploration bonus that shrinks as a move is tried), adds one new
position, asks the game's tuning for a value there (usually a rollout: quick
play to the end or to a cut-off), and adds that value to every move on the
way down, each from the point of view of the player who chose it.

Hidden information: when a position can ``sample_hidden(stream)`` (High
Rise), every simulation starts from a fresh sample of what the player to
move cannot see, and the tree is keyed by moves alone. So the search is the
single-observer information-set MCTS of Cowling, Powley and Whitehouse: it
never reads the hidden values, and two positions that differ only in them
get the same tree and the same move from the same seed.

The budget is a number of simulations, never a clock: ``step(n)`` runs a
few, ``run(should_stop)`` runs all of them or stops when the caller says,
and ``best()`` is the move to play whenever the caller decides to stop.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Generic

from engine.core import ChanceStream, S
from engine.search.base import Results, Tuning


class Node(Generic[S]):
    """One position of the tree: who moves there, and the moves tried from it."""

    __slots__ = ("children", "mover", "player", "proven", "state", "total", "untried",
                 "visits")

    def __init__(self, mover: int | None) -> None:
        self.mover = mover  # who chose the move into this node (None: chance)
        self.player: int | None = None  # who moves here, once seen
        self.visits = 0
        self.total = 0.0  # results for ``mover``, summed over visits
        self.children: dict[Any, Node[S]] = {}
        self.untried: list[Any] | None = None
        self.proven: float | None = None  # the result, when the move ends the game
        self.state: S | None = None  # kept when nothing is hidden: no move is applied twice

    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


class Search(Generic[S]):
    """The search for one move from one position; run it all at once or in steps."""

    def __init__(self, state: S, tuning: Tuning[S], simulations: int, seed: int) -> None:
        if state.is_terminal() or state.is_chance_node():
            raise ValueError("a search needs a position where a player is to move")
        self.state = state
        self.tuning = tuning
        self.simulations = max(1, simulations)
        self.stream = ChanceStream(seed)
        self.done = 0
        # High Rise's sample_hidden(stream): the position with its hidden facts drawn afresh
        self._hidden: Callable[[ChanceStream], S] | None = getattr(state, "sample_hidden", None)
        self.root: Node[S] = Node(None)
        self._root_moves = tuning.moves(self._sampled())
        if not self._root_moves:
            raise ValueError("the tuning offers no move in this position")
        self._winning = self._decisive()

    # ---------------------------------------------------------------- running

    @property
    def finished(self) -> bool:
        """The budget is spent, or the choice is already certain."""
        return (self.done >= self.simulations or self._winning is not None
                or len(self._root_moves) == 1)

    def step(self, n: int = 1) -> bool:
        """Run up to ``n`` simulations; False once there is nothing left to run."""
        for _ in range(n):
            if self.finished:
                return False
            self._simulate()
            self.done += 1
        return not self.finished

    def run(self, should_stop: Callable[[], bool] | None = None, chunk: int = 8) -> Any:
        """Spend the budget (or stop early when ``should_stop()`` says so); the move."""
        while self.step(chunk):
            if should_stop is not None and should_stop():
                break
        return self.best()

    def best(self) -> Any:
        """The move to play now: a proven win, else the most tried, then the best mean."""
        if self._winning is not None:
            return self._winning
        if len(self._root_moves) == 1 or not self.root.children:
            return self._root_moves[0]
        order = {a: i for i, a in enumerate(self._root_moves)}
        return max(self.root.children.items(),
                   key=lambda item: (item[1].visits, item[1].mean(),
                                     -order.get(item[0], 0)))[0]

    # ---------------------------------------------------------------- inside

    def _sampled(self) -> S:
        """The root as this simulation sees it: hidden facts drawn afresh if any."""
        return self.state if self._hidden is None else self._hidden(self.stream)

    def _decisive(self) -> Any:
        """A root move that wins at once, found before any simulation (or None)."""
        me = self.state.current_player()
        state = self._sampled()
        for action in self._root_moves:
            after = state.apply_action(action)
            if after.is_terminal() and self._hidden is None:
                outcome = after.outcome()
                if outcome is not None and outcome.winner is me:
                    return action
        return None

    def _simulate(self) -> None:
        """One walk down the tree: a new position valued, the value added along the path."""
        state = self._sampled()
        node = self.root
        path = [node]
        while True:
            if state.is_terminal():
                results = state.returns()
                break
            if state.is_chance_node():
                state, node = self._chance(node, state)
                path.append(node)
                continue
            if node.untried is None:
                self._open(node, state)
            if node.untried:
                results = self._expand(node, node.untried.pop(), state, path)
                break
            action, node = self._select(node)
            state = node.state if node.state is not None else state.apply_action(action)
            path.append(node)
        _back_up(path, results)

    def _chance(self, node: Node[S], state: S) -> tuple[S, Node[S]]:
        """A chance outcome drawn from the stream: the position after it, and its node."""
        outcomes = state.chance_outcomes()
        action = outcomes[self.stream.below(len(outcomes))][0]
        state = state.apply_action(action)
        return state, node.children.setdefault(action, Node(None))

    def _open(self, node: Node[S], state: S) -> None:
        """A node seen for the first time: who moves there, and its moves to try."""
        player = state.current_player()
        if player is None:  # the game broke its word: neither over nor chance, yet no one
            raise ValueError("no player is to move in a position that is neither over nor "
                             "a chance node")
        node.player = player.index
        moves = self._root_moves if node is self.root else self.tuning.moves(state)
        node.untried = _shuffled(moves, self.stream)

    def _expand(self, node: Node[S], action: Any, state: S, path: list[Node[S]]) -> Results:
        """``action``, just taken from the untried moves, added to the tree (and to
        ``path``); the value after it."""
        mover = node.player
        assert mover is not None, "a node's moves are tried only once it is opened"
        state = state.apply_action(action)
        child: Node[S] = Node(mover)
        node.children[action] = child
        if self._hidden is None:
            child.state = state
        path.append(child)
        if not state.is_terminal():
            return self.tuning.evaluate(state, self.stream)
        results = state.returns()
        if self._hidden is None:
            child.proven = results[mover]
        return results

    def _select(self, node: Node[S]) -> tuple[Any, Node[S]]:
        """UCT among the tried moves; a move that wins outright is always taken."""
        log_n = math.log(node.visits)
        c = self.tuning.exploration
        best: tuple[Any, Node[S]] | None = None
        best_score = -math.inf
        for action, child in node.children.items():
            if child.proven is not None and child.proven > 0:
                return action, child
            score = child.total / child.visits + c * math.sqrt(log_n / child.visits)
            if score > best_score:
                best, best_score = (action, child), score
        assert best is not None
        return best


def _back_up(path: list[Node[S]], results: Results) -> None:
    """Each node on the path counts the visit and the result of the player who moved into it."""
    for visited in path:
        visited.visits += 1
        if visited.mover is not None:
            visited.total += results[visited.mover]


def _shuffled(moves: list[Any], stream: ChanceStream) -> list[Any]:
    """A copy in a seeded random order, so no move is favoured by where it is listed."""
    out = list(moves)
    for i in range(len(out) - 1, 0, -1):
        j = stream.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out

"""The searching levels: iterative-deepening alpha-beta over the static evaluation.

Patchwork has no dice and no hidden cards once the circle is laid, so a
minimax search over the evaluation fits it; the seat behind moves, so a
node maximises when the root's seat is in turn and minimises otherwise,
however many times in a row a seat acts. The tree is kept narrow with
`shortlist`: advance, plus the snuggest placement of each affordable patch
(one placement per patch beat two or three at equal nodes against greedy:
95% against 88% and 85% over 40 games at 3,000 nodes; depth matters more
than where exactly a patch goes). Placing a won leather patch is forced to
its snuggest cell and costs no depth.

The `deep` level searches the same tree with one more term in its
evaluation (evaluation.DEEP_WEIGHTS): at the horizon the seat in turn still has
its pick of the market, worth the best buy it can afford
(evaluation.buy_prospect); a search that stops there without it sees a
position as equal whoever moves next. Tried before and not stronger than
`search`: a wider root (the two snuggest placements of each patch, 50% over
40 games at 250 ms) and a transposition table (at equal nodes it played the
very same games as `search`, since iterative deepening meets few positions
twice at once).

Effort is counted in nodes (states played), not time: the result depends
only on the position and the node budget, so the same budget gives the
same move on any machine. A wall-clock deadline stops a search early when
the machine is slower or busier than the budget assumed; only then can the
move differ from run to run. A search may also be given `pause`, called as
often as the clock is read: the caller does other work there (a bot worker
plays the bot moves that came in while it analyses a game, whose searches
have no clock), and the search goes on where it was, to the same result.
"""

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from service.engine import GameState
from service.engine.state import PLACE_LEATHER

from .evaluation import DEFAULT_WEIGHTS, Weights, evaluate
from .options import play, shortlist

# How often (in nodes, about a millisecond) the clock is read: often enough to
# stop close to the deadline, rarely enough to cost nothing.
_CLOCK_EVERY = 32
_MAX_DEPTH = 64


class _OutOfBudget(Exception):
    """The node budget or the deadline ran out inside an iteration."""


class _Search:
    def __init__(
        self,
        seat: int,
        node_budget: int,
        deadline: float,
        weights: Weights,
        per_patch: int,
        pause: Callable[[], None] | None = None,
    ):
        self.seat = seat
        self.node_budget = node_budget
        self.deadline = deadline
        self.pause = pause
        self.weights = weights
        self.per_patch = per_patch
        self.nodes = 0
        # Best option found per position in earlier iterations: tried first.
        self.best_reply: dict[tuple[object, ...], tuple[int, int, int]] = {}
        # Set when an iteration stopped at a depth limit somewhere (not only at game ends).
        self.cut_off = False

    def _count(self) -> None:
        self.nodes += 1
        if self.nodes >= self.node_budget:
            raise _OutOfBudget
        if self.nodes % _CLOCK_EVERY == 0:
            if time.perf_counter() > self.deadline:
                raise _OutOfBudget
            if self.pause is not None:
                self.pause()

    def value(self, state: GameState, depth: int, alpha: float, beta: float) -> float:
        """The minimax value of state for the root's seat, searched depth plies deep."""
        if state.finished:
            return evaluate(state, self.seat, self.weights)
        if state.phase == PLACE_LEATHER:
            # Forced to the snuggest cell: no choice, so no ply spent.
            self._count()
            return self.value(play(state, shortlist(state, 1)[0]), depth, alpha, beta)
        if depth <= 0:
            self.cut_off = True
            return evaluate(state, self.seat, self.weights)
        options = shortlist(state, self.per_patch)
        maximising = state.turn == self.seat
        key = _key(state)
        remembered = self.best_reply.get(key)
        if remembered is not None:
            options.sort(key=lambda option: option != remembered)
        best_option = None
        best = -float("inf") if maximising else float("inf")
        for option in options:
            self._count()
            score = self.value(play(state, option), depth - 1, alpha, beta)
            if maximising:
                if score > best:
                    best, best_option = score, option
                    alpha = max(alpha, score)
            elif score < best:
                best, best_option = score, option
                beta = min(beta, score)
            if alpha >= beta:
                break
        if best_option is not None:
            self.best_reply[key] = best_option
        return best


def _key(state: GameState) -> tuple[object, ...]:
    """What identifies a position for the search (pieces' history left out)."""
    p0, p1 = state.players
    return (
        state.circle,
        p0.buttons,
        p0.position,
        p0.income,
        p0.quilt,
        p0.leather_to_place,
        p1.buttons,
        p1.position,
        p1.income,
        p1.quilt,
        p1.leather_to_place,
        state.on_top,
        state.bonus_owner,
        state.first_to_end,
        len(state.leather_spaces),
    )


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What a search chose, and how hard it looked."""

    option: tuple[int, int, int]
    nodes: int
    # The deepest iteration completed (0: only the options themselves were seen).
    depth: int


def search_option(
    state: GameState,
    node_budget: int,
    deadline: float,
    weights: Weights = DEFAULT_WEIGHTS,
    per_patch: int = 1,
    root_per_patch: int | None = None,
    pause: Callable[[], None] | None = None,
) -> SearchResult:
    """The best option found by deepening until node_budget or the deadline runs out.

    root_per_patch: placements per patch at the root (default: per_patch).
    `pause` is called every _CLOCK_EVERY nodes (the module says why).
    """
    assert state.turn is not None, "a finished game has no options"
    search = _Search(state.turn, node_budget, deadline, weights, per_patch, pause)
    # The root's options are always playable: reading them must not run out of budget.
    root = [(option, play(state, option)) for option in shortlist(state, root_per_patch or per_patch)]
    best, completed = root[0][0], 0
    if len(root) == 1:
        return SearchResult(best, search.nodes, completed)
    for depth in range(1, _MAX_DEPTH):
        search.cut_off = False
        scored = []
        alpha = -float("inf")
        try:
            for option, child in root:
                score = search.value(child, depth - 1, alpha, float("inf"))
                scored.append((score, option, child))
                alpha = max(alpha, score)
        except _OutOfBudget:
            # The options searched so far, the previous best first, are fully
            # valued at this depth: the best of them is at least as well founded.
            if scored:
                best = max(scored, key=lambda entry: entry[0])[1]
            break
        # Best first next time: a stable sort keeps earlier order among equals.
        scored.sort(key=lambda entry: -entry[0])
        root = [(option, child) for _, option, child in scored]
        best, completed = root[0][0], depth
        if not search.cut_off:
            break
    return SearchResult(best, search.nodes, completed)


def position_value(
    state: GameState,
    seat: int,
    node_budget: int,
    weights: Weights = DEFAULT_WEIGHTS,
    pause: Callable[[], None] | None = None,
) -> float:
    """The value of state for seat by the deepest search completed within node_budget (analysis.py).

    Deepening with a full window: the last completed depth's value. A
    finished game is its exact value; a budget too small for depth 1 gives
    the static evaluation. `pause` as for search_option.
    """
    search = _Search(seat, node_budget, math.inf, weights, 1, pause)
    value = evaluate(state, seat, weights)
    if state.finished:
        return value
    for depth in range(1, _MAX_DEPTH):
        search.cut_off = False
        try:
            value = search.value(state, depth, -math.inf, math.inf)
        except _OutOfBudget:
            break
        if not search.cut_off:
            break
    return value

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

The `deep` level searches the same tree with its own evaluation weights
(evaluation.DEEP_WEIGHTS, fitted to the final margins of its own games;
evaluation.py gives the figures). They began as the default ones plus one
term, kept with a small weight: at the horizon the seat in turn still has
its pick of the market, worth the best buy it can afford
(evaluation.buy_prospect); a search that stops there without it sees a
position as equal whoever moves next. It also searches best first
(`best_first`), for more depth from the same nodes: each node tries the
option that was best there in the previous iteration, then the buys that
gain most (options.best_buy_first, cached per quilt, market, buttons and
position, so the order costs next to nothing), and every option after the first is only tested
against the best so far with a null window (principal variation search),
searched again in full only when it proves better. The values at each depth
are the plain search's; at a depth of 5 it needs half the nodes
(tests/bots/test_search.py), within a move's deepening, where the last
iteration's best is tried first anyway, less: a sixth of a ply deeper at
5,500 nodes on the calibration positions. Alone, the buy order had cost
`deep` a fifth of its nodes per ms (uncached, and its tree holds more
buys, whose new quilts the placement caches have not met) and won no more
at equal time. As shipped, `deep` takes 6-11% longer a move than `search`
for the same nodes (arena medians at 250 ms);
at 250 ms it won 135 of 200 against `search` (129 of 200 on the same
circles without best_first) and 108 of 200 against itself without it:
ahead, within the noise of 200 games (benchmarks/README.md, "the strength
ladder"); null windows save more the deeper the search goes.

Its moves, not the analysis's values, also reduce late options
(`reduce_late`, late move reductions): an option tried after a node's
best so far is first tested a ply shallower, and searched to its full
depth only when it still looks better there. The values are then no
longer the plain search's at a depth (a refutation deeper than the test
can be missed), so analysis.py, which compares values, searches without
it; for play the nodes go where the best line most likely is. Against
`deep` without it, at equal nodes (6,750, the 250 ms budget), 118 of 200,
a ply deeper on average (8.4 against 7.4).
Tried before and not stronger than `search`: a wider root (the two
snuggest placements of each patch, 50% over 40 games at 250 ms) and a
transposition table (at equal nodes it played the very same games as
`search`, since iterative deepening meets few positions twice at once).

Effort is counted in nodes (states played), not time: the result depends
only on the position and the node budget, so the same budget gives the
same move on any machine. A wall-clock deadline stops a search early when
the machine is slower or busier than the budget assumed; only then can the
move differ from run to run. A search may also be given `pause`, called as
often as the clock is read: the caller does other work there (a bot worker
plays the bot moves that came in while it analyses a game, whose searches
have no clock, or the clocked bot moves that came in while it thinks for an
unclocked game), and the search goes on where it was, to the same result;
its deadline moves on by the time spent there. Or `pause` raises
StopSearch to end the search there, as if its budget had run out: it
returns the best found so far (the engine protocol's `stop` does this).
"""

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from service.engine import GameState
from service.engine.state import PLACE_LEATHER

from .evaluation import DEFAULT_WEIGHTS, Weights, evaluator
from .options import best_buy_first, play, shortlist

# How often (in nodes, about a millisecond) the clock is read: often enough to
# stop close to the deadline, rarely enough to cost nothing.
_CLOCK_EVERY = 32
_MAX_DEPTH = 64
# The width of a null window: evaluations are sums of weighted counts, and
# two that differ by less are the same value to the search.
_NULL_WINDOW = 1e-6
# The shallowest child a late move reduction tests a ply shallower (see _later_option()).
_REDUCED_FROM = 2


class StopSearch(Exception):
    """Raised by a search's `pause` to end it now, as its budget running out would: its best so far stands."""


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
        best_first: bool = False,
        reduce_late: bool = False,
    ):
        self.seat = seat
        self.node_budget = node_budget
        self.deadline = deadline
        self.pause = pause
        self.evaluate = evaluator(weights)
        self.options: Callable[[GameState], list[tuple[int, int, int]]] = (
            best_buy_first(weights)
            if best_first and per_patch == 1
            else lambda state: shortlist(state, per_patch)
        )
        # Null windows for all but the first option of a node (see value()).
        self.null_window = best_first
        # Late options first searched shallower (see _later_option()); only with null windows.
        self.reduce_late = best_first and reduce_late
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
            now = time.perf_counter()
            if now > self.deadline:
                raise _OutOfBudget
            if self.pause is not None:
                self.pause()
                # The caller's work there (a clocked bot's move) is not this search's time.
                self.deadline += time.perf_counter() - now

    def value(self, state: GameState, depth: int, alpha: float, beta: float) -> float:
        """The minimax value of state for the root's seat, searched depth plies deep.

        Fail-soft: a value at or below alpha is an upper bound of the true
        one, at or above beta a lower bound; in between it is exact.
        """
        if state.finished:
            return self.evaluate(state, self.seat)
        if state.phase == PLACE_LEATHER:
            # Forced to the snuggest cell: no choice, so no ply spent.
            self._count()
            return self.value(play(state, shortlist(state, 1)[0]), depth, alpha, beta)
        if depth <= 0:
            self.cut_off = True
            return self.evaluate(state, self.seat)
        options = self.options(state)
        maximising = state.turn == self.seat
        key = _key(state)
        remembered = self.best_reply.get(key)
        if remembered is not None:
            options.sort(key=lambda option: option != remembered)
        best_option = None
        best = -float("inf") if maximising else float("inf")
        for option in options:
            self._count()
            child = play(state, option)
            if self.null_window and best_option is not None:
                score = self._later_option(child, depth - 1, alpha, beta, maximising)
            else:
                score = self.value(child, depth - 1, alpha, beta)
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

    def _later_option(
        self, child: GameState, depth: int, alpha: float, beta: float, maximising: bool
    ) -> float:
        """child's value when an earlier option of its node holds the best so far.

        With reduce_late (late move reductions), a child with plies to spare
        is first tested one ply shallower: an option ordered after the best
        so far rarely beats it, and proving so there costs a fraction of
        the nodes. Only one that still looks better is searched to its full
        depth. That spends the nodes on the likeliest lines: at equal nodes
        a ply deeper on average (8.4 against 7.4 at 6,750 nodes).
        """
        if self.reduce_late and depth >= _REDUCED_FROM:
            if maximising:
                probe = self.value(child, depth - 1, alpha, alpha + _NULL_WINDOW)
                if probe <= alpha:
                    return probe
            else:
                probe = self.value(child, depth - 1, beta - _NULL_WINDOW, beta)
                if probe >= beta:
                    return probe
        return self._null_window(child, depth, alpha, beta, maximising)

    def _null_window(
        self, child: GameState, depth: int, alpha: float, beta: float, maximising: bool
    ) -> float:
        """child's value, first only tested against the best so far (principal variation search).

        With the best option tried first, the others most often only need
        proving worse, which a null window around alpha (beta for the
        minimising seat) does with far fewer nodes than a full window; the
        rare one that proves better is searched again with the window left.
        """
        if maximising:
            score = self.value(child, depth, alpha, alpha + _NULL_WINDOW)
            if alpha < score < beta:
                score = self.value(child, depth, score, beta)
        else:
            score = self.value(child, depth, beta - _NULL_WINDOW, beta)
            if alpha < score < beta:
                score = self.value(child, depth, alpha, score)
        return score


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
    best_first: bool = False,
    reduce_late: bool = False,
) -> SearchResult:
    """The best option found by deepening until node_budget or the deadline runs out.

    root_per_patch: placements per patch at the root (default: per_patch).
    `pause` is called every _CLOCK_EVERY nodes (the module says why); it
    may raise StopSearch to end the search with the best found so far.
    best_first: the `deep` level's search, best buy first and null windows;
    reduce_late: and its late options first tested a ply shallower, with
    best_first only (the module says why).
    """
    assert state.turn is not None, "a finished game has no options"
    search = _Search(state.turn, node_budget, deadline, weights, per_patch, pause, best_first, reduce_late)
    # The root's options are always playable: reading them must not run out of budget.
    options = search.options(state) if root_per_patch is None else shortlist(state, root_per_patch)
    root = [(option, play(state, option)) for option in options]
    best, completed = root[0][0], 0
    if len(root) == 1:
        return SearchResult(best, search.nodes, completed)
    for depth in range(1, _MAX_DEPTH):
        search.cut_off = False
        scored: list[tuple[float, tuple[int, int, int], GameState]] = []
        alpha = -float("inf")
        # An option a null window proved better than the best so far, while its exact value is searched.
        better: tuple[int, int, int] | None = None
        try:
            for option, child in root:
                if search.null_window and scored:
                    score = search.value(child, depth - 1, alpha, alpha + _NULL_WINDOW)
                    if score > alpha:
                        better = option
                        score = search.value(child, depth - 1, alpha, float("inf"))
                        better = None
                else:
                    score = search.value(child, depth - 1, alpha, float("inf"))
                scored.append((score, option, child))
                alpha = max(alpha, score)
        except (_OutOfBudget, StopSearch):
            # The options searched so far, the previous best first, are fully
            # valued at this depth: the best of them is at least as well founded
            # (and one proved better than all of them, more so).
            if better is not None:
                best = better
            elif scored:
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
    best_first: bool = False,
) -> float:
    """The value of state for seat by the deepest search completed within node_budget (analysis.py).

    Deepening with a full window: the last completed depth's value. A
    finished game is its exact value; a budget too small for depth 1 gives
    the static evaluation. `pause` and `best_first` as for search_option.
    """
    search = _Search(seat, node_budget, math.inf, weights, 1, pause, best_first)
    value = search.evaluate(state, seat)
    if state.finished:
        return value
    for depth in range(1, _MAX_DEPTH):
        search.cut_off = False
        try:
            value = search.value(state, depth, -math.inf, math.inf)
        except (_OutOfBudget, StopSearch):
            break
        if not search.cut_off:
            break
    return value

"""Static evaluation: how good a position is for one seat, in points (buttons).

Each seat is valued as the points it holds now plus what its income, its
time and the shape of its quilt are still worth; the evaluation is the
difference between the two seats. The terms follow the study the issue
cites (board, score, remaining distance, income by paydays ahead), with
weights tuned in greedy-against-greedy arenas (benchmarks/bots.py).
"""

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache

from service.engine import INCOME_SPACES, PATCHES, TRACK_END, GameState, Patch
from service.engine.quilt import BOARD_SIZE, CELL_COUNT, FULL_QUILT
from service.engine.state import MARKET_SIZE, PLACE_LEATHER

_ALL = FULL_QUILT
_COL_FIRST = sum(1 << (row * BOARD_SIZE) for row in range(BOARD_SIZE))
_COL_LAST = _COL_FIRST << (BOARD_SIZE - 1)
_ROW_FIRST = (1 << BOARD_SIZE) - 1
_ROW_LAST = _ROW_FIRST << (BOARD_SIZE * (BOARD_SIZE - 1))

# A finished game is worth more than any unfinished evaluation can reach.
WIN_VALUE = 1000.0

# PAYDAYS_AHEAD[p]: income spaces a token on space p has still to pass.
PAYDAYS_AHEAD: tuple[int, ...] = tuple(
    sum(1 for s in INCOME_SPACES if s > position) for position in range(TRACK_END + 1)
)


@dataclass(frozen=True, slots=True)
class Weights:
    """The evaluation's tunable weights (points per unit)."""

    # What a space of the time track is worth, at the start and at the end
    # (linear between): an advance pays 1 button a space, buying good patches
    # more, and early time has more patches and paydays ahead of it.
    time_early: float = 1.6
    time_late: float = 1.0
    # Per side of the empty area (its perimeter, the board's edge included):
    # a ragged empty area takes fewer patches.
    perimeter: float = 0.35
    # Per empty cell with no empty neighbour: only leather can fill it.
    hole: float = 1.5
    # Per empty cell: the final score's -2, for a quilt with time left to fill it.
    empty_cell: float = 2.0
    # Per button of income and payday ahead: paid for sure, unless the game ends first.
    income: float = 1.0
    # For the 7x7 bonus tile held.
    bonus: float = 7.0
    # Per leather patch won and not yet placed: a cell it will cover.
    pending_leather: float = 2.0
    # Per point of the best buy open to the seat in turn (`buy_prospect`):
    # the mover has that buy in hand, its opponent must wait for the market
    # it leaves. 0 in the default weights (greedy and `search`).
    prospect: float = 0.0


DEFAULT_WEIGHTS = Weights()
# The `deep` level's: fitted by least squares to the final margins of
# 10,097 positions of 240 games `deep` played against itself with
# ANALYSIS_WEIGHTS, its weights before the fit (2,000 nodes
# a move), as the sum of its terms; scaled to a button's worth of 1 and
# rounded (the fit prints time_early 2.27, income 0.94, bonus 6.01). They
# predict a held-out fifth of those margins with an error (RMS) of 8.8
# points, against 12.2 for the weights below: an empty cell costs 1.24,
# not the final score's 2 (most get filled in the time left), and time is
# worth more (2.26 a space at the start, 1.42 at the end), which leaves the
# buy in hand at the horizon (prospect) little to add. At equal nodes
# (6,750) they won 69 of 100 against ANALYSIS_WEIGHTS, 29 of 40 on other
# circles (benchmarks/README.md, "the strength ladder"); holes fitted at
# +0.22, a quirk of how rarely they occur, and are left out.
DEEP_WEIGHTS = Weights(
    time_early=2.26,
    time_late=1.42,
    perimeter=0.17,
    hole=0.0,
    empty_cell=1.24,
    income=0.93,
    bonus=6.0,
    prospect=0.09,
)
# The analysis's (and `deep`'s before the fit): the default terms, which
# count an empty cell and the bonus as the final score does, plus the buy
# the seat in turn has in hand at the horizon at its full value (it won 129
# of 200 games against `search` at 250 ms). The analysis states its losses
# in points of final score, and on a position where the patches left cannot
# fill a gap (tests/bots/test_analysis.py) the fitted weights, made for
# games with time to fill it, undervalue leaving it.
ANALYSIS_WEIGHTS = Weights(prospect=1.0)


def blocked_sides(quilt: int) -> tuple[int, int, int, int]:
    """Masks of the cells whose right / left / lower / upper side is filled or the edge.

    A cell's side is blocked when the neighbour there is covered or off the
    board; `cell_mask & blocked` then counts the sides a piece or an empty
    area shares with patches and the edge.
    """
    right = ((quilt >> 1) & ~_COL_LAST) | _COL_LAST
    left = ((quilt << 1) & ~_COL_FIRST & _ALL) | _COL_FIRST
    down = (quilt >> BOARD_SIZE) | _ROW_LAST
    up = ((quilt << BOARD_SIZE) & _ALL) | _ROW_FIRST
    return right, left, down, up


@lru_cache(maxsize=1 << 16)
def shape_terms(quilt: int) -> tuple[int, int]:
    """(perimeter of the empty area, empty cells with no empty neighbour).

    Cached: in a search most positions share a quilt with many others.
    """
    right, left, down, up = blocked_sides(quilt)
    empty = ~quilt & _ALL
    perimeter = (
        (empty & right).bit_count()
        + (empty & left).bit_count()
        + (empty & down).bit_count()
        + (empty & up).bit_count()
    )
    holes = (empty & right & left & down & up).bit_count()
    return perimeter, holes


def seat_value(state: GameState, seat: int, weights: Weights = DEFAULT_WEIGHTS) -> float:
    """What seat's position is worth in points: score now plus what is still to come."""
    player = state.players[seat]
    position = player.position
    empty = CELL_COUNT - player.quilt.bit_count()
    value: float = (
        player.buttons - weights.empty_cell * empty + weights.income * player.income * PAYDAYS_AHEAD[position]
    )
    if state.bonus_owner == seat:
        value += weights.bonus
    value += _time_value(position, weights)
    if empty:
        perimeter, holes = shape_terms(player.quilt)
        value -= weights.perimeter * perimeter + weights.hole * holes
    return value + weights.pending_leather * player.leather_to_place


@cache
def buy_gains(weights: Weights) -> tuple[tuple[float, ...], ...]:
    """buy_gains(weights)[patch_id][position]: what buying the patch there adds to seat_value.

    Its cells no longer count as empty, its price is paid, its income comes on
    every payday ahead (those the move passes pay at once: it is sewn on
    first), and the spaces it takes are spent at the evaluation's rate. Where
    it goes on the quilt is left out: the perimeter and holes of a placement
    are the search's to find.
    """

    def gain(patch: Patch, position: int) -> float:
        new = min(position + patch.time, TRACK_END)
        spent = _time_value(position, weights) - _time_value(new, weights)
        return (
            weights.empty_cell * patch.cells
            - patch.cost
            + weights.income * patch.income * PAYDAYS_AHEAD[position]
            - spent
        )

    return tuple(
        tuple(gain(PATCHES[patch_id], position) for position in range(TRACK_END + 1))
        if patch_id in PATCHES
        else ()
        for patch_id in range(max(PATCHES) + 1)
    )


def _time_value(position: int, weights: Weights) -> float:
    """What the spaces ahead of a token on position are worth: the integral of the linear rate."""
    ahead = TRACK_END - position
    return weights.time_early * ahead + (weights.time_late - weights.time_early) * (
        TRACK_END * TRACK_END - position * position
    ) / (2 * TRACK_END)


def buy_prospect(state: GameState, weights: Weights = DEFAULT_WEIGHTS) -> float:
    """The most the seat in turn gains by a buy it can afford now (0 if none gains), in points.

    The static evaluation alone values a position the same whoever moves
    next; at a search's horizon the mover still has its pick of the market,
    and a search that stops there overlooks it.
    """
    seat = state.turn
    if seat is None or state.phase == PLACE_LEATHER:
        return 0.0
    player = state.players[seat]
    return _best_gain(weights)(state.circle[:MARKET_SIZE], player.buttons, player.position)


@cache
def _best_gain(weights: Weights) -> Callable[[tuple[int, ...], int, int], float]:
    """For weights: best_gain(market, buttons, position), the prospect of a mover there.

    Cached per (market, buttons, position): a search's leaves meet the same
    few again and again, and the lookup was a tenth of a `deep` node's cost.
    """
    gains = buy_gains(weights)

    @lru_cache(maxsize=1 << 16)
    def best_gain(market: tuple[int, ...], buttons: int, position: int) -> float:
        best = 0.0
        for patch_id in market:
            if PATCHES[patch_id].cost <= buttons and gains[patch_id][position] > best:
                best = gains[patch_id][position]
        return best

    return best_gain


def evaluate(state: GameState, seat: int, weights: Weights = DEFAULT_WEIGHTS) -> float:
    """How good state is for seat: its value minus the opponent's; exact when finished."""
    return evaluator(weights)(state, seat)


@cache
def evaluator(weights: Weights) -> Callable[[GameState, int], float]:
    """`evaluate` with weights bound: what a search calls at its leaves, the weights looked up once."""
    prospect = weights.prospect
    best_gain = _best_gain(weights)

    def evaluate_with(state: GameState, seat: int) -> float:
        result = state.result
        if result is not None:
            margin = result.scores[seat] - result.scores[1 - seat]
            return (WIN_VALUE if result.winner == seat else -WIN_VALUE) + margin
        value = seat_value(state, seat, weights) - seat_value(state, 1 - seat, weights)
        if prospect and state.phase != PLACE_LEATHER:
            mover = state.turn
            player = state.players[mover]  # type: ignore[index]
            gained = prospect * best_gain(state.circle[:MARKET_SIZE], player.buttons, player.position)
            value += gained if mover == seat else -gained
        return value

    return evaluate_with

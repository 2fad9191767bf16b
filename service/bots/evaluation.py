"""Static evaluation: how good a position is for one seat, in points (buttons).

Each seat is valued as the points it holds now plus what its income, its
time and the shape of its quilt are still worth; the evaluation is the
difference between the two seats. The terms follow the study the issue
cites (board, score, remaining distance, income by paydays ahead), with
weights tuned in greedy-against-greedy arenas (benchmarks/bots.py).
"""

from dataclasses import dataclass
from functools import lru_cache

from service.engine import INCOME_SPACES, TRACK_END, GameState
from service.engine.quilt import BOARD_SIZE, CELL_COUNT, FULL_QUILT

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
    # Per leather patch won and not yet placed: a cell it will cover.
    pending_leather: float = 2.0


DEFAULT_WEIGHTS = Weights()


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
    ahead = TRACK_END - position
    empty = CELL_COUNT - player.quilt.bit_count()
    value: float = player.buttons - 2 * empty + player.income * PAYDAYS_AHEAD[position]
    if state.bonus_owner == seat:
        value += 7
    # The spaces ahead, each at its rate: the integral of the linear rate.
    value += weights.time_early * ahead + (weights.time_late - weights.time_early) * (
        TRACK_END * TRACK_END - position * position
    ) / (2 * TRACK_END)
    if empty:
        perimeter, holes = shape_terms(player.quilt)
        value -= weights.perimeter * perimeter + weights.hole * holes
    return value + weights.pending_leather * player.leather_to_place


def evaluate(state: GameState, seat: int, weights: Weights = DEFAULT_WEIGHTS) -> float:
    """How good state is for seat: its value minus the opponent's; exact when finished."""
    result = state.result
    if result is not None:
        margin = result.scores[seat] - result.scores[1 - seat]
        return (WIN_VALUE if result.winner == seat else -WIN_VALUE) + margin
    return seat_value(state, seat, weights) - seat_value(state, 1 - seat, weights)

"""Quilts as 81-bit ints: bit `row * 9 + col` is set when that cell is covered.

A placement fits when `mask & quilt == 0`; the nine 7x7 windows are masks too,
so the bonus check is nine ANDs.
"""

from collections.abc import Iterable
from functools import lru_cache

BOARD_SIZE = 9
CELL_COUNT = BOARD_SIZE * BOARD_SIZE
FULL_QUILT = (1 << CELL_COUNT) - 1
WINDOW_SIZE = 7


def on_board(row: object, col: object) -> bool:
    """True when row and col are ints (not bools) naming a cell of the quilt."""
    return type(row) is int and type(col) is int and 0 <= row < BOARD_SIZE and 0 <= col < BOARD_SIZE


def mask_of_cells(cells: Iterable[tuple[int, int]]) -> int:
    """The mask covering the given (row, col) cells, which must be on the board."""
    mask = 0
    for row, col in cells:
        mask |= 1 << (row * BOARD_SIZE + col)
    return mask


def cells_of_mask(mask: int) -> tuple[tuple[int, int], ...]:
    """The covered cells of a mask as (row, col) tuples, sorted row-major."""
    return tuple(divmod(index, BOARD_SIZE) for index in cell_indexes(mask))


@lru_cache(maxsize=16384)
def cell_indexes(mask: int) -> tuple[int, ...]:
    """The covered cells of a mask as row-major indexes (row * 9 + col), ascending.

    Cached: the masks asked for are pieces on quilts, drawn from the 7,430
    placements there are (leather included), and every game view asks for
    all of them.
    """
    indexes = []
    while mask:
        low = mask & -mask
        indexes.append(low.bit_length() - 1)
        mask ^= low
    return tuple(indexes)


def empty_cell_count(quilt: int) -> int:
    """How many cells of the quilt are not covered."""
    return CELL_COUNT - quilt.bit_count()


def _window(top: int, left: int) -> int:
    return mask_of_cells((top + r, left + c) for r in range(WINDOW_SIZE) for c in range(WINDOW_SIZE))


SEVEN_WINDOWS: tuple[int, ...] = tuple(
    _window(top, left)
    for top in range(BOARD_SIZE - WINDOW_SIZE + 1)
    for left in range(BOARD_SIZE - WINDOW_SIZE + 1)
)

_WINDOW_CELLS = WINDOW_SIZE * WINDOW_SIZE


def covers_seven_window(quilt: int) -> bool:
    """True when the quilt fully covers at least one 7x7 square of cells."""
    if quilt.bit_count() < _WINDOW_CELLS:
        return False
    return any(quilt & window == window for window in SEVEN_WINDOWS)

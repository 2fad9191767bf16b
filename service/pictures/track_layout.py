"""Where each space of the time track is drawn: a square spiral, as on the board.

The 54 spaces (0..53) fill a 6-wide, 9-high grid exactly: space 0 in the
top-left corner, clockwise inwards, space 53 in the middle. The grid is as
high as a quilt, so the track stands between the two quilts.
"""

from __future__ import annotations

TRACK_COLUMNS = 6
TRACK_ROWS = 9


def spiral(columns: int, rows: int) -> list[tuple[int, int]]:
    """(row, col) of every cell of a columns x rows grid, clockwise inwards from the top-left."""
    top, bottom, left, right = 0, rows - 1, 0, columns - 1
    order = []
    while top <= bottom and left <= right:
        order += [(top, c) for c in range(left, right + 1)]
        order += [(r, right) for r in range(top + 1, bottom + 1)]
        if top < bottom:
            order += [(bottom, c) for c in range(right - 1, left - 1, -1)]
        if left < right:
            order += [(r, left) for r in range(bottom - 1, top, -1)]
        top, bottom, left, right = top + 1, bottom - 1, left + 1, right - 1
    return order


# SPACE_CELLS[space] = (row, col) of that space; 6 x 9 = TRACK_END + 1 cells.
SPACE_CELLS: tuple[tuple[int, int], ...] = tuple(spiral(TRACK_COLUMNS, TRACK_ROWS))

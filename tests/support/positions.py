"""Hand-built positions for engine tests: quilts drawn as pictures, seats, states.

Cell (row, col) is bit row * 9 + col (the spec's convention), written out here
rather than taken from the engine so that pictures mean what they show.
"""

from service.engine import GameState, PlayerState

FULL_ROW = "XXXXXXXXX"
EMPTY_ROW = "........."


def quilt(*rows: str) -> int:
    """The mask drawn by nine rows of nine characters: 'X' covered, '.' empty."""
    assert len(rows) == 9 and all(len(row) == 9 for row in rows), rows
    return sum(1 << (r * 9 + c) for r, row in enumerate(rows) for c, char in enumerate(row) if char == "X")


def seat(
    buttons: int = 5, position: int = 0, income: int = 0, rows=None, leather_to_place: int = 0
) -> PlayerState:
    """A seat whose covered cells (from a picture) are stored as 1x1 leather pieces."""
    mask = quilt(*rows) if rows else 0
    pieces = tuple((0, 1 << i) for i in range(81) if mask >> i & 1)
    return PlayerState(
        buttons=buttons,
        position=position,
        income=income,
        quilt=mask,
        pieces=pieces,
        leather_to_place=leather_to_place,
    )


def position(p0: PlayerState, p1: PlayerState, circle=(2, 3, 4, 5, 6), **fields) -> GameState:
    """A mid-game state; other GameState fields by keyword (leather_spaces, on_top...)."""
    return GameState(circle=tuple(circle), players=(p0, p1), **fields)


# The 7x7 window at rows 0..6, cols 0..6, covered except where marked '.'.
def window_rows(*holes: tuple[int, int]) -> tuple[str, ...]:
    """A quilt picture covering rows 0..6 x cols 0..6 except the given holes."""
    rows = []
    for r in range(9):
        line = "".join("X" if r < 7 and c < 7 and (r, c) not in holes else "." for c in range(9))
        rows.append(line)
    return tuple(rows)


FULL_QUILT_ROWS = (FULL_ROW,) * 9


def bonus_in_reach():
    """Seat 0's 7x7 window lacks two cells side by side; the 1x2 (patch 1) is for sale.

    Buying it there wins the 7-point bonus and closes two holes; patches 4
    (1x3) and 2 (an L of three) cannot fill that gap.
    """
    return position(
        seat(buttons=5, position=10, rows=window_rows((3, 3), (3, 4))), seat(position=12), circle=(4, 1, 2)
    )

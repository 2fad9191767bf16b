"""The ANU text form of moves (docs/rules.md#notation).

`.` advances; four characters buy a patch (patch letter, column, row,
orientation) or place leather (`h`, column, row, any orientation letter,
written `A`). Patch letters are A..Z for ids 1..26 and a..g for 27..33;
columns and rows are A..I for 0..8; orientations A..D turn 0/90/180/270
degrees clockwise, E..H mirror first.

Resigning has no token: the ANU notation records only games played out.
`format_move` refuses a Resign (NotationError) rather than drop it, since
the string without it would replay to a game still running.
"""

import string
from collections.abc import Iterable

from .errors import NotationError
from .moves import Abort, Advance, Buy, Move, PlaceLeather, Placement, Resign, Timeout
from .patches import ORIENTATION_ORDER, PATCHES
from .placements import canonical_move
from .quilt import BOARD_SIZE

ADVANCE_TOKEN = "."
LEATHER_LETTER = "h"
_PATCH_LETTERS = (string.ascii_uppercase + string.ascii_lowercase)[: len(PATCHES)]
_CELL_LETTERS = string.ascii_uppercase[:BOARD_SIZE]
_ORIENTATION_LETTERS = string.ascii_uppercase[: len(ORIENTATION_ORDER)]


def parse_move(text: str) -> Move:
    """The move a token of the ANU notation names."""
    if text == ADVANCE_TOKEN:
        return Advance()
    if not isinstance(text, str) or len(text) != 4:
        raise NotationError(f"move {text!r} is neither '.' nor four characters")
    kind, col_letter, row_letter, orientation = tuple(text)
    if col_letter not in _CELL_LETTERS or row_letter not in _CELL_LETTERS:
        raise NotationError(f"move {text!r}: column and row must be letters A..I")
    col, row = _CELL_LETTERS.index(col_letter), _CELL_LETTERS.index(row_letter)
    if orientation not in _ORIENTATION_LETTERS:
        raise NotationError(f"move {text!r}: orientation {orientation!r} is not a letter A..H")
    if kind == LEATHER_LETTER:
        # A 1x1 patch looks the same every way; the ANU data writes any letter.
        return PlaceLeather(row, col)
    if kind not in _PATCH_LETTERS:
        raise NotationError(f"move {text!r}: {kind!r} is not a patch letter (A..Z, a..g) or 'h'")
    rotation, flipped = ORIENTATION_ORDER[_ORIENTATION_LETTERS.index(orientation)]
    return Buy(_PATCH_LETTERS.index(kind) + 1, Placement(row, col, rotation, flipped))


def parse_moves(game: str) -> list[Move]:
    """The moves of a whole ANU move string, in order."""
    moves, i = [], 0
    while i < len(game):
        size = 1 if game[i] == ADVANCE_TOKEN else 4
        moves.append(parse_move(game[i : i + size]))
        i += size
    return moves


def format_move(move: Move) -> str:
    """The ANU token of a move (a cells-only placement is named by its canonical orientation)."""
    if isinstance(move, Advance):
        return ADVANCE_TOKEN
    if isinstance(move, PlaceLeather):
        return LEATHER_LETTER + _CELL_LETTERS[move.col] + _CELL_LETTERS[move.row] + "A"
    if isinstance(move, Buy):
        placement = move.placement
        if not placement.has_orientation:
            placement = canonical_move(move).placement
        row, col = placement.row, placement.col
        if row is None or col is None:
            # Canonical placements set both; a given one may set just one of them.
            raise TypeError(f"placement {placement!r} gives row or col without the other")
        orientation = ORIENTATION_ORDER.index((placement.rotation, placement.flipped))
        return (
            _PATCH_LETTERS[move.patch_id - 1]
            + _CELL_LETTERS[col]
            + _CELL_LETTERS[row]
            + _ORIENTATION_LETTERS[orientation]
        )
    if isinstance(move, (Resign, Timeout, Abort)):
        raise NotationError(
            f"{move.action} has no token in the ANU notation: a game that ended so "
            "cannot be written as an ANU move string"
        )
    raise TypeError(f"not a move: {move!r}")


def format_moves(moves: Iterable[Move]) -> str:
    """A whole game as one ANU move string (NotationError for a game with a Resign)."""
    return "".join(format_move(move) for move in moves)

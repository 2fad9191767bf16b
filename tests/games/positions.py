"""Known answers of the first moves of a game, worked by hand from docs/rules.md.

Both seats start on space 0 with 5 buttons and an empty quilt of 81 cells;
seat 0 starts, on top. An advance moves a token to one space ahead of the
other's and earns a button per space moved; the seat behind acts next. A
score is buttons - 2 per empty cell while no one holds the bonus.
"""

from __future__ import annotations

EMPTY_QUILT = 81


def score(buttons: int) -> int:
    """The score of a seat with `buttons` and nothing sewn on."""
    return buttons - 2 * EMPTY_QUILT


# Seat 0 advances from 0 to 1 (one button, 6 in all); seat 1, now behind, is in turn.
AFTER_ONE_ADVANCE = {"turn": 1, "buttons": [6, 5], "positions": [1, 0]}
# Then seat 1 advances from 0 to 2 (two buttons, 7); seat 0, behind on 1, is in turn.
AFTER_TWO_ADVANCES = {"turn": 0, "buttons": [6, 7], "positions": [1, 2]}

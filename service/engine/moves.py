"""Moves as small frozen values: advance, buy (patch + placement), place leather, resign."""

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar, TypeGuard


def _normalized_cells(cells: Iterable[object]) -> Iterable[object]:
    """Cells as a tuple of tuples, sorted row-major when they are all int pairs.

    User input arrives as lists (JSON); tuples keep Placement hashable. Cells
    that are not int pairs are kept as given so that resolving them can say
    what is wrong with them.
    """
    try:
        cells = tuple(tuple(cell) if isinstance(cell, (list, tuple)) else cell for cell in cells)
    except TypeError:
        return cells
    if _all_int_pairs(cells):
        return tuple(sorted(cells))
    return cells


def _all_int_pairs(cells: tuple[object, ...]) -> TypeGuard[tuple[tuple[int, int], ...]]:
    return all(
        type(cell) is tuple and len(cell) == 2 and type(cell[0]) is int and type(cell[1]) is int
        for cell in cells
    )


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a patch goes: row/col/rotation/flipped, or the cells it covers, or both.

    A user gives one form; the engine's canonical placements carry both.
    """

    row: int | None = None
    col: int | None = None
    rotation: int = 0
    flipped: bool = False
    cells: tuple[tuple[int, int], ...] | None = None

    def __post_init__(self) -> None:
        if self.cells is not None:
            object.__setattr__(self, "cells", _normalized_cells(self.cells))

    @property
    def has_orientation(self) -> bool:
        """True when the row/col/rotation/flipped form is given."""
        return self.row is not None or self.col is not None


@dataclass(frozen=True, slots=True)
class Advance:
    """Action A: move just in front of the opponent, one button per space."""

    action: ClassVar[str] = "advance"


@dataclass(frozen=True, slots=True)
class Buy:
    """Action B: buy a patch from the market and place it on the quilt."""

    patch_id: int
    placement: Placement
    action: ClassVar[str] = "buy"


@dataclass(frozen=True, slots=True)
class PlaceLeather:
    """Place a won 1x1 leather patch on an empty cell of one's own quilt."""

    row: int
    col: int
    action: ClassVar[str] = "place_leather"


@dataclass(frozen=True, slots=True)
class Resign:
    """Give the game up: it ends at once and the other seat wins.

    Unlike the other moves it may come from either seat at any time, so it
    names who resigns; None means the seat apply_move is told acts (or, told
    none, the seat in turn).
    """

    seat: int | None = None
    action: ClassVar[str] = "resign"


Move = Advance | Buy | PlaceLeather | Resign

"""Moves as small frozen values: advance, buy (patch + placement), place leather, resign; and the ends a clock decides.

Each value has one JSON form, defined here beside it (docs/api-guide.md#resources, "Moves"):
`to_json()` gives it, `move_from_json` / `Placement.from_json` read it back.
The API's request bodies and answers, the stored history, the events and the
hints all use it. (The ANU text form is notation.py's.)
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeGuard

from .errors import NotationError


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

    def to_json(self) -> dict[str, Any]:
        """The JSON form: the forms this placement gives, a canonical one both (row, col, rotation, flipped, cells)."""
        doc: dict[str, Any] = {}
        if self.has_orientation:
            doc["row"] = self.row
            doc["col"] = self.col
            doc["rotation"] = self.rotation
            doc["flipped"] = self.flipped
        if self.cells is not None:
            doc["cells"] = [list(cell) for cell in self.cells]
        return doc

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> "Placement":
        """The placement a JSON form names: its orientation, its cells, or both.

        Read, not judged (resolve_placement says whether it fits the patch).
        Numbers are taken as JSON has them, so 1.0 is 1; an absent or null
        rotation or flipped is the default. The orientation is read when
        `row` is given: the form never gives row or col without the other.
        """
        given = doc.get("cells")
        cells = None if given is None else tuple((int(r), int(c)) for r, c in given)
        if doc.get("row") is None:
            return cls(cells=cells)
        return cls(
            int(doc["row"]),
            int(doc["col"]),
            int(doc.get("rotation") or 0),
            bool(doc.get("flipped")),
            cells,
        )


@dataclass(frozen=True, slots=True)
class Advance:
    """Action A: move just in front of the opponent, one button per space."""

    action: ClassVar[str] = "advance"

    def to_json(self) -> dict[str, Any]:
        """The JSON form: `{"action": "advance"}`."""
        return {"action": "advance"}


@dataclass(frozen=True, slots=True)
class Buy:
    """Action B: buy a patch from the market and place it on the quilt."""

    patch_id: int
    placement: Placement
    action: ClassVar[str] = "buy"

    def to_json(self) -> dict[str, Any]:
        """The JSON form: the action, the patch and the placement's JSON form."""
        return {"action": "buy", "patch_id": self.patch_id, "placement": self.placement.to_json()}


@dataclass(frozen=True, slots=True)
class PlaceLeather:
    """Place a won 1x1 leather patch on an empty cell of one's own quilt."""

    row: int
    col: int
    action: ClassVar[str] = "place_leather"

    def to_json(self) -> dict[str, Any]:
        """The JSON form: the action and the cell."""
        return {"action": "place_leather", "row": self.row, "col": self.col}


@dataclass(frozen=True, slots=True)
class Resign:
    """Give the game up: it ends at once and the other seat wins.

    Unlike the other moves it may come from either seat at any time, so it
    names who resigns; None means the seat apply_move is told acts (or, told
    none, the seat in turn).
    """

    seat: int | None = None
    action: ClassVar[str] = "resign"

    def to_json(self) -> dict[str, Any]:
        """The JSON form: `{"action": "resign"}`; who resigned is the history entry's `seat`, not the move's."""
        return {"action": "resign"}


@dataclass(frozen=True, slots=True)
class Timeout:
    """The seat's time ran out: the game ends and the other seat wins.

    Not a player's move: the service's clocks make it (service/games/clock.py),
    and the history records it like a resignation, with the seat whose flag
    fell. That is always the seat in turn: only its clock runs.
    """

    action: ClassVar[str] = "timeout"

    def to_json(self) -> dict[str, Any]:
        """The JSON form: `{"action": "timeout"}`; whose time ran out is the history entry's `seat`."""
        return {"action": "timeout"}


@dataclass(frozen=True, slots=True)
class Abort:
    """The game is called off before its first move: it ends with no winner (the service's clocks make it)."""

    action: ClassVar[str] = "abort"

    def to_json(self) -> dict[str, Any]:
        """The JSON form: `{"action": "abort"}`."""
        return {"action": "abort"}


Move = Advance | Buy | PlaceLeather | Resign | Timeout | Abort

# The moves without members are the same value every time they are read.
_ADVANCE = Advance()
_RESIGN = Resign()
_TIMEOUT = Timeout()
_ABORT = Abort()


def move_from_json(doc: Mapping[str, Any]) -> Move:
    """The move a JSON form (`to_json`) names; members it does not know are ignored.

    So a history entry, which adds its number, seat and outcome to the form,
    reads back as its move. A resignation or a timeout reads back without
    its seat (the entry's, not the form's). NotationError for an action that
    is none of the six.
    """
    action = doc.get("action")
    if action == "buy":
        return Buy(int(doc["patch_id"]), Placement.from_json(doc["placement"]))
    if action == "place_leather":
        return PlaceLeather(int(doc["row"]), int(doc["col"]))
    if action == "advance":
        return _ADVANCE
    if action == "resign":
        return _RESIGN
    if action == "timeout":
        return _TIMEOUT
    if action == "abort":
        return _ABORT
    raise NotationError(f"action {action!r} is not advance, buy, place_leather, resign, timeout or abort")

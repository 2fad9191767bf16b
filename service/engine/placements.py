"""Every orientation and placement of every patch, precomputed once at import.

Per patch: the mask of each of the 8 (rotation, flipped) orientations at the
top-left corner, and every distinct placement on the empty 9x9 quilt in
canonical form, as `(mask, Buy)` pairs, so that legal-move generation only
filters prebuilt tuples with `mask & quilt == 0`.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from typing import overload

from .errors import DoesNotFit
from .moves import Buy, Move, Placement
from .patches import ORIENTATION_ORDER, PATCHES, ROTATIONS, oriented_cells
from .quilt import BOARD_SIZE, cells_of_mask, mask_of_cells, on_board


@dataclass(frozen=True, slots=True)
class Orientation:
    """One way to turn a patch, with its mask when its bounding box is at (0, 0)."""

    rotation: int
    flipped: bool
    height: int
    width: int
    mask: int


def _orientations(shape: tuple[str, ...]) -> dict[tuple[int, bool], Orientation]:
    table = {}
    for rotation, flipped in ORIENTATION_ORDER:
        cells = oriented_cells(shape, rotation, flipped)
        table[rotation, flipped] = Orientation(
            rotation,
            flipped,
            height=1 + max(r for r, _ in cells),
            width=1 + max(c for _, c in cells),
            mask=mask_of_cells(cells),
        )
    return table


def _distinct(table: dict[tuple[int, bool], Orientation]) -> tuple[Orientation, ...]:
    seen: dict[int, Orientation] = {}
    for key in ORIENTATION_ORDER:
        seen.setdefault(table[key].mask, table[key])
    return tuple(seen.values())


def _buys(patch_id: int, distinct: tuple[Orientation, ...]) -> tuple[tuple[int, Buy], ...]:
    buys = []
    for o in distinct:
        for row in range(BOARD_SIZE - o.height + 1):
            for col in range(BOARD_SIZE - o.width + 1):
                mask = o.mask << (row * BOARD_SIZE + col)
                placement = Placement(row, col, o.rotation, o.flipped, cells_of_mask(mask))
                buys.append((mask, Buy(patch_id, placement)))
    return tuple(buys)


ORIENTATIONS: dict[int, dict[tuple[int, bool], Orientation]] = {
    pid: _orientations(patch.shape) for pid, patch in PATCHES.items()
}
DISTINCT_ORIENTATIONS: dict[int, tuple[Orientation, ...]] = {
    pid: _distinct(table) for pid, table in ORIENTATIONS.items()
}
# Distinct orientations have distinct normalized cell sets, so no two
# translations of them cover the same cells: one entry per set of cells.
BUYS: dict[int, tuple[tuple[int, Buy], ...]] = {
    pid: _buys(pid, distinct) for pid, distinct in DISTINCT_ORIENTATIONS.items()
}
PLACEMENT_MASKS: dict[int, tuple[int, ...]] = {
    pid: tuple(mask for mask, _ in buys) for pid, buys in BUYS.items()
}
_BUY_BY_MASK: dict[int, dict[int, Buy]] = {pid: dict(buys) for pid, buys in BUYS.items()}


def canonical_buy(patch_id: int, mask: int) -> Buy:
    """The Buy of patch_id covering mask, with its canonical placement."""
    try:
        return _BUY_BY_MASK[patch_id][mask]
    except KeyError:
        raise DoesNotFit(
            "cells {cells} are not a placement of patch {patch}",
            cells=list(cells_of_mask(mask)),
            patch=repr(patch_id),
        ) from None


def canonical_placement(patch_id: int, mask: int) -> Placement:
    """The placement covering mask with every field set, in the canonical orientation (docs/api-guide.md#placements-and-orientation)."""
    return canonical_buy(patch_id, mask).placement


def resolve_placement(patch_id: int, placement: Placement) -> int:
    """The mask a placement covers; DoesNotFit when off the board or not the patch's shape."""
    if patch_id not in ORIENTATIONS:
        raise DoesNotFit("patch {patch} is not a regular patch (ids 1..33)", patch=repr(patch_id))
    if not isinstance(placement, Placement):
        raise DoesNotFit("placement {placement} is not a Placement", placement=repr(placement))
    if placement.has_orientation:
        if placement.cells is not None:
            _check_same_cells(patch_id, placement)
        return _mask_from_orientation(patch_id, placement)
    if placement.cells is None:
        raise DoesNotFit("placement gives neither row/col nor cells")
    return _mask_from_cells(patch_id, placement.cells)


@overload
def canonical_move(move: Buy) -> Buy: ...
@overload
def canonical_move(move: Move) -> Move: ...
def canonical_move(move: Move) -> Move:
    """`move` as the service records and shows it: a buy's placement in canonical form, both forms set.

    Raises DoesNotFit for a placement that is not one of the patch's; other
    moves come back as they are.
    """
    if isinstance(move, Buy):
        return canonical_buy(move.patch_id, resolve_placement(move.patch_id, move.placement))
    return move


def describe_placement(p: Placement) -> str:
    """A placement in words, for error messages: its orientation, else its cells."""
    if p.has_orientation:
        return f"row {p.row}, col {p.col}, rotation {p.rotation}, flipped {str(p.flipped).lower()}"
    if p.cells is None:
        return "neither row/col nor cells"
    return f"cells {_show(p.cells)}"


def _show(cells: Iterable[object]) -> str:
    return str([list(cell) if isinstance(cell, tuple) else cell for cell in cells])


def orientation_cells(patch_id: int, placement: Placement) -> tuple[tuple[int, int], ...]:
    """The cells the orientation form of `placement` names, row-major, whether on the board or not.

    What a placement given in both forms is checked against (its `cells`,
    normalized the same way): a mask cannot hold the cells past the board's
    edge that an orientation off the board names.
    """
    if patch_id not in ORIENTATIONS:
        raise DoesNotFit("patch {patch} is not a regular patch (ids 1..33)", patch=repr(patch_id))
    o = _orientation(patch_id, placement)
    assert placement.row is not None and placement.col is not None  # _orientation checked them
    return tuple((placement.row + r, placement.col + c) for r, c in cells_of_mask(o.mask))


def _check_same_cells(patch_id: int, placement: Placement) -> None:
    """DoesNotFit unless both forms of `placement` name the same cells: as a set, each once, in any order.

    Judged before the orientation is put on the board, so the refusal names
    the cells the orientation covers, even past the board's edge. A move
    whose two forms disagree is a wrong move like any other (the client
    hears which cells its orientation names, and no form silently wins),
    not a malformed request: the schema takes it (issue 38).
    """
    covered = orientation_cells(patch_id, placement)
    given = placement.cells
    assert given is not None  # the caller's condition
    if given == covered:  # both row-major: move_from_json sorts the cells it reads
        return
    values = {"patch": patch_id, "placement": describe_placement(placement), "covered": _show(covered)}
    if len(set(given)) < len(given):
        raise DoesNotFit(
            "patch {patch} at {placement} covers {covered}, not {given} (a cell named twice)",
            **values,
            given=_show(given),
        )
    raise DoesNotFit(
        "patch {patch} at {placement} covers {covered}, not {given}", **values, given=_show(given)
    )


def _orientation(patch_id: int, p: Placement) -> Orientation:
    """The patch turned as `p` says; DoesNotFit when its orientation fields are not well formed."""
    if type(p.rotation) is not int or p.rotation not in ROTATIONS:
        raise DoesNotFit("rotation {rotation} is not one of 0, 90, 180, 270", rotation=repr(p.rotation))
    if type(p.flipped) is not bool:
        raise DoesNotFit("flipped {flipped} is not true or false", flipped=repr(p.flipped))
    if type(p.row) is not int or type(p.col) is not int:
        raise DoesNotFit("row {row} and col {col} must both be integers", row=repr(p.row), col=repr(p.col))
    return ORIENTATIONS[patch_id][p.rotation, p.flipped]


def _mask_from_orientation(patch_id: int, p: Placement) -> int:
    o = _orientation(patch_id, p)
    assert p.row is not None and p.col is not None  # _orientation checked them
    if not (0 <= p.row <= BOARD_SIZE - o.height and 0 <= p.col <= BOARD_SIZE - o.width):
        raise DoesNotFit(
            "patch {patch} at {placement} would cover rows {top}..{bottom} and cols {left}..{right}: off the 9x9 board",
            patch=patch_id,
            placement=describe_placement(p),
            top=p.row,
            bottom=p.row + o.height - 1,
            left=p.col,
            right=p.col + o.width - 1,
        )
    return o.mask << (p.row * BOARD_SIZE + p.col)


def _mask_from_cells(patch_id: int, cells: object) -> int:
    if not isinstance(cells, tuple) or not all(isinstance(cell, tuple) and len(cell) == 2 for cell in cells):
        raise DoesNotFit("cells {cells} must be a list of [row, col] pairs", cells=repr(cells))
    for row, col in cells:
        if not on_board(row, col):
            raise DoesNotFit("cell [{row}, {col}] is off the 9x9 board", row=repr(row), col=repr(col))
    mask = mask_of_cells(cells)
    if mask.bit_count() != len(cells):
        raise DoesNotFit("cells {cells} name a cell twice", cells=_show(cells))
    if mask not in _BUY_BY_MASK[patch_id]:
        raise DoesNotFit(
            "cells {cells} are not an orientation of patch {patch} (shape {shape}) translated onto the board",
            cells=_show(cells),
            patch=patch_id,
            shape="/".join(PATCHES[patch_id].shape),
        )
    return mask

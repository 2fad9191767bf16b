"""The patch catalogue (package data) and the geometry of turning a shape."""

import json
from dataclasses import dataclass
from importlib import resources

LEATHER_PATCH_ID = 0
ROTATIONS: tuple[int, ...] = (0, 90, 180, 270)
# The order for naming an orientation (docs/api-guide.md#placements-and-orientation): unflipped first, then rotations.
ORIENTATION_ORDER: tuple[tuple[int, bool], ...] = tuple(
    (rotation, flipped) for flipped in (False, True) for rotation in ROTATIONS
)


@dataclass(frozen=True, slots=True)
class Patch:
    """A regular patch: cost in buttons, time in spaces, income, shape rows."""

    id: int
    cost: int
    time: int
    income: int
    shape: tuple[str, ...]
    cells: int


def _load_patches() -> dict[int, Patch]:
    text = resources.files(__package__).joinpath("patches.json").read_text(encoding="utf-8")
    patches = {}
    for entry in json.loads(text):
        patch = Patch(
            id=entry["id"],
            cost=entry["cost"],
            time=entry["time"],
            income=entry["income"],
            shape=tuple(entry["shape"]),
            cells=entry["cells"],
        )
        if sum(row.count("X") for row in patch.shape) != patch.cells:
            raise RuntimeError(f"patches.json: patch {patch.id} shape does not cover {patch.cells} cells")
        patches[patch.id] = patch
    if sorted(patches) != list(range(1, 34)):
        raise RuntimeError("patches.json must hold the 33 patches with ids 1..33")
    return patches


PATCHES: dict[int, Patch] = _load_patches()


def shape_cells(shape: tuple[str, ...]) -> frozenset[tuple[int, int]]:
    """The (row, col) cells marked 'X' in a shape."""
    return frozenset((r, c) for r, line in enumerate(shape) for c, char in enumerate(line) if char == "X")


def _normalized(cells: frozenset[tuple[int, int]]) -> frozenset[tuple[int, int]]:
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return frozenset((r - top, c - left) for r, c in cells)


def oriented_cells(shape: tuple[str, ...], rotation: int, flipped: bool) -> frozenset[tuple[int, int]]:
    """The shape's cells mirrored (if flipped), then turned clockwise, moved to (0, 0)."""
    cells = shape_cells(shape)
    width = len(shape[0])
    if flipped:
        cells = frozenset((r, width - 1 - c) for r, c in cells)
    for _ in range(rotation // 90):
        # A quarter turn clockwise sends (r, c) to (c, -r); normalizing fixes the offset.
        cells = frozenset((c, -r) for r, c in cells)
    return _normalized(cells)

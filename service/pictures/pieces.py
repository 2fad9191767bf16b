"""Patches as drawn pieces: colours, outlines, printed buttons, and pieces found on a quilt.

A piece is drawn once per shape and size and kept: an outline path traced
around its cells (one element, however many cells), faint seams between
its cells, and the buttons printed on it. Every fragment is drawn with its
bounding box at (0, 0); callers place it with a translate.

Where the buttons sit: patches.json gives how many buttons a patch carries
(`income`), not where. This module prints button k of b (k = 0..b-1) on cell
floor((2k + 1) * n / (2b)) of the n cells of the shape as listed in
patches.json, in reading order (row by row, left to right): the buttons are
spread over the patch. A placed piece shows them where its orientation
carries those cells; when several orientations cover the same cells (a
symmetric patch), the first in the order of
docs/api-guide.md#placements-and-orientation (unflipped before flipped,
rotations 0, 90, 180, 270) decides, so the same cells always show the same
buttons.
"""

from __future__ import annotations

import colorsys
import itertools
from collections.abc import Iterable, Sequence
from functools import cache

from service.engine import LEATHER_PATCH_ID, PATCHES
from service.engine.patches import ORIENTATION_ORDER, shape_cells

from .icons import OUTLINE_COLOUR, button_svg

Cells = tuple[tuple[int, int], ...]

LEATHER_COLOUR = "#8a5a34"
LEATHER_STITCH = "#d9b48a"
EMPTY_COLOUR = "#f6f1e7"
PIECE_STROKE = f'stroke="{OUTLINE_COLOUR}" stroke-linejoin="round"'


def _palette() -> dict[int, str]:
    """A fixed colour per regular patch: hues a golden angle apart, so neighbouring ids differ.

    Saturation and lightness alternate in three steps; all stay light enough
    for the dark outlines and blue buttons drawn on them, and away from the
    leather's dark brown.
    """
    colours = {}
    for patch_id in PATCHES:
        hue = (patch_id * 0.381966) % 1.0
        lightness = (0.62, 0.72, 0.54)[patch_id % 3]
        saturation = (0.55, 0.62, 0.48)[patch_id % 3]
        red, green, blue = colorsys.hls_to_rgb(hue, lightness, saturation)
        colours[patch_id] = f"#{round(red * 255):02x}{round(green * 255):02x}{round(blue * 255):02x}"
    return colours


PATCH_COLOURS: dict[int, str] = _palette()


def colour_of(patch_id: int) -> str:
    """The fill colour of a patch id (leather included)."""
    return LEATHER_COLOUR if patch_id == LEATHER_PATCH_ID else PATCH_COLOURS[patch_id]


# --- geometry ---------------------------------------------------------------


def normalized(cells: Iterable[tuple[int, int]]) -> tuple[Cells, int, int]:
    """(cells moved so their bounding box starts at (0, 0), in reading order; top; left)."""
    cells = list(cells)
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return tuple(sorted((r - top, c - left) for r, c in cells)), top, left


def oriented(
    cells: Sequence[tuple[int, int]], width: int, rotation: int, flipped: bool
) -> list[tuple[int, int]]:
    """Each cell of a shape `width` wide where orienting it carries it, in the same order.

    The orientation rule is docs/api-guide.md#placements-and-orientation.

    Unlike the engine's `oriented_cells` (a set), this keeps track of which
    cell went where: the printed buttons go with their cells.
    """
    moved = [(r, width - 1 - c) if flipped else (r, c) for r, c in cells]
    for _ in range(rotation // 90):
        moved = [(c, -r) for r, c in moved]
    top = min(r for r, _ in moved)
    left = min(c for _, c in moved)
    return [(r - top, c - left) for r, c in moved]


def _spread(count: int, buttons: int) -> list[int]:
    return [(2 * k + 1) * count // (2 * buttons) for k in range(buttons)]


@cache
def button_cells(patch_id: int, cells: Cells) -> Cells:
    """The cells (of `cells`, a normalized orientation of the patch) that show its printed buttons."""
    if patch_id == LEATHER_PATCH_ID:
        return ()
    patch = PATCHES[patch_id]
    base = sorted(shape_cells(patch.shape))
    printed = _spread(len(base), patch.income)
    for rotation, flipped in ORIENTATION_ORDER:
        moved = oriented(base, len(patch.shape[0]), rotation, flipped)
        if tuple(sorted(moved)) == cells:
            return tuple(moved[index] for index in printed)
    # Not an orientation of the patch (a hand-made view): spread over the cells as given.
    return tuple(cells[index] for index in _spread(len(cells), min(patch.income, len(cells))))


def outline_path(cells: Cells, size: int) -> str:
    """SVG path data of the boundary of `cells` (unit squares scaled by `size`), one closed loop per edge.

    Traced from the directed boundary edges (clockwise around each cell, the
    edges two cells share cancel), joining straight runs into one segment.
    """
    edges: dict[tuple[tuple[int, int], tuple[int, int]], bool] = {}
    for r, c in cells:
        cell_corners = ((c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1))
        for index in range(4):
            start, end = cell_corners[index], cell_corners[(index + 1) % 4]
            if (end, start) in edges:
                del edges[end, start]
            else:
                edges[start, end] = True
    following: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for start, end in edges:
        following.setdefault(start, []).append(end)
    parts = []
    while following:
        first = min(following)
        point, loop = first, []
        while True:
            ends = following[point]
            nxt = ends.pop()
            if not ends:
                del following[point]
            loop.append(point)
            point = nxt
            if point == first:
                break
        corners = [p for i, p in enumerate(loop) if not _straight(loop[i - 1], p, loop[(i + 1) % len(loop)])]
        # Every side is horizontal or vertical: after the first corner, one coordinate changes.
        steps = [f"M{corners[0][0] * size} {corners[0][1] * size}"]
        for (x0, _), (x, y) in itertools.pairwise(corners):
            steps.append(f"V{y * size}" if x == x0 else f"H{x * size}")
        parts.append("".join(steps) + "Z")
    return "".join(parts)


def _straight(before, point, after) -> bool:
    return (before[0] == point[0] == after[0]) or (before[1] == point[1] == after[1])


def seams_path(cells: Cells, size: int) -> str:
    """SVG path data of the lines between neighbouring cells of one piece."""
    present = set(cells)
    parts = []
    for r, c in cells:
        if (r, c + 1) in present:
            parts.append(f"M{(c + 1) * size} {r * size}v{size}")
        if (r + 1, c) in present:
            parts.append(f"M{c * size} {(r + 1) * size}h{size}")
    return "".join(parts)


@cache
def piece_svg(patch_id: int, cells: Cells, size: int) -> str:
    """One piece (normalized `cells` of `patch_id`) drawn with its bounding box at (0, 0).

    The outline is one `<path class="piece" data-patch-id=...>`: tests and
    frontends count pieces by it. Draw pieces inside a group with
    `PIECE_STROKE`: the outline colour is set there once, not on every path.
    """
    stroke = max(1.0, size / 14)
    parts = [
        f'<path class="piece" data-patch-id="{patch_id}" d="{outline_path(cells, size)}" '
        f'fill="{colour_of(patch_id)}" stroke-width="{stroke:.2g}"/>'
    ]
    if len(cells) > 1 and size >= 12:
        parts.append(f'<path d="{seams_path(cells, size)}" stroke-opacity="0.18" stroke-width="1"/>')
    if patch_id == LEATHER_PATCH_ID and size >= 12:
        inset = size * 0.18
        parts.append(
            f'<rect x="{inset:g}" y="{inset:g}" width="{size - 2 * inset:g}" '
            f'height="{size - 2 * inset:g}" fill="none" stroke="{LEATHER_STITCH}" '
            f'stroke-width="1" stroke-dasharray="2 2"/>'
        )
    for r, c in button_cells(patch_id, cells):
        parts.append(button_svg((c + 0.5) * size, (r + 0.5) * size, size * 0.3))
    return "".join(parts)


def quilt_pieces(quilt: Sequence[Sequence[int | None]]) -> list[tuple[int, Cells]]:
    """The pieces of a 9x9 quilt grid as (patch id, the (row, col) cells it covers, in reading order).

    Cells with the same regular patch id are one piece (a patch is bought
    once); every leather cell is a piece of its own.
    """
    by_patch: dict[int, list[tuple[int, int]]] = {}
    pieces: list[tuple[int, Cells]] = []
    for r, row in enumerate(quilt):
        for c, patch_id in enumerate(row):
            if patch_id is None:
                continue
            if patch_id == LEATHER_PATCH_ID:
                pieces.append((LEATHER_PATCH_ID, ((r, c),)))
            else:
                by_patch.setdefault(patch_id, []).append((r, c))
    pieces += [(patch_id, tuple(cells)) for patch_id, cells in by_patch.items()]
    return pieces

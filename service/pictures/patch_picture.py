"""One patch as an image, and the cost and time labels the board's market uses too."""

from __future__ import annotations

from functools import cache

from service.engine import PATCHES
from service.engine.patches import ROTATIONS, shape_cells
from service.languages import DEFAULT_LANGUAGE, N_, Text

from .icons import button_svg, hourglass_svg
from .pieces import PIECE_STROKE, Cells, oriented, piece_svg
from .safe_text import svg_text
from .svg_document import TEXT_COLOUR, svg_document

PATCH_CELL = 40
PATCH_MARGIN = 16
CAPTION_HEIGHT = 44


def price_svg(x: float, y: float, cost: int, time: int, size: float) -> str:
    """'(button) cost  (hourglass) time' starting at x, on baseline-centre y, text `size` px."""
    radius = size * 0.42
    time_x = x + 2 * radius + size * (0.35 + 0.62 * len(str(cost))) + size * 0.6
    return (
        button_svg(x + radius, y, radius)
        + f'<text x="{x + 2 * radius + size * 0.3:.4g}" y="{y + size * 0.36:.4g}" '
        f'font-size="{size:g}">{cost}</text>'
        + hourglass_svg(time_x + radius * 0.6, y, 2 * radius)
        + f'<text x="{time_x + radius * 1.5:.4g}" y="{y + size * 0.36:.4g}" '
        f'font-size="{size:g}">{time}</text>'
    )


def price_width(cost: int, time: int, size: float) -> float:
    """How wide `price_svg` draws, near enough to centre it."""
    return size * (0.84 + 0.35 + 0.62 * len(str(cost)) + 0.6 + 0.84 * 0.6 + 0.63 + 0.62 * len(str(time)))


@cache
def printed_cells(patch_id: int) -> Cells:
    """The patch's cells as patches.json lists its shape, in reading order."""
    return tuple(sorted(shape_cells(PATCHES[patch_id].shape)))


def patch_svg(
    patch_id: int, rotation: int = 0, flipped: bool = False, language: str = DEFAULT_LANGUAGE
) -> str:
    """One regular patch (1..33) in one orientation, with its printed buttons, cost and time, labelled in `language`.

    Raises ValueError for an unknown id or a rotation other than 0, 90, 180, 270.
    """
    return _patch_svg(_checked_patch_id(patch_id), _checked_rotation(rotation), bool(flipped), language)


def _checked_patch_id(patch_id) -> int:
    if type(patch_id) is not int or patch_id not in PATCHES:
        raise ValueError(f"no patch with id {patch_id!r} (regular patches are 1..33)")
    return patch_id


def _checked_rotation(rotation) -> int:
    if type(rotation) is not int or rotation not in ROTATIONS:
        raise ValueError(f"rotation {rotation!r} is not one of 0, 90, 180, 270")
    return rotation


@cache
def _patch_svg(patch_id: int, rotation: int, flipped: bool, language: str) -> str:
    patch = PATCHES[patch_id]
    cells = tuple(sorted(oriented(printed_cells(patch_id), len(patch.shape[0]), rotation, flipped)))
    rows = 1 + max(r for r, _ in cells)
    columns = 1 + max(c for _, c in cells)
    width = max(columns * PATCH_CELL, 150) + 2 * PATCH_MARGIN
    height = rows * PATCH_CELL + 2 * PATCH_MARGIN + CAPTION_HEIGHT
    left = (width - columns * PATCH_CELL) / 2
    caption_y = rows * PATCH_CELL + 2 * PATCH_MARGIN + 12
    price_x = (width - price_width(patch.cost, patch.time, 16)) / 2
    values = {
        "patch": patch_id,
        "rotation": rotation,
        "cost": patch.cost,
        "time": patch.time,
        "income": patch.income,
        "cells": patch.cells,
    }
    caption = Text(_FLIPPED_CAPTION if flipped else _CAPTION, values).in_language(language)
    body = (
        f'<rect width="{width}" height="{height}" rx="8" fill="#fbf8f1"/>'
        f'<g transform="translate({left:g} {PATCH_MARGIN})" {PIECE_STROKE}>'
        f"{piece_svg(patch_id, cells, PATCH_CELL)}</g>"
        f'<g fill="{TEXT_COLOUR}">{price_svg(price_x, caption_y, patch.cost, patch.time, 16)}'
        f'<text x="{width / 2:g}" y="{caption_y + 25}" font-size="11" text-anchor="middle" '
        f'fill="#6b6259">{svg_text(caption)}</text></g>'
    )
    title = Text(_FLIPPED_TITLE if flipped else _TITLE, values).in_language(language)
    return svg_document(width, height, svg_text(title), body)


# Costs, times and incomes are said as labelled numbers, never counted nouns ("1 buttons").
_CAPTION = N_("patch {patch} · rotation {rotation}")
_FLIPPED_CAPTION = N_("patch {patch} · rotation {rotation}, flipped")
_TITLE = N_("Patch {patch}: cost {cost}, time {time}, income {income}, {cells} cells, rotation {rotation}")
_FLIPPED_TITLE = N_(
    "Patch {patch}: cost {cost}, time {time}, income {income}, {cells} cells, rotation {rotation}, flipped"
)

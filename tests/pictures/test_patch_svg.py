"""patch_svg: every patch in every orientation, and where its buttons are printed."""

from __future__ import annotations

import pytest

from service.engine import PATCHES
from service.engine.patches import ORIENTATION_ORDER, oriented_cells
from service.pictures import patch_svg
from service.pictures.patch_picture import PATCH_CELL, printed_cells
from service.pictures.pieces import LEATHER_COLOUR, PATCH_COLOURS, button_cells, oriented
from tests.support.pictures import SVG, by_class, covered_cells, parse, polygon_area


def piece_of(svg: str):
    root = parse(svg)
    (outline,) = by_class(root, "piece")
    group = next(g for g in root.iter(f"{SVG}g") if outline in list(g))
    buttons = [el for el in group.iter(f"{SVG}use") if el.get("href") == "#pw-button"]
    centres = {
        (
            round((float(b.get("y")) + float(b.get("height")) / 2) / PATCH_CELL - 0.5),
            round((float(b.get("x")) + float(b.get("width")) / 2) / PATCH_CELL - 0.5),
        )
        for b in buttons
    }
    return root, outline, centres


@pytest.mark.parametrize("patch_id", sorted(PATCHES))
def test_every_orientation_is_one_outline_over_the_patchs_cells(patch_id):
    patch = PATCHES[patch_id]
    for rotation, flipped in ORIENTATION_ORDER:
        root, outline, buttons = piece_of(patch_svg(patch_id, rotation, flipped))
        cells = covered_cells(outline.get("d"), PATCH_CELL)
        assert cells == set(oriented_cells(patch.shape, rotation, flipped))
        assert polygon_area(outline.get("d")) == patch.cells * PATCH_CELL**2
        assert len(buttons) == patch.income and buttons <= cells
        title = root.find(f"{SVG}title").text
        assert f"cost {patch.cost}, time {patch.time}, income {patch.income}, {patch.cells} cells" in title


def test_patch_25s_buttons_are_spread_and_turn_with_it():
    # 25 is XX / XX / .X / .X (income 3); its cells in reading order are
    # (0,0) (0,1) (1,0) (1,1) (2,1) (3,1): buttons on the 2nd, 4th and 6th.
    assert piece_of(patch_svg(25))[2] == {(0, 1), (1, 1), (3, 1)}
    # A quarter turn clockwise sends (r, c) to (c, 3 - r): (1,3) (1,2) (1,0).
    assert piece_of(patch_svg(25, 90))[2] == {(1, 3), (1, 2), (1, 0)}
    # Mirrored first, (r, c) goes to (r, 1 - c).
    assert piece_of(patch_svg(25, 0, True))[2] == {(0, 0), (1, 0), (3, 0)}


def test_a_hand_worked_orientation():
    # 11 is .X / XX / .X; mirrored it is X. / XX / X., then half a turn: .X / XX / .X again.
    _root, outline, _ = piece_of(patch_svg(11, 180, True))
    assert covered_cells(outline.get("d"), PATCH_CELL) == {(0, 1), (1, 0), (1, 1), (2, 1)}
    _root, outline, _ = piece_of(patch_svg(11, 270))
    assert covered_cells(outline.get("d"), PATCH_CELL) == {(0, 0), (0, 1), (0, 2), (1, 1)}


def test_the_cell_order_kept_through_a_turn_agrees_with_the_engine():
    for patch in PATCHES.values():
        for rotation, flipped in ORIENTATION_ORDER:
            base = sorted(
                (r, c) for r, line in enumerate(patch.shape) for c, ch in enumerate(line) if ch == "X"
            )
            assert set(oriented(base, len(patch.shape[0]), rotation, flipped)) == oriented_cells(
                patch.shape, rotation, flipped
            )
    assert sum(len(button_cells(p, printed_cells(p))) for p in PATCHES) == 38


@pytest.mark.parametrize("args", [(0,), (34,), ("3",), (True,), (3, 45), (3, "90"), (3, 360)])
def test_an_unknown_patch_or_rotation_is_a_value_error(args):
    with pytest.raises(ValueError):
        patch_svg(*args)


def test_each_patch_has_its_own_colour_and_none_is_leather():
    assert len(set(PATCH_COLOURS.values())) == 33
    assert LEATHER_COLOUR not in PATCH_COLOURS.values()

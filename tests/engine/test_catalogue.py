"""The patch catalogue, orientations and placements against docs/rules.md and docs/api-guide.md."""

import pytest

from service.engine import (
    PATCHES,
    PLACEMENT_MASKS,
    DoesNotFit,
    Placement,
    canonical_placement,
    resolve_placement,
)


def cells_mask(*cells):
    return sum(1 << (r * 9 + c) for r, c in cells)


def test_catalogue_totals_match_rules():
    # docs/rules.md#pieces: 166 cells, 38 income buttons, cost 133, time 107.
    assert sorted(PATCHES) == list(range(1, 34))
    assert sum(p.cells for p in PATCHES.values()) == 166
    assert sum(p.income for p in PATCHES.values()) == 38
    assert sum(p.cost for p in PATCHES.values()) == 133
    assert sum(p.time for p in PATCHES.values()) == 107


def test_the_1x2_patch():
    one = PATCHES[1]
    assert (one.cost, one.time, one.income, one.shape, one.cells) == (2, 1, 0, ("X", "X"), 2)


def test_orientation_counts_are_1_2_4_8():
    # 2x2 square: 1; 1x2 domino: 2 (upright, lying); S tetromino (.XX/XX.): 4
    # (mirror gives Z); L tetromino (X./X./XX): all 8.
    def count(pid):
        return len(
            {
                canonical_placement(pid, m).rotation * 2 + canonical_placement(pid, m).flipped
                for m in PLACEMENT_MASKS[pid]
            }
        )

    assert [count(9), count(1), count(32), count(27)] == [1, 2, 4, 8]
    assert {count(pid) for pid in PATCHES} == {1, 2, 4, 8}


@pytest.mark.parametrize(
    "pid, expected",
    [
        (9, 8 * 8),  # 2x2 fits at 8 x 8 corners
        (1, 2 * 9 * 8),  # domino: 72 upright + 72 lying
        (14, 2 * 9 * 5),  # 1x5: 5 starts along each of 9 lines, both ways
        (7, 2 * 7 * 5),  # 3x5 plus sign, symmetric under mirror and 180: two ways
        (27, 8 * 7 * 8),  # L tetromino: 8 orientations, each in a 3x2 or 2x3 box
    ],
)
def test_placements_on_empty_board(pid, expected):
    assert len(PLACEMENT_MASKS[pid]) == expected
    assert len(set(PLACEMENT_MASKS[pid])) == expected


def test_no_patch_has_more_than_448_placements():
    assert max(len(masks) for masks in PLACEMENT_MASKS.values()) == 448


def test_rotation_turns_clockwise():
    # Patch 2 is .X/XX. A quarter turn clockwise makes X./XX: row 0 = old col 0
    # read bottom-up (X .), row 1 = old col 1 bottom-up (X X).
    mask = resolve_placement(2, Placement(row=3, col=4, rotation=90, flipped=False))
    assert mask == cells_mask((3, 4), (4, 4), (4, 5))


def test_flip_mirrors_before_rotating():
    # Patch 19 is .X/.X/XX (a J). Mirrored: X./X./XX; then 90 clockwise:
    # rows = old cols bottom-up: col 0 = X,X,X -> XXX; col 1 = X,.,. -> X..
    mask = resolve_placement(19, Placement(row=0, col=0, rotation=90, flipped=True))
    assert mask == cells_mask((0, 0), (0, 1), (0, 2), (1, 0))
    # Unflipped 90: rows = J's cols bottom-up: col 0 = X,.,. -> X..; col 1 -> XXX
    mask = resolve_placement(19, Placement(row=0, col=0, rotation=90, flipped=False))
    assert mask == cells_mask((0, 0), (1, 0), (1, 1), (1, 2))


def test_canonical_placement_picks_first_orientation_in_api_order():
    # Patch 2 mirrored (X./XX) equals patch 2 turned 90 (X./XX): the canonical
    # name is the unflipped one, which comes first in the order of docs/api-guide.md#placements-and-orientation.
    mask = resolve_placement(2, Placement(row=3, col=4, rotation=0, flipped=True))
    assert canonical_placement(2, mask) == Placement(
        row=3, col=4, rotation=90, flipped=False, cells=((3, 4), (4, 4), (4, 5))
    )
    # The square: any rotation of it is rotation 0.
    mask = resolve_placement(9, Placement(row=7, col=7, rotation=270, flipped=True))
    assert canonical_placement(9, mask) == Placement(
        row=7, col=7, rotation=0, flipped=False, cells=((7, 7), (7, 8), (8, 7), (8, 8))
    )


def test_cells_form_resolves_in_any_order_and_as_lists():
    expected = cells_mask((0, 7), (0, 8), (1, 8), (2, 8), (3, 7), (3, 8))
    # Patch 12 (XX/.X/.X/XX) unturned at row 0, col 7 (the example LHAA of docs/rules.md#notation).
    assert resolve_placement(12, Placement(row=0, col=7)) == expected
    given = [[3, 8], [0, 7], [1, 8], [0, 8], [2, 8], [3, 7]]
    assert resolve_placement(12, Placement(cells=given)) == expected


def test_both_forms_are_accepted_when_they_agree():
    placement = Placement(row=0, col=0, rotation=0, flipped=False, cells=((0, 0), (1, 0)))
    assert resolve_placement(1, placement) == cells_mask((0, 0), (1, 0))
    with pytest.raises(DoesNotFit, match=r"\[\[0, 0\], \[0, 1\]\]"):
        resolve_placement(1, Placement(row=0, col=0, cells=((0, 0), (0, 1))))


@pytest.mark.parametrize(
    "pid, placement, fragment",
    [
        # 1x5 lying from col 5 would need cols 5..9.
        (14, Placement(row=0, col=5), r"cols 5\.\.9"),
        # upright 1x5 from row 6 would need rows 6..10.
        (14, Placement(row=6, col=0, rotation=90), r"rows 6\.\.10"),
        (1, Placement(row=-1, col=0), r"rows -1\.\.0"),
        (1, Placement(row=0, col=0, rotation=45), r"rotation 45"),
        (1, Placement(row=0, col=0, flipped="yes"), r"flipped 'yes'"),
        (1, Placement(row="0", col=0), r"row '0'"),
        # an L-tromino's cells are not a domino
        (1, Placement(cells=((0, 0), (0, 1), (1, 1))), r"\[\[0, 0\], \[0, 1\], \[1, 1\]\]"),
        # two cells that do not touch
        (1, Placement(cells=((0, 0), (0, 2))), r"not an orientation of patch 1"),
        (1, Placement(cells=((8, 8), (8, 9))), r"cell \[8, 9\] is off"),
        (1, Placement(cells=((0, 0), (0, 0))), r"twice"),
        (1, Placement(cells=(("a", 1), (0, 0))), r"off the 9x9 board"),
        (1, Placement(), r"neither"),
        (34, Placement(row=0, col=0), r"patch 34"),
    ],
)
def test_bad_placements_do_not_fit(pid, placement, fragment):
    with pytest.raises(DoesNotFit, match=fragment) as caught:
        resolve_placement(pid, placement)
    assert caught.value.code == "does_not_fit"


def test_canonical_placement_of_a_foreign_mask_is_refused():
    with pytest.raises(DoesNotFit):
        canonical_placement(1, cells_mask((0, 0), (0, 1), (0, 2)))

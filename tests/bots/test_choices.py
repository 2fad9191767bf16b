"""The levels' choices in hand-worked positions, and the placement shortlist."""

import pytest

from service.bots import choose_move
from service.bots.options import snug_leather_cell, snug_placements
from service.engine import Buy, PlaceLeather
from service.engine.quilt import FULL_QUILT, cells_of_mask
from tests.support.positions import bonus_in_reach, position, seat

CORNERS = {(0, 0), (0, 8), (8, 0), (8, 8)}


@pytest.mark.parametrize("level_id", ["greedy", "search-quick", "search"])
def test_a_level_takes_the_bonus_when_a_patch_completes_the_window(level_id):
    move = choose_move(bonus_in_reach(), level_id, 0, think_ms=50, clock_cap=False)
    assert isinstance(move, Buy) and move.patch_id == 1
    assert move.placement.cells == ((3, 3), (3, 4))


def test_the_snuggest_placement_of_a_domino_on_an_empty_quilt_is_in_a_corner():
    best = snug_placements(0, 1, 2)
    assert len(best) == 2
    assert all(set(cells_of_mask(mask)) & CORNERS for mask in best)


def test_the_shortlist_prefers_a_placement_that_leaves_no_hole():
    # The bottom row has a gap of four cells (0..3) and one of three (5..7):
    # a 1x3 in the gap of three fills it; in the gap of four it strands a cell.
    rows = ("XXXXXXXXX",) * 8 + ("....X...X",)
    quilt = position(seat(rows=rows), seat()).players[0].quilt
    best = snug_placements(quilt, 4, 2)
    assert cells_of_mask(best[0]) == ((8, 5), (8, 6), (8, 7))


def test_leather_goes_into_a_hole_first():
    hole = 40
    quilt = FULL_QUILT & ~(1 << hole) & ~(0b111 << 72)
    assert snug_leather_cell(quilt) == 1 << hole
    state = position(seat(rows=None, leather_to_place=1), seat())
    assert isinstance(choose_move(state, "search", 0, think_ms=20), PlaceLeather)

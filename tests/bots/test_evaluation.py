"""The static evaluation's terms, worked out by hand on small positions."""

import pytest

from service.bots.evaluation import (
    PAYDAYS_AHEAD,
    WIN_VALUE,
    Weights,
    buy_prospect,
    evaluate,
    seat_value,
    shape_terms,
)
from service.engine.quilt import FULL_QUILT
from tests.support.positions import EMPTY_ROW, position, quilt, seat

WEIGHTS = Weights(time_early=2.0, time_late=1.0, perimeter=0.5, hole=1.0, pending_leather=2.0)


def test_an_empty_quilt_has_the_board_edge_as_its_perimeter_and_no_holes():
    assert shape_terms(0) == (36, 0)


def test_a_patch_in_the_middle_adds_its_sides_to_the_perimeter():
    middle = quilt(*[EMPTY_ROW] * 4, "....X....", *[EMPTY_ROW] * 4)
    assert shape_terms(middle) == (40, 0)


def test_a_filled_column_on_the_edge_leaves_a_9_by_8_area():
    column = quilt(*["X........"] * 9)
    assert shape_terms(column) == (34, 0)


@pytest.mark.parametrize("cell", [0, 40, 80])
def test_a_single_empty_cell_is_a_hole_with_four_sides(cell):
    assert shape_terms(FULL_QUILT & ~(1 << cell)) == (4, 1)


def test_two_empty_neighbours_are_not_holes():
    assert shape_terms(FULL_QUILT & ~0b11) == (6, 0)


def test_a_full_quilt_has_no_shape_terms():
    assert shape_terms(FULL_QUILT) == (0, 0)


def test_paydays_ahead_count_the_income_spaces_still_to_pass():
    assert [PAYDAYS_AHEAD[p] for p in (0, 4, 5, 6, 47, 52, 53)] == [9, 9, 8, 8, 1, 1, 0]


def test_a_seat_at_the_start_is_worth_its_buttons_cells_time_and_edge():
    start = position(seat(), seat())
    # 5 buttons - 2 x 81 empty + 53 spaces at 2 falling to 1 (mean 1.5) - 0.5 x 36 edge sides
    assert seat_value(start, 0, WEIGHTS) == pytest.approx(5 - 162 + 79.5 - 18)


def test_income_counts_once_per_payday_ahead_and_time_by_the_spaces_left():
    later = position(seat(buttons=10, position=5, income=3), seat())
    # time: the rate 2 - s/53 integrated over spaces 5..53 = 96 - (53^2 - 5^2) / 106
    time_left = 96 - (53 * 53 - 25) / 106
    assert seat_value(later, 0, WEIGHTS) == pytest.approx(10 - 162 + 3 * 8 + time_left - 18)


def test_the_bonus_tile_and_a_pending_leather_patch_are_worth_points():
    plain = position(seat(position=30), seat(position=30))
    with_bonus = position(seat(position=30), seat(position=30), bonus_owner=0)
    with_leather = position(seat(position=30, leather_to_place=1), seat(position=30))
    assert seat_value(with_bonus, 0, WEIGHTS) - seat_value(plain, 0, WEIGHTS) == 7
    assert seat_value(with_leather, 0, WEIGHTS) - seat_value(plain, 0, WEIGHTS) == 2


def test_the_evaluation_is_one_seat_against_the_other():
    state = position(seat(buttons=9, position=7, income=2), seat(position=4))
    assert evaluate(state, 0) == pytest.approx(-evaluate(state, 1))
    assert evaluate(state, 0, WEIGHTS) == pytest.approx(
        seat_value(state, 0, WEIGHTS) - seat_value(state, 1, WEIGHTS)
    )


def test_a_finished_game_is_won_or_lost_by_its_margin():
    full = ("XXXXXXXXX",) * 9
    done = position(seat(buttons=20, position=53, rows=full), seat(buttons=12, position=53), first_to_end=1)
    # seat 0: 20 points; seat 1: 12 - 2 x 81 = -150
    assert evaluate(done, 0) == WIN_VALUE + 170
    assert evaluate(done, 1) == -WIN_VALUE - 170


# Patches of these tests (patches.json): id cost time income cells
#   5: 3 2 1 4    6: 2 2 0 5    9: 6 5 2 4    10: 4 2 0 6
def spaces_spent(old: int, new: int) -> float:
    """WEIGHTS' time term over old..new: the rate 2 - s/53 integrated."""
    return 2 * (new - old) - (new * new - old * old) / 106


def test_the_prospect_is_the_best_buy_the_seat_in_turn_can_afford():
    # Seat 0 is behind (0 against 1): its turn. With 5 buttons 5 and 6 are
    # affordable, 9 is not.
    state = position(seat(buttons=5), seat(position=1), circle=(6, 5, 9, 10, 2))
    # patch 5: 4 cells no longer -2 each, 3 buttons paid, 1 on each of 9 paydays, spaces 0..2 spent
    patch_5 = 2 * 4 - 3 + 1 * 9 - spaces_spent(0, 2)
    assert 2 * 5 - 2 - spaces_spent(0, 2) < patch_5  # patch 6 gains less
    assert buy_prospect(state, WEIGHTS) == pytest.approx(patch_5)
    # One more button and patch 9 is in reach, and gains more.
    richer = position(seat(buttons=6), seat(position=1), circle=(6, 5, 9, 10, 2))
    assert buy_prospect(richer, WEIGHTS) == pytest.approx(2 * 4 - 6 + 2 * 9 - spaces_spent(0, 5))


def test_a_payday_the_buy_passes_pays_its_income_at_once():
    # From 3 to 5: the payday on 5 pays the patch just sewn on, so 9 paydays, not the 8 after 5.
    state = position(seat(buttons=3, position=3), seat(position=4), circle=(5, 9, 10))
    assert buy_prospect(state, WEIGHTS) == pytest.approx(2 * 4 - 3 + 1 * 9 - spaces_spent(3, 5))


def test_no_prospect_without_an_affordable_gain_or_while_leather_waits():
    broke = position(seat(buttons=0), seat(position=1), circle=(5, 9, 10))
    assert buy_prospect(broke, WEIGHTS) == 0
    placing = position(seat(buttons=9, leather_to_place=1), seat(position=1), circle=(5, 9, 10))
    assert buy_prospect(placing, WEIGHTS) == 0


def test_the_prospect_counts_for_the_mover_and_against_its_opponent():
    with_prospect = Weights(time_early=2.0, time_late=1.0, perimeter=0.5, hole=1.0, prospect=0.5)
    state = position(seat(buttons=5), seat(position=1), circle=(6, 5, 9, 10, 2))
    prospect = 0.5 * buy_prospect(state, WEIGHTS)
    assert prospect > 0
    assert evaluate(state, 0, with_prospect) == pytest.approx(evaluate(state, 0, WEIGHTS) + prospect)
    assert evaluate(state, 1, with_prospect) == pytest.approx(evaluate(state, 1, WEIGHTS) - prospect)


def test_empty_cells_income_and_the_bonus_count_at_their_weights():
    weights = Weights(
        time_early=2.0, time_late=1.0, perimeter=0.5, hole=1.0, empty_cell=1.5, income=0.5, bonus=4.0
    )
    later = position(seat(buttons=10, position=5, income=3), seat(), bonus_owner=0)
    time_left = 96 - (53 * 53 - 25) / 106
    # 10 buttons - 1.5 x 81 empty + 0.5 x 3 income x 8 paydays + 4 for the bonus + time - 0.5 x 36 edge sides
    assert seat_value(later, 0, weights) == pytest.approx(10 - 121.5 + 12 + 4 + time_left - 18)
    # A buy's gain counts its cells and income at the same weights: patch 5 from space 0.
    state = position(seat(buttons=5), seat(position=1), circle=(5, 9, 10))
    assert buy_prospect(state, weights) == pytest.approx(1.5 * 4 - 3 + 0.5 * 1 * 9 - spaces_spent(0, 2))

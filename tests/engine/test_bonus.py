"""The 7x7 bonus tile: the first to cover any 7x7 window takes it, for good."""

from service.engine import Advance, Buy, PlaceLeather, Placement, apply_move
from service.engine.quilt import SEVEN_WINDOWS
from tests.support.positions import position, quilt, seat, window_rows


def test_bonus_completed_by_a_leather_patch():
    state = position(seat(position=25, rows=window_rows((3, 3))), seat(position=26))
    claimed = apply_move(state, Advance())  # 25 -> 27 passes leather 26
    assert claimed.bonus_owner is None
    done = apply_move(claimed, PlaceLeather(3, 3))
    assert done.bonus_owner == 0
    # 49 - 1 + 1 = 49 cells covered; buttons 5 + 2 moved: 7 + 7 - 2 * 32
    assert done.score(0) == 7 + 7 - 2 * 32


def test_leather_elsewhere_does_not_complete_the_window():
    state = position(seat(position=25, rows=window_rows((3, 3))), seat(position=26))
    done = apply_move(apply_move(state, Advance()), PlaceLeather(8, 8))
    assert done.bonus_owner is None


def test_bonus_completed_by_a_regular_patch():
    state = position(seat(rows=window_rows((0, 0), (0, 1))), seat(), circle=(1, 2, 3))
    # the 1x2 turned 90 lies across (0, 0) and (0, 1)
    after = apply_move(state, Buy(1, Placement(row=0, col=0, rotation=90)))
    assert after.bonus_owner == 0


def test_any_of_the_nine_windows_counts():
    rows = tuple("." * 9 if r < 2 else ".." + "X" * 7 for r in range(9))
    rows = rows[:2] + ("..XXXXX..",) + rows[3:]  # window rows 2..8, cols 2..8 minus (2,7),(2,8)
    state = position(seat(rows=rows), seat(), circle=(1, 2, 3))
    after = apply_move(state, Buy(1, Placement(row=2, col=7, rotation=90)))
    assert after.bonus_owner == 0


def test_many_cells_but_no_full_window_is_no_bonus():
    rows = ("XXXXXXXXX",) * 6 + (".........",) * 3  # 54 cells, only 6 full rows
    state = position(seat(rows=rows), seat(), circle=(1, 2, 3))
    after = apply_move(state, Buy(1, Placement(row=6, col=0)))
    assert after.bonus_owner is None


def test_bonus_is_never_given_twice_nor_lost():
    state = position(
        seat(position=3, rows=window_rows()),
        seat(rows=window_rows((0, 0), (0, 1))),
        circle=(1, 2, 3),
        bonus_owner=0,
        on_top=1,
    )
    after = apply_move(state, Buy(1, Placement(row=0, col=0, rotation=90)))
    assert after.bonus_owner == 0
    # seat 1 covers 49 cells and holds 5 - 2 = 3 buttons: no 7 for it
    assert after.score(1) == 3 - 2 * 32
    assert after.score(0) == 5 + 7 - 2 * 32


def test_there_are_nine_windows_of_49_cells():
    # a 7x7 square fits at 3 x 3 offsets on a 9x9 quilt; the corners are the extremes
    assert len(set(SEVEN_WINDOWS)) == 9
    assert all(window.bit_count() == 49 for window in SEVEN_WINDOWS)
    assert quilt(*window_rows()) in SEVEN_WINDOWS
    assert quilt(*(".." + "X" * 7,) * 9) not in SEVEN_WINDOWS  # 9 rows high: two windows
    bottom_right = ("." * 9,) * 2 + (".." + "X" * 7,) * 7
    assert quilt(*bottom_right) in SEVEN_WINDOWS

"""Moving on the time track: advance, button income, the cap at 53."""

from service.engine import Advance, Buy, Placement, apply_move
from tests.support.positions import position, seat


def test_seven_space_advance_from_4_pays_income_twice():
    state = position(seat(buttons=2, position=4, income=3), seat(position=10))
    after = apply_move(state, Advance())
    me = after.players[0]
    # to min(10 + 1, 53) = 11: 7 spaces = 7 buttons; passes 5 and 11: 2 x 3
    assert me.position == 11
    assert me.buttons == 2 + 7 + 2 * 3


def test_seven_space_advance_from_46_pays_income_twice():
    state = position(seat(buttons=10, position=46, income=4), seat(position=52), leather_spaces=())
    after = apply_move(state, Advance())
    me = after.players[0]
    # to min(52 + 1, 53) = 53: 7 buttons; passes 47 and 53: 2 x 4
    assert me.position == 53
    assert me.buttons == 10 + 7 + 2 * 4


def test_long_advance_pays_for_every_income_space_passed():
    state = position(seat(buttons=0, position=4, income=1), seat(position=16))
    after = apply_move(state, Advance())
    # 4 -> 17: 13 buttons; passes 5, 11, 17: 3 x 1
    assert after.players[0].buttons == 13 + 3


def test_starting_on_an_income_space_does_not_pay_it_again():
    state = position(seat(buttons=0, position=5, income=2), seat(position=9))
    after = apply_move(state, Advance())
    # 5 -> 10: 5 buttons; 5 is not passed (old < s), 11 is not reached
    assert after.players[0].buttons == 5


def test_bought_patch_counts_for_income_on_the_same_move():
    state = position(seat(buttons=10, position=3, income=1), seat(position=10), circle=(17, 2, 3))
    # Patch 17: cost 3, time 6, income 2. 3 -> 9 passes 5 with income 1 + 2.
    after = apply_move(state, Buy(17, Placement(row=0, col=0)))
    me = after.players[0]
    assert (me.position, me.income) == (9, 3)
    assert me.buttons == 10 - 3 + 3


def test_advancing_when_the_opponent_is_on_53_stops_at_53():
    state = position(
        seat(buttons=0, position=40, income=2),
        seat(buttons=30, position=53),
        leather_spaces=(),
        first_to_end=1,
    )
    after = apply_move(state, Advance())
    me = after.players[0]
    # to min(53 + 1, 53) = 53: 13 spaces moved = 13 buttons; passes 41, 47, 53: 3 x 2
    assert me.position == 53
    assert me.buttons == 13 + 6
    assert after.finished


def test_buy_whose_time_overshoots_53_stops_at_53():
    state = position(
        seat(buttons=10, position=50, income=2),
        seat(position=53),
        circle=(33, 2, 3),
        leather_spaces=(),
        first_to_end=1,
    )
    # Patch 33: cost 8, time 6, income 3. 50 + 6 = 56 is capped at 53; the
    # income space 53 is passed once, with income 2 + 3.
    after = apply_move(state, Buy(33, Placement(row=0, col=0)))
    me = after.players[0]
    assert me.position == 53
    assert me.buttons == 10 - 8 + 5
    assert after.finished


def test_advance_earns_one_button_per_space_actually_moved():
    state = position(seat(buttons=0, position=51), seat(position=53), leather_spaces=(), first_to_end=1)
    # 51 -> 53 is 2 spaces (the overshoot to 54 is lost); income 0 at 53
    assert apply_move(state, Advance()).players[0].buttons == 2


def test_the_seat_on_top_advances_off_a_shared_space():
    state = position(seat(position=7), seat(position=7), on_top=1)
    after = apply_move(state, Advance())
    # seat 1 is on top and acts; it moves to 8 and earns 1 button
    assert [p.position for p in after.players] == [7, 8]
    assert after.players[1].buttons == 5 + 1

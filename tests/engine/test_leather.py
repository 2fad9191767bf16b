"""Leather patches: the first to pass claims one, places it at once, or loses it on a full quilt."""

import pytest

from service.engine import Advance, Buy, PlaceLeather, Placement, WrongPhase, apply_move, legal_moves
from tests.support.positions import FULL_QUILT_ROWS, position, seat


def test_first_to_pass_claims_the_leather_patch_and_places_it():
    state = position(seat(position=24), seat(position=25))
    claimed = apply_move(state, Advance())  # seat 0: 24 -> 26, passes 26
    assert claimed.leather_spaces == (32, 38, 44, 50)
    assert (claimed.turn, claimed.phase) == (0, "place_leather")
    placed = apply_move(claimed, PlaceLeather(4, 4))
    assert placed.quilt_grid(0)[4][4] == 0
    assert placed.players[0].empty_cells == 80
    assert (placed.turn, placed.phase) == (1, "choose")  # seat 1 on 25 is behind
    passed = apply_move(placed, Advance())  # seat 1: 25 -> 27, passes 26 too
    assert passed.players[1].leather_to_place == 0
    assert passed.players[1].quilt == 0
    assert passed.phase == "choose"


def test_the_claimer_places_at_once_even_when_ahead():
    state = position(seat(position=25), seat(position=30))
    claimed = apply_move(state, Advance())  # seat 0: 25 -> 31, ahead of 30
    assert (claimed.turn, claimed.phase) == (0, "place_leather")
    with pytest.raises(WrongPhase):
        apply_move(claimed, Advance())
    assert apply_move(claimed, PlaceLeather(0, 0)).turn == 1


def test_leather_legal_moves_are_the_empty_cells():
    rows = ("XXXXXXXXX",) * 8 + ("X.X.XXXX.",)
    state = position(
        seat(position=26, rows=rows, leather_to_place=1), seat(position=30), leather_spaces=(32, 38, 44, 50)
    )
    assert legal_moves(state) == [PlaceLeather(8, 1), PlaceLeather(8, 3), PlaceLeather(8, 8)]
    assert legal_moves(state, patch_id=2) == []


def test_leather_is_discarded_on_a_full_quilt():
    state = position(seat(position=25, rows=FULL_QUILT_ROWS), seat(position=27))
    after = apply_move(state, Advance())  # 25 -> 28 passes 26
    assert after.leather_spaces == (32, 38, 44, 50)  # gone, not left for seat 1
    assert after.players[0].leather_to_place == 0
    assert after.phase == "choose" and after.turn == 1
    assert after.players[0].pieces == state.players[0].pieces


def test_the_patch_just_bought_can_fill_the_quilt_before_the_leather_arrives():
    # Only (8, 7) and (8, 8) are empty; the 1x2 (time 1) lying there fills the
    # quilt before the token moves 25 -> 26, so the leather is discarded.
    rows = ("XXXXXXXXX",) * 8 + ("XXXXXXX..",)
    state = position(seat(position=25, rows=rows), seat(position=30), circle=(1, 2, 3))
    after = apply_move(state, Buy(1, Placement(row=8, col=7, rotation=90)))
    assert after.players[0].empty_cells == 0
    assert after.phase == "choose" and after.leather_spaces == (32, 38, 44, 50)


def test_two_leather_patches_in_one_move_are_placed_one_after_the_other():
    # The printed boards never put two leather spaces within one move, but the
    # model must not assume it: spaces 26 and 27 both passed by 25 -> 31.
    state = position(seat(position=25), seat(position=30), leather_spaces=(26, 27, 50))
    claimed = apply_move(state, Advance())
    assert claimed.players[0].leather_to_place == 2
    assert claimed.leather_spaces == (50,)
    once = apply_move(claimed, PlaceLeather(0, 0))
    assert (once.turn, once.phase) == (0, "place_leather")
    twice = apply_move(once, PlaceLeather(0, 1))
    assert (twice.turn, twice.phase) == (1, "choose")
    assert twice.players[0].empty_cells == 79


def test_two_leather_patches_with_one_empty_cell_place_one():
    rows = ("XXXXXXXXX",) * 8 + ("XXXXXXXX.",)
    state = position(seat(position=25, rows=rows), seat(position=30), leather_spaces=(26, 27))
    claimed = apply_move(state, Advance())
    assert claimed.players[0].leather_to_place == 1
    placed = apply_move(claimed, PlaceLeather(8, 8))
    assert placed.players[0].empty_cells == 0
    assert placed.phase == "choose"

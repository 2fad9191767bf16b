"""Whose turn: the seat behind acts, the last to arrive on a shared space acts."""

from service.engine import Advance, Buy, Placement, apply_move, legal_moves, new_game
from tests.support.positions import position, seat


def test_the_starting_player_is_on_top_at_the_start():
    assert new_game(seed=1).turn == 0
    assert new_game(seed=1, first_player=1).turn == 1


def test_the_seat_behind_acts_again_and_again():
    state = position(seat(position=3), seat(position=10), circle=(4, 5, 6))
    # Patch 4 (time 2) takes seat 0 from 3 to 5: still behind 10, still its turn.
    after = apply_move(state, Buy(4, Placement(row=0, col=0)))
    assert after.players[0].position == 5
    assert after.turn == 0


def test_on_a_shared_space_the_last_to_arrive_acts():
    state = position(seat(position=3), seat(position=5), circle=(4, 5, 6), on_top=1)
    assert state.turn == 0
    # Seat 0 buys patch 4 (time 2): 3 -> 5, the space seat 1 stands on.
    arrived = apply_move(state, Buy(4, Placement(row=0, col=0)))
    assert [p.position for p in arrived.players] == [5, 5]
    assert arrived.turn == 0
    left = apply_move(arrived, Advance())
    assert [p.position for p in left.players] == [6, 5]
    assert left.turn == 1


def test_a_shared_space_follows_the_stored_on_top_seat():
    assert position(seat(position=5), seat(position=5), on_top=1).turn == 1
    assert position(seat(position=5), seat(position=5), on_top=0).turn == 0


def test_a_seat_on_53_never_acts_again():
    state = position(seat(position=53), seat(position=10), first_to_end=0)
    assert state.turn == 1
    assert position(seat(position=10), seat(position=53), on_top=1).turn == 0


def test_both_on_53_is_the_end():
    state = position(seat(position=53), seat(position=53), first_to_end=0)
    assert (state.finished, state.turn, state.phase) == (True, None, None)
    assert legal_moves(state) == []

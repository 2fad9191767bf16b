"""Resigning: either seat, at any time while the game runs; the other seat wins at once."""

import pytest

from service.engine import (
    COMPLETED,
    RESIGNED,
    Advance,
    GameFinished,
    NotationError,
    NotYourTurn,
    Outcome,
    Resign,
    apply_move,
    format_move,
    format_moves,
    legal_moves,
    new_game,
    replay,
    state_from_dict,
    state_to_dict,
)
from tests.support.positions import position, seat


def test_the_seat_in_turn_resigns_and_the_other_wins():
    state = apply_move(new_game(seed=5), Resign(), seat=0)
    assert state.finished
    assert (state.turn, state.phase) == (None, None)
    assert state.result == Outcome((state.score(0), state.score(1)), 1, RESIGNED)
    assert state.moves_played == 1
    assert legal_moves(state) == []


def test_the_seat_not_in_turn_may_resign():
    state = new_game(seed=5)
    assert state.turn == 0
    resigned = apply_move(state, Resign(), seat=1)
    assert resigned.result.winner == 0
    assert resigned.result.reason == RESIGNED
    assert resigned.resigned == 1


def test_a_resign_wins_even_for_the_lower_score():
    # Seat 1 is far ahead on points; seat 1 resigning still gives seat 0 the game.
    state = position(seat(buttons=0), seat(buttons=90))
    outcome = apply_move(state, Resign(1)).result
    assert outcome.scores[1] > outcome.scores[0]
    assert outcome.winner == 0


def test_a_seat_may_resign_while_a_leather_patch_is_due():
    state = position(
        seat(position=26, leather_to_place=1), seat(position=30), leather_spaces=(32, 38, 44, 50)
    )
    assert state.phase == "place_leather"
    for resigning in (0, 1):
        assert apply_move(state, Resign(), seat=resigning).result.winner == 1 - resigning


def test_without_a_seat_the_seat_in_turn_resigns():
    state = apply_move(new_game(seed=5), Advance())  # seat 1 is now in turn
    assert apply_move(state, Resign()).resigned == 1


def test_a_resign_naming_another_seat_than_the_actor_is_refused():
    with pytest.raises(NotYourTurn):
        apply_move(new_game(seed=5), Resign(1), seat=0)


def test_a_finished_game_cannot_be_resigned():
    resigned = apply_move(new_game(seed=5), Resign(0))
    for seat_ in (0, 1):
        with pytest.raises(GameFinished):
            apply_move(resigned, Resign(), seat=seat_)
    with pytest.raises(GameFinished):
        apply_move(resigned, Advance())
    played_out = position(seat(position=53), seat(position=53))
    with pytest.raises(GameFinished):
        apply_move(played_out, Resign(0))


def test_a_played_out_game_says_completed():
    assert position(seat(position=53, buttons=9), seat(position=53)).result.reason == COMPLETED


def test_the_storage_form_keeps_who_resigned():
    state = apply_move(apply_move(new_game(seed=8), Advance()), Resign(0))
    data = state_to_dict(state)
    assert state_from_dict(data) == state
    assert state_from_dict(data).result.reason == RESIGNED


def test_a_state_stored_before_resigning_existed_reads_as_not_resigned():
    data = state_to_dict(new_game(seed=8))
    del data["resigned"]
    assert state_from_dict(data) == new_game(seed=8)


def test_a_resigned_game_replays_from_its_moves():
    moves = [Advance(), Advance(), Resign(0)]
    state = new_game(seed=3)
    for move in moves:
        state = apply_move(state, move)
    assert replay(moves, seed=3) == state
    assert replay(moves, seed=3).result.winner == 1


def test_resigning_has_no_anu_token():
    with pytest.raises(NotationError, match="no token"):
        format_move(Resign(0))
    with pytest.raises(NotationError):
        format_moves([Advance(), Resign(1)])

"""The ends a clock decides, as the rules record them: a seat out of time loses, an aborted game has no winner.

The clocks themselves are the service's (service/games/clock.py); the rules
only end the game, as they do for a resignation (docs/rules.md: a resigned game
is won by the other seat whatever the score).
"""

from __future__ import annotations

import pytest

from service.engine import (
    ABORTED,
    TIMEOUT,
    Abort,
    Advance,
    GameFinished,
    Timeout,
    apply_move,
    new_game,
    state_from_dict,
    state_to_dict,
)


def test_the_seat_in_turn_running_out_of_time_loses_whatever_the_score():
    # Seat 0 advances to space 1 (6 buttons), so seat 1 is in turn, behind on the track.
    state = apply_move(new_game(seed=1), Advance())
    assert state.turn == 1 and state.score(0) > state.score(1)
    ended = apply_move(state, Timeout())
    assert ended.turn is None and ended.phase is None and ended.finished
    assert ended.result is not None
    assert (ended.result.winner, ended.result.reason) == (0, TIMEOUT)
    assert ended.result.scores == (state.score(0), state.score(1))
    assert ended.moves_played == state.moves_played + 1
    with pytest.raises(GameFinished):
        apply_move(ended, Advance())


def test_an_aborted_game_has_no_winner():
    ended = apply_move(new_game(seed=1), Abort())
    assert ended.result is not None
    assert (ended.result.winner, ended.result.reason) == (None, ABORTED)
    assert ended.turn is None and ended.moves_played == 1


def test_both_ends_survive_the_stored_form():
    for end in (Timeout(), Abort()):
        ended = apply_move(new_game(seed=1), end)
        assert state_from_dict(state_to_dict(ended)) == ended
    # A state stored before clocks existed has neither field, and reads as still running.
    plain = state_to_dict(new_game(seed=1))
    assert "timed_out" not in plain and "aborted" not in plain
    assert state_from_dict(plain).turn == 0

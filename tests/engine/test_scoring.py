"""Scoring and the end: buttons + 7 for the bonus - 2 per empty cell; ties to the first at 53."""

from service.engine import Advance, Outcome, PlaceLeather, apply_move
from tests.support.positions import position, seat


def test_equal_scores_go_to_the_first_to_reach_53():
    state = position(
        seat(buttons=19, position=52), seat(buttons=20, position=53), leather_spaces=(), first_to_end=1
    )
    after = apply_move(state, Advance())  # 52 -> 53: +1 button, no income
    # both: 20 buttons - 2 * 81 empty cells = -142
    assert after.result == Outcome(scores=(-142, -142), winner=1)


def test_the_first_to_reach_53_is_the_first_mover_there():
    state = position(seat(buttons=20, position=51), seat(buttons=19, position=52), leather_spaces=())
    first = apply_move(state, Advance())  # seat 0: 51 -> 53 (+2 = 22)
    assert first.first_to_end == 0 and not first.finished
    last = apply_move(first, Advance())  # seat 1: 52 -> 53 (+1 = 20)
    assert last.first_to_end == 0
    # 22 - 162 = -140 against 20 - 162 = -142
    assert last.result == Outcome(scores=(-140, -142), winner=0)


def test_a_higher_score_wins_whoever_finished_first():
    state = position(
        seat(buttons=30, position=52), seat(buttons=20, position=53), leather_spaces=(), first_to_end=1
    )
    after = apply_move(state, Advance())
    assert after.result == Outcome(scores=(31 - 162, 20 - 162), winner=0)


def test_a_leather_patch_won_on_the_way_to_53_is_placed_before_the_end():
    state = position(
        seat(buttons=0, position=48), seat(buttons=0, position=53), leather_spaces=(50,), first_to_end=1
    )
    claimed = apply_move(state, Advance())  # 48 -> 53 passes 50
    assert not claimed.finished and claimed.result is None
    assert (claimed.turn, claimed.phase) == (0, "place_leather")
    done = apply_move(claimed, PlaceLeather(0, 0))
    assert done.finished
    # seat 0: 5 buttons moved, no income, 80 empty: 5 - 160
    assert done.result.scores == (5 - 160, 0 - 162)


def test_score_while_playing():
    state = position(seat(buttons=9, rows=("XXXXXXXXX",) + ("." * 9,) * 8), seat(), bonus_owner=0)
    # 9 buttons + 7 bonus - 2 * 72 empty cells
    assert state.score(0) == 9 + 7 - 144
    assert state.score(1) == 5 - 162
    assert state.result is None

"""The analysis judges hand-worked positions as the rules say: the known best move named, the loss classed."""

import pytest

from service.bots import choose_move
from service.bots.analysis import analyse_game, analyse_move, classify, margin, summary
from service.engine import Advance, Buy, Placement, apply_move, canonical_move
from tests.support.positions import bonus_in_reach

NODES = 3000


def the_bonus_buy() -> Buy:
    return canonical_move(Buy(1, Placement(cells=((3, 3), (3, 4)))))


def test_advancing_past_the_buy_that_wins_the_bonus_names_that_buy_and_is_a_blunder():
    # Seat 0 can close its 7x7 window with the 1x2 (7 points of bonus, two holes
    # closed for 2 buttons): advancing instead throws at least the bonus away.
    judged = analyse_move(bonus_in_reach(), Advance(), 1, NODES)
    assert judged.best == the_bonus_buy()
    assert judged.loss >= 7 and judged.label == "blunder"
    assert judged.eval_before - judged.eval_after == pytest.approx(judged.loss)


def test_playing_the_best_move_loses_nothing():
    judged = analyse_move(bonus_in_reach(), the_bonus_buy(), 1, NODES)
    assert judged.best == the_bonus_buy() and judged.loss == 0 and judged.label is None


def test_the_thresholds_are_in_points():
    assert [classify(loss) for loss in (0, 1.9, 2, 4.9, 5, 9.9, 10, 40)] == [
        None,
        None,
        "inaccuracy",
        "inaccuracy",
        "mistake",
        "mistake",
        "blunder",
        "blunder",
    ]


def test_a_finished_games_value_is_its_margin_without_the_win_bonus():
    assert margin(1000 + 12) == 12 and margin(-1000 - 3) == -3 and margin(4.5) == 4.5


def test_the_summary_counts_each_seats_classes():
    state = bonus_in_reach()
    moves = [Advance()]
    judged = analyse_game(state, moves, NODES)
    assert [m.number for m in judged] == [1] and judged[0].seat == 0
    assert summary(judged) == [
        {"accuracy": 0.0, "inaccuracies": 0, "mistakes": 0, "blunders": 1},
        {"accuracy": 100.0, "inaccuracies": 0, "mistakes": 0, "blunders": 0},
    ]
    after = apply_move(state, Advance())
    assert after.turn is not None  # the game goes on: the analysis stopped at the moves it was given


def test_bot_moves_played_inside_an_analysiss_searches_leave_it_the_same():
    """A bot worker plays the bot moves that come mid-analysis inside its searches (`pause`): other searches."""
    state = bonus_in_reach()
    moves = [Advance(), Advance(), Advance()]
    paused = []

    def pause() -> None:
        paused.append(len(paused))
        if len(paused) in (5, 60, 150):  # a bot's move to make, now: a search of its own
            choose_move(apply_move(state, Advance()), "search", 1, think_ms=20, nodes_per_ms=50)

    judged = analyse_game(state, moves, NODES, lambda: None, pause)
    assert judged == analyse_game(state, moves, NODES)
    # A search of NODES nodes pauses about 90 times: three moves' searches pause all the way through.
    assert len(paused) > 150

"""Every level plays only legal moves to the end, from either seat, and repeats itself."""

import random

import pytest

from service.bots import LEVELS, UnknownLevel, choose_move, level, seed_for
from service.engine import GameFinished, apply_move, legal_moves, new_game
from tests.support.independent_greedy import independent_greedy_move

# CI-sized: searches get 20 ms a move, never the levels' own second.
SMALL_THINK_MS = 20
LEVEL_IDS = [lv.id for lv in LEVELS]


def play_out(levels: tuple[str, str], game_seed: int) -> tuple:
    """A whole game between two levels; every move checked against legal_moves."""
    state = new_game(seed=game_seed)
    seen_seats = set()
    while not state.finished:
        seat = state.turn
        move = choose_move(
            state, levels[seat], seed_for(f"test-{game_seed}", state.moves_played), SMALL_THINK_MS
        )
        assert move in legal_moves(state), (levels[seat], move)
        seen_seats.add(seat)
        state = apply_move(state, move, seat)
    return state, seen_seats


@pytest.mark.parametrize("level_id", LEVEL_IDS)
@pytest.mark.parametrize("bot_seat", [0, 1])
def test_a_level_plays_legal_moves_to_the_end_from_either_seat(level_id, bot_seat):
    levels = ("random", level_id) if bot_seat == 1 else (level_id, "random")
    state, seen_seats = play_out(levels, game_seed=100 + bot_seat)
    assert state.finished and state.result is not None
    assert seen_seats == {0, 1}


def test_greedy_against_the_searching_level_ends_with_legal_moves():
    state, _ = play_out(("greedy", "search"), game_seed=7)
    assert state.finished


def positions_of_a_random_game(game_seed: int) -> list:
    """Every position of a random game, the finished one last."""
    rng = random.Random(game_seed)
    states = [new_game(seed=game_seed)]
    while not states[-1].finished:
        states.append(apply_move(states[-1], rng.choice(legal_moves(states[-1]))))
    return states


@pytest.mark.parametrize("level_id", LEVEL_IDS)
def test_the_same_seed_gives_the_same_move(level_id):
    for state in positions_of_a_random_game(3)[:-1:8]:
        # Without the clock cap a search depends on its node budget alone.
        first = choose_move(state, level_id, 12345, 30, clock_cap=False)
        again = choose_move(state, level_id, 12345, 30, clock_cap=False)
        assert first == again


def test_random_draws_with_the_seed():
    state = new_game(seed=9)
    moves = {choose_move(state, "random", seed) for seed in range(20)}
    assert len(moves) > 1


def test_seed_for_is_a_stable_hash_of_game_and_version():
    # A literal: Python's own hash() of a str changes from process to process.
    assert seed_for("g1", 3) == 16688761908362580985
    assert seed_for("g1", 3) != seed_for("g1", 4) != seed_for("g2", 4)
    assert 0 <= seed_for("g1", 3) < 2**64


def test_levels_are_listed_weakest_first_with_hints_only_for_the_cheap_ones():
    assert LEVEL_IDS[:2] == ["random", "greedy"]
    assert "search" in LEVEL_IDS
    assert [lv.id for lv in LEVELS if lv.hint] == ["random", "greedy"]
    assert level("search").think_ms == 1000
    assert level("greedy").public() == {
        "id": "greedy",
        "description": level("greedy").description,
        "think_ms": level("greedy").think_ms,
        "hint": True,
    }


def test_an_unknown_level_is_refused_by_name():
    with pytest.raises(UnknownLevel, match="no bot level 'grandmaster'"):
        choose_move(new_game(seed=1), "grandmaster", 0)


def test_a_finished_game_has_no_bot_move():
    finished = positions_of_a_random_game(4)[-1]
    for level_id in LEVEL_IDS:
        with pytest.raises(GameFinished):
            choose_move(finished, level_id, 0)


def test_the_independent_greedy_player_plays_legal_moves_to_the_end_against_deep():
    # The arena's yardstick (benchmarks/bots.py): a game against the strongest level, both seats.
    state = new_game(seed=11)
    seats = set()
    while not state.finished:
        seat = state.turn
        move = independent_greedy_move(state) if seat == 0 else choose_move(state, "deep", 0, SMALL_THINK_MS)
        assert move in legal_moves(state)
        seats.add(seat)
        state = apply_move(state, move, seat)
    assert state.result is not None and seats == {0, 1}
    assert state.players[0].quilt  # it bought patches, not only advanced

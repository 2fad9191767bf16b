"""Setting up a game: seed or explicit patch order, first player, time board."""

import random

import pytest

from service.engine import LEATHER_SPACES, InvalidSetup, new_game

ORDER = tuple(range(2, 34)) + (1,)


def shuffled(seed):
    """docs/rules.md#setting-up: random.Random(seed) shuffles ids 2..33, then the 1x2 (id 1)."""
    ids = list(range(2, 34))
    random.Random(seed).shuffle(ids)
    return tuple(ids) + (1,)


@pytest.mark.parametrize("seed", [0, 1, 42, 2**53 - 1])
def test_seed_fixes_the_circle(seed):
    state = new_game(seed=seed)
    assert state.circle == shuffled(seed)
    assert state.seed == seed
    assert new_game(seed=seed).circle == state.circle


def test_a_seed_is_picked_when_none_is_given():
    state = new_game()
    assert type(state.seed) is int and 0 <= state.seed < 2**53
    assert state.circle == shuffled(state.seed)


def test_the_starting_position():
    state = new_game(patch_order=ORDER)
    assert state.seed is None
    assert state.circle == ORDER and state.market == (2, 3, 4)
    seats = [(p.buttons, p.position, p.income, p.empty_cells) for p in state.players]
    assert seats == [(5, 0, 0, 81)] * 2
    assert (state.turn, state.phase, state.finished, state.result) == (0, "choose", False, None)
    assert (state.time_board, state.leather_spaces) == ("revised", (26, 32, 38, 44, 50))
    assert (state.bonus_owner, state.moves_played) == (None, 0)
    assert state.quilt_grid(0) == [[None] * 9 for _ in range(9)]


def test_the_original_time_board():
    state = new_game(seed=3, time_board="original")
    assert state.leather_spaces == (20, 26, 32, 44, 50) == LEATHER_SPACES["original"]


def test_first_player_one_starts():
    state = new_game(seed=3, first_player=1)
    assert (state.first_player, state.turn) == (1, 1)


@pytest.mark.parametrize(
    "kwargs, fragment",
    [
        ({"seed": 1, "patch_order": ORDER}, "not both"),
        ({"patch_order": ORDER[:-1]}, "not a permutation"),
        ({"patch_order": (1,) + ORDER[:-1]}, "must end with the 1x2 patch"),
        ({"patch_order": ORDER[:-2] + (2, 1)}, "not a permutation"),
        ({"patch_order": (0,) + ORDER[1:]}, "not a permutation"),
        ({"patch_order": ("2",) + ORDER[1:]}, "not a permutation"),
        ({"patch_order": 7}, "patch_order 7"),
        ({"first_player": 2}, "first_player 2"),
        ({"first_player": True}, "first_player True"),
        ({"time_board": "deluxe"}, "time_board 'deluxe'"),
        ({"seed": -1}, "seed -1"),
        ({"seed": 2**53}, "seed 9007199254740992"),
        ({"seed": 1.5}, "seed 1.5"),
    ],
)
def test_bad_setups_are_refused(kwargs, fragment):
    with pytest.raises(InvalidSetup, match=fragment) as caught:
        new_game(**kwargs)
    assert caught.value.code == "invalid_request"
    assert isinstance(caught.value, ValueError)

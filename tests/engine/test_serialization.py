"""The storage form of a state: versioned, JSON-safe, exact round trip; and replay."""

import json

import pytest

from service.engine import (
    FORMAT_VERSION,
    Advance,
    Buy,
    Placement,
    StateFormatError,
    apply_move,
    new_game,
    replay,
    state_from_dict,
    state_to_dict,
)
from tests.support.positions import position, seat, window_rows

MOVES = [
    Buy(2, Placement(row=0, col=0)),
    Advance(),
    Buy(5, Placement(cells=[[4, 4], [5, 4], [5, 3], [6, 3]])),
]


def played(moves, **setup):
    state = new_game(**setup)
    for move in moves:
        state = apply_move(state, move)
    return state


def all_ints(value):
    if isinstance(value, dict):
        return [i for v in value.values() for i in all_ints(v)]
    if isinstance(value, list):
        return [i for v in value for i in all_ints(v)]
    return [value] if type(value) is int else []


def test_round_trip_through_json_text():
    state = position(
        seat(buttons=3, position=26, income=4, rows=window_rows((0, 0)), leather_to_place=1),
        seat(position=30),
        circle=(7, 8),
        leather_spaces=(32, 38),
        bonus_owner=1,
        moves_played=17,
        on_top=1,
        seed=2**53 - 1,
        time_board="original",
        first_player=1,
    )
    data = state_to_dict(state)
    assert data["format"] == FORMAT_VERSION
    assert state_from_dict(json.loads(json.dumps(data))) == state


def test_masks_are_hex_strings_and_no_int_exceeds_2_to_the_53():
    # A piece in the bottom-right corner has a mask near 2**80.
    state = apply_move(position(seat(buttons=6), seat(), circle=(9, 2, 3)), Buy(9, Placement(row=7, col=7)))
    data = state_to_dict(state)
    assert max(all_ints(data)) < 2**53
    # the 2x2 on (7, 7), (7, 8), (8, 7), (8, 8): bits 70, 71, 79, 80
    corner = (1 << 70) | (1 << 71) | (1 << 79) | (1 << 80)
    assert data["players"][0]["pieces"] == [[9, format(corner, "x")]]


def test_a_played_game_round_trips_and_replays():
    setup = {"patch_order": tuple(range(2, 34)) + (1,), "time_board": "original", "first_player": 1}
    state = played(MOVES, **setup)
    assert state_from_dict(state_to_dict(state)) == state
    assert replay(MOVES, **setup) == state
    assert state.quilt_grid(1)[5][3:5] == [5, 5]


def test_replay_from_a_seed():
    assert replay([Advance(), Advance()], seed=99) == played([Advance(), Advance()], seed=99)


@pytest.mark.parametrize(
    "change, fragment",
    [
        (lambda d: d.update(format=99), "format 99"),
        (lambda d: d.pop("circle"), "malformed"),
        (lambda d: d["players"][0].update(position=54), "position 54"),
        (lambda d: d["players"][0].update(buttons=-1), "buttons -1"),
        (lambda d: d["players"][1]["pieces"].append([34, "1"]), "piece id 34"),
        (lambda d: d["players"][1]["pieces"].extend([[0, "1"], [0, "1"]]), "overlaps"),
        (lambda d: d.update(time_board="deluxe"), "time_board"),
        (lambda d: d.update(seed="7"), "seed .7."),
        (lambda d: d.update(players=d["players"][:1]), "two players"),
    ],
)
def test_unreadable_dicts_are_refused(change, fragment):
    data = state_to_dict(played([Advance()], seed=5))
    change(data)
    with pytest.raises(StateFormatError, match=fragment):
        state_from_dict(data)


def test_non_dicts_are_refused():
    with pytest.raises(StateFormatError):
        state_from_dict([1, 2])

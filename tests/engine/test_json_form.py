"""The one JSON form of moves and placements (docs/api-guide.md#resources, "Moves"), beside the values."""

import pytest

from service.engine import (
    PLACEMENT_MASKS,
    Abort,
    Advance,
    Buy,
    NotationError,
    PlaceLeather,
    Placement,
    Resign,
    Timeout,
    canonical_placement,
    legal_moves,
    move_from_json,
    new_game,
)


@pytest.mark.parametrize(
    "move, doc",
    [
        (Advance(), {"action": "advance"}),
        (PlaceLeather(4, 5), {"action": "place_leather", "row": 4, "col": 5}),
        (
            # The 1x2 turned a quarter, as docs/api-guide.md#placements-and-orientation shows it.
            Buy(1, Placement(4, 4, 90, False, ((4, 4), (5, 4)))),
            {
                "action": "buy",
                "patch_id": 1,
                "placement": {
                    "row": 4,
                    "col": 4,
                    "rotation": 90,
                    "flipped": False,
                    "cells": [[4, 4], [5, 4]],
                },
            },
        ),
    ],
)
def test_forms(move, doc):
    assert move.to_json() == doc
    assert move_from_json(doc) == move


def test_a_resignation_names_no_seat():
    assert Resign(1).to_json() == {"action": "resign"}
    assert move_from_json({"action": "resign"}) == Resign()


def test_a_placement_gives_the_forms_it_has():
    assert Placement(row=2, col=3).to_json() == {"row": 2, "col": 3, "rotation": 0, "flipped": False}
    assert Placement(cells=[[5, 1], [4, 1]]).to_json() == {"cells": [[4, 1], [5, 1]]}


def test_every_canonical_placement_round_trips():
    for patch_id, masks in PLACEMENT_MASKS.items():
        for mask in masks:
            buy = Buy(patch_id, canonical_placement(patch_id, mask))
            assert move_from_json(buy.to_json()) == buy


def test_every_legal_move_round_trips():
    for move in legal_moves(new_game(seed=11)):
        assert move_from_json(move.to_json()) == move


def test_json_numbers_and_nulls_read_as_the_values_they_are():
    # JSON has one number type: a validated body may say 1.0 for 1, and null for a default.
    doc = {
        "action": "buy",
        "patch_id": 1.0,
        "placement": {"row": 4.0, "col": 4, "rotation": None, "flipped": None},
    }
    assert move_from_json(doc) == Buy(1, Placement(4, 4, 0, False))
    assert move_from_json({"action": "place_leather", "row": 0.0, "col": 8.0}) == PlaceLeather(0, 8)
    cells_only = {"action": "buy", "patch_id": 1, "placement": {"row": None, "cells": [[4.0, 5], [4, 4]]}}
    assert move_from_json(cells_only) == Buy(1, Placement(cells=((4, 4), (4, 5))))


def test_members_beyond_the_form_are_ignored():
    entry = {"number": 3, "seat": 1, "action": "place_leather", "row": 1, "col": 2, "outcome": {}}
    assert move_from_json(entry) == PlaceLeather(1, 2)


@pytest.mark.parametrize("doc", [{}, {"action": "pass"}, {"action": None}])
def test_an_unknown_action_is_refused_by_name(doc):
    with pytest.raises(NotationError, match="is not advance, buy, place_leather, resign, timeout or abort"):
        move_from_json(doc)


def test_the_ends_a_clock_decides_read_back_from_their_history_entries():
    assert move_from_json({"number": 9, "seat": 1, "action": "timeout", "outcome": {}}) == Timeout()
    assert move_from_json({"number": 1, "seat": 0, "action": "abort", "outcome": {}}) == Abort()
    assert Timeout().to_json() == {"action": "timeout"} and Abort().to_json() == {"action": "abort"}

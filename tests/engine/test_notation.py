"""The ANU text form of moves (docs/rules.md#notation)."""

import re

import pytest

from service.engine import (
    Advance,
    Buy,
    NotationError,
    PlaceLeather,
    Placement,
    format_move,
    format_moves,
    legal_moves,
    new_game,
    parse_move,
    parse_moves,
)


@pytest.mark.parametrize(
    "text, move",
    [
        (".", Advance()),
        # The example of docs/rules.md#notation: patch 12 unturned, top-left on row 0, column 7
        ("LHAA", Buy(12, Placement(row=0, col=7, rotation=0, flipped=False))),
        ("aAIB", Buy(27, Placement(row=8, col=0, rotation=90, flipped=False))),
        ("gCDH", Buy(33, Placement(row=3, col=2, rotation=270, flipped=True))),
        ("ZIIE", Buy(26, Placement(row=8, col=8, rotation=0, flipped=True))),
        ("hBCA", PlaceLeather(row=2, col=1)),
    ],
)
def test_tokens(text, move):
    assert parse_move(text) == move
    assert format_move(move) == text


def test_leather_tokens_may_carry_any_orientation_letter():
    assert parse_move("hIIH") == PlaceLeather(8, 8)


def test_a_whole_game_string_splits_into_tokens():
    assert parse_moves("LHAA..hAAA") == [parse_move("LHAA"), Advance(), Advance(), PlaceLeather(0, 0)]
    assert format_moves(parse_moves("LHAA..hAAA")) == "LHAA..hAAA"


def test_a_cells_only_placement_is_written_in_its_canonical_orientation():
    # the 1x2 lying on (4, 4) and (4, 5): canonical rotation 90 -> letter B
    assert format_move(Buy(1, Placement(cells=[[4, 5], [4, 4]]))) == "AEEB"


def test_every_legal_move_round_trips():
    state = new_game(seed=11)
    for move in legal_moves(state):
        parsed = parse_move(format_move(move))
        if isinstance(move, Buy):
            p = move.placement
            assert parsed == Buy(move.patch_id, Placement(p.row, p.col, p.rotation, p.flipped))
        else:
            assert parsed == move


@pytest.mark.parametrize("text", ["", "..", "LHA", "LHAAA", "LJAA", "LHJA", "LHAI", "iAAA", "hAAZ", "!AAA"])
def test_bad_tokens_are_refused_by_name(text):
    with pytest.raises(NotationError, match=re.escape(repr(text))):
        parse_move(text)

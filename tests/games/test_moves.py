"""Moves judged and committed by the game-play core, with no HTTP: what is stored, and what is refused.

The positions are worked by hand from docs/rules.md (positions.py), not read
off the code under test.
"""

from __future__ import annotations

import json

import pytest

from service.engine import Advance, Resign
from service.games import (
    GameNotFound,
    GamePlay,
    IdempotencyKey,
    InvalidToken,
    MissingToken,
    RuleBroken,
    VersionCondition,
    VersionMismatch,
)
from service.storage import StoredView

from .positions import AFTER_ONE_ADVANCE, AFTER_TWO_ADVANCES, score


def players(view: str) -> dict:
    game = json.loads(view)
    return {
        "turn": game["turn"],
        "buttons": [player["buttons"] for player in game["players"]],
        "positions": [player["position"] for player in game["players"]],
    }


def if_match(version: int) -> VersionCondition:
    return VersionCondition(frozenset({str(version)}), "If-Match")


def test_a_new_game_is_stored_at_version_1_with_both_seats_at_the_start(play: GamePlay):
    created = play.create(("Ada", "Bo"), seed=3)
    stored = play.view(created.game_id)
    assert stored == StoredView(1, created.view)
    view = stored.view
    game = json.loads(view)
    assert (game["id"], game["version"], game["status"], game["seed"]) == (created.game_id, 1, "active", 3)
    assert [p["name"] for p in game["players"]] == ["Ada", "Bo"]
    assert players(view) == {"turn": 0, "buttons": [5, 5], "positions": [0, 0]}
    assert len(created.tokens) == 2 and created.tokens[0] != created.tokens[1]
    assert [play.seat_of(created.game_id, token) for token in created.tokens] == [0, 1]


def test_a_committed_move_is_read_back_in_the_game_and_its_history(play: GamePlay, other_process):
    created = play.create(("Ada", "Bo"), seed=3)
    committed = play.play(created.game_id, Advance(), created.tokens[0])
    assert (committed.version, committed.number) == (2, 1)
    # Read by a process that kept nothing: what the store holds.
    reader = other_process()
    view = reader.view(created.game_id).view
    assert reader.view(created.game_id) == StoredView(2, committed.view)
    assert players(view) == AFTER_ONE_ADVANCE
    assert reader.load(created.game_id).record.state.moves_played == 1
    history_version, entries = reader.history(created.game_id)
    assert history_version == 2
    assert [json.loads(entry) for entry in entries] == [
        {
            "number": 1,
            "seat": 0,
            "action": "advance",
            "outcome": {"buttons": 1, "income": 0, "from": 0, "to": 1, "leather_won": 0, "bonus": False},
        }
    ]


def test_a_past_version_is_rebuilt_as_it_was(play: GamePlay):
    created = play.create(("Ada", "Bo"), seed=5)
    play.play(created.game_id, Advance(), created.tokens[0])
    play.play(created.game_id, Advance(), created.tokens[1])
    current, first = play.view_at(created.game_id, 1)
    assert current == 3
    assert first == StoredView(1, created.view)
    _current, second = play.view_at(created.game_id, 2)
    assert players(second.view) == AFTER_ONE_ADVANCE
    assert players(play.view_at(created.game_id, 3)[1].view) == AFTER_TWO_ADVANCES


def test_a_move_on_a_stale_copy_is_refused_by_the_store_and_judged_again_on_the_stored_game(
    play: GamePlay, other_process
):
    created = play.create(("Ada", "Bo"), seed=3)
    stale = play.load(created.game_id)  # version 1: seat 0 in turn
    other_process().play(created.game_id, Advance(), created.tokens[0])  # version 2
    # Resigning is legal on both copies: the commit against version 1 is
    # refused, the move judged again on version 2 and stored after it.
    committed = play.play(created.game_id, Resign(), created.tokens[1], start=stale)
    assert committed.version == 3
    result = json.loads(committed.view)["result"]
    # The scores as they stood at version 2 (seat 0 had advanced once), the other seat the winner.
    assert result == {"scores": [score(6), score(5)], "winner": 0, "reason": "resigned"}
    assert len(play.history(created.game_id)[1]) == 2


def test_a_move_legal_on_a_stale_copy_but_not_on_the_stored_game_is_refused_on_the_stored_game(
    play: GamePlay, other_process
):
    created = play.create(("Ada", "Bo"), seed=3)
    stale = play.load(created.game_id)
    other_process().play(created.game_id, Advance(), created.tokens[0])
    # Seat 0 was in turn at version 1; at version 2 seat 1 is (behind on 0).
    with pytest.raises(RuleBroken) as refused:
        play.play(created.game_id, Advance(), created.tokens[0], start=stale)
    assert refused.value.code == "not_your_turn"
    assert refused.value.version == 2
    assert play.view(created.game_id).version == 2


def test_an_expected_version_the_game_is_not_at_is_refused_with_the_version_it_is_at(play: GamePlay):
    created = play.create(("Ada", "Bo"), seed=3)
    play.play(created.game_id, Advance(), created.tokens[0], condition=if_match(1))
    with pytest.raises(VersionMismatch) as refused:
        play.play(created.game_id, Advance(), created.tokens[1], condition=if_match(1))
    assert refused.value.code == "version_mismatch"
    assert refused.value.version == 2
    assert refused.value.detail == "The game is at version 2, which If-Match does not name."
    # Nothing was stored; naming the current version plays.
    assert play.view(created.game_id).version == 2
    assert play.play(created.game_id, Advance(), created.tokens[1], condition=if_match(2)).version == 3


def test_the_token_is_judged_before_the_expected_version_and_the_version_before_the_move(play: GamePlay):
    # docs/api-guide.md#order-of-checks: token, expected version, the move itself.
    created = play.create(("Ada", "Bo"), seed=3)
    with pytest.raises(InvalidToken):
        play.play(created.game_id, Advance(), "not-a-token", condition=if_match(7))
    with pytest.raises(MissingToken):
        play.play(created.game_id, Advance(), None, condition=if_match(7))
    # Seat 1 is not in turn, and the version is wrong too: the version is named.
    with pytest.raises(VersionMismatch):
        play.play(created.game_id, Advance(), created.tokens[1], condition=if_match(7))
    with pytest.raises(RuleBroken) as refused:
        play.play(created.game_id, Advance(), created.tokens[1], condition=if_match(1))
    assert (refused.value.code, refused.value.version) == ("not_your_turn", 1)


def test_a_resignation_ends_the_game_and_a_finished_game_refuses_every_move(play: GamePlay):
    created = play.create(("Ada", "Bo"), seed=3)
    # Either seat may resign, in its turn or not (docs/rules.md#resigning): seat 1 is not in turn.
    committed = play.play(created.game_id, Resign(), created.tokens[1])
    game = json.loads(committed.view)
    assert (game["status"], game["turn"]) == ("finished", None)
    assert game["result"] == {"scores": [score(5), score(5)], "winner": 0, "reason": "resigned"}
    for seat, move in ((0, Advance()), (0, Resign()), (1, Resign())):
        with pytest.raises(RuleBroken) as refused:
            play.play(created.game_id, move, created.tokens[seat])
        assert (refused.value.code, refused.value.version) == ("game_finished", 2)
    assert play.view(created.game_id).version == 2


def test_a_game_that_does_not_exist_is_not_found_whatever_its_id(play: GamePlay):
    never_made = "A" * 22
    unlike_any_id = "no}such{game"
    for game_id in (never_made, unlike_any_id):
        with pytest.raises(GameNotFound):
            play.play(game_id, Advance(), "token")
        with pytest.raises(GameNotFound):
            play.view(game_id)
        with pytest.raises(GameNotFound):
            play.play_keyed(game_id, Advance(), "token", IdempotencyKey("key", "fingerprint"))

"""Idempotency keys in the game-play core: claimed with the read, answered with the commit, replayed to retries.

The core claims a key in the same round trip as it reads the game, stores
the answer with the commit that made it, records the answer to a refusal of
the move, frees a key whose request ended without one, and hands a retry
the recorded answer (or says the key is in use, or was used for another
body). Turning a recorded answer into HTTP is the API's.
"""

from __future__ import annotations

import pytest

from service.engine import Advance
from service.games import (
    AcceptedAnswer,
    Committed,
    GamePlay,
    IdempotencyKey,
    IdempotencyKeyInUse,
    IdempotencyKeyReused,
    InvalidToken,
    RefusedAnswer,
    RuleBroken,
)
from service.storage import GameStore, StoredView

KEY = IdempotencyKey("key-1", "body-a")


def test_a_key_claimed_with_a_commit_holds_that_commits_answer_for_a_retry(play: GamePlay, other_process):
    created = play.create(("Ada", "Bo"), seed=3)
    committed = play.play_keyed(created.game_id, Advance(), created.tokens[0], KEY)
    assert isinstance(committed, Committed) and committed.version == 2
    # The retry (from any process) gets the answer of that commit, and the game is not moved again.
    again = other_process().play_keyed(created.game_id, Advance(), created.tokens[0], KEY)
    assert again == AcceptedAnswer(version=2, number=committed.number, view=committed.view)
    assert play.view(created.game_id) == StoredView(2, committed.view)


def test_the_same_key_with_another_body_is_refused_and_the_first_body_still_replays(play: GamePlay):
    created = play.create(("Ada", "Bo"), seed=3)
    committed = play.play_keyed(created.game_id, Advance(), created.tokens[0], KEY)
    with pytest.raises(IdempotencyKeyReused):
        play.play_keyed(created.game_id, Advance(), created.tokens[0], IdempotencyKey("key-1", "body-b"))
    # Unchanged by the refused retry: the first body still gets its answer.
    again = play.play_keyed(created.game_id, Advance(), created.tokens[0], KEY)
    assert isinstance(again, AcceptedAnswer) and isinstance(committed, Committed)
    assert again.version == committed.version


def test_a_stranger_retrying_a_key_learns_nothing_of_its_answer(play: GamePlay):
    created = play.create(("Ada", "Bo"), seed=3)
    play.play_keyed(created.game_id, Advance(), created.tokens[0], KEY)
    with pytest.raises(InvalidToken):
        play.play_keyed(created.game_id, Advance(), "not-a-seat-token", KEY)


def test_a_key_claimed_by_a_request_still_running_is_in_use_until_it_ends(play: GamePlay, store: GameStore):
    created = play.create(("Ada", "Bo"), seed=3)
    # Another request claimed the key and is still judging its move.
    store.load_for_move(created.game_id, KEY.key, KEY.fingerprint)
    with pytest.raises(IdempotencyKeyInUse):
        play.play_keyed(created.game_id, Advance(), created.tokens[0], KEY)
    store.release_key(created.game_id, KEY.key)
    # A request refused for its token records nothing and frees the key: it is claimed anew.
    with pytest.raises(InvalidToken):
        play.play_keyed(created.game_id, Advance(), "not-a-seat-token", KEY)
    committed = play.play_keyed(created.game_id, Advance(), created.tokens[0], KEY)
    assert isinstance(committed, Committed) and committed.version == 2


def test_a_refused_move_recorded_under_its_key_is_answered_the_same_and_the_game_is_unchanged(
    play: GamePlay, other_process
):
    created = play.create(("Ada", "Bo"), seed=3)
    # Seat 1 is not in turn at the start.
    with pytest.raises(RuleBroken) as refused:
        play.play_keyed(created.game_id, Advance(), created.tokens[1], KEY)
    assert (refused.value.code, refused.value.version) == ("not_your_turn", 1)
    again = other_process().play_keyed(created.game_id, Advance(), created.tokens[1], KEY)
    # not_your_turn is a 409 (docs/api-guide.md's error table).
    assert again == RefusedAnswer(status=409, code="not_your_turn", detail=refused.value.detail, version=1)
    assert play.view(created.game_id).version == 1


def test_keys_are_kept_per_game(play: GamePlay):
    first = play.create(("Ada", "Bo"), seed=3)
    second = play.create(("Cy", "Di"), seed=3)
    play.play_keyed(first.game_id, Advance(), first.tokens[0], KEY)
    committed = play.play_keyed(second.game_id, Advance(), second.tokens[0], KEY)
    assert isinstance(committed, Committed) and committed.version == 2

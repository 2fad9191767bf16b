"""Idempotency keys in the game-play core: claimed with the read, answered with the commit.

The core claims a key in the same round trip as it reads the game, stores
the answer with the commit that made it, records a refusal's answer for
retries and frees a key whose request ended without one. What the caller
does with what is under a key (replay it, refuse a different body, say it
is in use) is the API's; these tests show the core hands it what it needs.
"""

from __future__ import annotations

import pytest

from service.engine import Advance
from service.games import Committed, GamePlay, IdempotencyClaim, RuleBroken
from service.storage import IdempotencyRecord


def answer(committed: Committed) -> str:
    """The answer a caller records: whatever text it will replay (the API's is its 201)."""
    return f"created {committed.game_id} at version {committed.version}"


def test_a_key_claimed_with_a_commit_holds_that_commits_answer_for_a_retry(play: GamePlay, other_process):
    created = play.create(("Ada", "Bo"), seed=3)
    game, existing = play.claim(created.game_id, "key-1", "body-a")
    assert existing is None and game.version == 1
    claim = IdempotencyClaim("key-1", "body-a", answer)
    committed = play.play(created.game_id, Advance(), created.tokens[0], claim=claim, start=game)
    # The retry (from any process) finds the answer of that commit, and the game is not moved again.
    game, existing = other_process().claim(created.game_id, "key-1", "body-a")
    assert existing == IdempotencyRecord(
        in_progress=False, fingerprint="body-a", answer=f"created {created.game_id} at version 2"
    )
    assert game.version == committed.version == 2


def test_the_same_key_with_another_body_shows_the_first_bodys_fingerprint(play: GamePlay):
    created = play.create(("Ada", "Bo"), seed=3)
    game, _ = play.claim(created.game_id, "key-1", "body-a")
    play.play(
        created.game_id,
        Advance(),
        created.tokens[0],
        claim=IdempotencyClaim("key-1", "body-a", answer),
        start=game,
    )
    _game, existing = play.claim(created.game_id, "key-1", "body-b")
    # Unchanged by the second claim: the caller sees the key was used for another body.
    assert existing is not None
    assert (existing.fingerprint, existing.in_progress) == ("body-a", False)
    _game, again = play.claim(created.game_id, "key-1", "body-a")
    assert again == existing


def test_a_key_claimed_by_a_request_still_running_is_in_use_until_released(play: GamePlay, other_process):
    created = play.create(("Ada", "Bo"), seed=3)
    _game, first = play.claim(created.game_id, "key-1", "body-a")
    assert first is None
    second = other_process()
    _game, existing = second.claim(created.game_id, "key-1", "body-a")
    assert existing == IdempotencyRecord(in_progress=True, fingerprint="body-a", answer=None)
    # The first request ends without an answer (it failed): the key is free again, claimed anew.
    play.release(created.game_id, "key-1")
    _game, after_release = second.claim(created.game_id, "key-1", "body-a")
    assert after_release is None


def test_a_refused_move_recorded_under_its_key_is_answered_the_same_and_the_game_is_unchanged(
    play: GamePlay, other_process
):
    created = play.create(("Ada", "Bo"), seed=3)
    game, _ = play.claim(created.game_id, "key-1", "body-a")
    claim = IdempotencyClaim("key-1", "body-a", answer)
    # Seat 1 is not in turn at the start.
    with pytest.raises(RuleBroken) as refused:
        play.play(created.game_id, Advance(), created.tokens[1], claim=claim, start=game)
    assert (refused.value.code, refused.value.version) == ("not_your_turn", 1)
    play.record_refusal(created.game_id, "key-1", "body-a", "refused: not_your_turn at 1")
    game, existing = other_process().claim(created.game_id, "key-1", "body-a")
    assert existing == IdempotencyRecord(
        in_progress=False, fingerprint="body-a", answer="refused: not_your_turn at 1"
    )
    assert game.version == 1


def test_keys_are_kept_per_game(play: GamePlay):
    first = play.create(("Ada", "Bo"), seed=3)
    second = play.create(("Cy", "Di"), seed=3)
    game, _ = play.claim(first.game_id, "key-1", "body-a")
    play.play(
        first.game_id,
        Advance(),
        first.tokens[0],
        claim=IdempotencyClaim("key-1", "body-a", answer),
        start=game,
    )
    _game, existing = play.claim(second.game_id, "key-1", "body-a")
    assert existing is None

"""The storage tests' shorthand for GameStore calls that take a value: a commit, a recorded answer.

The tests write a commit as its parts in order (game, expected version,
state, view, history entry, and the idempotency key, fingerprint and answer
when one is recorded); these build the values the store takes.
"""

from __future__ import annotations

from service.storage import Commit, CommitResult, GameStore, IdempotencyAnswer, NewEvent


def commit(
    store: GameStore,
    game_id: str,
    version: int,
    state: str,
    view: str,
    move: str,
    key: str | None = None,
    fingerprint: str | None = None,
    answer: str | None = None,
    *,
    expected_revision: str | None = None,
    event: NewEvent | None = None,
) -> CommitResult:
    """store.commit_move of these parts (an answer needs the key and fingerprint)."""
    recorded = None
    if key is not None:
        assert fingerprint is not None and answer is not None, (
            "an answer is recorded with key and fingerprint"
        )
        recorded = IdempotencyAnswer(key, fingerprint, answer)
    return store.commit_move(
        Commit(
            game_id=game_id,
            version=version,
            revision=expected_revision,
            state=state,
            view=view,
            move=move,
            event=event,
            answer=recorded,
        )
    )


def record_answer(store: GameStore, game_id: str, key: str, fingerprint: str, answer: str) -> None:
    """store.record_answer of these parts."""
    store.record_answer(game_id, IdempotencyAnswer(key, fingerprint, answer))

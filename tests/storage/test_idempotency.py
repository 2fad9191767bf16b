"""Idempotency records: claim with the load, record with the commit or alone, replay, release, TTLs."""

from __future__ import annotations

from collections.abc import Callable

from redis import Redis

from service.storage import GameStore, IdempotencyRecord, StoredGame, open_store
from tests.support.store_calls import commit, record_answer

DAY_MS = 24 * 3600 * 1000
MARKER_MS = 30_000
RECORD = "patchwork:{g1}:idem:0:key"


def test_the_first_load_claims_the_key_with_an_in_progress_marker(store: GameStore, redis: Redis) -> None:
    store.create_game("g1", "s1", "v1")

    game, record = store.load_for_move("g1", "0:key", "fp-1")

    assert (game, record) == (StoredGame(1, "s1"), None)
    assert redis.get(RECORD) == "fp-1"
    assert 0 < redis.pttl(RECORD) <= MARKER_MS


def test_a_second_load_sees_the_claim_unchanged(store: GameStore, redis: Redis) -> None:
    store.create_game("g1", "s1", "v1")
    store.load_for_move("g1", "0:key", "fp-1")

    game, record = store.load_for_move("g1", "0:key", "fp-2")

    assert game == StoredGame(1, "s1")
    assert record == IdempotencyRecord(in_progress=True, fingerprint="fp-1", answer=None)
    assert redis.get(RECORD) == "fp-1"


def test_a_commit_records_the_answer_for_replay(store: GameStore, redis: Redis) -> None:
    store.create_game("g1", "s1", "v1")
    store.load_for_move("g1", "0:key", "fp-1")

    assert commit(store, "g1", 1, "s2", "v2", "m1", "0:key", "fp-1", "answer-201").committed
    game, record = store.load_for_move("g1", "0:key", "fp-1")

    assert game == StoredGame(2, "s2")
    assert record == IdempotencyRecord(in_progress=False, fingerprint="fp-1", answer="answer-201")
    # The default game lives 30 days: the record keeps its own 24 h cap.
    assert DAY_MS - 60_000 < redis.pttl(RECORD) <= DAY_MS


def test_a_refusal_is_recorded_without_touching_the_game(store: GameStore, redis: Redis) -> None:
    store.create_game("g1", "s1", "v1")
    store.load_for_move("g1", "0:key", "fp-1")

    record_answer(store, "g1", "0:key", "fp-1", "answer-409")

    assert store.load_for_move("g1", "0:key", "fp-1") == (
        StoredGame(1, "s1"),
        IdempotencyRecord(in_progress=False, fingerprint="fp-1", answer="answer-409"),
    )
    assert store.load_moves("g1") == (1, [])
    assert DAY_MS - 60_000 < redis.pttl(RECORD) <= DAY_MS


def test_the_first_recorded_answer_stays(store: GameStore) -> None:
    store.create_game("g1", "s1", "v1")
    record_answer(store, "g1", "0:key", "fp-1", "first")
    record_answer(store, "g1", "0:key", "fp-2", "second")

    _, record = store.load_for_move("g1", "0:key", "fp-3")

    assert record == IdempotencyRecord(in_progress=False, fingerprint="fp-1", answer="first")


def test_a_record_keeps_its_24_hours_under_a_short_lived_game(redis_url: str, redis: Redis) -> None:
    store = open_store(redis_url, ttl_seconds=600)
    try:
        store.create_game("g1", "s1", "v1")
        record_answer(store, "g1", "0:key", "fp-1", "answer-422")
        commit(store, "g1", 1, "s2", "v2", "m1", "0:other", "fp-2", "answer-201")

        # A game moved on keeps the promise for 24 h, past its first 10 minutes.
        for record in (RECORD, "patchwork:{g1}:idem:0:other"):
            assert DAY_MS - 60_000 < redis.pttl(record) <= DAY_MS
        assert 0 < redis.pttl("patchwork:{g1}:game") <= 600_000
    finally:
        store.close()


def test_a_record_is_never_replayed_once_its_game_is_gone(store: GameStore, redis: Redis) -> None:
    store.create_game("g1", "s1", "v1")
    record_answer(store, "g1", "0:key", "fp-1", "answer-409")
    redis.delete("patchwork:{g1}:game", "patchwork:{g1}:moves")  # as when the game expires

    assert store.load_for_move("g1", "0:key", "fp-1") == (None, None)
    record_answer(store, "g1", "0:new", "fp-1", "answer-409")
    assert not redis.exists("patchwork:{g1}:idem:0:new")


def commands_run(redis: Redis, action: Callable[[], object]) -> dict[str, int]:
    """How often Redis ran each command during `action`, those of Lua scripts included."""
    redis.config_resetstat()
    action()
    return {name: stats["calls"] for name, stats in redis.info("commandstats").items()}


def test_a_commit_costs_the_same_whatever_the_number_of_records(redis_url: str, redis: Redis) -> None:
    # Under 24 h of game TTL, records once had to follow every renewal of the game.
    store = open_store(redis_url, ttl_seconds=3600)
    try:
        store.create_game("g1", "s1", "v1")
        commit(store, "g1", 1, "s", "v", "m", "0:first", "fp", "201")  # loads the script
        first = commands_run(redis, lambda: commit(store, "g1", 2, "s", "v", "m", "0:a", "fp", "201"))
        for n in range(200):
            record_answer(store, "g1", f"0:refused-{n}", "fp", "answer-409")
            commit(store, "g1", 3 + n, "s", "v", "m", f"0:moved-{n}", "fp", "201")

        later = commands_run(redis, lambda: commit(store, "g1", 203, "s", "v", "m", "0:b", "fp", "201"))

        assert later == first
    finally:
        store.close()


def test_a_commit_does_not_stretch_a_record_past_24_hours(store: GameStore, redis: Redis) -> None:
    store.create_game("g1", "s1", "v1")
    record_answer(store, "g1", "0:key", "fp-1", "answer-409")
    redis.pexpire(RECORD, 5000)  # as if recorded nearly 24 h ago under a 30-day game

    commit(store, "g1", 1, "s2", "v2", "m1")

    assert 0 < redis.pttl(RECORD) <= 5000


def test_releasing_drops_the_marker_so_the_key_can_be_claimed_again(store: GameStore, redis: Redis) -> None:
    store.create_game("g1", "s1", "v1")
    store.load_for_move("g1", "0:key", "fp-1")

    store.release_key("g1", "0:key")

    assert not redis.exists(RECORD)
    assert store.load_for_move("g1", "0:key", "fp-2") == (StoredGame(1, "s1"), None)
    assert redis.get(RECORD) == "fp-2"


def test_releasing_keeps_a_recorded_answer(store: GameStore) -> None:
    store.create_game("g1", "s1", "v1")
    record_answer(store, "g1", "0:key", "fp-1", "answer-412")

    store.release_key("g1", "0:key")

    _, record = store.load_for_move("g1", "0:key", "fp-1")
    assert record == IdempotencyRecord(in_progress=False, fingerprint="fp-1", answer="answer-412")


def test_keys_are_independent_and_a_load_without_key_claims_nothing(store: GameStore, redis: Redis) -> None:
    store.create_game("g1", "s1", "v1")
    store.create_game("g2", "s1", "v1")
    record_answer(store, "g1", "0:key", "fp-1", "answer")

    assert store.load_for_move("g1", "1:key", "fp-1")[1] is None
    assert store.load_for_move("g2", "0:key", "fp-1")[1] is None
    assert store.load_for_move("g1", None, None) == (StoredGame(1, "s1"), None)
    assert sorted(redis.keys("*:idem:*")) == [
        "patchwork:{g1}:idem:0:key",
        "patchwork:{g1}:idem:1:key",
        "patchwork:{g2}:idem:0:key",
    ]


def test_a_record_is_one_string(store: GameStore, redis: Redis) -> None:
    store.create_game("g1", "s1", "v1")
    record_answer(store, "g1", "0:key", "fp-1", "answer-409")
    assert redis.get(RECORD) == "fp-1\nanswer-409"

"""The commit scripts hold a clocked commit's reckoned time to the store's own clock, on a real Redis.

The texts of a clocked commit are written for the time the process reckons
the store's clock to be (storage/store_time.py); the script refuses one
too far from its own ("skew"), and judges the game's deadline by the later
of the two times.
"""

from __future__ import annotations

from redis import Redis

from service.storage import (
    ClockCheck,
    ClockRefusal,
    ClockRefused,
    Commit,
    GameStore,
    IdempotencyAnswer,
    Stored,
)
from service.storage.store_time import TOLERANCE_MS


def store_ms(redis: Redis) -> int:
    seconds, micros = redis.time()
    return seconds * 1000 + micros // 1000


def clocked_commit(store: GameStore, game_id: str, check: ClockCheck):
    return store.commit_move(
        Commit(game_id=game_id, version=1, state="s2", view="v2", move="m1", clock=check)
    )


def test_a_creation_reckoned_too_far_from_the_stores_clock_is_refused_and_stores_nothing(
    store: GameStore, redis: Redis
):
    now = store_ms(redis)
    refused = store.create_game("g1", "s1", "v1", ClockCheck(now - 3 * TOLERANCE_MS, "", now + 60_000))
    assert isinstance(refused, ClockRefused) and refused.reason is ClockRefusal.SKEW
    assert refused.current is None and abs(refused.now_ms - now) < TOLERANCE_MS
    assert store.load_game("g1") is None
    created = store.create_game("g1", "s1", "v1", ClockCheck(now, "", now + 60_000))
    assert isinstance(created, Stored) and created.revision
    assert redis.hget("patchwork:{g1}:game", "deadline") == str(now + 60_000)


def test_a_move_reckoned_too_far_ahead_is_refused_and_changes_nothing(store: GameStore, redis: Redis):
    now = store_ms(redis)
    store.create_game("g1", "s1", "v1", ClockCheck(now, "", now + 60_000))
    refused = clocked_commit(store, "g1", ClockCheck(now + 3 * TOLERANCE_MS, "before", now + 90_000))
    assert isinstance(refused, ClockRefused) and refused.reason is ClockRefusal.SKEW
    assert refused.current is not None
    assert refused.current.version == 1 and refused.current.state == "s1"
    assert store.load_moves("g1") == (1, [])
    assert redis.hget("patchwork:{g1}:game", "deadline") == str(now + 60_000)


def test_a_move_counts_at_the_later_of_its_reckoning_and_the_stores_clock(store: GameStore, redis: Redis):
    now = store_ms(redis)
    store.create_game("g1", "s1", "v1", ClockCheck(now, "", now + 300))
    # Reckoned past the deadline (within the tolerance) while the store's clock is not there yet:
    # the texts were written for a time after it, so the move cannot stand.
    expired = clocked_commit(store, "g1", ClockCheck(now + 500, "before", now + 10_000))
    assert isinstance(expired, ClockRefused) and expired.reason is ClockRefusal.EXPIRED
    assert expired.current is not None
    # A timeout written for that time is not early by the same rule, and is stored.
    timeout = clocked_commit(store, "g1", ClockCheck(now + 500, "after", None))
    assert isinstance(timeout, Stored) and timeout.revision
    assert redis.hget("patchwork:{g1}:game", "deadline") is None


def test_a_timeout_before_the_deadline_by_both_clocks_is_early(store: GameStore, redis: Redis):
    now = store_ms(redis)
    store.create_game("g1", "s1", "v1", ClockCheck(now, "", now + 60_000))
    early = clocked_commit(store, "g1", ClockCheck(now, "after", None))
    assert isinstance(early, ClockRefused) and early.reason is ClockRefusal.EARLY
    assert early.current is not None
    assert store.load_moves("g1") == (1, [])


def test_the_scripts_tolerance_is_the_one_the_process_reckons_with(store: GameStore, redis: Redis):
    # The tolerance is written in lua/lib/clock.lua, not sent with each commit: a
    # reckoning a little inside store_time.TOLERANCE_MS is taken, one a little outside
    # it refused (the margins cover the round trips between reading the store's clock
    # and its check).
    now = store_ms(redis)
    store.create_game("g1", "s1", "v1", ClockCheck(now, "", now + 60_000))
    outside = clocked_commit(
        store, "g1", ClockCheck(store_ms(redis) + TOLERANCE_MS + 250, "before", now + 90_000)
    )
    assert isinstance(outside, ClockRefused) and outside.reason is ClockRefusal.SKEW
    inside = clocked_commit(
        store, "g1", ClockCheck(store_ms(redis) + TOLERANCE_MS - 250, "before", now + 90_000)
    )
    assert isinstance(inside, Stored) and inside.revision


def test_a_keyed_clocked_move_that_lowers_the_deadline_index_keeps_its_answer(store: GameStore, redis: Redis):
    # The most a commit sends: a record key and the index's shard both in KEYS, the record's
    # arguments after the clock's (lua/commit_move.lua tells the two keys apart by the hint).
    now = store_ms(redis)
    store.create_game("g1", "s1", "v1", ClockCheck(now, "", now + 60_000))
    stored = store.commit_move(
        Commit(
            game_id="g1",
            version=1,
            state="s2",
            view="v2",
            move="m1",
            clock=ClockCheck(now, "before", now + 30_000),
            answer=IdempotencyAnswer("k1", "fp", "the answer"),
            deadline_hint=now + 30_000,
        )
    )
    assert isinstance(stored, Stored) and stored.revision
    assert redis.hget("patchwork:{g1}:game", "deadline") == str(now + 30_000)
    assert redis.get("patchwork:{g1}:idem:k1") == "fp\nthe answer"
    shards = list(redis.scan_iter("patchwork:{deadlines:*"))
    assert any(redis.zscore(shard, "g1") == now + 30_000 for shard in shards), shards

"""The commit scripts hold a clocked commit's reckoned time to the store's own clock, on a real Redis.

The texts of a clocked commit are written for the time the process reckons
the store's clock to be (storage/store_time.py); the script refuses one
too far from its own ("skew"), and judges the game's deadline by the later
of the two times.
"""

from __future__ import annotations

from redis import Redis

from service.storage import ClockCheck, Commit, GameStore
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
    assert refused.clock_refused == "skew" and refused.revision is None
    assert refused.now_ms is not None and abs(refused.now_ms - now) < TOLERANCE_MS
    assert store.load_game("g1") is None
    created = store.create_game("g1", "s1", "v1", ClockCheck(now, "", now + 60_000))
    assert created.clock_refused is None and created.revision is not None
    assert redis.hget("patchwork:{g1}:game", "deadline") == str(now + 60_000)


def test_a_move_reckoned_too_far_ahead_is_refused_and_changes_nothing(store: GameStore, redis: Redis):
    now = store_ms(redis)
    store.create_game("g1", "s1", "v1", ClockCheck(now, "", now + 60_000))
    refused = clocked_commit(store, "g1", ClockCheck(now + 3 * TOLERANCE_MS, "before", now + 90_000))
    assert refused.clock_refused == "skew" and refused.current is not None
    assert refused.current.version == 1 and refused.current.state == "s1"
    assert store.load_moves("g1") == (1, [])
    assert redis.hget("patchwork:{g1}:game", "deadline") == str(now + 60_000)


def test_a_move_counts_at_the_later_of_its_reckoning_and_the_stores_clock(store: GameStore, redis: Redis):
    now = store_ms(redis)
    store.create_game("g1", "s1", "v1", ClockCheck(now, "", now + 300))
    # Reckoned past the deadline (within the tolerance) while the store's clock is not there yet:
    # the texts were written for a time after it, so the move cannot stand.
    expired = clocked_commit(store, "g1", ClockCheck(now + 500, "before", now + 10_000))
    assert expired.clock_refused == "expired" and expired.current is not None
    # A timeout written for that time is not early by the same rule, and is stored.
    timeout = clocked_commit(store, "g1", ClockCheck(now + 500, "after", None))
    assert timeout.clock_refused is None and timeout.revision is not None
    assert redis.hget("patchwork:{g1}:game", "deadline") is None


def test_a_timeout_before_the_deadline_by_both_clocks_is_early(store: GameStore, redis: Redis):
    now = store_ms(redis)
    store.create_game("g1", "s1", "v1", ClockCheck(now, "", now + 60_000))
    early = clocked_commit(store, "g1", ClockCheck(now, "after", None))
    assert early.clock_refused == "early" and early.current is not None
    assert store.load_moves("g1") == (1, [])

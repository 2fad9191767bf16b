"""A game read whole, its record kept with no TTL, and the game stored again from it (games/outlive.py's store side)."""

from __future__ import annotations

from redis import Redis

from service.storage import GameStore, StoredGame, StoredView, WholeGame
from tests.support.store_calls import commit

DEFAULT_TTL = 30 * 24 * 3600


def test_a_game_is_read_whole_with_its_history_and_clock_log(store: GameStore, redis: Redis) -> None:
    store.create_game("g1", "s1", "v1")
    assert commit(store, "g1", 1, "s2", "v2", "m1").committed
    redis.hset("patchwork:{g1}:game", "clock:2", "[1,2,3,null,null]")
    whole = store.load_whole("g1")
    assert whole == WholeGame(2, "s2", ("m1",), (None, "[1,2,3,null,null]"))
    assert whole is not None and whole.revision == redis.hget("patchwork:{g1}:game", "revision")
    assert store.load_whole("g2") is None


def test_a_record_is_kept_without_a_ttl_only_at_the_revision_it_was_made_from(
    store: GameStore, redis: Redis
) -> None:
    store.create_game("g1", "s1", "v1")
    first = store.load_whole("g1")
    assert first is not None and store.keep_record("g1", first.revision, "record 1")
    assert store.load_kept("g1") == "record 1"
    assert redis.ttl("patchwork:{g1}:kept") == -1
    assert commit(store, "g1", 1, "s2", "v2", "m1").committed
    # Made from the game before the commit: the record of the game after it is the one to keep.
    assert not store.keep_record("g1", first.revision, "stale")
    assert store.load_kept("g1") == "record 1"
    assert store.load_kept("g2") is None


def test_a_game_is_stored_again_whole_with_its_ttl_clock_log_and_change(
    store: GameStore, redis: Redis
) -> None:
    whole = WholeGame(3, "s3", ("m1", "m2"), ("[1]", None, "[3]"), changed_in_place=True)
    assert store.restore_game("g1", whole, "v3")
    assert store.load_game("g1") == StoredGame(3, "s3")
    assert store.load_view("g1") == StoredView(3, "v3", changed_in_place=True)
    assert store.load_moves("g1") == (3, ["m1", "m2"])
    assert [store.load_clock("g1", version) for version in (1, 2, 3)] == ["[1]", None, "[3]"]
    for key in ("patchwork:{g1}:game", "patchwork:{g1}:moves"):
        assert DEFAULT_TTL - 60 < redis.ttl(key) <= DEFAULT_TTL
    # Another process stored it first: nothing changes.
    assert not store.restore_game("g1", WholeGame(9, "s9", (), ()), "v9")
    assert store.load_game("g1") == StoredGame(3, "s3")

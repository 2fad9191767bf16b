"""Games: create, load, compare-and-set commits, history, TTLs and the key layout."""

from __future__ import annotations

import pytest
from redis import Redis
from redis.crc import key_slot

from service.storage import GameStore, Gone, NewEvent, StoredGame, StoredView, open_store
from tests.support.store_calls import commit, record_answer

from .contents import snapshot

DAY = 24 * 3600
DEFAULT_TTL = 30 * DAY


def test_a_created_game_loads_at_version_1(store: GameStore) -> None:
    store.create_game("g1", '{"state": 1}', '{"view": 1}')

    assert store.load_game("g1") == StoredGame(1, '{"state": 1}')
    assert store.load_view("g1") == StoredView(1, '{"view": 1}')
    assert store.load_moves("g1") == (1, [])
    assert store.load_for_move("g1", None, None) == (StoredGame(1, '{"state": 1}'), None)


def test_an_unknown_game_loads_as_none_and_leaves_no_trace(store: GameStore, redis: Redis) -> None:
    assert store.load_game("nope") is None
    assert store.load_view("nope") is None
    assert store.load_moves("nope") is None
    assert store.load_for_move("nope", "0:key", "fp") == (None, None)
    store.release_key("nope", "0:key")
    record_answer(store, "nope", "0:key", "fp", "answer")

    assert redis.keys("*") == []


def test_a_commit_at_the_stored_version_applies(store: GameStore) -> None:
    store.create_game("g1", "s1", "v1")

    assert commit(store, "g1", 1, "s2", "v2", "m1").committed
    assert commit(store, "g1", 2, "s3", "v3", "m2").committed

    assert store.load_game("g1") == StoredGame(3, "s3")
    assert store.load_view("g1") == StoredView(3, "v3")
    assert store.load_moves("g1") == (3, ["m1", "m2"])


def test_an_amended_view_is_marked_changed_in_place_until_the_next_commit(store: GameStore) -> None:
    # A join or a seat's new name replaces the body at its version: reads must not 304 it.
    store.create_game("g1", "s1", "v1")
    found = store.load_game("g1")
    assert found is not None
    assert store.amend("g1", 1, found.revision, "s1b", "v1b").committed

    assert store.load_view("g1") == StoredView(1, "v1b", changed_in_place=True)
    assert commit(store, "g1", 1, "s2", "v2", "m1").committed
    assert store.load_view("g1") == StoredView(2, "v2")


def test_a_commit_against_an_old_version_changes_nothing(store: GameStore, redis: Redis) -> None:
    store.create_game("g1", "s1", "v1")
    commit(store, "g1", 1, "s2", "v2", "m1")
    before = snapshot(redis)

    stale = commit(store, "g1", 1, "stale", "stale", "stale", "0:k", "fp", "answer")
    ahead = commit(store, "g1", 3, "ahead", "ahead", "ahead")

    assert snapshot(redis) == before
    current = store.load_game("g1")
    assert current == StoredGame(2, "s2")
    # The refusal carries the game as it is now, revision included.
    for refused in (stale, ahead):
        assert not refused.committed
        assert refused.current == current
        assert refused.current.revision == current.revision


def test_a_commit_on_a_missing_game_changes_nothing(store: GameStore, redis: Redis) -> None:
    result = commit(store, "gone", 1, "s", "v", "m", "0:k", "fp", "answer")

    assert not result.committed and isinstance(result, Gone)
    assert redis.keys("*") == []


def test_every_write_gives_the_game_a_new_revision(store: GameStore) -> None:
    store.create_game("g1", "s1", "v1")
    created = store.load_game("g1").revision
    result = commit(store, "g1", 1, "s2", "v2", "m1", expected_revision=created)

    assert result.committed
    assert len({created, result.revision}) == 2 and "" not in (created, result.revision)
    assert store.load_game("g1").revision == result.revision
    assert store.load_for_move("g1", "0:key", "fp")[0].revision == result.revision


def test_a_commit_at_the_right_version_but_another_revision_changes_nothing(
    store: GameStore, redis: Redis
) -> None:
    # A caller kept the game at version 2; then Redis lost that write and
    # other moves brought the game to version 2 again, in another state.
    store.create_game("g1", "s1", "v1")
    kept = commit(store, "g1", 1, "s2", "v2", "m1").revision
    redis.hset("patchwork:{g1}:game", mapping={"state": "other s2", "revision": "other"})
    before = snapshot(redis)

    result = commit(store, "g1", 2, "s3", "v3", "m2", expected_revision=kept)

    assert not result.committed
    assert result.current == StoredGame(2, "other s2") and result.current.revision == "other"
    assert snapshot(redis) == before


def test_a_renewed_revision_fences_commits_prepared_against_the_old_one(
    store: GameStore, redis: Redis
) -> None:
    # A web worker read the game at version 1 and is slow to commit; the bot
    # worker renews the revision, and that commit is refused whenever it comes.
    store.create_game("g1", "s1", "v1")
    late = store.load_game("g1")
    assert not store.renew_revision("g1", 2, late.revision)  # not at that version: nothing
    assert not store.renew_revision("g1", 1, "another")
    assert store.load_game("g1").revision == late.revision

    assert store.renew_revision("g1", 1, late.revision)

    renewed = store.load_game("g1")
    assert renewed == late and renewed.revision != late.revision  # only the revision changed
    refused = commit(store, "g1", 1, "s2", "v2", "m1", expected_revision=late.revision)
    assert not refused.committed and refused.current.revision == renewed.revision
    assert commit(store, "g1", 1, "s2", "v2", "m1", expected_revision=renewed.revision).committed
    assert not store.renew_revision("gone", 1, "")


def test_history_slices_follow_lrange_and_match_the_version(store: GameStore) -> None:
    store.create_game("g1", "s", "v")
    for version in range(1, 6):
        assert commit(store, "g1", version, f"s{version}", f"v{version}", f"m{version}").committed

    assert store.load_moves("g1") == (6, ["m1", "m2", "m3", "m4", "m5"])
    assert store.load_moves("g1", 1, 2) == (6, ["m2", "m3"])
    assert store.load_moves("g1", 4) == (6, ["m5"])
    assert store.load_moves("g1", -2, -1) == (6, ["m4", "m5"])
    assert store.load_moves("g1", 7) == (6, [])


def test_creating_over_a_live_game_is_refused(store: GameStore) -> None:
    store.create_game("g1", "s1", "v1")
    commit(store, "g1", 1, "s2", "v2", "m1")

    with pytest.raises(ValueError):
        store.create_game("g1", "other", "other")
    assert store.load_moves("g1") == (2, ["m1"])


def test_keys_carry_the_prefix_and_the_game_id_as_hash_tag(store: GameStore, redis: Redis) -> None:
    store.create_game("abc-123", "s1", "v1")
    commit(store, "abc-123", 1, "s2", "v2", "m1", "0:key", "fp", "answer")

    keys = set(redis.keys("*"))
    assert keys == {
        "patchwork:{abc-123}:game",
        "patchwork:{abc-123}:moves",
        "patchwork:{abc-123}:idem:0:key",
    }
    assert len({key_slot(key.encode()) for key in keys}) == 1
    game = redis.hgetall("patchwork:{abc-123}:game")
    assert game == {"version": "2", "revision": game["revision"], "state": "s2", "view": "v2"}
    assert redis.lrange("patchwork:{abc-123}:moves", 0, -1) == ["m1"]


def test_stores_with_other_prefixes_do_not_see_each_other(redis_url: str, redis: Redis) -> None:
    first = open_store(redis_url, prefix="one:")
    second = open_store(redis_url, prefix="two:")
    try:
        first.create_game("g1", "first", "first")
        assert second.load_game("g1") is None
        second.create_game("g1", "second", "second")
        assert first.load_game("g1") == StoredGame(1, "first")
        assert set(redis.keys("*")) == {"one:{g1}:game", "two:{g1}:game"}
    finally:
        first.close()
        second.close()


def test_a_prefix_with_braces_is_refused(redis_url: str) -> None:
    # A brace in the prefix would make Redis Cluster hash on it instead of the game id.
    with pytest.raises(ValueError):
        open_store(redis_url, prefix="a{b}:")


def test_a_new_game_expires_after_the_default_30_days(store: GameStore, redis: Redis) -> None:
    store.create_game("g1", "s", "v")

    assert DEFAULT_TTL - 60 < redis.ttl("patchwork:{g1}:game") <= DEFAULT_TTL


def test_a_commit_renews_the_ttl_of_the_game_and_its_history(redis_url: str, redis: Redis) -> None:
    store = open_store(redis_url, ttl_seconds=600)
    try:
        store.create_game("g1", "s", "v")
        commit(store, "g1", 1, "s", "v", "m1")
        # Stand-in for time passing: the keys are about to expire.
        redis.pexpire("patchwork:{g1}:game", 2000)
        redis.pexpire("patchwork:{g1}:moves", 2000)

        commit(store, "g1", 2, "s", "v", "m2")

        for key in ("patchwork:{g1}:game", "patchwork:{g1}:moves"):
            assert 590_000 < redis.pttl(key) <= 600_000
    finally:
        store.close()


def test_an_amend_with_an_offer_event_puts_it_between_two_versions_events(
    store: GameStore, redis: Redis
) -> None:
    # Issue 38: an offer keeps the version; its event follows the version's move, numbered from 1.
    store.create_game("g1", "s1", "v1")
    assert commit(store, "g1", 1, "s2", "v2", "m1", event=NewEvent("move 2")).committed
    found = store.load_game("g1")
    assert found is not None
    assert store.amend("g1", 2, found.revision, "s2b", "v2b", "offer a").committed
    found = store.load_game("g1")
    assert found is not None and found.version == 2
    assert store.amend("g1", 2, found.revision, "s2c", "v2c", "offer b").committed
    assert commit(store, "g1", 2, "s3", "v3", "m2", event=NewEvent("move 3")).committed
    events = store.load_events("g1", 1, 10)
    assert events is not None
    assert [(e.version, e.seq, e.data) for e in events.events] == [
        (2, 0, "move 2"),
        (2, 1, "offer a"),
        (2, 2, "offer b"),
        (3, 0, "move 3"),
    ]
    # Read on from an offer: what follows it.
    after = store.load_events("g1", 2, 10, after_seq=1)
    assert after is not None and [(e.version, e.seq) for e in after.events] == [(2, 2), (3, 0)]
    assert redis.pttl("patchwork:{g1}:events") > 0


def test_an_offer_event_drops_a_stream_that_holds_later_versions(store: GameStore, redis: Redis) -> None:
    # As a commit does (lua/commit_move.lua): events of versions the game no longer has describe nothing.
    store.create_game("g1", "s1", "v1")
    redis.xadd("patchwork:{g1}:events", {"data": "a lost move"}, id="5-0")
    found = store.load_game("g1")
    assert found is not None
    assert store.amend("g1", 1, found.revision, "s1b", "v1b", "offer").committed
    assert redis.xrange("patchwork:{g1}:events") == [("1-1", {"offer": "offer"})]
    assert redis.pttl("patchwork:{g1}:events") > 0


def test_an_offer_event_on_an_expired_stream_is_still_numbered_after_its_versions_move(
    store: GameStore, redis: Redis
) -> None:
    # A finished game's stream goes an hour after its end; a rematch offered later starts it again.
    store.create_game("g1", "s1", "v1")
    assert commit(store, "g1", 1, "s2", "v2", "m1", event=NewEvent("move 2", "the end")).committed
    redis.delete("patchwork:{g1}:events")
    found = store.load_game("g1")
    assert found is not None
    assert store.amend("g1", 2, found.revision, "s2b", "v2b", "offer").committed
    events = store.load_events("g1", 1, 10)
    assert events is not None and [(e.version, e.seq, e.data) for e in events.events] == [(2, 1, "offer")]
    # The stream holds no move of version 2 any more: a reader after version 1 must not trust it.
    assert events.oldest == 3 and not events.resumes_after(1) and events.resumes_after(2)

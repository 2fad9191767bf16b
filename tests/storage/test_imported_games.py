"""A game stored whole (GameStore.import_game): its version, history and TTLs in one step, as a played game has them."""

from __future__ import annotations

import pytest
from redis import Redis

from service.storage import GameStore, StoredGame, StoredView
from service.storage.store import GameExists
from tests.support.store_calls import commit

DEFAULT_TTL = 30 * 24 * 3600


def test_an_imported_game_loads_at_its_version_with_its_history(store: GameStore, redis: Redis) -> None:
    history = ["m1", '{"quoted": "\\"é\\""}', "m3"]
    store.import_game("g1", "s4", "v4", 4, history)

    assert store.load_game("g1") == StoredGame(4, "s4")
    assert store.load_view("g1") == StoredView(4, "v4")
    assert store.load_moves("g1") == (4, history)
    assert store.load_events("g1", 0, 10).events == []
    for key in ("patchwork:{g1}:game", "patchwork:{g1}:moves"):
        assert DEFAULT_TTL - 60 < redis.ttl(key) <= DEFAULT_TTL


def test_a_long_history_is_stored_whole(store: GameStore) -> None:
    # More entries than one RPUSH of the script takes (it pushes them in slices).
    history = [f"m{number}" for number in range(1, 2501)]
    store.import_game("g1", "s", "v", 2501, history)
    assert store.load_moves("g1") == (2501, history)


def test_an_import_under_a_living_games_id_changes_nothing(store: GameStore) -> None:
    store.create_game("g1", "s1", "v1")
    assert commit(store, "g1", 1, "s2", "v2", "m1").committed
    with pytest.raises(GameExists):
        store.import_game("g1", "s9", "v9", 9, ["x"] * 8)
    assert store.load_game("g1") == StoredGame(2, "s2")
    assert store.load_moves("g1") == (2, ["m1"])


def test_a_history_left_by_an_expired_game_of_the_same_id_is_not_inherited(
    store: GameStore, redis: Redis
) -> None:
    redis.rpush("patchwork:{g1}:moves", "old")
    store.import_game("g1", "s", "v", 2, ["new"])
    assert store.load_moves("g1") == (2, ["new"])

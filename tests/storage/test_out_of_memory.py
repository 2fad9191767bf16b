"""A Redis at maxmemory with noeviction: every write is refused whole, reads go on.

Redis checks a script for memory only at its first write command, so a
script that began with a DEL used to write past the limit. Each test here
fills the real server (or sets its limit below what it holds) and checks
that the write raised StorageError and changed nothing.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from redis import Redis

from service.storage import GameStore, IdempotencyRecord, Storage, StorageError, StoredGame, StoredView
from tests.support.store_calls import commit, record_answer

from .contents import snapshot


@pytest.fixture
def full(redis: Redis) -> Iterator[Redis]:
    """Call full() once the data is in: from then on the server holds more than maxmemory."""

    def fill() -> None:
        redis.config_set("maxmemory-policy", "noeviction")
        redis.config_set("maxmemory", 1)

    try:
        yield fill
    finally:
        redis.config_set("maxmemory", 0)  # the session server is shared with other tests


def test_creating_games_stops_with_a_storage_error_once_redis_is_full(store: GameStore, redis: Redis) -> None:
    store.create_game("warm-up", "s", "v")  # scripts loaded, connection made
    used = int(redis.info("memory")["used_memory"])
    redis.config_set("maxmemory-policy", "noeviction")
    redis.config_set("maxmemory", used + 500_000)
    try:
        state = "s" * 10_000
        with pytest.raises(StorageError, match="maxmemory"):
            for number in range(1000):  # 10 MB: far past the limit
                store.create_game(f"g{number}", state, "v")
        refused = f"g{number}"
        assert not redis.exists(f"patchwork:{{{refused}}}:game")
        assert store.load_game("g0") == StoredGame(1, state)
    finally:
        redis.config_set("maxmemory", 0)
    assert number > 10  # it did fill up: the limit was not already reached at the start


@pytest.fixture
def game(storage: Storage) -> str:
    """A game with one move, a recorded refusal and a recorded 201."""
    store = storage.games
    store.create_game("g1", "s1", "v1")
    commit(store, "g1", 1, "s2", "v2", "m1", "0:moved", "fp", "answer-201")
    record_answer(store, "g1", "0:refused", "fp", "answer-409")
    storage.requests.count("moves:client", 60)
    store.load_for_move("g1", "0:warm-up", "fp")  # every script loaded
    return "g1"


WRITES = {
    "create": lambda storage: storage.games.create_game("g2", "s1", "v1"),
    "import": lambda storage: storage.games.import_game("g3", "s3", "v3", 3, ["m1", "m2"]),
    "claim a key": lambda storage: storage.games.load_for_move("g1", "0:new", "fp"),
    "commit": lambda storage: commit(storage.games, "g1", 2, "s3", "v3", "m2"),
    "commit with a key": lambda storage: commit(storage.games, "g1", 2, "s3", "v3", "m2", "0:new", "fp", "a"),
    "record a refusal": lambda storage: record_answer(storage.games, "g1", "0:new", "fp", "answer-422"),
    "count a request": lambda storage: storage.requests.count("moves:client", 60),
    "count a new client": lambda storage: storage.requests.count("moves:other", 60),
}


@pytest.mark.parametrize("write", WRITES.values(), ids=WRITES.keys())
def test_every_write_is_refused_whole(storage: Storage, redis: Redis, game: str, full, write) -> None:
    before = snapshot(redis)
    full()

    with pytest.raises(StorageError, match="maxmemory"):
        write(storage)

    assert snapshot(redis) == before


def test_reads_replays_and_releases_go_on(store: GameStore, redis: Redis, game: str, full) -> None:
    full()

    assert store.load_game(game) == StoredGame(2, "s2", store.load_game(game).revision)
    assert store.load_view(game) == StoredView(2, "v2")
    assert store.load_moves(game) == (2, ["m1"])
    assert store.load_for_move(game, "0:refused", "fp")[1] == IdempotencyRecord(False, "fp", "answer-409")
    assert store.load_for_move(game, "0:moved", "fp")[1] == IdempotencyRecord(False, "fp", "answer-201")
    store.release_key(game, "0:warm-up")  # frees memory: allowed
    assert not redis.exists("patchwork:{g1}:idem:0:warm-up")
    store.ping()

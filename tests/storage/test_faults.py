"""Redis refusing or hanging: every operation fails fast with StorageError, then the same store recovers."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from service.storage import GameStore, StorageError, StoredGame, open_store
from tests.support.redis_servers import ThrowawayRedis
from tests.support.store_calls import commit, record_answer

# docs/api-guide.md#errors: a request whose store does not answer gets its 503 within 2 s.
API_DEADLINE = 2.5  # the 2 s contract, plus slack for a busy 2-core machine


def every_operation(store: GameStore) -> dict[str, Callable[[], object]]:
    """One call of each operation of the store, on game g1."""
    return {
        "create_game": lambda: store.create_game("g2", "s", "v"),
        "load_game": lambda: store.load_game("g1"),
        "load_view": lambda: store.load_view("g1"),
        "load_for_move": lambda: store.load_for_move("g1", "0:key", "fp"),
        "commit_move": lambda: commit(store, "g1", 1, "s2", "v2", "m1", "0:key", "fp", "a"),
        "record_answer": lambda: record_answer(store, "g1", "0:key", "fp", "a"),
        "release_key": lambda: store.release_key("g1", "0:key"),
        "load_moves": lambda: store.load_moves("g1"),
        "ping": store.ping,
    }


def test_a_stopped_redis_raises_storage_error_and_the_store_recovers(
    redis_server: ThrowawayRedis, redis_url: str
) -> None:
    store = open_store(redis_url)
    store.create_game("g1", "s", "v")
    redis_server.stop()
    try:
        fresh = open_store(redis_url)  # opening needs no answer from Redis
        for call in [*every_operation(store).values(), *every_operation(fresh).values()]:
            with pytest.raises(StorageError):
                call()
    finally:
        redis_server.start()

    # The same store objects serve again; this server keeps nothing across a restart.
    assert store.load_game("g1") is None
    store.create_game("g1", "s", "v")
    assert commit(store, "g1", 1, "s2", "v2", "m1").committed
    assert fresh.load_moves("g1") == (2, ["m1"])
    store.close()
    fresh.close()


def test_a_hung_redis_raises_storage_error_within_the_deadline_and_the_store_recovers(
    tmp_path: Path,
) -> None:
    # The with-block stops the server even when an assertion fails half-way.
    with ThrowawayRedis(tmp_path / "hung") as server:
        store = open_store(server.url)  # the default 1 s timeouts
        store.create_game("g1", "s", "v")
        cold = open_store(server.url)  # no connection made yet
        calls = {**every_operation(store), **{f"cold {n}": c for n, c in every_operation(cold).items()}}
        outcomes: dict[str, tuple[float, Exception | None]] = {}

        def run(name: str, call: Callable[[], object]) -> None:
            began = time.monotonic()
            try:
                call()
            except Exception as error:  # whatever it is, the assertions below report it
                outcomes[name] = (time.monotonic() - began, error)
            else:
                outcomes[name] = (time.monotonic() - began, None)

        pid = server.pid
        assert pid is not None
        os.kill(pid, signal.SIGSTOP)
        try:
            # All at once, each on its own connection, so the test waits one timeout, not nine.
            threads = [threading.Thread(target=run, args=item) for item in calls.items()]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=10)  # a hang must fail the test, not stall the suite
        finally:
            os.kill(pid, signal.SIGCONT)

        assert sorted(outcomes) == sorted(calls)
        for name, (elapsed, error) in outcomes.items():
            assert isinstance(error, StorageError), (name, error)
            assert elapsed < API_DEADLINE, (name, elapsed)

        try:
            store.ping()
            cold.ping()
            # A commit sent while Redis hung may still have run once it woke up.
            assert store.load_game("g1") in (StoredGame(1, "s"), StoredGame(2, "s2"))
            version, moves = store.load_moves("g1") or (0, [])
            assert len(moves) == version - 1
            assert commit(cold, "g1", version, "s3", "v3", "m").committed
        finally:
            store.close()
            cold.close()

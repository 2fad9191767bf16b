"""The store's bounded pool of Redis connections: never more than max_connections, and waiting has an end."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest
from redis import Redis

from service.storage import StorageError, StoreBusy, open_store
from tests.support.concurrency import run_together
from tests.support.redis_servers import ThrowawayRedis

# A borrower waits half the 1 s timeout for a free connection; slack for a busy machine.
GIVE_UP_BOUND = 2.5


def store_connections(redis: Redis) -> int:
    """Clients of the server other than `redis` itself."""
    return len(redis.client_list()) - 1


def test_many_concurrent_callers_share_at_most_max_connections(tmp_path: Path) -> None:
    # A server of its own: no other test's connections in its client list.
    with ThrowawayRedis(tmp_path / "own") as server, server.client() as redis:
        concurrent_callers_share(redis, server.url)


def concurrent_callers_share(redis: Redis, url: str) -> None:
    # What is tested is the bound on connections, not how long a borrower waits: a
    # longer timeout (a borrower waits half of it) keeps a busy machine, whose
    # threads can each wait long for the GIL, from failing it with StoreBusy.
    store = open_store(url, max_connections=3, timeout=5.0)
    store.create_game("g1", "s", "v")
    failures: list[BaseException] = []
    most = 0

    def call_many() -> None:
        try:
            for _ in range(100):
                assert store.load_game("g1").version == 1
        except BaseException as error:
            failures.append(error)

    callers = [threading.Thread(target=call_many) for _ in range(16)]
    for caller in callers:
        caller.start()
    while any(caller.is_alive() for caller in callers):
        most = max(most, store_connections(redis))
        time.sleep(0.005)
    for caller in callers:
        caller.join()
    assert failures == []
    assert 1 <= store_connections(redis) <= 3 and most <= 3
    store.close()


def test_a_caller_with_no_free_connection_gives_up_with_storage_error(tmp_path: Path) -> None:
    with ThrowawayRedis(tmp_path / "hung") as server:
        store = open_store(server.url, max_connections=1)
        store.create_game("g1", "s", "v")
        outcomes: dict[str, tuple[float, BaseException | None]] = {}

        def call(name: str) -> None:
            began = time.monotonic()
            try:
                store.load_game("g1")
            except BaseException as error:
                outcomes[name] = (time.monotonic() - began, error)
            else:
                outcomes[name] = (time.monotonic() - began, None)

        os.kill(server.pid, signal.SIGSTOP)
        try:
            holder = threading.Thread(target=call, args=("holder",))
            holder.start()
            time.sleep(0.1)  # the holder has the only connection, waiting on the hung Redis
            waiter = threading.Thread(target=call, args=("waiter",))
            waiter.start()
            holder.join()
            waiter.join()
        finally:
            os.kill(server.pid, signal.SIGCONT)
        for name, (took, error) in outcomes.items():
            # Redis, not this process, kept the connection: a store failure, not overload.
            assert isinstance(error, StorageError) and not isinstance(error, StoreBusy), (name, error)
            assert took < GIVE_UP_BOUND, (name, took)
        # The connection came back (dropped by its timeout, reconnecting on use).
        assert store.load_game("g1").version == 1
        store.close()


def test_a_failed_connect_frees_its_place(redis_server: ThrowawayRedis, redis_url: str) -> None:
    store = open_store(redis_url, max_connections=1)
    redis_server.stop()
    try:
        for _ in range(3):  # would wait for a place that is never freed, had the first kept it
            with pytest.raises(StorageError):
                store.load_game("g1")
    finally:
        redis_server.start()
    assert store.load_game("g1") is None
    store.close()


def fill_pool(store, redis: Redis, at_least: int) -> None:
    """Concurrent callers until the store holds `at_least` connections to the server."""
    deadline = time.monotonic() + 20
    while store_connections(redis) < at_least:
        assert time.monotonic() < deadline, f"the pool never opened {at_least} connections"
        run_together(16, lambda _n: [store.load_game("g1") for _ in range(20)])


def test_no_command_fails_on_a_connection_made_before_redis_restarted(tmp_path: Path) -> None:
    with ThrowawayRedis(tmp_path / "own") as server:
        store = open_store(server.url, max_connections=8)
        store.create_game("g1", "s", "v")
        with server.client() as redis:
            fill_pool(store, redis, 6)
        server.stop()
        server.start()  # the same port; this server kept nothing
        # Every pooled socket is one the old server closed: none may fail a caller.
        found = run_together(16, lambda _n: [store.load_game("g1") for _ in range(5)])
        assert found == [[None] * 5] * 16
        store.close()


def test_after_a_connection_fails_the_connections_made_before_are_not_used_again(tmp_path: Path) -> None:
    # Redis hung, so no socket is closed: a Redis host gone silent looks the
    # same. The first timeout must spare the other callers one each.
    with ThrowawayRedis(tmp_path / "own") as server, server.client() as redis:
        store = open_store(server.url, max_connections=8)
        store.create_game("g1", "s", "v")
        fill_pool(store, redis, 6)
        before = {client["addr"] for client in redis.client_list()}
        os.kill(server.pid, signal.SIGSTOP)
        try:
            with pytest.raises(StorageError):
                store.load_game("g1")  # times out on one pooled connection
        finally:
            os.kill(server.pid, signal.SIGCONT)
        with redis.monitor() as monitor:
            run_together(16, lambda _n: [store.load_game("g1") for _ in range(5)])
            redis.echo("end of the loads")
            senders = set()
            while "end of the loads" not in (command := monitor.next_command())["command"]:
                senders.add(f"{command['client_address']}:{command['client_port']}")
        assert senders and not senders & before, "a connection made before the failure was used again"
        store.close()


# Keeps Redis busy for 80 ms of its own time, as a loaded machine slows it:
# every other client's command waits, none is dropped.
BUSY_REDIS = """
local began = redis.call('TIME')
while true do
    local now = redis.call('TIME')
    if (now[1] - began[1]) * 1000000 + (now[2] - began[2]) > 80000 then return 1 end
end
"""


def test_callers_queued_behind_a_slow_but_answering_redis_are_told_overloaded(tmp_path: Path) -> None:
    # One connection and 16 callers: the last ones wait longer than a borrower
    # may (half the 1 s timeout) while commands go on ending before them. That
    # is this process having more to do than its connections carry, so the
    # API answers `503 overloaded`, not a store failure.
    with ThrowawayRedis(tmp_path / "slow") as server, server.client() as redis:
        store = open_store(server.url, max_connections=1, timeout=1.0)
        store.create_game("g1", "s", "v")
        slowing = threading.Event()

        def slow_redis() -> None:
            while not slowing.is_set():
                redis.eval(BUSY_REDIS, 0)

        slower = threading.Thread(target=slow_redis)
        slower.start()
        try:
            outcomes = run_together(16, lambda _n: _load_or_error(store))
        finally:
            slowing.set()
            slower.join()
        errors = [outcome for outcome in outcomes if isinstance(outcome, BaseException)]
        assert errors, "every caller got a connection in time: the queue was too short to test"
        assert all(isinstance(error, StoreBusy) for error in errors), errors
        assert len(errors) < len(outcomes)  # Redis answered the first ones
        store.close()


def _load_or_error(store) -> object:
    try:
        return store.load_game("g1")
    except StorageError as error:
        return error

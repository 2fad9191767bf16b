"""The same store on a real 3-master Redis Cluster: every game's keys in one slot, games spread over masters."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from prometheus_client import REGISTRY

from service.storage import (
    GameStore,
    IdempotencyRecord,
    StorageError,
    StoreBusy,
    StoredGame,
    StoredView,
    open_store,
)
from tests.support.concurrency import run_together
from tests.support.redis_cluster import ThrowawayCluster
from tests.support.redis_servers import ThrowawayRedis
from tests.support.store_calls import commit, record_answer

GAMES = [f"game-{number}" for number in range(12)]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThrowawayCluster]:
    with ThrowawayCluster(tmp_path_factory.mktemp("cluster")) as started:
        yield started


@pytest.fixture
def cluster_store(cluster: ThrowawayCluster) -> Iterator[GameStore]:
    store = open_store(cluster.url, cluster=True)
    yield store
    store.close()


def keys_of(game_id: str) -> set[str]:
    """The keys that play_through_every_operation leaves for a game."""
    return {f"patchwork:{{{game_id}}}:{suffix}" for suffix in ("game", "moves", "idem:0:key", "idem:1:key")}


def play_through_every_operation(store: GameStore, game_id: str) -> None:
    store.create_game(game_id, "s1", "v1")
    assert store.load_for_move(game_id, "0:key", "fp") == (StoredGame(1, "s1"), None)
    assert commit(store, game_id, 1, "s2", "v2", "m1", "0:key", "fp", "answer-201").committed
    assert not commit(store, game_id, 1, "stale", "stale", "stale").committed
    store.load_for_move(game_id, "1:key", "fp")
    store.release_key(game_id, "1:key")
    record_answer(store, game_id, "1:key", "fp", "answer-409")
    assert store.load_for_move(game_id, "1:key", "fp")[1] == IdempotencyRecord(False, "fp", "answer-409")
    assert store.load_for_move(game_id, "0:key", "fp")[1] == IdempotencyRecord(False, "fp", "answer-201")
    assert store.load_game(game_id) == StoredGame(2, "s2")
    assert store.load_view(game_id) == StoredView(2, "v2")
    assert store.load_moves(game_id) == (2, ["m1"])


def test_every_operation_works_with_games_spread_over_the_masters(
    cluster: ThrowawayCluster, cluster_store: GameStore
) -> None:
    cluster_store.ping()
    for game_id in GAMES:
        play_through_every_operation(cluster_store, game_id)

    games_by_node = []
    for node in cluster.nodes:
        with node.client() as client:
            keys = set(client.keys("patchwork:*"))
        games = {key.split("{")[1].split("}")[0] for key in keys}
        # A game's keys all live on the node that owns its hash tag's slot.
        assert keys == {key for game in games for key in keys_of(game)}
        games_by_node.append(games)
    assert all(games_by_node), "every master holds some of the games"
    assert sorted(game for games in games_by_node for game in games) == sorted(GAMES)


def test_a_move_on_a_slot_in_migration_waits_for_the_slot_instead_of_failing(
    cluster: ThrowawayCluster,
) -> None:
    """A commit whose keys are split between two masters (TRYAGAIN) goes through once the slot has moved.

    The slot is left half migrated until the nodes have refused the commit
    more often than redis-py alone would try (16 tries within about 0.4 s;
    Redis 7's source answers TRYAGAIN itself, 6.2's sends ASK and the target
    answers TRYAGAIN), and only then is it handed over.
    """
    store = open_store(cluster.url, cluster=True, timeout=4.0)  # 2 s of patience for refusals
    try:
        game_id = "migrating"
        store.create_game(game_id, "s1", "v1")
        assert commit(store, game_id, 1, "s2", "v2", "m1").committed
        slot = cluster.slot_of(game_id)
        source = cluster.owner_of(slot)
        target = next(node for node in cluster.masters() if node is not source)
        source_id, target_id = cluster.node_id(source), cluster.node_id(target)
        with source.client() as at_source, target.client() as at_target:
            at_target.execute_command("CLUSTER", "SETSLOT", slot, "IMPORTING", source_id)
            at_source.execute_command("CLUSTER", "SETSLOT", slot, "MIGRATING", target_id)
            game_key = f"patchwork:{{{game_id}}}:game"
            at_source.execute_command("MIGRATE", target.host, target.port, "", 0, 5000, "KEYS", game_key)
            refused_before = tryagains(cluster, source, target)
            with ThreadPoolExecutor(max_workers=1) as mover:
                committing = mover.submit(commit, store, game_id, 2, "s3", "v3", "m2", "0:key", "fp", "201")
                ThrowawayCluster.wait_until(
                    lambda: tryagains(cluster, source, target) - refused_before > 16 or committing.done(),
                    "the commit refused more than redis-py alone would try",
                )
                cluster.move_slots([slot], source, target)
                assert committing.result().committed
        assert store.load_moves(game_id) == (3, ["m1", "m2"])
        assert cluster.owner_of(slot) is target
    finally:
        store.close()


def tryagains(cluster: ThrowawayCluster, *nodes: ThrowawayRedis) -> int:
    """How many TRYAGAIN these nodes answered so far."""
    return sum(cluster.error_counts(node).get("TRYAGAIN", 0) for node in nodes)


def test_no_command_fails_on_a_pooled_connection_after_a_node_restarts(tmp_path) -> None:
    # redis-py's cluster client looks at each connection as it lends it and
    # reconnects one the node closed, so a restart costs no request (its
    # standalone twin: tests/storage/test_connection_pool.py). A cluster of
    # its own: the restarted node forgets its keys.
    with ThrowawayCluster(tmp_path / "cluster") as own:
        store = open_store(own.url, cluster=True, max_connections=16)
        for game_id in GAMES:
            store.create_game(game_id, "s", "v")
        run_together(16, lambda n: [store.load_game(GAMES[(n + k) % len(GAMES)]) for k in range(40)])
        for node in own.nodes:
            os.kill(node.pid, signal.SIGKILL)
            while node.running:
                time.sleep(0.01)
            node.start()  # the same port; its nodes.conf keeps its slots
        own.wait_until_settled()
        failures: list[BaseException] = []

        def read(n: int) -> None:
            for k in range(10):
                try:
                    store.load_game(GAMES[(n + k) % len(GAMES)])
                except StorageError as error:
                    failures.append(error)

        run_together(16, read)
        assert failures == []
        store.close()


def load_game_errors() -> float:
    """This process's count of failed load_game store calls (no multiprocess directory in tests)."""
    found = REGISTRY.get_sample_value("patchwork_store_errors_total", {"operation": "load_game"})
    return found or 0.0


def test_a_node_pool_all_lent_out_is_this_process_busy_not_a_store_error(cluster: ThrowawayCluster) -> None:
    # A cluster node's pool refuses at once past max_connections: Redis answers the calls in hand.
    store = open_store(cluster.url, cluster=True, max_connections=1)
    store.create_game("busy", "s", "v")
    errors_before = load_game_errors()
    failures: list[BaseException] = []

    def read(_n: int) -> None:
        for _ in range(50):
            try:
                store.load_game("busy")
            except StorageError as error:
                failures.append(error)

    run_together(8, read)
    assert failures, "eight callers never needed two connections at once"
    assert all(isinstance(error, StoreBusy) for error in failures), {type(e).__name__ for e in failures}
    assert load_game_errors() == errors_before
    store.close()

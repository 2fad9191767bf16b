"""The same store on a real 3-master Redis Cluster: every game's keys in one slot, games spread over masters."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from service.storage import GameStore, IdempotencyRecord, StoredGame, open_store
from tests.redis_cluster import ThrowawayCluster

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
    assert store.commit_move(game_id, 1, "s2", "v2", "m1", "0:key", "fp", "answer-201").committed
    assert not store.commit_move(game_id, 1, "stale", "stale", "stale").committed
    store.load_for_move(game_id, "1:key", "fp")
    store.release_key(game_id, "1:key")
    store.record_answer(game_id, "1:key", "fp", "answer-409")
    assert store.load_for_move(game_id, "1:key", "fp")[1] == IdempotencyRecord(False, "fp", "answer-409")
    assert store.load_for_move(game_id, "0:key", "fp")[1] == IdempotencyRecord(False, "fp", "answer-201")
    assert store.load_game(game_id) == StoredGame(2, "s2")
    assert store.load_view(game_id) == (2, "v2")
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

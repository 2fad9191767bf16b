"""Shared fixtures: one throwaway redis-server and (on demand) one 3-master cluster for the whole session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from redis import Redis

from tests.support.backends import Backend
from tests.support.redis_cluster import ThrowawayCluster
from tests.support.redis_servers import ThrowawayRedis


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThrowawayRedis]:
    """A redis-server on a free loopback port, no persistence; `.stop()`/`.start()` for fault tests."""
    with ThrowawayRedis(tmp_path_factory.mktemp("redis")) as server:
        yield server


@pytest.fixture
def redis_url(redis_server: ThrowawayRedis) -> str:
    """The session server's URL, its data flushed before the test."""
    # A fault test that failed half-way may have left it stopped.
    redis_server.start()
    with redis_server.client() as client:
        client.flushall()
    return redis_server.url


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThrowawayCluster]:
    """A 3-master cluster on loopback, started once and only if a [cluster] test runs."""
    with ThrowawayCluster(tmp_path_factory.mktemp("cluster")) as cluster:
        yield cluster


@pytest.fixture(scope="session")
def cluster_nodes(redis_cluster: ThrowawayCluster) -> Iterator[tuple[Redis, ...]]:
    nodes = tuple(node.client() for node in redis_cluster.nodes)
    yield nodes
    for node in nodes:
        node.close()


@pytest.fixture(params=["single", "cluster"])
def backend(request: pytest.FixtureRequest) -> Iterator[Backend]:
    """Each backend in turn, emptied before the test."""
    if request.param == "single":
        server = request.getfixturevalue("redis_server")
        url = request.getfixturevalue("redis_url")  # restarted if stopped, and flushed
        with server.client() as node:
            yield Backend("single", url, False, (node,))
        return
    cluster = request.getfixturevalue("redis_cluster")
    nodes = request.getfixturevalue("cluster_nodes")
    for node in nodes:
        node.flushall()
    yield Backend("cluster", cluster.url, True, nodes)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--run-slow",
        action="store_true",
        default=False,
        help="also run long fuzzing and soak tests (marked slow)",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # Long runs are opt-in: deselected (not skipped) so a normal run reports
    # only tests that ran.
    if config.getoption("--run-slow"):
        return
    slow = [item for item in items if item.get_closest_marker("slow")]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if not item.get_closest_marker("slow")]

"""Shared fixtures: one throwaway redis-server for the whole session, flushed per test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.redis_servers import ThrowawayRedis


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

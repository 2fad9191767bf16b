"""Fixtures for the API tests: an app on real Redis, and a client whose every
response is checked against openapi.yaml.

Every test that uses the `app` fixture runs twice, on a single redis-server
(`[single]`) and on a 3-master Redis Cluster (`[cluster]`), so the scenarios
show that the same code keeps the contract on both backends.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from flask.testing import FlaskClient
from redis import Redis

from service.api import create_app
from service.api.contract.spec import load_spec
from service.config import Settings
from tests.redis_cluster import ThrowawayCluster

from .contract import ResponseContract


@pytest.fixture(scope="session")
def contract() -> ResponseContract:
    return ResponseContract(load_spec())


def make_settings(redis_url: str, **overrides) -> Settings:
    """Settings for a test app on `redis_url`."""
    return Settings(redis_url=redis_url, **overrides)


def checked_client_class(contract: ResponseContract):
    """A FlaskClient that validates every response it receives against the spec."""

    class CheckedClient(FlaskClient):
        def open(self, *args, **kwargs):
            resp = super().open(*args, **kwargs)
            req = resp.request
            if req.method != "OPTIONS":
                # PATH_INFO as sent: req.path reads "//" as "/".
                path = req.environ.get("PATH_INFO", req.path)
                contract.check(req.method, path, resp.status_code, resp.headers, resp.get_data())
            return resp

    return CheckedClient


@dataclass(frozen=True)
class Backend:
    """The Redis a test app stores its games in, and a client per node to look inside."""

    name: str
    url: str
    cluster: bool
    nodes: tuple[Redis, ...]  # one client per master (one for a single server)

    def settings(self, **overrides) -> Settings:
        return make_settings(self.url, redis_cluster=self.cluster, **overrides)


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


@pytest.fixture
def app(backend, contract):
    application = create_app(backend.settings())
    application.test_client_class = checked_client_class(contract)
    yield application
    application.extensions["patchwork"].store.close()


@pytest.fixture
def client(app) -> FlaskClient:
    return app.test_client()


class Table:
    """A game seen from the test: its id, the two seat tokens, helpers to move."""

    def __init__(self, client: FlaskClient, body: dict | None = None):
        self.client = client
        resp = client.post("/games", json=body or {})
        assert resp.status_code == 201, resp.get_json()
        created = resp.get_json()
        self.game = created["game"]
        self.id = self.game["id"]
        self.tokens = created["tokens"]

    def auth(self, seat: int) -> dict:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}

    def move(self, body: dict, seat: int | None = None, headers: dict | None = None):
        """POST a move for `seat` (default: the seat in turn); returns the response."""
        if seat is None:
            seat = self.state()["turn"]
        return self.client.post(
            f"/games/{self.id}/moves",
            data=json.dumps(body),
            content_type="application/json",
            headers={**self.auth(seat), **(headers or {})},
        )

    def play(self, body: dict, seat: int | None = None) -> dict:
        """A move that must be accepted; returns the new Game."""
        resp = self.move(body, seat)
        assert resp.status_code == 201, resp.get_json()
        return resp.get_json()

    def state(self) -> dict:
        resp = self.client.get(f"/games/{self.id}")
        assert resp.status_code == 200
        return resp.get_json()

    def legal(self, **query) -> dict:
        resp = self.client.get(f"/games/{self.id}/legal-moves", query_string=query)
        assert resp.status_code == 200
        return resp.get_json()


@pytest.fixture
def table(client):
    """A factory: table() or table({"seed": 3}) creates a game."""
    return lambda body=None: Table(client, body)

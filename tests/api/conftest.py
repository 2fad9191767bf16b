"""Fixtures for the API tests: an app on real Redis, and a client whose every
response is checked against openapi.yaml.

Every test that uses the `app` fixture runs twice, on a single redis-server
(`[single]`) and on a 3-master Redis Cluster (`[cluster]`), so the scenarios
show that the same code keeps the contract on both backends.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from flask.testing import FlaskClient

from service.api import create_app
from service.api.contract.spec import load_spec
from tests.support.backends import make_settings
from tests.support.contract import ResponseContract


@pytest.fixture(scope="session")
def contract() -> ResponseContract:
    return ResponseContract(load_spec())


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


def checked_app(redis_url: str, contract: ResponseContract, **overrides):
    """An app on `redis_url` whose settings differ by `overrides`, its test clients checked against the spec."""
    app = create_app(make_settings(redis_url, **overrides))
    app.test_client_class = checked_client_class(contract)
    return app


@contextmanager
def client_with(backend, contract: ResponseContract, **overrides) -> Iterator[FlaskClient]:
    """A checked client of an app on `backend` whose settings differ by `overrides`; its store closed after."""
    app = create_app(backend.settings(**overrides))
    app.test_client_class = checked_client_class(contract)
    try:
        yield app.test_client()
    finally:
        app.extensions["patchwork"].store.close()


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

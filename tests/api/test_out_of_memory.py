"""Redis full (maxmemory, noeviction): every write answers 503 with Retry-After, reads go on."""

import json
from collections.abc import Iterator

import pytest
from flask.testing import FlaskClient

from service.api import create_app
from service.config import RateLimit
from tests.support.backends import Backend

from .conftest import Table, checked_client_class

ORDER = list(range(2, 34)) + [1]
ADVANCE = {"action": "advance"}


@pytest.fixture
def full(backend: Backend) -> Iterator:
    """Call full() to put every Redis node over its maxmemory; undone after the test."""

    def fill() -> None:
        for node in backend.nodes:
            node.config_set("maxmemory-policy", "noeviction")
            node.config_set("maxmemory", 1)

    try:
        yield fill
    finally:
        for node in backend.nodes:
            node.config_set("maxmemory", 0)  # the servers are shared with other tests


def post_move(t: Table, body: dict, seat: int, key: str | None = None):
    headers = {**t.auth(seat), **({"Idempotency-Key": key} if key else {})}
    return t.client.post(
        f"/games/{t.id}/moves", data=json.dumps(body), content_type="application/json", headers=headers
    )


def assert_storage_unavailable(resp) -> None:
    assert resp.status_code == 503, resp.get_data()
    assert resp.get_json()["code"] == "storage_unavailable"
    assert resp.headers["Retry-After"]


def test_writes_answer_503_and_reads_go_on(client, table, full) -> None:
    t = table({"patch_order": ORDER})
    recorded = post_move(t, ADVANCE, 1, key="before")  # seat 0 is in turn: 409, recorded
    assert recorded.status_code == 409
    full()

    assert_storage_unavailable(client.post("/games"))
    assert_storage_unavailable(post_move(t, ADVANCE, 0))
    assert_storage_unavailable(post_move(t, ADVANCE, 0, key="k"))
    assert_storage_unavailable(post_move(t, ADVANCE, 1, key="refused"))  # a refusal to record

    assert t.state()["moves_played"] == 0
    assert client.get(f"/games/{t.id}/moves").status_code == 200
    assert client.get(f"/games/{t.id}/legal-moves").status_code == 200
    again = post_move(t, ADVANCE, 1, key="before")  # a replay writes nothing
    assert again.status_code == 409 and again.get_data() == recorded.get_data()
    # A refusal without a key writes nothing either.
    assert post_move(t, ADVANCE, 1).status_code == 409


def test_the_service_writes_again_once_memory_is_freed(client, table, full, backend) -> None:
    t = table({"patch_order": ORDER})
    full()
    assert_storage_unavailable(post_move(t, ADVANCE, 0, key="k"))
    for node in backend.nodes:
        node.config_set("maxmemory", 0)

    # The refused claim left no in-progress marker behind: the retry goes through.
    assert post_move(t, ADVANCE, 0, key="k").status_code == 201
    assert client.post("/games").status_code == 201


def test_rate_limited_requests_answer_503_when_their_counter_cannot_be_written(
    backend, contract, full
) -> None:
    limit = RateLimit(limit=100, window_seconds=60)
    app = create_app(backend.settings(rate_limit_create=limit, rate_limit_moves=limit))
    app.test_client_class = checked_client_class(contract)
    try:
        client = app.test_client()
        t = Table(client, {"patch_order": ORDER})
        full()

        assert_storage_unavailable(client.post("/games"))
        assert_storage_unavailable(post_move(t, ADVANCE, 0))
        assert client.get(f"/games/{t.id}").status_code == 200
    finally:
        app.extensions["patchwork"].store.close()


def test_a_game_s_stream_opens_on_a_full_redis_uncounted(app, table, full) -> None:
    """Reads go on: a stream is a read, and the lease that counts its watchers (a write) is left out
    rather than the stream refused (issue 38); it sends its snapshot, and no `watchers` count."""
    t = table()
    full()
    resp = FlaskClient(app).get(f"/games/{t.id}/events", buffered=False)
    try:
        assert resp.status_code == 200
        chunks = iter(resp.response)
        assert next(chunks).startswith(b"retry:")
        assert next(chunks).startswith(b"id: 1\nevent: game\n")
    finally:
        resp.close()

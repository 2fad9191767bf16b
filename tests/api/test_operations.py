"""Request ids, gzip and log lines, on one real Redis.

The Flask test client sends no Accept-Encoding unless told, so the other API
tests see plain bodies; here compressed answers are decompressed and then
checked against the spec like any other.
"""

from __future__ import annotations

import gzip
import json
import logging
import re
import sys

import pytest

from service.api import bodies, create_app
from service.api.middleware import compression
from service.telemetry.logs import JsonFormatter, TextFormatter
from tests.support.backends import make_settings

GZIP = {"Accept-Encoding": "gzip"}
HEX_ID = re.compile(r"[0-9a-f]{32}\Z")


@pytest.fixture
def ops_app(redis_url):
    application = create_app(make_settings(redis_url))
    yield application
    application.extensions["patchwork"].store.close()


@pytest.fixture
def plain(ops_app):
    """A test client without the contract check: it sees compressed bytes as they are sent."""
    return ops_app.test_client()


@pytest.fixture
def game(plain) -> dict:
    created = plain.post("/games", json={"seed": 5})
    assert created.status_code == 201
    return created.get_json()


def _move_body(plain, game) -> bytes:
    legal = plain.get(f"/games/{game['game']['id']}/legal-moves").get_json()
    return json.dumps(legal["moves"][0]).encode()


# --- X-Request-ID -------------------------------------------------------------


@pytest.mark.parametrize("sent", ["abc-123", "x" * 64, "!~", "req/7:8@host"])
def test_a_valid_request_id_is_echoed(plain, sent):
    resp = plain.get("/healthz", headers={"X-Request-ID": sent})
    assert resp.headers["X-Request-ID"] == sent


@pytest.mark.parametrize("sent", ["x" * 65, "has space", "tab\there", "caf\u00e9", ""])
def test_an_invalid_request_id_is_replaced_by_a_generated_one(plain, sent):
    resp = plain.get("/healthz", headers={"X-Request-ID": sent})
    assert HEX_ID.match(resp.headers["X-Request-ID"]), resp.headers["X-Request-ID"]


def test_each_request_without_an_id_gets_a_fresh_one(plain):
    ids = {plain.get("/healthz").headers["X-Request-ID"] for _ in range(3)}
    assert len(ids) == 3 and all(HEX_ID.match(i) for i in ids)


@pytest.mark.parametrize(
    "method, path, status",
    [
        ("GET", "/no/such/route", 404),
        ("DELETE", "/games", 405),
        ("GET", "/games/nosuchgame", 404),
        ("POST", "/games/nosuchgame/moves", 415),
    ],
)
def test_problem_answers_carry_the_request_id(plain, method, path, status):
    resp = plain.open(path, method=method, headers={"X-Request-ID": "trace-1"})
    assert resp.status_code == status
    assert resp.mimetype == "application/problem+json"
    assert resp.headers["X-Request-ID"] == "trace-1"


def test_a_preflight_carries_it_and_browsers_may_read_it(plain):
    preflight = plain.options(
        "/games",
        headers={
            "Origin": "https://a.example",
            "X-Request-ID": "p-1",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "x-request-id",
        },
    )
    assert preflight.headers["X-Request-ID"] == "p-1"
    assert "X-Request-ID" in preflight.headers["Access-Control-Allow-Headers"]
    resp = plain.get("/healthz", headers={"Origin": "https://a.example"})
    assert "X-Request-ID" in resp.headers["Access-Control-Expose-Headers"]


def test_the_app_log_lines_of_a_request_name_its_id(plain, game, redis_server, caplog):
    caplog.handler.setFormatter(TextFormatter())
    redis_server.stop()
    with caplog.at_level(logging.WARNING, logger="service"):
        resp = plain.get(f"/games/{game['game']['id']}", headers={"X-Request-ID": "outage-7"})
    assert resp.status_code == 503
    assert resp.headers["X-Request-ID"] == "outage-7"
    lines = [line for line in caplog.text.splitlines() if "store unavailable" in line]
    assert lines and all(line.endswith("request_id=outage-7") for line in lines), caplog.text


def test_json_log_lines_are_one_object_each_with_the_request_id(plain, game, redis_server, caplog):
    caplog.handler.setFormatter(JsonFormatter())
    redis_server.stop()
    with caplog.at_level(logging.WARNING, logger="service"):
        plain.get(f"/games/{game['game']['id']}", headers={"X-Request-ID": "outage-8"})
    docs = [json.loads(line) for line in caplog.text.splitlines()]
    assert docs
    store_lines = [d for d in docs if d["message"].startswith("store unavailable")]
    assert store_lines and all(
        d["request_id"] == "outage-8" and d["level"] == "warning" for d in store_lines
    ), docs


def test_a_traceback_stays_inside_its_json_line():
    try:
        raise RuntimeError("boom\nsecond line")
    except RuntimeError:
        record = logging.LogRecord("service", logging.ERROR, __file__, 1, "failed", None, sys.exc_info())
    line = JsonFormatter().format(record)
    assert "\n" not in line
    assert "RuntimeError" in json.loads(line)["exception"]


# --- gzip ---------------------------------------------------------------------


def test_a_game_is_gzipped_with_the_same_etag_and_vary(plain, game, contract):
    path = f"/games/{game['game']['id']}"
    bare = plain.get(path)
    packed = plain.get(path, headers=GZIP)
    assert len(bare.get_data()) >= 1024
    assert "Content-Encoding" not in bare.headers
    assert packed.headers["Content-Encoding"] == "gzip"
    assert packed.headers["ETag"] == bare.headers["ETag"]
    for resp in (bare, packed):
        assert "Accept-Encoding" in resp.headers["Vary"]
    body = gzip.decompress(packed.get_data())
    assert body == bare.get_data()
    assert int(packed.headers["Content-Length"]) == len(packed.get_data()) < len(body)
    contract.check("GET", path, 200, packed.headers, body)
    # The tag works as a validator whatever the encoding.
    again = plain.get(path, headers={**GZIP, "If-None-Match": packed.headers["ETag"]})
    assert again.status_code == 304 and "Content-Encoding" not in again.headers


def test_a_move_and_its_idempotent_replay_are_gzipped_with_the_tag_of_the_new_version(plain, game):
    gid, token = game["game"]["id"], game["tokens"][game["game"]["turn"]]
    headers = {**GZIP, "Authorization": f"Bearer {token}", "Idempotency-Key": "k-1"}
    body = _move_body(plain, game)
    first = plain.post(f"/games/{gid}/moves", data=body, content_type="application/json", headers=headers)
    replay = plain.post(f"/games/{gid}/moves", data=body, content_type="application/json", headers=headers)
    assert first.status_code == replay.status_code == 201
    for resp in (first, replay):
        assert resp.headers["Content-Encoding"] == "gzip"
        assert resp.headers["ETag"] == '"2"'
    assert gzip.decompress(first.get_data()) == gzip.decompress(replay.get_data())


def test_the_board_svg_and_the_spec_are_gzipped(plain, game):
    for path in (f"/games/{game['game']['id']}/board.svg", "/openapi.yaml"):
        bare, packed = plain.get(path), plain.get(path, headers=GZIP)
        assert packed.headers["Content-Encoding"] == "gzip", path
        assert gzip.decompress(packed.get_data()) == bare.get_data()
        assert packed.headers.get("ETag") == bare.headers.get("ETag")


@pytest.mark.parametrize(
    "path", ["/docs/swagger-ui-bundle.js", "/docs/swagger-ui.css", "/play", "/openapi.yaml"]
)
def test_a_file_of_the_package_is_compressed_once_not_at_every_request(plain, path, monkeypatch):
    compressed: list[int] = []
    real = bodies.gzip_bytes

    def counted(data: bytes, level: int) -> bytes:
        compressed.append(len(data))
        return real(data, level)

    # Both ways a body gets gzipped: a StaticBody's kept form, and the hook's for any other answer.
    monkeypatch.setattr(bodies, "gzip_bytes", counted)
    monkeypatch.setattr(compression, "gzip_bytes", counted)
    first = plain.get(path, headers=GZIP)
    made = len(compressed)  # once, or none if an earlier request in this process made it
    again = plain.get(path, headers=GZIP)
    assert again.headers["Content-Encoding"] == first.headers["Content-Encoding"] == "gzip"
    assert len(compressed) == made <= 1, f"{path} was compressed again: {compressed}"
    assert again.get_data() == first.get_data()
    assert gzip.decompress(again.get_data()) == plain.get(path).get_data()


def test_small_answers_and_refusing_clients_get_plain_bodies(plain, game):
    small = plain.get("/healthz", headers=GZIP)
    assert len(small.get_data()) < 1024
    assert "Content-Encoding" not in small.headers and "Accept-Encoding" not in small.headers.get("Vary", "")
    refused = plain.get(f"/games/{game['game']['id']}", headers={"Accept-Encoding": "gzip;q=0, br"})
    assert "Content-Encoding" not in refused.headers


def test_gzip_is_taken_by_a_wildcard_or_in_any_case_and_refused_by_q_zero(plain, game):
    path = f"/games/{game['game']['id']}"
    for accepted in ("*", "GZip", "br;q=1, *;q=0.5", "deflate, gzip;q=0.2"):
        resp = plain.get(path, headers={"Accept-Encoding": accepted})
        assert resp.headers.get("Content-Encoding") == "gzip", accepted
        assert json.loads(gzip.decompress(resp.get_data()))["id"] == game["game"]["id"]
    for refused in ("identity", "br", "*;q=0", "gzip;q=0", "gzip;q=0, *"):
        resp = plain.get(path, headers={"Accept-Encoding": refused})
        assert "Content-Encoding" not in resp.headers, refused
        assert "Accept-Encoding" in resp.headers["Vary"], refused


def test_a_large_problem_answer_is_gzipped(plain):
    # A 400 whose errors list names many fields outgrows 1 KiB.
    resp = plain.post("/games", json={f"unknown_{n:03d}": n for n in range(60)}, headers=GZIP)
    assert resp.status_code == 400
    doc = json.loads(gzip.decompress(resp.get_data()))
    assert doc["code"] == "invalid_request"
    assert resp.headers["Content-Encoding"] == "gzip"


def test_head_is_never_gzipped(plain, game):
    resp = plain.head(f"/games/{game['game']['id']}", headers=GZIP)
    assert resp.status_code == 200
    assert "Content-Encoding" not in resp.headers


def test_an_event_stream_is_never_gzipped(plain, game):
    resp = plain.get(f"/games/{game['game']['id']}/events", headers=GZIP, buffered=False)
    try:
        assert resp.status_code == 200
        assert resp.mimetype == "text/event-stream"
        assert "Content-Encoding" not in resp.headers
        assert resp.headers["X-Request-ID"]
        first = next(iter(resp.response))
        assert first.startswith(b"retry:")
    finally:
        resp.close()

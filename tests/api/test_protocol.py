"""The request's form: routes, methods, sizes, content types, JSON, CORS, operations."""

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ADVANCE = {"action": "advance"}


def problem(resp):
    assert resp.mimetype == "application/problem+json"
    doc = resp.get_json()
    assert set(doc) >= {"type", "title", "status", "detail", "code"}
    assert doc["status"] == resp.status_code
    return doc


def post_move(client, game_id, data, content_type="application/json", headers=None):
    return client.post(f"/games/{game_id}/moves", data=data, content_type=content_type, headers=headers or {})


def test_unknown_route_is_problem_404(client):
    resp = client.get("/nothing/here")
    assert resp.status_code == 404 and problem(resp)["code"] == "not_found"


def test_wrong_method_is_405_with_allow(client, table):
    t = table()
    for method, path, allowed in (
        ("delete", f"/games/{t.id}", {"GET", "HEAD", "OPTIONS"}),
        # GET /games is the lobby (issue 20).
        ("put", "/games", {"GET", "HEAD", "POST", "OPTIONS"}),
        ("post", "/patches", {"GET", "HEAD", "OPTIONS"}),
        # The import is no game: the game's route does not take its path (app.GameIdConverter).
        ("get", "/games/import", {"POST", "OPTIONS"}),
    ):
        resp = getattr(client, method)(path)
        assert resp.status_code == 405 and problem(resp)["code"] == "method_not_allowed"
        assert {m.strip() for m in resp.headers["Allow"].split(",")} == allowed


def test_body_over_64_kib_is_413_before_parsing(client, table):
    t = table()
    big = b"{" + b" " * (64 * 1024) + b"}"
    resp = post_move(client, t.id, big, headers=t.auth(0))
    assert resp.status_code == 413 and problem(resp)["code"] == "payload_too_large"
    # 413 comes before 415 too.
    resp = post_move(client, t.id, big, content_type="text/plain", headers=t.auth(0))
    assert resp.status_code == 413
    resp = client.post("/games", data=big, content_type="application/json")
    assert resp.status_code == 413


def test_non_json_content_type_is_415(client, table):
    t = table()
    for ctype in ("text/plain", "application/x-www-form-urlencoded", None):
        resp = client.post(
            f"/games/{t.id}/moves",
            data=json.dumps(ADVANCE),
            headers=t.auth(0),
            **({"content_type": ctype} if ctype else {}),
        )
        assert resp.status_code == 415 and problem(resp)["code"] == "unsupported_media_type", ctype
    resp = client.post("/games", data='{"seed": 1}', content_type="text/plain")
    assert resp.status_code == 415
    # A charset parameter is fine.
    resp = post_move(client, t.id, json.dumps(ADVANCE), "application/json; charset=utf-8", t.auth(0))
    assert resp.status_code == 201


@pytest.mark.parametrize("raw", [b"", b"{", b"nope", b'{"action": NaN}', b"\xff\xfe", b'{"a":1}x'])
def test_unparsable_body_is_invalid_json(client, table, raw):
    t = table()
    resp = post_move(client, t.id, raw, headers=t.auth(0))
    assert resp.status_code == 400 and problem(resp)["code"] == "invalid_json"


@pytest.mark.parametrize("raw", [b"[]", b'"advance"', b"3", b"null"])
def test_json_that_is_not_an_object_is_invalid_request(client, table, raw):
    t = table()
    resp = post_move(client, t.id, raw, headers=t.auth(0))
    assert resp.status_code == 400 and problem(resp)["code"] == "invalid_request"
    resp = client.post("/games", data=raw, content_type="application/json")
    assert resp.status_code == 400 and problem(resp)["code"] == "invalid_request"
    # The type is JSON's, as the spec names it, not Python's ("list", "str", "int", "NoneType").
    json_type = {b"[]": "array", b'"advance"': "string", b"3": "number", b"null": "null"}[raw]
    assert problem(resp)["errors"][0]["message"] == f"expected an object, got '{json_type}'"


@pytest.mark.parametrize(
    "body,pointer",
    [
        ({"action": "advance", "extra": 1}, "/extra"),
        ({"action": "jump"}, "/action"),
        ({}, None),
        ({"action": "buy", "patch_id": 34, "placement": {"row": 0, "col": 0}}, "/patch_id"),
        ({"action": "buy", "patch_id": "7", "placement": {"row": 0, "col": 0}}, "/patch_id"),
        ({"action": "buy", "patch_id": 7, "placement": {"row": 9, "col": 0}}, "/placement/row"),
        (
            {"action": "buy", "patch_id": 7, "placement": {"row": 0, "col": 0, "rotation": 45}},
            "/placement/rotation",
        ),
        (
            {"action": "buy", "patch_id": 7, "placement": {"row": 0, "col": 0, "rotaton": 90}},
            "/placement/rotaton",
        ),
        ({"action": "buy", "patch_id": 7}, None),
        ({"action": "place_leather", "row": 1}, None),
        ({"action": "place_leather", "row": 1, "col": -1}, "/col"),
    ],
)
def test_bodies_the_spec_refuses_are_400_with_pointers(client, table, body, pointer):
    t = table()
    resp = post_move(client, t.id, json.dumps(body), headers=t.auth(0))
    doc = problem(resp)
    assert resp.status_code == 400 and doc["code"] == "invalid_request"
    assert doc["errors"] and all("message" in e for e in doc["errors"])
    if pointer is not None:
        assert pointer in [e.get("pointer") for e in doc["errors"]], doc


def test_idempotency_key_syntax(client, table):
    t = table()
    for key in ("has space", "x" * 65, "é"):
        resp = post_move(client, t.id, json.dumps(ADVANCE), headers={**t.auth(0), "Idempotency-Key": key})
        assert resp.status_code == 400 and problem(resp)["code"] == "invalid_request", key


def test_cors_preflight_and_exposed_headers(client, table):
    t = table()
    resp = client.options(
        f"/games/{t.id}/moves",
        headers={
            "Origin": "https://front.example",
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, if-match, idempotency-key, content-type",
        },
    )
    assert resp.status_code in (200, 204)
    assert resp.headers["Access-Control-Allow-Origin"] == "*"
    allowed = {h.strip().lower() for h in resp.headers["Access-Control-Allow-Headers"].split(",")}
    assert {
        "authorization",
        "if-match",
        "if-none-match",
        "idempotency-key",
        "content-type",
        "last-event-id",
    } <= allowed
    # Chromium's cap: a browser preflights a game's moves once per 2 hours, not per 10 minutes.
    assert resp.headers["Access-Control-Max-Age"] == "7200"
    assert "POST" in resp.headers["Access-Control-Allow-Methods"]
    got = client.get(f"/games/{t.id}", headers={"Origin": "https://front.example"})
    exposed = {h.strip() for h in got.headers["Access-Control-Expose-Headers"].split(",")}
    assert {"ETag", "Location", "Retry-After"} <= exposed
    # Errors are readable cross-origin too.
    missing = client.get("/games/nope", headers={"Origin": "https://front.example"})
    assert missing.headers["Access-Control-Allow-Origin"] == "*"


def test_cors_origins_can_be_restricted(redis_url, contract):
    from service.api import create_app
    from tests.support.backends import make_settings

    app = create_app(make_settings(redis_url, cors_origins=("https://a.example",)))
    client = app.test_client()
    ok = client.get("/healthz", headers={"Origin": "https://a.example"})
    assert ok.headers["Access-Control-Allow-Origin"] == "https://a.example"
    assert "Origin" in ok.headers["Vary"]
    other = client.get("/healthz", headers={"Origin": "https://b.example"})
    assert "Access-Control-Allow-Origin" not in other.headers


def test_health_ready_and_spec(client):
    assert client.get("/healthz").status_code == 200
    assert client.get("/readyz").status_code == 200
    resp = client.get("/openapi.yaml")
    assert resp.status_code == 200 and resp.mimetype == "application/yaml"
    assert resp.get_data() == (ROOT / "openapi.yaml").read_bytes()


def test_a_preflight_allows_every_method_the_route_accepts(app, client):
    """Issue 38: the preflight allowed a fixed GET, HEAD, POST, OPTIONS, so a browser refused to send
    DELETE /seeks/{id} from another origin. Every route of the app, with each of its methods, is
    allowed by its preflight; a path no route matches allows every method (its 404 is readable)."""
    routes = [rule for rule in app.url_map.iter_rules() if rule.endpoint != "static"]
    assert any("DELETE" in rule.methods for rule in routes)
    adapter = app.url_map.bind("localhost")
    for rule in routes:
        path = re.sub(r"<(int:)?[^>]+>", lambda part: "1" if part.group(1) else "x", rule.rule)
        for method in rule.methods - {"OPTIONS", "HEAD"}:
            assert adapter.match(path, method)[0] == rule.endpoint, (rule.rule, path)
            resp = client.options(
                path,
                headers={"Origin": "https://front.example", "Access-Control-Request-Method": method},
            )
            assert resp.status_code == 204, (path, method)
            allowed = {m.strip() for m in resp.headers["Access-Control-Allow-Methods"].split(",")}
            assert method in allowed, (rule.rule, path, method, allowed)
    seek = client.options(
        "/seeks/AAAAAAAAAAAAAAAAAAAAAA",
        headers={"Origin": "https://front.example", "Access-Control-Request-Method": "DELETE"},
    )
    assert seek.headers["Access-Control-Allow-Methods"] == "DELETE, GET, HEAD, OPTIONS"
    lost = client.options(
        "/no/such/path",
        headers={"Origin": "https://front.example", "Access-Control-Request-Method": "DELETE"},
    )
    assert "DELETE" in lost.headers["Access-Control-Allow-Methods"]

"""Malformed and hostile requests get their problem+json answer: never a 500, an HTML page or a redirect.

Each case was once answered wrongly (issue 8): the request and the answer
docs/api-guide.md#errors gives it.
"""

from __future__ import annotations

import json
import logging

import pytest

from service.api import create_app
from service.api.contract.faults import MAX_ERRORS
from service.api.problems import ApiProblem
from service.games.records import new_game_id
from tests.support.backends import make_settings

from .conftest import checked_client_class

PROBLEM = "application/problem+json"
HUGE_EXPONENTS = ("1e99999999999999999999", "1e-99999999999999999999", "-1E+99999999999999999999")
# Not one of them could be a game id the service issued (22 characters of base64url).
IMPOSSIBLE_IDS = (
    "}abc",
    "{abc}",
    "a}b{c",
    "x" * 23,
    "x" * 21,
    "x" * 500,
    "abc def",
    "ü" * 22,
    "nope",
    "%7D" + "a" * 19,
)


def problem(resp, status: int, code: str) -> dict:
    assert resp.status_code == status, (resp.status_code, resp.get_data()[:300])
    assert resp.mimetype == PROBLEM, resp.mimetype
    doc = resp.get_json()
    assert doc["code"] == code and doc["status"] == status, doc
    return doc


def post_json(client, path: str, text: str | bytes, headers: dict | None = None):
    return client.post(path, data=text, content_type="application/json", headers=headers or {})


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


# --- Numbers too large to read ------------------------------------------------------------------


@pytest.mark.parametrize("number", HUGE_EXPONENTS)
def test_a_huge_exponent_in_a_query_or_path_integer_is_400(client, table, number):
    t = table()
    for path, parameter in (
        (f"/games/{t.id}/moves?since={number}", "since"),
        (f"/games/{t.id}/legal-moves?patch_id={number}", "patch_id"),
        (f"/games/{t.id}/moves/{number}", "number"),
    ):
        doc = problem(client.get(path), 400, "invalid_request")
        assert [error["parameter"] for error in doc["errors"]] == [parameter], path


def test_zero_with_a_huge_exponent_is_still_zero(client, table):
    t = table()
    t.play({"action": "advance"})
    whole = client.get(f"/games/{t.id}/moves?since=0").get_json()
    assert client.get(f"/games/{t.id}/moves?since=0e99999999999999999999").get_json() == whole
    assert client.get(f"/games/{t.id}/moves?since=0.0e-99999999999999999999").get_json() == whole


# --- Nesting deeper than the parser's recursion ----------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        nested(1500),
        '{"players": ' + nested(1500) + "}",
        '{"a": ' * 1500 + "1" + "}" * 1500,
        '{"action": "buy", "patch_id": 1, "placement": {"cells": [' + nested(3000) + "]}}",
    ],
    ids=["array", "in a field", "objects", "in cells"],
)
def test_json_nested_past_the_parser_is_invalid_json(client, table, text):
    t = table()
    doc = problem(post_json(client, "/games", text), 400, "invalid_json")
    assert "deep" in doc["detail"]
    problem(post_json(client, f"/games/{t.id}/moves", text, t.auth(0)), 400, "invalid_json")


# --- Lone surrogates ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        '{"players": [{"name": "\\ud800"}, {"name": "B"}]}',  # a name: it would be stored and shown
        '{"players": [{"name": "A\\udfff"}, {"name": "B"}]}',
        '{"players": [{"name": "\\udc00\\ud800"}, {"name": "B"}]}',  # both halves, in the wrong order
        '{"\\ud800": 1}',  # a field name: the 400's own pointer would carry it
        '{"seed": "\\ud83d"}',  # a value of the wrong type, which the 400's message quotes
    ],
    ids=repr,
)
def test_a_lone_surrogate_escape_is_invalid_json(client, table, text):
    doc = problem(post_json(client, "/games", text), 400, "invalid_json")
    assert "surrogate" in doc["detail"]
    t = table()
    move = text.replace('"players"', '"action"').replace('"seed"', '"action"')
    problem(post_json(client, f"/games/{t.id}/moves", move, t.auth(0)), 400, "invalid_json")


def test_a_problem_quoting_a_lone_surrogate_is_still_sent(app):
    # A last line of defence: whatever request text reaches a message, the refusal goes out.
    with app.test_request_context():
        resp = ApiProblem(
            400, "invalid_request", "bad \ud800", errors=[{"pointer": "/\udfff", "message": "x"}]
        ).response()
    assert resp.status_code == 400
    assert json.loads(resp.get_data())["errors"] == [{"pointer": "/\udfff", "message": "x"}]


def test_a_surrogate_pair_escape_is_one_character(client):
    resp = post_json(client, "/games", '{"players": [{"name": "\\ud83e\\udde9 Ada"}, {"name": "B"}]}')
    assert resp.status_code == 201, resp.get_json()
    assert resp.get_json()["game"]["players"][0]["name"] == "\N{JIGSAW PUZZLE PIECE} Ada"


def test_a_backslash_before_u_d800_is_no_surrogate(client):
    # "\\ud800" is a backslash and the letters u, d, 8, 0, 0.
    resp = post_json(client, "/games", '{"players": [{"name": "\\\\ud800"}, {"name": "B"}]}')
    assert resp.status_code == 201, resp.get_json()
    assert resp.get_json()["game"]["players"][0]["name"] == "\\ud800"


# --- Refusing a large body costs no more than refusing a small one ------------------------------


def test_an_array_over_its_max_items_is_refused_by_its_length_alone(client, table):
    # 10,500 pairs (63 KB): jsonschema used to check every item after maxItems had failed.
    t = table()
    cells = [[9, 9]] * 10_500  # each pair out of the board too
    text = json.dumps({"action": "buy", "patch_id": 1, "placement": {"cells": cells}}, separators=(",", ":"))
    assert len(text) > 60_000
    doc = problem(post_json(client, f"/games/{t.id}/moves", text, t.auth(0)), 400, "invalid_request")
    assert doc["errors"] == [
        {"pointer": "/placement/cells", "message": "has 10500 items, expected at most 8"}
    ]


def test_a_string_over_its_max_length_is_refused_by_its_length_alone(client):
    resp = client.post("/games", json={"players": [{"name": "x" * 60_000}, {"name": "B"}]})
    doc = problem(resp, 400, "invalid_request")
    assert [error["pointer"] for error in doc["errors"]] == ["/players/0/name"]
    assert "too long" in doc["errors"][0]["message"]


def test_thousands_of_unknown_fields_get_a_capped_list(client):
    body = {f"f{n}": n for n in range(3000)}
    doc = problem(client.post("/games", json=body), 400, "invalid_request")
    assert len(doc["errors"]) == MAX_ERRORS
    assert doc["errors"][0] == {"pointer": "/f0", "message": "unknown field 'f0'"}


# --- Game ids the service could never have issued ----------------------------------------------


def game_paths(game_id: str) -> list[str]:
    return [
        f"/games/{game_id}",
        f"/games/{game_id}/moves",
        f"/games/{game_id}/moves/1",
        f"/games/{game_id}/legal-moves",
    ]


def test_issued_game_ids_are_the_form_the_check_accepts(table):
    for _ in range(50):
        issued = new_game_id()
        assert len(issued) == 22 and set(issued) <= set(
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
        ), issued
    assert len(table().id) == 22


@pytest.mark.parametrize("game_id", IMPOSSIBLE_IDS, ids=repr)
def test_an_impossible_game_id_is_game_not_found(client, game_id):
    # On Redis Cluster a "}" used to split the key's hash tag: 503 and a CROSSSLOT warning.
    for path in game_paths(game_id):
        doc = problem(client.get(path), 404, "game_not_found")
        assert game_id not in doc["detail"]  # whatever it carries, the id is not echoed
    resp = post_json(
        client, f"/games/{game_id}/moves", '{"action": "advance"}', {"Authorization": "Bearer " + "t" * 43}
    )
    problem(resp, 404, "game_not_found")


def test_an_impossible_game_id_is_refused_before_redis(redis_server, redis_url, contract):
    app = create_app(make_settings(redis_url))
    app.test_client_class = checked_client_class(contract)
    client = app.test_client()
    redis_server.stop()
    try:
        for game_id in IMPOSSIBLE_IDS:
            for path in game_paths(game_id):
                problem(client.get(path), 404, "game_not_found")
        # A well-formed id needs the store, which is down.
        problem(client.get(f"/games/{'a' * 22}"), 503, "storage_unavailable")
    finally:
        redis_server.start()
        app.extensions["patchwork"].store.close()


def test_the_request_form_is_still_judged_before_the_game(client):
    # docs/api-guide.md#order-of-checks: 400 for the form before 404 for the game, impossible id or not.
    resp = post_json(client, "/games/}x/moves", '{"action": "jump"}', {"Authorization": "Bearer x"})
    problem(resp, 400, "invalid_request")
    problem(client.get("/games/}x/moves?since=-1"), 400, "invalid_request")


# --- Paths werkzeug would redirect ----------------------------------------------------------------


def route_variants(app, game_id: str) -> list[str]:
    """Every route's path with its slashes doubled, a trailing slash, or an empty game id."""
    paths = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        path = rule.rule.replace("<game_id>", game_id).replace("<number>", "1")
        # (Not "//" in front: a test client reads "//games" as a host name.)
        variants = [path + "/", "/" + path[1:].replace("/", "//"), rule.rule.replace("<game_id>", "")]
        paths += [variant for variant in variants if variant != path]
    return paths


def test_no_path_is_answered_with_a_redirect(app, client, table):
    t = table()
    for path in route_variants(app, t.id) + ["/games//legal-moves", "/games//moves/1"]:
        for method in ("GET", "HEAD", "POST", "OPTIONS", "DELETE"):
            resp = client.open(path, method=method)
            assert resp.status_code in (404, 405), (method, path, resp.status_code)
            assert resp.mimetype == PROBLEM, (method, path, resp.mimetype)


# --- Nothing that may hold a secret is echoed or logged -----------------------------------------


def test_the_authorization_header_is_never_echoed_or_logged(client, table, caplog):
    t = table()
    secret = t.tokens[0]
    wrong = "Zx9" + secret[3:]
    requests = [
        ("POST", f"/games/{t.id}/moves", "{not json"),
        ("POST", f"/games/{t.id}/moves", '{"action": "jump"}'),
        ("POST", f"/games/{t.id}/moves", nested(1500)),
        ("POST", f"/games/{t.id}/moves", '{"\\ud800": 1}'),
        ("POST", f"/games/{t.id}/moves", '{"action": "advance"}'),
        ("POST", "/games/}x/moves", '{"action": "advance"}'),
        ("GET", f"/games/{t.id}/moves/1e-99999999999999999999", None),
        ("GET", f"/games/{t.id}/moves?since=1e99999999999999999999", None),
    ]
    caplog.set_level(logging.DEBUG)
    for token in (secret, wrong, f"{secret} {secret}"):
        for scheme in ("Bearer", "Basic", "bearer"):
            headers = {"Authorization": f"{scheme} {token}"}
            for method, path, body in requests:
                resp = client.open(
                    path, method=method, data=body, headers=headers, content_type="application/json"
                )
                assert resp.status_code < 500, (method, path, resp.get_data())
                text = resp.get_data(as_text=True)
                assert secret not in text and wrong not in text, (method, path, text)
    logged = caplog.text
    assert secret not in logged and wrong not in logged

"""Hostile requests from hypothesis against the live service (gunicorn, 2 workers, real Redis).

Where schemathesis (test_schemathesis.py) generates what the spec describes,
this sends what no spec does: raw bytes and percent-encoding junk in paths
and queries, numbers past every limit, JSON nested thousands deep, lone
surrogate escapes, oversized arrays and strings, wrong types, odd
Content-Types and methods, token-shaped garbage in headers. Every request
goes on its own connection with a bound on the answer's time, and every
answer must be one a client can rely on: no 5xx, no redirect, an error
always as problem+json with its status and a code, and an answer at all
(no hang, no dropped connection).

CI: a fixed seed (derandomized) and HOSTILE_CI_EXAMPLES examples (about 20 s
here). Long session: `./dev test tests/fuzz --run-slow -k hostile` runs new
random examples for FUZZ_HOSTILE_SECONDS (default 600) seconds.
"""

from __future__ import annotations

import json
import os
import time
import urllib.request
from collections import Counter
from urllib.parse import quote_from_bytes, urlsplit

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .raw_http import RawRequest, RawResponse, send

HOSTILE_CI_EXAMPLES = 800
# Generous: the service answers each of these in milliseconds; a hang is what this catches.
ANSWER_TIMEOUT_SECONDS = 20
PROBLEM = "application/problem+json"
# Statuses some operation of openapi.yaml answers; anything else is a surprise.
DECLARED = {200, 201, 204, 302, 304, 400, 401, 404, 405, 409, 412, 413, 414, 415, 422, 429, 431}

# --- Pieces of requests ---------------------------------------------------------------------------

HUGE_NUMBERS = [
    "1e99999999999999999999",
    "1e-99999999999999999999",
    "-1E+400",
    "9" * 5000,
    "1" + "0" * 4299,
    "0e99999999999999999999",
    "1.0000000000000000000001",
    "NaN",
    "Infinity",
    "-0",
    "0x10",
    "1_000",
    "１",
    "٣",
    "2e1",
    "3.0",
    "",
    " 1",
    "1 ",
]
SURROGATE_ESCAPES = ["\\ud800", "\\udfff", "\\udc00\\ud800", "\\ud83d", "\\ud83e\\udde9", "\\\\ud800"]
JUNK_SEGMENTS = [
    b"%",
    b"%Z",
    b"%ZZ",
    b"%FF",
    b"%ED%A0%80",
    b"%C0%AF",
    b"%00",
    b"%2F",
    b"%2e%2e",
    b"..",
    b".",
    b"}",
    b"{",
    b"{x}",
    b"%7D",
    b"\xff",
    b"\xc3\xbc",
    b";x=1",
    b"*",
    b"~",
    b"",
]
METHODS = [
    "GET",
    "HEAD",
    "POST",
    "OPTIONS",
    "PUT",
    "DELETE",
    "PATCH",
    "TRACE",
    "PROPFIND",
    "BREW",
    "get",
    "X" * 40,
]
CONTENT_TYPES = [
    b"application/json",
    b"application/json; charset=utf-8",
    b"application/json; charset=utf-16",
    b"application/problem+json",
    b"application/vnd.x+json",
    b"text/plain",
    b"multipart/form-data",
    b"application/x-www-form-urlencoded",
    b"application/json; charset=\xff",
    b"",
    b";",
    b"*/*",
    b"APPLICATION/JSON",
    b"application/json;;;=",
    b"application/" + b"x" * 4000,
]
# Not Expect: gunicorn answers any value but 100-continue itself, with an HTML 417 that logs the
# value (service/run/gunicorn_worker.py, another change's concern).
HEADER_NAMES = [
    "Authorization",
    "If-Match",
    "If-None-Match",
    "Idempotency-Key",
    "Origin",
    "Accept",
    "Access-Control-Request-Method",
    "X-Forwarded-For",
    "Content-Encoding",
    "Transfer-Encoding-X",
    "Range",
    "Cookie",
]


def header_values(game) -> st.SearchStrategy[bytes]:
    token_shaped = st.sampled_from([game["tokens"][0], game["tokens"][1], "t" * 43]).map(str.encode)
    return st.one_of(
        st.binary(max_size=300).map(lambda raw: raw.replace(b"\r", b"").replace(b"\n", b"")),
        st.sampled_from(
            [
                b'"1"',
                b"*",
                b'W/"1"',
                b'"1", "2"',
                b'"',
                b'""',
                b"W/",
                b"Bearer",
                b"Bearer ",
                b"bearer x",
                b"Basic Zm9vOmJhcg==",
                b"GET",
                b"null",
            ]
        ),
        token_shaped.map(lambda token: b"Bearer " + token),
        token_shaped,
        st.text(max_size=80).map(
            lambda text: text.encode("utf-8", "surrogatepass").replace(b"\r", b"").replace(b"\n", b"")
        ),
    )


def game_ids(game) -> st.SearchStrategy[bytes]:
    return st.one_of(
        st.just(game["id"].encode()),
        st.sampled_from(JUNK_SEGMENTS),
        st.binary(max_size=60).map(lambda raw: quote_from_bytes(raw, safe=b"").encode()),
        st.text(
            alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_}{",
            min_size=20,
            max_size=24,
        ).map(str.encode),
        st.builds(lambda a, b: a + b, st.just(game["id"].encode()), st.sampled_from(JUNK_SEGMENTS)),
    )


def numbers_as_text() -> st.SearchStrategy[bytes]:
    return st.one_of(
        st.sampled_from(HUGE_NUMBERS).map(lambda text: quote_from_bytes(text.encode(), safe=b"").encode()),
        st.integers(min_value=-(2**80), max_value=2**80).map(lambda n: str(n).encode()),
        st.sampled_from(JUNK_SEGMENTS),
    )


@st.composite
def targets(draw, game) -> bytes:
    """A request target: a route of the service (or near one) with hostile pieces, and a query."""
    game_id = draw(game_ids(game))
    number = draw(numbers_as_text())
    path = draw(
        st.sampled_from(
            [
                b"/games",
                b"/games/" + game_id,
                b"/games/" + game_id + b"/moves",
                b"/games/" + game_id + b"/moves/" + number,
                b"/games/" + game_id + b"/legal-moves",
                b"/patches",
                b"/healthz",
                b"/readyz",
                b"/openapi.yaml",
                b"/games//legal-moves",
                b"/games/" + game_id + b"//moves",
                b"/games/" + game_id + b"/",
                b"/",
                b"//games",
                b"/games/" + game_id + b"/moves/" + number + b"/",
                b"/" + draw(st.sampled_from(JUNK_SEGMENTS)),
            ]
        )
    )
    pairs = draw(
        st.lists(
            st.tuples(
                st.sampled_from([b"since", b"patch_id", b"", b"since[]", b"%FF", b"x"]), numbers_as_text()
            ),
            max_size=3,
        )
    )
    query = b"&".join(name + b"=" + value for name, value in pairs)
    if draw(st.booleans()) and query:
        path += b"?" + query
    elif draw(st.integers(0, 9)) == 0:
        path += draw(st.sampled_from([b"?", b"?&&", b"?=", b"?since", b"?%", b"?since=%FF%FE", b"#frag"]))
    return path


# Hypothesis favours small numbers: sizes around the 64 KiB body limit are drawn on purpose.
def sizes(small: int) -> st.SearchStrategy[int]:
    return st.one_of(
        st.sampled_from([1_500, 10_500, 21_000, 32_700, 65_535, 65_536, 70_000]), st.integers(0, small)
    )


def nested(depth: int, kind: str) -> str:
    if kind == "array":
        return "[" * depth + "]" * depth
    return '{"a":' * depth + "1" + "}" * depth


JSON_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=50),
    st.integers(min_value=-(10**60), max_value=10**60),
)
JSON_VALUES = st.recursive(
    JSON_LEAVES,
    lambda inner: st.one_of(
        st.lists(inner, max_size=6), st.dictionaries(st.text(max_size=12), inner, max_size=6)
    ),
    max_leaves=30,
)
VALID_SHAPES = [
    {"action": "advance"},
    {"action": "buy", "patch_id": 11, "placement": {"row": 0, "col": 0, "rotation": 90}},
    {"action": "buy", "patch_id": 11, "placement": {"cells": [[0, 1], [1, 0], [1, 1], [2, 1]]}},
    {"action": "place_leather", "row": 4, "col": 4},
    {"seed": 7, "players": [{"name": "Ada"}, {"name": "Grace"}], "first_player": 1, "time_board": "original"},
]


@st.composite
def mutated_bodies(draw) -> bytes:
    """A body of a real request with one value replaced, one field added, or one array blown up."""
    doc = json.loads(json.dumps(draw(st.sampled_from(VALID_SHAPES))))
    where = doc
    while True:  # walk down to a random container
        children = [
            key
            for key, value in (where.items() if isinstance(where, dict) else enumerate(where))
            if isinstance(value, (dict, list))
        ]
        if not children or draw(st.booleans()):
            break
        where = where[draw(st.sampled_from(children))]
    keys = list(where) if isinstance(where, dict) else list(range(len(where)))
    change = draw(st.sampled_from(["replace", "add", "blow up"]))
    if change == "replace" and keys:
        where[draw(st.sampled_from(keys))] = draw(JSON_VALUES)
    elif change == "add" and isinstance(where, dict):
        where[draw(st.text(max_size=20))] = draw(JSON_VALUES)
    elif isinstance(where, list):
        where.extend(where[:1] * draw(sizes(100)))
    else:
        where[draw(st.text(max_size=8))] = [0] * draw(sizes(100))
    text = json.dumps(doc, separators=(",", ":"))
    # Sometimes a string becomes a lone surrogate, a huge number or a deep nest, where JSON allows a value.
    if draw(st.integers(0, 3)) == 0 and '"' in text:
        text = text.replace('"Ada"', '"' + draw(st.sampled_from(SURROGATE_ESCAPES)) + '"', 1)
    if draw(st.integers(0, 3)) == 0:
        splice = draw(
            st.one_of(
                st.sampled_from(HUGE_NUMBERS[:8]),
                st.builds(nested, sizes(100), st.sampled_from(["array", "object"])),
            )
        )
        text = text.replace("7", splice, 1).replace("0", splice, 1)
    return text.encode("utf-8", "surrogatepass")


# Each kind of garbage at least once in a CI run: hypothesis's one_of draws its first branch most.
KNOWN_HOSTILE_BODIES = [
    nested(1_500, "array"),
    nested(1_500, "object"),
    nested(32_000, "array"),
    '{"players": ' + nested(1_500, "array") + "}",
    '{"players": [{"name": "\\ud800"}, {"name": "B"}]}',
    '{"\\ud800": 1}',
    '{"action": "\\udfff"}',
    '{"action": "buy", "patch_id": 1, "placement": {"cells": [' + ",".join(["[9,9]"] * 10_500) + "]}}",
    '{"seed": 1e99999999999999999999}',
    '{"seed": ' + "9" * 4301 + "}",
    '{"seed": NaN}',
    '{"seed": -Infinity}',
    '{"patch_order": [' + ",".join(map(str, range(12_000))) + "]}",
    "{" + " " * 70_000 + "}",
    "\ufeff{}",
    "",
]


def bodies() -> st.SearchStrategy[bytes]:
    return st.one_of(
        st.sampled_from(KNOWN_HOSTILE_BODIES).map(lambda text: text.encode("utf-8")),
        mutated_bodies(),
        st.binary(max_size=200),
        JSON_VALUES.map(lambda doc: json.dumps(doc).encode()),
        st.builds(nested, sizes(2000), st.sampled_from(["array", "object"])).map(str.encode),
        st.sampled_from(SURROGATE_ESCAPES).map(
            lambda escape: ('{"' + escape + '": "' + escape + '"}').encode()
        ),
        st.sampled_from(HUGE_NUMBERS).map(lambda number: ('{"seed": ' + number + "}").encode()),
        sizes(100).map(lambda size: b"{" + b" " * size + b"}"),
        st.sampled_from(
            [b"\xef\xbb\xbf{}", b"\xff\xfe{\x00}\x00", b"{\x00}", b'{"a":1}{"b":2}', b"[]", b"null"]
        ),
    )


@st.composite
def hostile_requests(draw, game) -> RawRequest:
    """Mostly bodies for the two operations that take one, then reads, then anything anywhere."""
    headers = [
        (name, draw(header_values(game)))
        for name in draw(st.lists(st.sampled_from(HEADER_NAMES), max_size=3, unique=True))
    ]
    kind = draw(st.sampled_from(["body"] * 5 + ["read"] * 3 + ["any"] * 2))
    if kind == "body":
        method = "POST"
        game_id = game["id"].encode() if draw(st.integers(0, 3)) else draw(game_ids(game))
        target = draw(st.sampled_from([b"/games", b"/games/" + game_id + b"/moves"]))
        content_type = (
            b"application/json" if draw(st.integers(0, 4)) else draw(st.sampled_from(CONTENT_TYPES))
        )
        headers.append(("Content-Type", content_type))
        if draw(st.booleans()):
            headers.append(("Authorization", b"Bearer " + draw(st.sampled_from(game["tokens"])).encode()))
        return RawRequest(method, target, headers, draw(bodies()))
    method = draw(st.sampled_from(["GET", "HEAD"] if kind == "read" else METHODS))
    if kind == "any" and draw(st.booleans()):
        headers.append(("Content-Type", draw(st.sampled_from(CONTENT_TYPES))))
    body = draw(bodies()) if kind == "any" and draw(st.booleans()) else b""
    return RawRequest(method, draw(targets(game)), headers, body)


# --- What every answer must be --------------------------------------------------------------------


def assert_answer_is_sound(request: RawRequest, response: RawResponse, game) -> str | None:
    """Fail unless the answer is one a client can rely on; its problem code, if any."""
    where = f"{request!r} -> {response.status} {response.headers} {response.body[:400]!r}"
    assert response.status < 500, f"server error: {where}"
    # The one redirect the spec declares (getHome): the front door leads to /docs.
    front_door = response.status == 302 and response.headers.get("location") == "docs"
    assert not 300 <= response.status < 400 or response.status == 304 or front_door, f"redirect: {where}"
    assert response.status in DECLARED, f"undeclared status: {where}"
    for token in game["tokens"]:
        assert token.encode() not in response.body, f"a seat token echoed: {where}"
    if response.status < 400:
        return None
    assert response.headers.get("content-type") == PROBLEM, f"not problem+json: {where}"
    if request.method == "HEAD":
        return None
    doc = json.loads(response.body)
    assert doc["status"] == response.status and doc["code"] and doc["title"], where
    return doc["code"]


def live_game(base_url: str) -> dict:
    """A game to aim at: its id and its two tokens, from the service itself."""
    req = urllib.request.Request(
        f"{base_url}/games", data=b"{}", method="POST", headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=10) as resp:
        created = json.loads(resp.read())
    return {"id": created["game"]["id"], "tokens": created["tokens"]}


def fuzz(service, *, examples: int, derandomize: bool) -> Counter:
    """Run the hostile requests; the problem codes answered (None: a success), counted."""
    address = urlsplit(service.url)
    game = live_game(service.url)
    answered: Counter = Counter()

    @settings(
        max_examples=examples,
        derandomize=derandomize,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(request=hostile_requests(game))
    def answers_are_sound(request: RawRequest) -> None:
        response = send(address.hostname, address.port, request, ANSWER_TIMEOUT_SECONDS)
        answered[assert_answer_is_sound(request, response, game)] += 1

    try:
        answers_are_sound()
    except AssertionError as failure:
        raise AssertionError(
            f"{failure}\n--- end of the service's log ---\n{service.log()[-3000:]}"
        ) from None
    # The service is still there and well after all of it.
    assert (
        send(address.hostname, address.port, RawRequest("GET", b"/readyz"), ANSWER_TIMEOUT_SECONDS).status
        == 200
    )
    return answered


def test_hostile_requests_get_sound_answers(fuzz_service):
    answered = fuzz(fuzz_service, examples=HOSTILE_CI_EXAMPLES, derandomize=True)
    # Not vacuous: the requests reached the JSON parser, the spec check, the games and the router.
    assert set(answered) >= {
        None,
        "invalid_json",
        "invalid_request",
        "game_not_found",
        "not_found",
        "method_not_allowed",
        "payload_too_large",
        "unsupported_media_type",
    }, answered


@pytest.mark.slow
def test_hostile_requests_long_session(fuzz_service):
    deadline = time.monotonic() + float(os.environ.get("FUZZ_HOSTILE_SECONDS", 600))
    while time.monotonic() < deadline:
        fuzz(fuzz_service, examples=500, derandomize=False)

"""The store reserve (issue 36): near `maxmemory`, creations are refused first and games in progress play on.

A client filled a 16 MB Redis with open games in 13 s, and then every write
of everyone was `503 storage_unavailable`, moves of games in progress
included. Here each Redis node gets a `maxmemory` 4 MB above its data and
is filled to 88 % of it at once, so a few new games bring it inside the
10 % reserve: every creation up to then is made, the first one refused is
`503 store_nearly_full`, and a game in progress is then played to its end.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from service.config import Settings
from tests.support.anu import anu_games, anu_record
from tests.support.backends import Backend
from tests.support.store_fill import play_out
from tests.support.store_fill import squeeze as squeeze_node

from .conftest import Table, client_with

OPEN_GAME = {"players": [{"name": "Ann"}, {"open": True}]}


@pytest.fixture
def squeeze(backend: Backend) -> Iterator:
    """Call squeeze(f): each node gets 4 MB of maxmemory above its data and is filled to the fraction f of it
    (tests/support/store_fill.py), so a few creations bring it inside the reserve; undone after."""

    def fill_to(fraction: float) -> None:
        for node in backend.nodes:
            squeeze_node(node, fraction)

    try:
        yield fill_to
    finally:
        for node in backend.nodes:
            node.config_set("maxmemory", 0)  # the servers are shared with other tests


@pytest.fixture
def reserve_client(backend, contract):
    # Memory read on every request (not once a second), so the first creation inside the reserve is refused.
    with client_with(backend, contract, store_reserve_check_seconds=0.0) as client:
        yield client


def test_the_reserve_is_on_by_default():
    assert Settings().store_reserve_percent == 10
    assert Settings.from_env({}).store_reserve_percent == 10
    assert Settings.from_env({"STORE_RESERVE_PERCENT": "0"}).store_reserve_percent == 0


def test_near_maxmemory_creations_are_refused_first_and_a_game_in_progress_plays_to_its_end(
    reserve_client, squeeze
):
    client = reserve_client
    t = Table(client, {"seed": 1})
    assert client.get(f"/games/{t.id}").status_code == 200
    squeeze(0.88)
    answers = []
    # 2 % of 5 MB at about 3 KB a game: a few dozen games; 1,000 is far past it.
    for _ in range(1000):
        answers.append(client.post("/games", json={}))
        if answers[-1].status_code != 201:
            break
    refused = answers[-1]
    assert len(answers) > 1 and all(r.status_code == 201 for r in answers[:-1])
    assert refused.status_code == 503, refused.get_json()
    assert refused.get_json()["code"] == "store_nearly_full"
    assert refused.headers["Retry-After"] == "60"
    # Players and seeks are new things too. Filled well inside the reserve first: at its edge a few bytes
    # freed elsewhere (another test's key expiring) would let the next creation through.
    squeeze(0.95)
    for path, body in (("/players", {"name": "Bob"}), ("/games", OPEN_GAME)):
        also = client.post(path, json=body)
        assert also.status_code == 503 and also.get_json()["code"] == "store_nearly_full"
    # So is an imported game (issue 41).
    record = client.post(
        "/games/import", data=anu_record(anu_games()[0]), content_type="text/x-patchwork-record"
    )
    assert record.status_code == 503 and record.get_json()["code"] == "store_nearly_full"

    finished = play_out(t.state(), lambda body, seat: t.play(body, seat=seat))
    assert finished["status"] == "finished" and finished["moves_played"] == 59


def test_without_maxmemory_the_reserve_never_applies(reserve_client, backend):
    for node in backend.nodes:
        assert int(node.config_get("maxmemory")["maxmemory"]) == 0
    assert all(reserve_client.post("/games", json=OPEN_GAME).status_code == 201 for _ in range(5))


def test_the_reserve_can_be_turned_off(backend, contract, squeeze):
    with client_with(backend, contract, store_reserve_percent=0) as client:
        squeeze(0.95)
        assert client.post("/games", json=OPEN_GAME).status_code == 201

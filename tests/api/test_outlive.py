"""A player's finished game outlives GAME_TTL_SECONDS as its kept record, rebuilt byte for byte (issue 41).

The TTL is one second here, so the game's keys really expire (no key is
deleted by the test); every read after that rebuilds the game from its
kept record (service/games/outlive.py), on a single Redis and a Cluster.
"""

from __future__ import annotations

import time

from tests.api.conftest import client_with

TTL_SECONDS = 1


def _player(client, name):
    body = client.post("/players", json={"name": name}).get_json()
    return body["player"], {"Authorization": f"Bearer {body['token']}"}


def _players_game(client, rated: bool) -> tuple[str, dict]:
    """A clocked game between two players paired by seeks, two moves each, then a resignation; a player's auth."""
    _ann, ann = _player(client, "Ann")
    _bob, bob = _player(client, "Bob")
    seek = {"clock": {"initial_s": 300, "increment_s": 3}, "rated": rated, "range": 3000}
    assert client.post("/seeks", json=seek, headers=ann).status_code == 201
    game_id = client.post("/seeks", json=seek, headers=bob).get_json()["seek"]["game"]
    first = client.get(f"/games/{game_id}").get_json()["first_player"]
    seats = (ann, bob) if first == 0 else (bob, ann)
    for auth in (*seats, *seats):
        moved = client.post(f"/games/{game_id}/moves", json={"action": "advance"}, headers=auth)
        assert moved.status_code == 201, moved.get_json()
    assert client.post(f"/games/{game_id}/resign", headers=seats[0]).status_code == 201
    return game_id, ann


def _reads(client, game_id: str) -> dict[str, tuple[int, str | None, bytes]]:
    """Every read of a finished game: its status, ETag and bytes."""
    game = client.get(f"/games/{game_id}").get_json()
    paths = [
        f"/games/{game_id}",
        f"/games/{game_id}/moves",
        f"/games/{game_id}/board.svg",
        f"/games/{game_id}/board.txt",
        f"/games/{game_id}/record",
        *(f"/games/{game_id}?version={version}" for version in range(1, game["version"] + 1)),
        *(f"/games/{game_id}/record?version={version}" for version in range(1, game["version"] + 1)),
        *(f"/games/{game_id}/moves/{number}" for number in range(1, game["version"])),
    ]
    reads = {}
    for path in paths:
        resp = client.get(path)
        reads[path] = (resp.status_code, resp.headers.get("ETag"), resp.get_data())
    return reads


def _expire(client, game_id: str) -> None:
    """Wait out the game's TTL: its keys are gone from the store, its kept record is not."""
    store = client.application.extensions["patchwork"].store
    deadline = time.monotonic() + 5
    while store.load_game(game_id) is not None:
        assert time.monotonic() < deadline, "the game's keys never expired"
        time.sleep(0.1)
    assert store.load_moves(game_id) is None
    assert store.load_kept(game_id) is not None


def test_a_finished_player_game_is_read_after_its_keys_expired_byte_for_byte(backend, contract):
    with client_with(backend, contract, game_ttl_seconds=TTL_SECONDS) as client:
        game_id, auth = _players_game(client, rated=False)
        before = _reads(client, game_id)
        assert all(status == 200 for status, _tag, _body in before.values())
        _expire(client, game_id)
        assert _reads(client, game_id) == before
        # Rebuilt, it is the finished game it was: analysed on request, and refused a move as finished.
        asked = client.post(f"/games/{game_id}/analysis")
        assert asked.status_code == 202, asked.get_json()
        _expire(client, game_id)
        assert client.post(f"/games/{game_id}/analysis").status_code in (200, 202)
        _expire(client, game_id)
        refused = client.post(f"/games/{game_id}/moves", json={"action": "advance"}, headers=auth)
        assert (refused.status_code, refused.get_json()["code"]) == (409, "game_finished")


def test_a_rated_games_rating_diff_is_exact_after_its_keys_expired(backend, contract):
    with client_with(backend, contract, game_ttl_seconds=TTL_SECONDS) as client:
        game_id, _auth = _players_game(client, rated=True)
        before = _reads(client, game_id)
        result = client.get(f"/games/{game_id}").get_json()["result"]
        assert result["rated"] is True and len(result["rating_diff"]) == 2
        store = client.application.extensions["patchwork"].store
        state = store.load_game(game_id).state
        _expire(client, game_id)
        assert _reads(client, game_id) == before
        # The game as stored again is the one stored before: its exact settlement too.
        assert store.load_game(game_id).state == state


def test_an_anonymous_finished_game_still_expires(backend, contract):
    with client_with(backend, contract, game_ttl_seconds=TTL_SECONDS) as client:
        created = client.post("/games", json={"seed": 7}).get_json()
        game_id = created["game"]["id"]
        token = created["tokens"][0]
        resigned = client.post(f"/games/{game_id}/resign", headers={"Authorization": f"Bearer {token}"})
        assert resigned.status_code == 201
        store = client.application.extensions["patchwork"].store
        assert store.load_kept(game_id) is None
        deadline = time.monotonic() + 5
        while client.get(f"/games/{game_id}").status_code == 200:
            assert time.monotonic() < deadline, "the game never expired"
            time.sleep(0.1)
        for path in ("", "/moves", "/board.svg", "/record"):
            assert client.get(f"/games/{game_id}{path}").status_code == 404

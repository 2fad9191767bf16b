"""Players, open seats, the lobby and joining, over HTTP on a single Redis and a Cluster (issue 20)."""

from __future__ import annotations

import json
import time

import pytest

from service.api import create_app
from service.config import Settings
from service.games.records import token_hash

from .conftest import checked_client_class, client_with


def _player(client, name="Ann"):
    resp = client.post("/players", json={"name": name})
    assert resp.status_code == 201, resp.get_json()
    body = resp.get_json()
    assert resp.headers["Location"] == f"/players/{body['player']['id']}"
    return body["player"], body["token"]


def _bearer(token):
    return {"Authorization": f"Bearer {token}"}


def _open_game(client, token=None, **extra):
    headers = _bearer(token) if token else {}
    resp = client.post("/games", json={"players": [{"name": "x"}, {"open": True}], **extra}, headers=headers)
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()


def test_a_player_is_created_read_and_recognised_by_its_token(client, app):
    player, token = _player(client)
    assert player["name"] == "Ann" and player["rating"] == 1500 and player["rd"] == 350
    assert player["games"] == 0
    assert client.get(f"/players/{player['id']}").get_json() == player
    me = client.get("/players/me", headers=_bearer(token))
    assert me.status_code == 200 and me.get_json() == {
        **player,
        "vacation_days_left": 14,
        "vacation_until": None,
    }
    # Stored hashed: the token itself is nowhere in the player's record.
    stored = app.extensions["patchwork"].players.store.load(player["id"])
    assert token not in stored and token_hash(token) in stored


def test_wrong_player_tokens_and_ids_are_refused(client):
    player, token = _player(client)
    assert client.get("/players/me").get_json()["code"] == "missing_token"
    wrong = f"{player['id']}.not-the-secret"
    for bad in (wrong, "no-dot-here", token + "x"):
        resp = client.get("/players/me", headers=_bearer(bad))
        assert resp.status_code == 401 and resp.get_json()["code"] == "invalid_token"
    assert client.get("/players/AAAAAAAAAAAAAAAAAAAAAA").get_json()["code"] == "player_not_found"
    assert client.get("/players/a}b").status_code == 404
    assert client.post("/players", json={"name": ""}).status_code == 400
    assert client.post("/players", json={"name": "A", "extra": 1}).status_code == 400


# Where a player acts, no seat or game is involved: the refusals say so, in the request's language.
PLAYER_TOKEN_REFUSALS = {
    "en": (
        (
            "Bearer token required",
            "Send Authorization: Bearer <player token>, the token POST /players returned.",
        ),
        ("Token not accepted", "This is not a player token: send the token POST /players returned."),
    ),
    "es": (
        (
            "Hace falta un token Bearer",
            "Envía Authorization: Bearer <token de jugador>, el token que devolvió POST /players.",
        ),
        ("Token no aceptado", "Esto no es un token de jugador: envía el token que devolvió POST /players."),
    ),
    "pt": (
        (
            "É preciso um token Bearer",
            "Envie Authorization: Bearer <token de jogador>, o token que POST /players devolveu.",
        ),
        ("Token não aceito", "Isto não é um token de jogador: envie o token que POST /players devolveu."),
    ),
    "fr": (
        (
            "Jeton Bearer requis",
            "Envoyez Authorization: Bearer <jeton de joueur>, le jeton que POST /players a renvoyé.",
        ),
        ("Jeton refusé", "Ce n'est pas un jeton de joueur : envoyez le jeton que POST /players a renvoyé."),
    ),
}


@pytest.mark.parametrize("language", sorted(PLAYER_TOKEN_REFUSALS))
def test_a_player_token_refusal_speaks_of_player_tokens_not_seats(client, language):
    (missing_title, missing_detail), (wrong_title, wrong_detail) = PLAYER_TOKEN_REFUSALS[language]
    said = {"Accept-Language": language}
    for path in ("/players/me", "/players/me/games"):
        missing = client.get(path, headers=said).get_json()
        assert (missing["code"], missing["title"], missing["detail"]) == (
            "missing_token",
            missing_title,
            missing_detail,
        )
        wrong = client.get(path, headers={**said, **_bearer("no-dot-here")}).get_json()
        assert (wrong["code"], wrong["title"], wrong["detail"]) == (
            "invalid_token",
            wrong_title,
            wrong_detail,
        )


def test_a_player_token_acts_for_its_seat_and_the_seat_token_still_works(client):
    player, token = _player(client)
    resp = client.post(
        "/games", json={"players": [{"name": "ignored"}, {"name": "Bob"}]}, headers=_bearer(token)
    )
    assert resp.status_code == 201
    created = resp.get_json()
    game = created["game"]
    assert game["players"][0]["name"] == "Ann" and game["players"][0]["player_id"] == player["id"]
    assert game["players"][1]["player_id"] is None
    gid = game["id"]
    assert client.get(f"/games/{gid}/seat", headers=_bearer(token)).get_json() == {"seat": 0}
    advance = {"data": json.dumps({"action": "advance"}), "content_type": "application/json"}
    assert client.post(f"/games/{gid}/moves", headers=_bearer(token), **advance).status_code == 201
    # Seat 1's own token, then seat 0's seat token.
    assert (
        client.post(f"/games/{gid}/moves", headers=_bearer(created["tokens"][1]), **advance).status_code
        == 201
    )
    resp = client.post(f"/games/{gid}/moves", headers=_bearer(created["tokens"][0]), **advance)
    assert resp.status_code in (201, 409)  # 409 not_your_turn when seat 1 is still behind
    # Another player's token is no token of this game.
    _other, other_token = _player(client, "Cy")
    assert (
        client.get(f"/games/{gid}/seat", headers=_bearer(other_token)).get_json()["code"] == "invalid_token"
    )


def test_create_game_with_a_token_that_is_not_a_players_is_401(client):
    resp = client.post("/games", json={}, headers=_bearer("not-a-player-token"))
    assert resp.status_code == 401 and resp.get_json()["code"] == "invalid_token"


def test_an_open_seat_is_listed_joined_once_and_leaves_the_lobby(client):
    host, host_token = _player(client)
    created = _open_game(client, host_token)
    game = created["game"]
    gid = game["id"]
    assert created["tokens"][1] is None and game["players"][1]["open"] is True
    # No move before someone joins.
    resp = client.post(
        f"/games/{gid}/moves",
        data=json.dumps({"action": "advance"}),
        content_type="application/json",
        headers=_bearer(host_token),
    )
    assert resp.status_code == 409 and resp.get_json()["code"] == "game_not_started"
    lobby = client.get("/games?status=open").get_json()
    entry = next(e for e in lobby["games"] if e["id"] == gid)
    assert entry["seat"] == 1 and entry["host"] == {"name": "Ann", "player_id": host["id"], "rating": 1500}
    # The host cannot join its own game.
    assert client.post(f"/games/{gid}/join", headers=_bearer(host_token)).get_json()["code"] == "seat_taken"
    joiner, joiner_token = _player(client, "Bob")
    resp = client.post(f"/games/{gid}/join", headers=_bearer(joiner_token))
    assert resp.status_code == 201, resp.get_json()
    joined = resp.get_json()
    assert joined["seat"] == 1 and joined["game"]["players"][1]["name"] == "Bob"
    assert joined["game"]["players"][1]["open"] is False
    assert joined["game"]["players"][1]["player_id"] == joiner["id"]
    assert client.get(f"/games/{gid}").get_json()["players"][1]["name"] == "Bob"
    # Taken: a second joiner is refused, and the game has left the lobby.
    again = client.post(f"/games/{gid}/join", json={"name": "Cy"})
    assert again.status_code == 409 and again.get_json()["code"] == "seat_taken"
    assert gid not in [e["id"] for e in client.get("/games?status=open").get_json()["games"]]
    # Both the seat token and the joiner's player token play seat 1.
    assert client.get(f"/games/{gid}/seat", headers=_bearer(joined["token"])).get_json() == {"seat": 1}
    assert client.get(f"/games/{gid}/seat", headers=_bearer(joiner_token)).get_json() == {"seat": 1}
    resp = client.post(
        f"/games/{gid}/moves",
        data=json.dumps({"action": "advance"}),
        content_type="application/json",
        headers=_bearer(host_token),
    )
    assert resp.status_code == 201


def test_a_joiner_without_a_player_gives_a_name(client):
    gid = _open_game(client)["game"]["id"]
    resp = client.post(f"/games/{gid}/join", json={"name": "Dee"})
    assert resp.status_code == 201
    assert resp.get_json()["game"]["players"][1]["name"] == "Dee"
    assert resp.get_json()["game"]["players"][1]["player_id"] is None


def test_an_unlisted_game_is_kept_out_of_the_lobby_but_can_be_joined(client):
    gid = _open_game(client, listed=False)["game"]["id"]
    assert gid not in [e["id"] for e in client.get("/games?status=open").get_json()["games"]]
    assert client.post(f"/games/{gid}/join", json={"name": "Eve"}).status_code == 201


def test_a_game_without_an_open_seat_cannot_be_joined(client, table):
    game = table()
    resp = client.post(f"/games/{game.id}/join", json={"name": "Eve"})
    assert resp.status_code == 409 and resp.get_json()["code"] == "seat_taken"
    assert client.post("/games/AAAAAAAAAAAAAAAAAAAAAA/join").get_json()["code"] == "game_not_found"


@pytest.fixture
def roomy_client(backend, contract):
    """A client whose address may hold 60 open games at once (OPEN_GAMES_PER_PLAYER is 10 by default)."""
    with client_with(backend, contract, open_games_per_player=60) as client:
        yield client


def test_the_lobby_pages_newest_first_with_a_cursor(roomy_client):
    client = roomy_client
    ids = [_open_game(client)["game"]["id"] for _ in range(53)]
    first = client.get("/games?status=open").get_json()
    assert len(first["games"]) == 50 and first["next"]
    second = client.get("/games", query_string={"status": "open", "cursor": first["next"]}).get_json()
    seen = [e["id"] for e in first["games"] + second["games"]]
    assert second["next"] is None
    assert sorted(seen) == sorted(ids) and len(set(seen)) == 53
    # Newest first: the last game made leads (ties within a millisecond by id, descending).
    created = [e["created_at"] for e in first["games"] + second["games"]]
    assert created == sorted(created, reverse=True)
    assert client.get("/games").status_code == 400  # status=open is required


def test_a_stale_index_entry_is_dropped_when_the_lobby_is_read(client, app):
    gid = _open_game(client)["game"]["id"]
    lobby = app.extensions["patchwork"].lobby
    # As if a joiner had crashed between taking the seat and the index's update:
    # the seat is taken, the entry is still there.
    assert client.post(f"/games/{gid}/join", json={"name": "Fay"}).status_code == 201
    lobby.index.add(gid, 10**13)
    assert gid not in [e["id"] for e in client.get("/games?status=open").get_json()["games"]]
    assert gid not in [member for member, _ms in lobby.index.newest(None, 100)]


def _join(client, gid, key, body=None, token=None):
    headers = {"Idempotency-Key": key, **(_bearer(token) if token else {})}
    return client.post(f"/games/{gid}/join", json=body or {}, headers=headers)


def test_a_join_with_an_idempotency_key_is_safe_to_retry_token_included(client, backend):
    gid = _open_game(client)["game"]["id"]
    first = _join(client, gid, "join-7f3a", {"name": "Bob"})
    assert first.status_code == 201, first.get_json()
    seat_token = first.get_json()["token"]
    # The 201 was lost: the retry gets it again, byte for byte, and the token in it plays the seat.
    again = _join(client, gid, "join-7f3a", {"name": "Bob"})
    assert again.status_code == 201 and again.get_data() == first.get_data()
    assert again.headers["Location"] == f"/games/{gid}"
    assert client.get(f"/games/{gid}/seat", headers=_bearer(seat_token)).get_json() == {"seat": 1}
    # The same key with another body, as for moves.
    other = _join(client, gid, "join-7f3a", {"name": "Bo"})
    assert other.status_code == 422 and other.get_json()["code"] == "idempotency_key_reused"
    # Another joiner's key is its own: a player sending the same key joins afresh, and finds the seat taken.
    _player_body, player_token = _player(client, "Cy")
    taken = _join(client, gid, "join-7f3a", {"name": "Bob"}, token=player_token)
    assert taken.status_code == 409 and taken.get_json()["code"] == "seat_taken"
    # The store keeps neither the seat token nor the key in the clear.
    stored = [
        (key, node.get(key))
        for node in backend.nodes
        for key in node.keys("*idem*")
        if node.type(key) == "string"
    ]
    assert stored
    for key, value in stored:
        assert "join-7f3a" not in key and seat_token not in (value or "")


def test_a_players_keyed_join_replays_and_a_refused_join_records_nothing(client):
    _ann, ann_token = _player(client, "Ann")
    _bob, bob_token = _player(client, "Bob")
    gid = _open_game(client, ann_token)["game"]["id"]
    # Ann already plays in it: refused, and the key stays free.
    refused = _join(client, gid, "k1", token=ann_token)
    assert refused.status_code == 409 and refused.get_json()["code"] == "seat_taken"
    first = _join(client, gid, "k1", token=bob_token)
    assert first.status_code == 201, first.get_json()
    again = _join(client, gid, "k1", token=bob_token)
    assert again.status_code == 201 and again.get_data() == first.get_data()
    # Bob's player token and the seat token both act for his seat.
    seat_token = first.get_json()["token"]
    for token in (bob_token, seat_token):
        assert client.get(f"/games/{gid}/seat", headers=_bearer(token)).get_json() == {"seat": 1}
    assert client.post(f"/games/{gid}/join", headers={"Idempotency-Key": "a b"}).status_code == 400


def test_an_open_seat_whose_lobby_time_is_up_cannot_be_joined(backend, contract):
    app = create_app(backend.settings(lobby_ttl_seconds=1))
    app.test_client_class = checked_client_class(contract)
    client = app.test_client()
    try:
        gid = _open_game(client)["game"]["id"]
        listed = client.get("/games?status=open").get_json()["games"]
        assert gid in [e["id"] for e in listed]
        time.sleep(1.2)  # the TTL itself: past it, on the store's clock and the app's
        resp = client.post(f"/games/{gid}/join", json={"name": "Gus"})
        assert resp.status_code == 409 and resp.get_json()["code"] == "seat_taken"
        assert "time in the lobby is up" in resp.get_json()["detail"]
        assert gid not in [e["id"] for e in client.get("/games?status=open").get_json()["games"]]
        result = client.get(f"/games/{gid}").get_json()["result"]
        assert result["winner"] is None and result["reason"] == "aborted"
        # One left alone is aborted when the lobby is next read.
        other = _open_game(client)["game"]["id"]
        time.sleep(1.2)
        assert other not in [e["id"] for e in client.get("/games?status=open").get_json()["games"]]
        assert client.get(f"/games/{other}").get_json()["result"]["reason"] == "aborted"
        again = client.post(f"/games/{other}/join", json={"name": "Gus"})
        assert again.status_code == 409 and again.get_json()["code"] == "seat_taken"
    finally:
        app.extensions["patchwork"].store.close()


def test_an_open_seat_is_timed_by_the_stores_clock_not_the_processs(backend, contract, monkeypatch):
    # This process's clock runs two minutes behind the store's: a seat the
    # lobby keeps a minute is still open on the store's clock, which the join is judged on.
    real = time.time
    monkeypatch.setattr(time, "time", lambda: real() - 120)
    app = create_app(backend.settings(lobby_ttl_seconds=60))
    app.test_client_class = checked_client_class(contract)
    client = app.test_client()
    try:
        gid = _open_game(client)["game"]["id"]
        assert gid in [e["id"] for e in client.get("/games?status=open").get_json()["games"]]
        resp = client.post(f"/games/{gid}/join", json={"name": "Gus"})
        assert resp.status_code == 201 and resp.get_json()["seat"] == 1, resp.get_json()
    finally:
        app.extensions["patchwork"].store.close()


def _ms(rfc3339: str) -> int:
    from datetime import datetime

    return int(datetime.fromisoformat(rfc3339.replace("Z", "+00:00")).timestamp() * 1000)


def test_a_clock_waits_while_a_seat_is_open_and_starts_when_it_is_taken(client):
    clock = {"initial_s": 60, "increment_s": 0, "first_move_s": 30}
    opened = _open_game(client, clock=clock)
    created, created_tokens = opened["game"], opened["tokens"]
    gid = created["id"]
    lobby = client.get("/games?status=open").get_json()["games"]
    assert next(e for e in lobby if e["id"] == gid)["clock"]["initial_s"] == 60
    # While the seat waits, the clock's deadline is the lobby's (the timekeepers abort the game then).
    waits_until = _ms(created["clock"]["deadline"]) - _ms(created["created_at"])
    assert 3600_000 - 2000 <= waits_until <= 3600_000 + 1000
    time.sleep(1.1)  # a wait the first-move deadline must not be charged with
    joined = client.post(f"/games/{gid}/join", json={"name": "Hal"}).get_json()["game"]
    # From the join: the first move is due within first_move_s of it.
    assert 30_000 <= _ms(joined["clock"]["deadline"]) - _ms(created["created_at"]) - 1000 <= 32_000
    assert client.get(f"/games/{gid}").get_json()["clock"] == joined["clock"]
    resp = client.post(
        f"/games/{gid}/moves",
        data=json.dumps({"action": "advance"}),
        content_type="application/json",
        headers=_bearer(created_tokens[0]),
    )
    assert resp.status_code == 201, resp.get_json()


def test_a_player_holds_at_most_ten_open_games_at_once_by_default(client):
    """Issue 36, finding 4: one client made 3,000 open games in 16 s; a real one fell to page 61 of the lobby."""
    assert Settings().open_games_per_player == 10
    _host, host_token = _player(client, "Host")
    games = [_open_game(client, host_token)["game"]["id"] for _ in range(10)]
    refused = client.post(
        "/games", json={"players": [{"name": "x"}, {"open": True}]}, headers=_bearer(host_token)
    )
    assert refused.status_code == 409 and refused.get_json()["code"] == "too_many_waiting"
    # Unlisted open games count too; a game with no open seat does not.
    unlisted = {"players": [{"name": "x"}, {"open": True}], "listed": False}
    assert client.post("/games", json=unlisted, headers=_bearer(host_token)).status_code == 409
    assert client.post("/games", json={}, headers=_bearer(host_token)).status_code == 201
    # A joined game is open no more: the host may open another.
    assert client.post(f"/games/{games[0]}/join", json={"name": "Guest"}).status_code == 201
    _open_game(client, host_token)
    # Without a player token, the client address holds them; another address has its own.
    for _ in range(10):
        _open_game(client)
    assert client.post("/games", json={"players": [{"name": "x"}, {"open": True}]}).status_code == 409
    elsewhere = client.post(
        "/games", json={"players": [{"name": "x"}, {"open": True}]}, environ_base={"REMOTE_ADDR": "10.9.8.7"}
    )
    assert elsewhere.status_code == 201

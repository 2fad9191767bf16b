"""POST /games/{id}/rematch on a single Redis and a Cluster (issue 20)."""

from __future__ import annotations

import time
from dataclasses import replace

from service.api import create_app
from service.games.jsontext import compact
from service.games.records import GameRecord
from service.games.views import game_view

from .conftest import checked_client_class


def _auth(token):
    return {"Authorization": f"Bearer {token}"}


def _finished(client, body=None):
    created = client.post("/games", json=body or {"players": [{"name": "Ann"}, {"name": "Bob"}]}).get_json()
    gid, tokens = created["game"]["id"], created["tokens"]
    assert client.post(f"/games/{gid}/resign", headers=_auth(tokens[1])).status_code == 201
    return gid, tokens


def test_the_first_asks_the_other_gets_the_same_game_seats_swapped(client):
    gid, tokens = _finished(client, {"players": [{"name": "Ann"}, {"name": "Bob"}], "time_board": "original"})
    first = client.post(f"/games/{gid}/rematch", headers=_auth(tokens[1]))
    assert first.status_code == 201, first.get_json()
    body = first.get_json()
    nxt = body["game"]
    assert body["seat"] == 0 and body["token"] == tokens[1]
    assert [p["name"] for p in nxt["players"]] == ["Bob", "Ann"]
    assert nxt["time_board"] == "original" and nxt["status"] == "active"
    # The seat that did not start (Bob, seat 1 then) starts: first_player keeps its number.
    assert nxt["first_player"] == 0 and nxt["turn"] == 0
    assert client.get(f"/games/{gid}").get_json()["next_game"] == nxt["id"]
    second = client.post(f"/games/{gid}/rematch", headers=_auth(tokens[0]))
    assert second.status_code == 200 and second.get_json()["game"]["id"] == nxt["id"]
    assert second.get_json()["seat"] == 1
    # Each one's old token plays its new seat.
    assert client.get(f"/games/{nxt['id']}/seat", headers=_auth(tokens[1])).get_json() == {"seat": 0}
    assert client.get(f"/games/{nxt['id']}/seat", headers=_auth(tokens[0])).get_json() == {"seat": 1}
    # A retry answers the same game again.
    assert (
        client.post(f"/games/{gid}/rematch", headers=_auth(tokens[1])).get_json()["game"]["id"] == nxt["id"]
    )


def test_a_rematch_needs_a_finished_game_and_one_of_its_tokens(client, table):
    game = table()
    resp = client.post(f"/games/{game.id}/rematch", headers=game.auth(0))
    assert resp.status_code == 409 and resp.get_json()["code"] == "game_not_finished"
    gid, _tokens = _finished(client)
    assert client.post(f"/games/{gid}/rematch").get_json()["code"] == "missing_token"
    assert client.post(f"/games/{gid}/rematch", headers=game.auth(0)).get_json()["code"] == "invalid_token"


def test_a_players_token_asks_for_its_seat_and_hears_the_offer(app, client):
    ann = client.post("/players", json={"name": "Ann"}).get_json()
    bob = client.post("/players", json={"name": "Bob"}).get_json()
    opened = client.post(
        "/games", json={"players": [{"name": "x"}, {"open": True}]}, headers=_auth(ann["token"])
    ).get_json()
    gid = opened["game"]["id"]
    client.post(f"/games/{gid}/join", headers=_auth(bob["token"]))
    assert client.post(f"/games/{gid}/resign", headers=_auth(ann["token"])).status_code == 201
    resp = client.post(f"/games/{gid}/rematch", headers=_auth(ann["token"]))
    assert resp.status_code == 201
    nxt = resp.get_json()["game"]
    assert [p["player_id"] for p in nxt["players"]] == [bob["player"]["id"], ann["player"]["id"]]
    kinds = [
        e.kind for e in app.extensions["patchwork"].players.store.events_after(bob["player"]["id"], None, 20)
    ]
    assert "rematch" in kinds and kinds.count("game_start") == 2


def test_a_claim_whose_game_was_never_created_is_repaired_by_the_next_call(app, client):
    gid, tokens = _finished(client)
    play = app.extensions["patchwork"].play
    game = play.load(gid)
    # As if the claimer had died between the claim and the game's creation.
    claimed: GameRecord = replace(game.record, next_game="N" * 22)
    assert play.store.amend(
        gid, game.version, game.revision, claimed.encode(), compact(game_view(claimed, game.version))
    ).committed
    play.kept.drop(gid)
    resp = client.post(f"/games/{gid}/rematch", headers=_auth(tokens[0]))
    assert resp.status_code == 200 and resp.get_json()["game"]["id"] == "N" * 22
    assert client.get(f"/games/{'N' * 22}").status_code == 200


def test_a_game_whose_open_seat_was_never_joined_has_no_rematch(backend, contract):
    app = create_app(backend.settings(lobby_ttl_seconds=1))
    app.test_client_class = checked_client_class(contract)
    client = app.test_client()
    try:
        created = client.post("/games", json={"players": [{"name": "Ann"}, {"open": True}]}).get_json()
        gid, tokens = created["game"]["id"], created["tokens"]
        time.sleep(1.2)  # past the lobby's TTL: the next reading of the lobby aborts the game
        client.get("/games?status=open")
        game = client.get(f"/games/{gid}").get_json()
        assert game["result"]["reason"] == "aborted" and game["players"][1]["open"] is True
        resp = client.post(f"/games/{gid}/rematch", headers=_auth(tokens[0]))
        assert resp.status_code == 409, resp.get_json()
        assert resp.get_json()["code"] == "seat_never_taken"
        # Nothing was claimed, nothing created: asking again is refused the same way.
        assert client.get(f"/games/{gid}").get_json()["next_game"] is None
        again = client.post(f"/games/{gid}/rematch", headers=_auth(tokens[0]))
        assert again.status_code == 409 and again.get_json()["code"] == "seat_never_taken"
    finally:
        app.extensions["patchwork"].store.close()

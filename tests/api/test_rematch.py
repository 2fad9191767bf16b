"""POST and DELETE /games/{id}/rematch on a single Redis and a Cluster (issue 20; an offer since issue 38)."""

from __future__ import annotations

import time
from dataclasses import replace

from service.api import create_app
from service.games.jsontext import compact
from service.games.records import GameRecord
from service.games.views import game_view
from tests.support.sse import check_event, events_of

from .conftest import checked_client_class, client_with

BLITZ = {"initial_s": 300, "increment_s": 3}


def _auth(token):
    return {"Authorization": f"Bearer {token}"}


def _finished(client, body=None):
    created = client.post("/games", json=body or {"players": [{"name": "Ann"}, {"name": "Bob"}]}).get_json()
    gid, tokens = created["game"]["id"], created["tokens"]
    assert client.post(f"/games/{gid}/resign", headers=_auth(tokens[1])).status_code == 201
    return gid, tokens


def _player(client, name):
    body = client.post("/players", json={"name": name}).get_json()
    return body["player"], body["token"]


def test_one_seat_offers_and_the_other_accepts_the_next_game_seats_swapped(client):
    gid, tokens = _finished(client, {"players": [{"name": "Ann"}, {"name": "Bob"}], "time_board": "original"})
    offered = client.post(f"/games/{gid}/rematch", headers=_auth(tokens[1]))
    assert offered.status_code == 202, offered.get_json()
    offer = offered.get_json()["offer"]
    assert (offer["kind"], offer["by"]) == ("rematch", 1)
    game = client.get(f"/games/{gid}").get_json()
    assert game["offer"] == offer and game["next_game"] is None
    # Asking again is the same offer, not a game.
    again = client.post(f"/games/{gid}/rematch", headers=_auth(tokens[1]))
    assert again.status_code == 202 and again.get_json()["offer"] == offer
    accepted = client.post(f"/games/{gid}/rematch", headers=_auth(tokens[0]))
    assert accepted.status_code == 201, accepted.get_json()
    body = accepted.get_json()
    nxt = body["game"]
    assert body["seat"] == 1 and body["token"] == tokens[0]
    assert [p["name"] for p in nxt["players"]] == ["Bob", "Ann"]
    assert nxt["time_board"] == "original" and nxt["status"] == "active"
    # The seat that did not start (Bob, seat 1 then) starts: first_player keeps its number.
    assert nxt["first_player"] == 0 and nxt["turn"] == 0
    finished = client.get(f"/games/{gid}").get_json()
    assert finished["next_game"] == nxt["id"] and "offer" not in finished
    # Each one's old token plays its new seat.
    assert client.get(f"/games/{nxt['id']}/seat", headers=_auth(tokens[1])).get_json() == {"seat": 0}
    assert client.get(f"/games/{nxt['id']}/seat", headers=_auth(tokens[0])).get_json() == {"seat": 1}
    # The offerer's call, and any retry, now answer the same game.
    late = client.post(f"/games/{gid}/rematch", headers=_auth(tokens[1]))
    assert late.status_code == 200 and late.get_json()["game"]["id"] == nxt["id"]
    assert late.get_json()["seat"] == 0


def test_a_rematch_needs_a_finished_game_and_one_of_its_tokens(client, table):
    game = table()
    resp = client.post(f"/games/{game.id}/rematch", headers=game.auth(0))
    assert resp.status_code == 409 and resp.get_json()["code"] == "game_not_finished"
    gid, _tokens = _finished(client)
    assert client.post(f"/games/{gid}/rematch").get_json()["code"] == "missing_token"
    assert client.post(f"/games/{gid}/rematch", headers=game.auth(0)).get_json()["code"] == "invalid_token"
    assert client.delete(f"/games/{gid}/rematch", headers=game.auth(0)).get_json()["code"] == "invalid_token"


def test_declined_withdrawn_and_none_standing(client):
    gid, tokens = _finished(client)
    assert client.post(f"/games/{gid}/rematch", headers=_auth(tokens[0])).status_code == 202
    declined = client.delete(f"/games/{gid}/rematch", headers=_auth(tokens[1]))
    assert declined.status_code == 200, declined.get_json()
    assert declined.get_json()["offer"]["status"] == "declined" and declined.get_json()["offer"]["by"] == 0
    assert "offer" not in client.get(f"/games/{gid}").get_json()
    # Declined, it is gone: the other seat's asking is an offer of its own, not an acceptance.
    mine = client.post(f"/games/{gid}/rematch", headers=_auth(tokens[1]))
    assert mine.status_code == 202 and mine.get_json()["offer"]["by"] == 1
    withdrawn = client.delete(f"/games/{gid}/rematch", headers=_auth(tokens[1]))
    assert withdrawn.get_json()["offer"]["status"] == "withdrawn"
    none = client.delete(f"/games/{gid}/rematch", headers=_auth(tokens[0]))
    assert none.status_code == 404 and none.get_json()["code"] == "offer_not_found"
    assert client.get(f"/games/{gid}").get_json()["next_game"] is None


def test_an_offer_lapses_after_its_ttl_and_is_never_accepted_then(backend, contract):
    with client_with(backend, contract, offer_ttl_seconds=1) as client:
        gid, tokens = _finished(client)
        offer = client.post(f"/games/{gid}/rematch", headers=_auth(tokens[0])).get_json()["offer"]
        time.sleep(1.1)
        # The other seat's asking finds no offer standing: it offers in turn.
        late = client.post(f"/games/{gid}/rematch", headers=_auth(tokens[1]))
        assert late.status_code == 202 and late.get_json()["offer"]["by"] == 1
        assert late.get_json()["offer"]["expires_at"] > offer["expires_at"]
        assert client.get(f"/games/{gid}").get_json()["next_game"] is None
        time.sleep(1.1)
        lapsed = client.delete(f"/games/{gid}/rematch", headers=_auth(tokens[0]))
        assert lapsed.status_code == 404 and lapsed.get_json()["code"] == "offer_not_found"


def test_a_players_token_offers_for_its_seat_the_other_hears_it_and_both_hear_the_start(app, client):
    ann, ann_token = _player(client, "Ann")
    bob, bob_token = _player(client, "Bob")
    opened = client.post(
        "/games", json={"players": [{"name": "x"}, {"open": True}]}, headers=_auth(ann_token)
    ).get_json()
    gid = opened["game"]["id"]
    client.post(f"/games/{gid}/join", headers=_auth(bob_token))
    assert client.post(f"/games/{gid}/resign", headers=_auth(ann_token)).status_code == 201
    store = app.extensions["patchwork"].players.store

    def kinds(player):
        return [e.kind for e in store.events_after(player["id"], None, 20)]

    offered = client.post(f"/games/{gid}/rematch", headers=_auth(ann_token))
    assert offered.status_code == 202
    assert "rematch_offer" in kinds(bob) and "rematch_offer" not in kinds(ann)
    assert kinds(bob).count("game_start") == 1  # the first game only: no game yet
    resp = client.post(f"/games/{gid}/rematch", headers=_auth(bob_token))
    assert resp.status_code == 201
    nxt = resp.get_json()["game"]
    assert [p["player_id"] for p in nxt["players"]] == [bob["id"], ann["id"]]
    assert kinds(bob).count("game_start") == 2 and kinds(ann).count("game_start") == 2


def test_a_bot_seat_accepts_at_once(app, client):
    app.extensions["patchwork"].play.bot_jobs.beat("a test standing in for a worker")
    created = client.post(
        "/games", json={"players": [{"name": "Ann"}, {"name": "Bot", "bot": "random"}]}
    ).get_json()
    gid, token = created["game"]["id"], created["tokens"][0]
    assert client.post(f"/games/{gid}/resign", headers=_auth(token)).status_code == 201
    resp = client.post(f"/games/{gid}/rematch", headers=_auth(token))
    assert resp.status_code == 201, resp.get_json()
    nxt = resp.get_json()["game"]
    assert nxt["players"][0]["bot"] == "random" and resp.get_json()["seat"] == 1
    assert client.get(f"/games/{gid}").get_json()["next_game"] == nxt["id"]


def test_an_unaccepted_rated_rematch_makes_no_game_and_changes_no_rating(client):
    ann, ann_token = _player(client, "Ann")
    bob, bob_token = _player(client, "Bob")
    seek = {"clock": BLITZ, "rated": True}
    assert client.post("/seeks", json=seek, headers=_auth(ann_token)).status_code == 201
    gid = client.post("/seeks", json=seek, headers=_auth(bob_token)).get_json()["seek"]["game"]
    for token in (ann_token, bob_token):  # both seats move: the game rates
        assert (
            client.post(f"/games/{gid}/moves", json={"action": "advance"}, headers=_auth(token)).status_code
            == 201
        )
    assert client.post(f"/games/{gid}/resign", headers=_auth(bob_token)).status_code == 201
    before = [client.get(f"/players/{p['id']}").get_json() for p in (ann, bob)]
    # Ann asks; Bob never answers. Before issue 38 this made a rated game Bob could lose on time.
    assert client.post(f"/games/{gid}/rematch", headers=_auth(ann_token)).status_code == 202
    assert client.get(f"/games/{gid}").get_json()["next_game"] is None
    for token in (ann_token, bob_token):
        mine = client.get("/players/me/games?status=active", headers=_auth(token)).get_json()
        assert mine["games"] == []
    after = [client.get(f"/players/{p['id']}").get_json() for p in (ann, bob)]
    assert after == before


def test_a_claim_whose_game_was_never_created_is_repaired_by_the_next_call(app, client):
    gid, tokens = _finished(client)
    play = app.extensions["patchwork"].play
    game = play.load(gid)
    # As if the accepting call had died between the claim and the game's creation.
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
        # Nothing offered, nothing claimed, nothing created: asking again is refused the same way.
        game = client.get(f"/games/{gid}").get_json()
        assert game["next_game"] is None and "offer" not in game
        again = client.post(f"/games/{gid}/rematch", headers=_auth(tokens[0]))
        assert again.status_code == 409 and again.get_json()["code"] == "seat_never_taken"
    finally:
        app.extensions["patchwork"].store.close()


def test_the_finished_games_stream_carries_the_offer_to_a_client_resuming_before_the_end(client):
    gid, tokens = _finished(client)
    offered = client.post(f"/games/{gid}/rematch", headers=_auth(tokens[0])).get_json()["offer"]
    accepted = client.post(f"/games/{gid}/rematch", headers=_auth(tokens[1])).get_json()["game"]
    final = client.get(f"/games/{gid}").get_json()["version"]
    events = events_of(client.get(f"/games/{gid}/events", headers={"Last-Event-ID": str(final - 1)}))
    assert [(e.kind, e.id) for e in events] == [
        ("move", str(final)),
        ("offer", None),
        ("offer", None),
        ("end", None),
    ]
    for event in events:
        check_event(event)
    assert events[1].json() == {**offered, "status": "pending"}
    assert events[2].json() == {**offered, "status": "accepted", "next_game": accepted["id"]}
    # A client with every version of the finished game is still told there is nothing more (204):
    # it reads the game's `next_game` (or `offer`) instead of being kept on a stream.
    assert client.get(f"/games/{gid}/events", headers={"Last-Event-ID": str(final)}).status_code == 204

"""A tournament's game over HTTP (issue 39), on a single Redis and a Cluster: its tag, no takebacks, no rematch.

The game is started as the tournament module starts its rounds' games
(site/tournament_games.py), on the app's own core; everything after is the
players' requests with their player tokens, each answer held to openapi.yaml
by the checked client.
"""

from __future__ import annotations

from service.games.clock import ClockSettings
from service.games.records import TournamentTag, new_game_id
from service.site.tournament_games import start_game

BLITZ = ClockSettings(initial_s=300, increment_s=3, first_move_s=60)


def _auth(token):
    return {"Authorization": f"Bearer {token}"}


def _tournament_game(app, client, *, rated: bool):
    """A round 2 game of tournament "t-1" between two new players, Ann (seat 0) and Bob: (id, Ann's token, Bob's)."""
    made = [client.post("/players", json={"name": name}).get_json() for name in ("Ann", "Bob")]
    services = app.extensions["patchwork"]
    ann, bob = (services.players.find(body["player"]["id"]) for body in made)
    game_id = new_game_id()
    start_game(services.play, game_id, (ann, bob), BLITZ, rated=rated, tournament=TournamentTag("t-1", 2))
    return game_id, made[0]["token"], made[1]["token"]


def test_a_tournament_game_shows_its_tournament_and_is_played_with_the_player_tokens(app, client):
    game_id, ann, bob = _tournament_game(app, client, rated=True)
    game = client.get(f"/games/{game_id}").get_json()
    assert game["tournament"] == {"id": "t-1", "round": 2} and game["rated"] is True
    assert [p["name"] for p in game["players"]] == ["Ann", "Bob"]
    assert client.get(f"/games/{game_id}/seat", headers=_auth(ann)).get_json() == {"seat": 0}
    moved = client.post(f"/games/{game_id}/moves", json={"action": "advance"}, headers=_auth(ann))
    assert moved.status_code == 201 and moved.get_json()["tournament"] == {"id": "t-1", "round": 2}
    assert (
        client.post(f"/games/{game_id}/moves", json={"action": "advance"}, headers=_auth(bob)).status_code
        == 201
    )


def test_a_takeback_in_a_tournament_game_is_refused_even_unrated(app, client):
    game_id, ann, _bob = _tournament_game(app, client, rated=False)
    assert (
        client.post(f"/games/{game_id}/moves", json={"action": "advance"}, headers=_auth(ann)).status_code
        == 201
    )
    # Ann acted last in an unrated game: anywhere else this would be her offer (202).
    refused = client.post(f"/games/{game_id}/takeback", headers=_auth(ann))
    assert refused.status_code == 409
    problem = refused.get_json()
    assert problem["code"] == "takeback_not_allowed" and "tournament" in problem["detail"]
    assert "offer" not in client.get(f"/games/{game_id}").get_json()


def test_a_rematch_of_a_tournament_game_is_refused_with_tournament_game(app, client):
    game_id, ann, bob = _tournament_game(app, client, rated=False)
    assert client.post(f"/games/{game_id}/resign", headers=_auth(bob)).status_code == 201
    for token in (ann, bob):
        refused = client.post(f"/games/{game_id}/rematch", headers=_auth(token))
        assert refused.status_code == 409 and refused.get_json()["code"] == "tournament_game"
    finished = client.get(f"/games/{game_id}").get_json()
    assert finished["next_game"] is None and "offer" not in finished
    # In the players' languages too.
    spanish = client.post(f"/games/{game_id}/rematch", headers={**_auth(ann), "Accept-Language": "es"})
    assert spanish.status_code == 409 and spanish.headers["Content-Language"] == "es"
    assert spanish.get_json()["title"] != refused.get_json()["title"]

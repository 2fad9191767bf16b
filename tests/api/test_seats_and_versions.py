"""GET /games/{id}/seat, POST /games/{id}/seat (a seat names itself), and GET /games/{id}?version=N: past versions rebuilt by replay."""

import pytest

from tests.support.anu import anu_games, create_body, request_body, tokens

IMMUTABLE = "public, max-age=31536000, immutable"


def test_seat_of_each_token(table, client):
    t = table()
    for seat in (0, 1):
        resp = client.get(f"/games/{t.id}/seat", headers=t.auth(seat))
        assert resp.status_code == 200
        assert resp.get_json() == {"seat": seat}


def test_seat_refusals(table, client):
    t = table()
    missing = client.get(f"/games/{t.id}/seat")
    assert (missing.status_code, missing.get_json()["code"]) == (401, "missing_token")
    assert missing.headers["WWW-Authenticate"] == "Bearer"
    other = table()
    wrong = client.get(f"/games/{t.id}/seat", headers=other.auth(0))
    assert (wrong.status_code, wrong.get_json()["code"]) == (401, "invalid_token")
    unknown = client.get("/games/AAAAAAAAAAAAAAAAAAAAAA/seat", headers=t.auth(0))
    assert (unknown.status_code, unknown.get_json()["code"]) == (404, "game_not_found")


def name_seat(client, t, seat, name, headers=None):
    return client.post(
        f"/games/{t.id}/seat", json={"name": name}, headers={**t.auth(seat), **(headers or {})}
    )


def test_the_guest_of_an_invite_names_its_own_seat(table, client):
    # The host suggested "Player 2"; the friend who opens the link chooses "Zoé".
    t = table({"players": [{"name": "Ann"}, {"name": "Player 2"}]})
    resp = name_seat(client, t, 1, "Zoé")
    assert resp.status_code == 200
    answer = resp.get_json()
    assert answer["seat"] == 1
    assert [p["name"] for p in answer["game"]["players"]] == ["Ann", "Zoé"]
    # Stored: every read shows it, the version is the same (it is not a move).
    game = t.state()
    assert [p["name"] for p in game["players"]] == ["Ann", "Zoé"] and game["version"] == 1
    # The same name again changes nothing; moves go on, and their games carry the name.
    assert name_seat(client, t, 1, "Zoé").get_json() == answer
    moved = t.play({"action": "advance"}, seat=0)
    assert moved["players"][1]["name"] == "Zoé"
    # The guest may change its mind while the game is played.
    assert name_seat(client, t, 1, "Zoë").get_json()["game"]["players"][1]["name"] == "Zoë"
    assert t.state()["players"][1]["name"] == "Zoë"


@pytest.mark.parametrize("name", ["", "x" * 41, 7, None, ["Zoé"]])
def test_a_seat_name_is_1_to_40_characters(table, client, name):
    t = table()
    resp = name_seat(client, t, 1, name)
    assert resp.status_code == 400
    problem = resp.get_json()
    assert problem["code"] == "invalid_request"
    assert problem["errors"][0]["pointer"] == "/name"
    assert t.state()["players"][1]["name"] == "Player 2"


def test_a_seat_name_refusals(table, client):
    t = table()
    no_body = client.post(f"/games/{t.id}/seat", headers=t.auth(1))
    assert (no_body.status_code, no_body.get_json()["code"]) == (415, "unsupported_media_type")
    no_name = client.post(f"/games/{t.id}/seat", json={}, headers=t.auth(1))
    assert no_name.get_json()["errors"] == [{"pointer": "/name", "message": "missing required field 'name'"}]
    missing = client.post(f"/games/{t.id}/seat", json={"name": "Zoé"})
    assert (missing.status_code, missing.get_json()["code"]) == (401, "missing_token")
    other = table()
    wrong = name_seat(client, t, 0, "Zoé", headers=other.auth(0))
    assert (wrong.status_code, wrong.get_json()["code"]) == (401, "invalid_token")
    unknown = client.post("/games/AAAAAAAAAAAAAAAAAAAAAA/seat", json={"name": "Zoé"}, headers=t.auth(0))
    assert (unknown.status_code, unknown.get_json()["code"]) == (404, "game_not_found")
    extra = client.post(f"/games/{t.id}/seat", json={"name": "Zoé", "seat": 0}, headers=t.auth(1))
    assert (extra.status_code, extra.get_json()["code"]) == (400, "invalid_request")
    # Once the game is over its names are as played.
    client.post(f"/games/{t.id}/resign", json={}, headers=t.auth(1))
    over = name_seat(client, t, 1, "Zoé", headers={"Accept-Language": "es"})
    assert (over.status_code, over.get_json()["code"]) == (409, "name_fixed")
    assert over.headers["Content-Language"] == "es"
    assert t.state()["players"][1]["name"] == "Player 2"


def test_a_players_seat_keeps_the_players_name(client):
    created = client.post("/players", json={"name": "Ann"}).get_json()
    auth = {"Authorization": f"Bearer {created['token']}"}
    game = client.post(
        "/games", json={"players": [{"name": "ignored"}, {"name": "Bob"}]}, headers=auth
    ).get_json()
    game_id, tokens = game["game"]["id"], game["tokens"]
    for token in (created["token"], tokens[0]):
        resp = client.post(
            f"/games/{game_id}/seat", json={"name": "Someone"}, headers={"Authorization": f"Bearer {token}"}
        )
        assert (resp.status_code, resp.get_json()["code"]) == (409, "name_fixed")
    # The other seat, a guest's, names itself.
    resp = client.post(
        f"/games/{game_id}/seat", json={"name": "Zoé"}, headers={"Authorization": f"Bearer {tokens[1]}"}
    )
    assert [p["name"] for p in resp.get_json()["game"]["players"]] == ["Ann", "Zoé"]


def test_every_past_version_is_what_was_served(table, client):
    """An ANU game (set up from a patch order) over HTTP: each 201 equals ?version=N later."""
    game = anu_games()[0]
    t = table(create_body(game))
    served = {1: t.game}
    for token in tokens(game["moves"]):
        state = t.play(request_body(token), seat=served[max(served)]["turn"])
        served[state["version"]] = state
    current = max(served)
    assert served[current]["status"] == "finished"
    for version, body in served.items():
        resp = client.get(f"/games/{t.id}", query_string={"version": version})
        assert resp.status_code == 200
        assert resp.get_json() == body, f"version {version}"
        assert resp.headers["ETag"] == f'"{version}"'
        if version < current:
            assert resp.headers["Cache-Control"] == IMMUTABLE
        else:
            assert "Cache-Control" not in resp.headers  # the current version still changes


def test_past_version_of_a_seeded_game(table, client):
    t = table({"seed": 7, "first_player": 1, "time_board": "original"})
    first = t.play({"action": "advance"}, seat=1)
    t.play({"action": "advance"}, seat=0)
    assert client.get(f"/games/{t.id}?version=1").get_json() == t.game
    assert client.get(f"/games/{t.id}?version=2").get_json() == first


def test_versions_past_the_current_one(table, client):
    t = table()
    resp = client.get(f"/games/{t.id}?version=2")
    assert (resp.status_code, resp.get_json()["code"]) == (404, "not_found")
    zero = client.get(f"/games/{t.id}?version=0")
    assert (zero.status_code, zero.get_json()["code"]) == (400, "invalid_request")
    unknown = client.get("/games/AAAAAAAAAAAAAAAAAAAAAA?version=1")
    assert (unknown.status_code, unknown.get_json()["code"]) == (404, "game_not_found")


def test_past_version_revalidates(table, client):
    t = table({"seed": 3})
    t.play({"action": "advance"}, seat=0)
    resp = client.get(f"/games/{t.id}?version=1", headers={"If-None-Match": '"1"'})
    assert resp.status_code == 304
    assert resp.headers["ETag"] == '"1"'

"""Watching over HTTP (issue 38): the games being played and a player's finished games, on a single Redis and a Cluster."""

from __future__ import annotations

import time

BLITZ = {"initial_s": 300, "increment_s": 3}


def _player(client, name):
    body = client.post("/players", json={"name": name}).get_json()
    return body["player"], {"Authorization": f"Bearer {body['token']}"}


def _paired(client, first_auth, second_auth, rated=False):
    """A game between two players paired by seeks (seat 0: the seeker who waited)."""
    seek = {"clock": BLITZ, "rated": rated, "range": 3000}
    assert client.post("/seeks", json=seek, headers=first_auth).status_code == 201
    return client.post("/seeks", json=seek, headers=second_auth).get_json()["seek"]["game"]


def _listed(client, **query):
    resp = client.get("/games", query_string=query)
    assert resp.status_code == 200, resp.get_json()
    return resp.get_json()


def _apart():
    """Let the store's clock pass a millisecond: two games listed in one ms are ordered by id, not by time."""
    time.sleep(0.002)


def _ids(page):
    return [entry["id"] for entry in page["games"]]


def test_the_games_being_played_are_listed_newest_first_with_players_ratings_clock_and_version(client):
    ann, ann_auth = _player(client, "Ann")
    bob, bob_auth = _player(client, "Bob")
    names = {"players": [{"name": "Cy"}, {"name": "Di"}]}
    anonymous = client.post("/games", json=names).get_json()["game"]["id"]
    _apart()
    paired = _paired(client, ann_auth, bob_auth)
    moved = client.post(f"/games/{paired}/moves", json={"action": "advance"}, headers=ann_auth)
    assert moved.status_code == 201
    page = _listed(client, status="active")
    assert _ids(page) == [paired, anonymous] and page["next"] is None
    entry = page["games"][0]
    assert [(p["name"], p["player_id"], p["rating"]) for p in entry["players"]] == [
        ("Ann", ann["id"], 1500),
        ("Bob", bob["id"], 1500),
    ]
    # One move played: version 2, Bob's turn, Ann's clock running no more.
    assert (entry["version"], entry["turn"], entry["moves_played"], entry["status"]) == (2, 1, 1, "active")
    assert entry["clock"]["initial_s"] == 300 and entry["result"] is None and entry["rated"] is False
    assert [(p["name"], p["rating"]) for p in page["games"][1]["players"]] == [("Cy", None), ("Di", None)]


def test_an_open_game_is_listed_once_its_seat_is_taken_and_leaves_the_list_when_it_ends(client):
    ann, ann_auth = _player(client, "Ann")
    created = client.post("/games", json={"players": [{"name": "x"}, {"open": True}]}, headers=ann_auth)
    gid = created.get_json()["game"]["id"]
    seat_token = created.get_json()["tokens"][0]
    assert _ids(_listed(client, status="active")) == []  # waiting in the lobby, not played
    assert client.post(f"/games/{gid}/join", json={"name": "Eve"}).status_code == 201
    assert _ids(_listed(client, status="active")) == [gid]
    assert _ids(_listed(client, status="active", player=ann["id"])) == [gid]
    resign = client.post(f"/games/{gid}/resign", headers={"Authorization": f"Bearer {seat_token}"})
    assert resign.status_code == 201, resign.get_json()
    assert _ids(_listed(client, status="active")) == []
    finished = _listed(client, status="finished", player=ann["id"])
    assert _ids(finished) == [gid]
    assert finished["games"][0]["status"] == "finished"
    assert finished["games"][0]["result"]["reason"] == "resigned"


def test_a_players_games_and_the_rated_filter(client):
    ann, ann_auth = _player(client, "Ann")
    _bob, bob_auth = _player(client, "Bob")
    cy, cy_auth = _player(client, "Cy")
    _dee, dee_auth = _player(client, "Dee")
    casual = _paired(client, ann_auth, bob_auth)
    _apart()
    rated = _paired(client, cy_auth, dee_auth, rated=True)
    _apart()
    rated_of_ann = _paired(client, bob_auth, ann_auth, rated=True)
    assert _ids(_listed(client, status="active")) == [rated_of_ann, rated, casual]
    assert _ids(_listed(client, status="active", rated="true")) == [rated_of_ann, rated]
    assert _ids(_listed(client, status="active", player=ann["id"])) == [rated_of_ann, casual]
    assert _ids(_listed(client, status="active", player=ann["id"], rated="true")) == [rated_of_ann]
    assert _ids(_listed(client, status="active", player=cy["id"])) == [rated]
    # Ann resigns both, the casual game last: it ended last, so it leads her finished games.
    for gid in (rated_of_ann, casual):
        assert client.post(f"/games/{gid}/resign", headers=ann_auth).status_code == 201
        _apart()
    assert _ids(_listed(client, status="finished", player=ann["id"])) == [casual, rated_of_ann]
    assert _ids(_listed(client, status="finished", player=ann["id"], rated="true")) == [rated_of_ann]
    assert _ids(_listed(client, status="finished", player=cy["id"])) == []
    assert _ids(_listed(client, status="active")) == [rated]


def test_the_list_pages_with_a_cursor(client):
    ids = []
    for _ in range(53):
        ids.append(client.post("/games").get_json()["game"]["id"])
        _apart()
    first = _listed(client, status="active")
    assert len(first["games"]) == 50 and first["next"]
    second = _listed(client, status="active", cursor=first["next"])
    assert second["next"] is None and len(second["games"]) == 3
    seen = _ids(first) + _ids(second)
    assert sorted(seen) == sorted(ids) and len(set(seen)) == 53
    # Newest first: the three made first are on the second page (the store's ms apart, see _apart).
    assert set(_ids(second)) == set(ids[:3])


def test_an_expired_or_ended_game_met_on_a_list_is_dropped_and_an_end_never_listed_is_repaired(client, app):
    ann, ann_auth = _player(client, "Ann")
    _bob, bob_auth = _player(client, "Bob")
    gid = _paired(client, ann_auth, bob_auth)
    services = app.extensions["patchwork"]
    lists = services.watching.lists
    # A game that vanished (expired) while listed.
    lists.add(lists.active, "AAAAAAAAAAAAAAAAAAAAAA", 10**13)
    assert _ids(_listed(client, status="active")) == [gid]
    assert "AAAAAAAAAAAAAAAAAAAAAA" not in [member for member, _ms in lists.newest(lists.active, None, 10)]
    # As if the process had died between storing the end and moving the game on the lists.
    assert client.post(f"/games/{gid}/resign", headers=bob_auth).status_code == 201
    lists.remove(lists.player_finished(ann["id"]), gid)
    lists.add(lists.active, gid, 10**13)
    assert _ids(_listed(client, status="active")) == []
    assert _ids(_listed(client, status="finished", player=ann["id"])) == [gid]


def test_the_finished_games_of_everyone_and_the_lobby_take_the_same_filters(client):
    ann, ann_auth = _player(client, "Ann")
    bob, bob_auth = _player(client, "Bob")
    casual = _paired(client, ann_auth, bob_auth)
    _apart()
    rated = _paired(client, bob_auth, ann_auth, rated=True)
    created = client.post("/games").get_json()
    anonymous, seat_token = created["game"]["id"], created["tokens"][0]
    for gid, auth in (
        (casual, ann_auth),
        (rated, ann_auth),
        (anonymous, {"Authorization": f"Bearer {seat_token}"}),
    ):
        assert client.post(f"/games/{gid}/resign", headers=auth).status_code == 201
        _apart()
    assert _ids(_listed(client, status="active")) == []
    assert _ids(_listed(client, status="finished")) == [anonymous, rated, casual]
    assert _ids(_listed(client, status="finished", rated="true")) == [rated]
    assert _ids(_listed(client, status="finished", player=bob["id"])) == [rated, casual]
    # The lobby: the open games a player waits in (listed ones: an invite-only game is nobody's to see).
    open_body = {"players": [{"name": "x"}, {"open": True}]}
    mine = client.post("/games", json=open_body, headers=ann_auth).get_json()["game"]["id"]
    _apart()
    unlisted = client.post("/games", json={**open_body, "listed": False}, headers=ann_auth)
    assert unlisted.status_code == 201
    others = client.post("/games", json=open_body, headers=bob_auth).get_json()["game"]["id"]
    assert _ids(_listed(client, status="open")) == [others, mine]
    assert _ids(_listed(client, status="open", player=ann["id"])) == [mine]
    assert _ids(_listed(client, status="open", player=bob["id"])) == [others]
    assert _ids(_listed(client, status="open", rated="true")) == []


def test_bad_queries_are_refused(client):
    for query, parameter in (
        ({"status": "playing"}, "status"),
        ({"status": "active", "player": "not an id"}, "player"),
        ({"status": "finished", "rated": "maybe"}, "rated"),
        ({"status": "open", "cursor": "x" * 65}, "cursor"),
    ):
        resp = client.get("/games", query_string=query)
        assert resp.status_code == 400, (query, resp.get_json())
        body = resp.get_json()
        assert resp.headers["Content-Type"] == "application/problem+json"
        assert body["code"] == "invalid_request"
        assert parameter in [error.get("parameter") for error in body["errors"]], (query, body)
    for status in ("open", "active", "finished"):
        unknown = client.get("/games", query_string={"status": status, "player": "A" * 22})
        assert unknown.status_code == 404 and unknown.get_json()["code"] == "player_not_found", status

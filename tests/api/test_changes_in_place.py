"""A join, a seat's new name and a rematch offer change a game's body without a move.

Its version stays (a version counts moves), so `ETag: "<version>"` names two
bodies for a while: a client that kept the first and asks again with
If-None-Match must get the second (200), not a 304 that keeps it on the old
body: a host polling its open game would wait for a joiner forever. Once
the next move makes a new version, that version's body is the only one and
304s come back.
"""

from __future__ import annotations


def _bearer(token):
    return {"Authorization": f"Bearer {token}"}


def _revalidated(client, path, tag):
    return client.get(path, headers={"If-None-Match": tag})


def test_a_join_is_seen_by_a_client_that_kept_the_open_game(client):
    created = client.post("/games", json={"players": [{"name": "Ann"}, {"open": True}]}).get_json()
    gid, host = created["game"]["id"], created["tokens"][0]
    first = client.get(f"/games/{gid}")
    assert first.headers["ETag"] == '"1"' and first.get_json()["players"][1]["open"] is True
    # Kept and current: a 304 as ever.
    assert _revalidated(client, f"/games/{gid}", '"1"').status_code == 304
    assert client.post(f"/games/{gid}/join", json={"name": "Bob"}).status_code == 201
    again = _revalidated(client, f"/games/{gid}", '"1"')
    assert again.status_code == 200
    assert again.headers["ETag"] == '"1"'  # the version is the same
    assert [p["open"] for p in again.get_json()["players"]] == [False, False]
    assert again.get_json()["players"][1]["name"] == "Bob"
    # The board is drawn from the same body: its tag does not hide the join either.
    board = client.get(f"/games/{gid}/board.txt")
    assert _revalidated(client, f"/games/{gid}/board.txt", board.headers["ETag"]).status_code == 200
    # The first move makes version 2, a body of its own: 304s again.
    moved = client.post(f"/games/{gid}/moves", json={"action": "advance"}, headers=_bearer(host))
    assert moved.status_code == 201, moved.get_json()
    assert _revalidated(client, f"/games/{gid}", '"2"').status_code == 304
    board = client.get(f"/games/{gid}/board.txt")
    assert _revalidated(client, f"/games/{gid}/board.txt", board.headers["ETag"]).status_code == 304


def test_a_seats_new_name_is_seen_by_a_client_that_kept_the_game(table, client):
    t = table({"players": [{"name": "Ann"}, {"name": "Player 2"}]})
    t.play({"action": "advance"}, seat=0)
    assert _revalidated(client, f"/games/{t.id}", '"2"').status_code == 304
    named = client.post(f"/games/{t.id}/seat", json={"name": "Zoé"}, headers=t.auth(1))
    assert named.status_code == 200
    again = _revalidated(client, f"/games/{t.id}", '"2"')
    assert again.status_code == 200
    assert [p["name"] for p in again.get_json()["players"]] == ["Ann", "Zoé"]
    t.play({"action": "advance"})
    assert _revalidated(client, f"/games/{t.id}", '"3"').status_code == 304


def test_a_rematch_offer_is_seen_by_a_client_that_kept_the_finished_game(client):
    created = client.post("/games", json={"players": [{"name": "Ann"}, {"name": "Bob"}]}).get_json()
    gid, tokens = created["game"]["id"], created["tokens"]
    assert client.post(f"/games/{gid}/resign", headers=_bearer(tokens[1])).status_code == 201
    finished = client.get(f"/games/{gid}")
    tag = finished.headers["ETag"]
    assert finished.get_json()["next_game"] is None
    assert _revalidated(client, f"/games/{gid}", tag).status_code == 304
    offered = client.post(f"/games/{gid}/rematch", headers=_bearer(tokens[0]))
    assert offered.status_code == 202
    again = _revalidated(client, f"/games/{gid}", tag)
    assert again.status_code == 200
    assert again.get_json()["offer"] == offered.get_json()["offer"]
    accepted = client.post(f"/games/{gid}/rematch", headers=_bearer(tokens[1]))
    assert accepted.status_code == 201
    third = _revalidated(client, f"/games/{gid}", again.headers["ETag"])
    assert third.status_code == 200
    assert third.get_json()["next_game"] == accepted.get_json()["game"]["id"]

"""Rated games over HTTP (issue 20): the settlement comes with the result, once, and a crash before it is applied is repaired."""

from __future__ import annotations

from service.site.rated_games import RatedGames

BLITZ = {"initial_s": 300, "increment_s": 3}


def _player(client, name):
    body = client.post("/players", json={"name": name}).get_json()
    return body["player"], {"Authorization": f"Bearer {body['token']}"}


def _rated_game(client, first_auth, second_auth):
    # Any rating: the same two players meet again after their ratings part.
    seek = {"clock": BLITZ, "rated": True, "range": 3000}
    assert client.post("/seeks", json=seek, headers=first_auth).status_code == 201
    paired = client.post("/seeks", json=seek, headers=second_auth).get_json()
    return paired["seek"]["game"]


def _both_move(client, gid, first_auth, second_auth):
    """Each seat advances once (seat 0, the seeker who waited, starts): the game is one that rates."""
    for auth in (first_auth, second_auth):
        resp = client.post(f"/games/{gid}/moves", json={"action": "advance"}, headers=auth)
        assert resp.status_code == 201, resp.get_json()


def _profile(client, player):
    return client.get(f"/players/{player['id']}").get_json()


def test_a_rated_game_settles_both_ratings_once_with_its_result(client):
    ann, ann_auth = _player(client, "Ann")
    bob, bob_auth = _player(client, "Bob")
    gid = _rated_game(client, ann_auth, bob_auth)
    _both_move(client, gid, ann_auth, bob_auth)
    resign = {"headers": {**bob_auth, "Idempotency-Key": "give-up"}}
    resp = client.post(f"/games/{gid}/resign", **resign)
    assert resp.status_code == 201, resp.get_json()
    result = resp.get_json()["result"]
    assert result["winner"] == 0 and result["reason"] == "resigned" and result["rated"] is True
    # Two 1500/350 players: the winner gains what the loser loses (Glicko-2, about 162).
    gain, loss = result["rating_diff"]
    assert gain == -loss and 150 < gain < 180
    assert (_profile(client, ann)["rating"], _profile(client, ann)["games"]) == (1500 + gain, 1)
    assert (_profile(client, bob)["rating"], _profile(client, bob)["games"]) == (1500 + loss, 1)
    # A retry and a second resignation change nothing.
    assert client.post(f"/games/{gid}/resign", **resign).get_json()["result"] == result
    assert client.post(f"/games/{gid}/resign", headers=ann_auth).status_code == 409
    assert _profile(client, ann)["games"] == 1 and _profile(client, bob)["games"] == 1
    assert client.get(f"/games/{gid}").get_json()["result"]["rating_diff"] == [gain, loss]


def test_an_unrated_game_between_players_leaves_ratings_alone(client):
    ann, ann_auth = _player(client, "Ann")
    _bob, bob_auth = _player(client, "Bob")
    assert client.post("/seeks", json={"clock": BLITZ}, headers=ann_auth).status_code == 201
    gid = client.post("/seeks", json={"clock": BLITZ}, headers=bob_auth).get_json()["seek"]["game"]
    result = client.post(f"/games/{gid}/resign", headers=bob_auth).get_json()["result"]
    assert "rating_diff" not in result
    assert _profile(client, ann)["rating"] == 1500 and _profile(client, ann)["games"] == 0


def test_a_rated_game_ended_before_both_seats_moved_rates_nobody(client):
    ann, ann_auth = _player(client, "Ann")
    bob, bob_auth = _player(client, "Bob")
    # Resigned before any move: the way two identities farmed a rating.
    gid = _rated_game(client, ann_auth, bob_auth)
    result = client.post(f"/games/{gid}/resign", headers=bob_auth).get_json()["result"]
    assert result["winner"] == 0 and result["reason"] == "resigned"
    assert "rating_diff" not in result and result["rated"] is False
    # Resigned when only the first seat had moved: still not a game both played.
    gid = _rated_game(client, ann_auth, bob_auth)
    moved = client.post(f"/games/{gid}/moves", json={"action": "advance"}, headers=ann_auth)
    assert moved.status_code == 201 and moved.get_json()["turn"] == 1
    result = client.post(f"/games/{gid}/resign", headers=ann_auth).get_json()["result"]
    assert result["winner"] == 1 and "rating_diff" not in result and result["rated"] is False
    assert client.get(f"/games/{gid}").get_json()["result"] == result
    for player in (ann, bob):
        profile = _profile(client, player)
        assert (profile["rating"], profile["games"]) == (1500, 0)
    assert client.get("/leaderboard").get_json()["players"] == []


def test_a_crash_between_the_final_commit_and_the_ratings_is_repaired_once(app, client, monkeypatch):
    ann, ann_auth = _player(client, "Ann")
    bob, bob_auth = _player(client, "Bob")
    gid = _rated_game(client, ann_auth, bob_auth)
    _both_move(client, gid, ann_auth, bob_auth)
    play = app.extensions["patchwork"].play
    (settling,) = [listener for listener in play.listeners if isinstance(listener, RatedGames)]
    with monkeypatch.context() as patched:
        # A process that dies between the game's final commit and the players' updates.
        patched.setattr(settling, "apply", lambda record: None)
        result = client.post(f"/games/{gid}/resign", headers=bob_auth).get_json()["result"]
    ratings = app.extensions["patchwork"].ratings
    assert result["rating_diff"][0] > 0
    # Not applied: still queued, and a reader repairs only what was queued long ago.
    assert ratings.book.pending_before(10**15, 10) == [gid]
    assert _profile(client, ann)["games"] == 0
    ratings.book.queue(gid, 0)  # as if queued long ago
    assert _profile(client, ann)["rating"] == 1500 + result["rating_diff"][0]
    assert _profile(client, bob)["rating"] == 1500 + result["rating_diff"][1]
    # Repairing again (queued again, as a second reader racing it would find it) changes nothing.
    ratings.book.queue(gid, 0)
    assert _profile(client, ann)["games"] == 1 and _profile(client, bob)["games"] == 1
    assert ratings.book.pending_before(10**15, 10) == []


def test_the_leaderboard_ranks_players_with_five_rated_games(client):
    ann, ann_auth = _player(client, "Ann")
    bob, bob_auth = _player(client, "Bob")
    for n in range(5):
        gid = _rated_game(client, ann_auth, bob_auth)
        _both_move(client, gid, ann_auth, bob_auth)
        assert client.post(f"/games/{gid}/resign", headers=bob_auth if n < 4 else ann_auth).status_code == 201
        board = client.get("/leaderboard").get_json()["players"]
        assert board == [] if n < 4 else [p["id"] for p in board] == [ann["id"], bob["id"]]
    board = client.get("/leaderboard").get_json()["players"]
    assert [p["id"] for p in board] == [ann["id"], bob["id"]]
    assert board[0]["games"] == 5 and board[0]["rating"] > board[1]["rating"]

"""POST /games/{id}/resign: either seat gives the game up at once, committed like a move."""

import json

ADVANCE = {"action": "advance"}


def resign(t, seat: int, headers: dict | None = None, **kwargs):
    return t.client.post(f"/games/{t.id}/resign", headers={**t.auth(seat), **(headers or {})}, **kwargs)


def test_the_seat_in_turn_resigns_and_the_other_seat_wins(table, client):
    t = table({"seed": 4})
    t.play(ADVANCE)  # seat 1 is in turn at version 2
    resp = resign(t, 1)
    assert resp.status_code == 201
    assert resp.headers["ETag"] == '"3"'
    assert resp.headers["Location"] == f"/games/{t.id}/moves/2"
    game = resp.get_json()
    assert game["status"] == "finished"
    assert (game["turn"], game["phase"], game["moves_played"]) == (None, None, 2)
    assert game["result"] == {
        "scores": [p["score"] for p in game["players"]],
        "winner": 0,
        "reason": "resigned",
    }
    assert t.state() == game
    position = game["players"][1]["position"]
    # Resigning moves no token and pays nothing; its outcome says so like every move's.
    assert client.get(f"/games/{t.id}/moves/2").get_json() == {
        "number": 2,
        "seat": 1,
        "action": "resign",
        "outcome": {
            "buttons": 0,
            "income": 0,
            "from": position,
            "to": position,
            "leather_won": 0,
            "bonus": False,
        },
    }
    assert client.get(f"/games/{t.id}/legal-moves").get_json()["moves"] == []


def test_the_seat_not_in_turn_may_resign(table):
    t = table()
    assert t.game["turn"] == 0
    game = resign(t, 1).get_json()
    assert game["result"]["winner"] == 0
    assert game["result"]["reason"] == "resigned"


def test_a_seat_may_resign_while_a_leather_patch_is_due(table):
    t = table({"seed": 9})
    state = t.game
    while state["phase"] != "place_leather":
        state = t.play(ADVANCE)
    placing = state["turn"]
    resp = resign(t, 1 - placing)
    assert resp.status_code == 201
    assert resp.get_json()["result"]["winner"] == placing


def test_a_finished_game_cannot_be_resigned_nor_moved(table):
    t = table()
    assert resign(t, 0).status_code == 201
    for seat in (0, 1):
        again = resign(t, seat)
        assert again.status_code == 409
        assert again.get_json()["code"] == "game_finished"
        assert again.headers["ETag"] == '"2"'
    assert t.move(ADVANCE, seat=1).get_json()["code"] == "game_finished"
    assert t.state()["version"] == 2


def test_a_token_is_needed_and_checked(table):
    t = table()
    missing = t.client.post(f"/games/{t.id}/resign")
    assert missing.status_code == 401 and missing.get_json()["code"] == "missing_token"
    wrong = t.client.post(f"/games/{t.id}/resign", headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 401 and wrong.get_json()["code"] == "invalid_token"
    unknown = t.client.post("/games/AAAAAAAAAAAAAAAAAAAAAA/resign", headers=t.auth(0))
    assert unknown.status_code == 404
    assert t.state()["status"] == "active"


def test_a_stale_if_match_changes_nothing(table):
    t = table()
    t.play(ADVANCE)
    stale = resign(t, 0, {"If-Match": '"1"'})
    assert stale.status_code == 412
    assert stale.get_json()["code"] == "version_mismatch"
    assert t.state()["status"] == "active"
    assert resign(t, 0, {"If-Match": '"2"'}).status_code == 201


def test_an_idempotency_key_replays_the_resignation(table, client):
    t = table()
    first = resign(t, 0, {"Idempotency-Key": "give-up-1"})
    again = resign(t, 0, {"Idempotency-Key": "give-up-1", "If-Match": '"7"'})
    assert first.status_code == again.status_code == 201
    assert again.get_data() == first.get_data()
    assert again.headers["ETag"] == first.headers["ETag"] == '"2"'
    assert len(client.get(f"/games/{t.id}/moves").get_json()["moves"]) == 1
    # A fresh key on the finished game: the 409 is recorded and replayed too.
    refused = resign(t, 0, {"Idempotency-Key": "give-up-2"})
    assert refused.status_code == 409
    assert resign(t, 0, {"Idempotency-Key": "give-up-2"}).get_data() == refused.get_data()


def test_a_key_used_for_a_move_is_not_reused_to_resign(table):
    t = table()
    assert t.move(ADVANCE, seat=0, headers={"Idempotency-Key": "k1"}).status_code == 201
    reused = resign(t, 0, {"Idempotency-Key": "k1"})
    assert reused.status_code == 422
    assert reused.get_json()["code"] == "idempotency_key_reused"
    assert t.state()["status"] == "active"


def test_a_body_is_optional_and_must_be_empty(table):
    t = table()
    extra = resign(t, 0, data=json.dumps({"seat": 1}), content_type="application/json")
    assert extra.status_code == 400
    assert extra.get_json()["errors"][0]["pointer"] == "/seat"
    not_json = resign(t, 0, data="please", content_type="text/plain")
    assert not_json.status_code == 415
    assert t.state()["status"] == "active"
    empty = resign(t, 0, data="{}", content_type="application/json")
    assert empty.status_code == 201

"""POST and DELETE /games/{id}/takeback on a single Redis and a Cluster (issue 38).

The games are worked by hand from the rules. With seed 2 the market is
patches 18 (2 buttons, 1 space), 27 and 20; seat 0 starts, both tokens on
space 0. Seat 0 advances to space 1 (version 2): seat 1 is behind and
moves. Seat 1 buys patch 18 and reaches space 1 too (version 3): arriving
last, its token is on top and it moves again; it advances to space 2
(version 4), past seat 0, whose turn it is. Seat 1's last turn is then its
two moves, and taking it back returns the game to version 2's state.
"""

from __future__ import annotations

import time

from flask.testing import FlaskClient

from tests.support.bot_workers import BotWorkerProcess, wait_for
from tests.support.sse import check_event, events_of

from .conftest import client_with

SEED_2 = {"players": [{"name": "Ann"}, {"name": "Bob"}], "seed": 2}
# What a version's body says beside its state: these may differ between two versions of one state.
NOT_STATE = ("version", "updated_at", "clock", "offer")


def _state(game: dict) -> dict:
    return {key: value for key, value in game.items() if key not in NOT_STATE}


def _buy(table, patch_id: int) -> dict:
    """The first legal buy of `patch_id` for the seat in turn."""
    buys = table.legal(patch_id=patch_id)["moves"]
    assert buys, f"patch {patch_id} cannot be bought now"
    return buys[0]


def _two_moves_of_seat_1(table) -> list[dict]:
    """Versions 1 to 4 of the game the module's docstring works out, as served."""
    versions = [table.state()]
    versions.append(table.play({"action": "advance"}, seat=0))
    assert versions[-1]["turn"] == 1 and versions[-1]["players"][0]["position"] == 1
    versions.append(table.play(_buy(table, 18), seat=1))
    assert versions[-1]["turn"] == 1 and versions[-1]["players"][1]["position"] == 1
    versions.append(table.play({"action": "advance"}, seat=1))
    assert versions[-1]["turn"] == 0 and versions[-1]["players"][1]["position"] == 2
    return versions


def test_a_turn_of_two_moves_is_taken_back_to_the_version_before_it(client, table):
    t = table(SEED_2)
    versions = _two_moves_of_seat_1(t)
    asked = client.post(f"/games/{t.id}/takeback", headers=t.auth(1))
    assert asked.status_code == 202, asked.get_json()
    assert (asked.get_json()["offer"]["kind"], asked.get_json()["offer"]["by"]) == ("takeback", 1)
    assert t.state()["offer"] == asked.get_json()["offer"] and t.state()["version"] == 4
    # The offer is the game's as it is now: no past version shows it.
    assert client.get(f"/games/{t.id}", query_string={"version": 3}).get_json() == versions[2]
    given = client.post(f"/games/{t.id}/takeback", headers=t.auth(0))
    assert given.status_code == 201, given.get_json()
    assert given.headers["ETag"] == '"5"' and given.headers["Location"] == f"/games/{t.id}/moves/4"
    after = given.get_json()
    assert after["version"] == 5 and _state(after) == _state(versions[1])
    assert after["turn"] == 1 and after["moves_played"] == 1 and "offer" not in after
    assert t.state() == after
    history = client.get(f"/games/{t.id}/moves").get_json()["moves"]
    assert len(history) == 4
    assert history[3] == {"number": 4, "seat": 1, "action": "takeback", "to_version": 2}
    assert client.get(f"/games/{t.id}/moves/4").get_json() == history[3]
    # Every version is served as it was, before and after the takeback.
    for number, served in enumerate(versions, start=1):
        past = client.get(f"/games/{t.id}", query_string={"version": number}).get_json()
        assert past == served, number
    # Seat 1 plays its turn again, otherwise; the history goes on numbering its entries.
    again = t.play({"action": "advance"}, seat=1)
    assert (
        again["version"] == 6 and again["players"][1]["position"] == 2 and again["players"][1]["buttons"] == 7
    )
    assert client.get(f"/games/{t.id}/moves/5").get_json()["number"] == 5
    assert client.get(f"/games/{t.id}", query_string={"version": 5}).get_json() == after
    board = client.get(f"/games/{t.id}/board.txt", query_string={"version": 5})
    assert board.status_code == 200


def test_takebacks_are_refused_where_there_is_none_to_give(client, table):
    t = table(SEED_2)
    nothing = client.post(f"/games/{t.id}/takeback", headers=t.auth(0))
    assert nothing.status_code == 409 and nothing.get_json()["code"] == "takeback_not_allowed"
    t.play({"action": "advance"}, seat=0)
    # Seat 1 did not act last: it has nothing to take back, and no offer of seat 0 stands.
    other = client.post(f"/games/{t.id}/takeback", headers=t.auth(1))
    assert other.status_code == 409 and other.get_json()["code"] == "takeback_not_allowed"
    assert client.post(f"/games/{t.id}/takeback").get_json()["code"] == "missing_token"
    assert client.post(f"/games/{t.id}/resign", headers=t.auth(1)).status_code == 201
    over = client.post(f"/games/{t.id}/takeback", headers=t.auth(1))
    assert over.status_code == 409 and over.get_json()["code"] == "takeback_not_allowed"


def test_a_rated_game_has_no_takebacks(client):
    ann = client.post("/players", json={"name": "Ann"}).get_json()["token"]
    bob = client.post("/players", json={"name": "Bob"}).get_json()["token"]
    seek = {"clock": {"initial_s": 300, "increment_s": 3}, "rated": True}
    assert client.post("/seeks", json=seek, headers={"Authorization": f"Bearer {ann}"}).status_code == 201
    paired = client.post("/seeks", json=seek, headers={"Authorization": f"Bearer {bob}"}).get_json()
    gid = paired["seek"]["game"]
    auth = {"Authorization": f"Bearer {ann}"}  # the seeker who waited holds seat 0 and starts
    assert client.post(f"/games/{gid}/moves", json={"action": "advance"}, headers=auth).status_code == 201
    resp = client.post(f"/games/{gid}/takeback", headers=auth)
    assert resp.status_code == 409 and resp.get_json()["code"] == "takeback_not_allowed"


def test_declined_withdrawn_and_voided_by_the_next_move(client, table):
    t = table(SEED_2)
    t.play({"action": "advance"}, seat=0)
    assert client.post(f"/games/{t.id}/takeback", headers=t.auth(0)).status_code == 202
    declined = client.delete(f"/games/{t.id}/takeback", headers=t.auth(1))
    assert declined.status_code == 200 and declined.get_json()["offer"]["status"] == "declined"
    assert client.post(f"/games/{t.id}/takeback", headers=t.auth(0)).status_code == 202
    withdrawn = client.delete(f"/games/{t.id}/takeback", headers=t.auth(0))
    assert withdrawn.get_json()["offer"]["status"] == "withdrawn"
    none = client.delete(f"/games/{t.id}/takeback", headers=t.auth(1))
    assert none.status_code == 404 and none.get_json()["code"] == "offer_not_found"
    # Asked again, then seat 1 moves instead of answering: the move voids the offer.
    assert client.post(f"/games/{t.id}/takeback", headers=t.auth(0)).status_code == 202
    moved = t.play({"action": "advance"}, seat=1)
    assert "offer" not in moved and moved["version"] == 3
    assert client.delete(f"/games/{t.id}/takeback", headers=t.auth(1)).status_code == 404
    # Seat 1 acted last now: its asking is an offer of its own, seat 0's is refused.
    assert client.post(f"/games/{t.id}/takeback", headers=t.auth(0)).status_code == 409
    mine = client.post(f"/games/{t.id}/takeback", headers=t.auth(1))
    assert mine.status_code == 202 and mine.get_json()["offer"]["by"] == 1
    # A rematch offer is another kind: no DELETE of it answers this one.
    assert client.delete(f"/games/{t.id}/rematch", headers=t.auth(0)).status_code == 404


def test_an_offer_lapses_after_its_ttl(backend, contract):
    with client_with(backend, contract, offer_ttl_seconds=1) as client:
        created = client.post("/games", json=SEED_2).get_json()
        gid, tokens = created["game"]["id"], created["tokens"]
        auth = [{"Authorization": f"Bearer {token}"} for token in tokens]
        assert (
            client.post(f"/games/{gid}/moves", json={"action": "advance"}, headers=auth[0]).status_code == 201
        )
        assert client.post(f"/games/{gid}/takeback", headers=auth[0]).status_code == 202
        time.sleep(1.1)
        late = client.post(f"/games/{gid}/takeback", headers=auth[1])
        assert late.status_code == 409 and late.get_json()["code"] == "takeback_not_allowed"
        assert client.get(f"/games/{gid}").get_json()["version"] == 2


def test_the_clock_gives_no_time_back(client, table):
    t = table({**SEED_2, "clock": {"initial_s": 60, "increment_s": 0}})
    t.play({"action": "advance"}, seat=0)
    assert client.post(f"/games/{t.id}/takeback", headers=t.auth(0)).status_code == 202
    before = t.state()["clock"]
    assert before["running"] == 1
    time.sleep(0.3)
    after = client.post(f"/games/{t.id}/takeback", headers=t.auth(1)).get_json()["clock"]
    # Seat 1's bank ran from seat 0's move to the takeback and keeps what it spent;
    # seat 0's is what its move left it, and runs from now on.
    assert after["running"] == 0
    assert after["remaining_ms"][1] <= before["remaining_ms"][1] - 300
    assert after["remaining_ms"][0] == before["remaining_ms"][0]


def test_a_bot_seat_accepts_at_once(app, client):
    app.extensions["patchwork"].play.bot_jobs.beat("a test standing in for a worker")
    created = client.post(
        "/games", json={"players": [{"name": "Ann"}, {"name": "Bot", "bot": "random"}], "seed": 2}
    ).get_json()
    gid, token = created["game"]["id"], created["tokens"][0]
    auth = {"Authorization": f"Bearer {token}"}
    assert client.post(f"/games/{gid}/moves", json={"action": "advance"}, headers=auth).status_code == 201
    resp = client.post(f"/games/{gid}/takeback", headers=auth)
    assert resp.status_code == 201, resp.get_json()
    assert resp.get_json()["version"] == 3 and resp.get_json()["turn"] == 0
    assert resp.get_json()["players"][0]["position"] == 0


def test_the_stream_tells_the_offer_the_takeback_and_what_follows(client, table):
    t = table(SEED_2)
    t.play({"action": "advance"}, seat=0)
    assert client.post(f"/games/{t.id}/takeback", headers=t.auth(0)).status_code == 202
    assert client.delete(f"/games/{t.id}/takeback", headers=t.auth(1)).status_code == 200
    assert client.post(f"/games/{t.id}/takeback", headers=t.auth(0)).status_code == 202
    given = client.post(f"/games/{t.id}/takeback", headers=t.auth(1)).get_json()
    assert client.post(f"/games/{t.id}/resign", headers=t.auth(0)).status_code == 201
    events = events_of(client.get(f"/games/{t.id}/events", headers={"Last-Event-ID": "1"}))
    assert [(e.kind, e.id) for e in events] == [
        ("move", "2"),
        ("offer", None),
        ("offer", None),
        ("offer", None),
        ("move", "3"),
        ("move", "4"),
        ("end", None),
    ]
    for event in events:
        check_event(event)
    assert [events[k].json()["status"] for k in (1, 2, 3)] == ["pending", "declined", "pending"]
    assert events[4].json() == {
        "move": {"number": 2, "seat": 0, "action": "takeback", "to_version": 1},
        "game": given,
    }
    # Resuming after the version the offers were made at sends them again, then what followed.
    resumed = events_of(client.get(f"/games/{t.id}/events", headers={"Last-Event-ID": "2"}))
    assert [e.kind for e in resumed] == ["offer", "offer", "offer", "move", "move", "end"]


def test_a_client_current_on_the_game_hears_the_offer_made_since_and_then_the_answer(app, client, table):
    t = table(SEED_2)
    t.play({"action": "advance"}, seat=0)
    assert client.post(f"/games/{t.id}/takeback", headers=t.auth(0)).status_code == 202
    resp = FlaskClient(app).get(f"/games/{t.id}/events", headers={"Last-Event-ID": "2"}, buffered=False)
    try:
        assert resp.status_code == 200
        chunks = iter(resp.response)
        assert next(chunks).startswith(b"retry:")
        assert next(chunks).startswith(b'event: offer\ndata: {"kind":"takeback","by":0,')
        assert client.delete(f"/games/{t.id}/takeback", headers=t.auth(1)).status_code == 200
        # The stream tells its watchers count once after its first events (i38-watching): not an offer.
        declined = next(chunk for chunk in chunks if not chunk.startswith(b"event: watchers\n"))
        assert declined.startswith(b"event: offer\n") and b'"status":"declined"' in declined
    finally:
        resp.close()


def test_a_bot_accepts_and_its_worker_plays_on_after_the_takeback(backend, app, client, tmp_path):
    """Seat 0 (Ann) advances: the bot is in turn at version 2, its job queued. Ann takes it back (the bot
    accepts at once: version 3, Ann in turn) before any worker runs; the worker started then drops the
    job of version 2, and answers Ann's next move."""
    jobs = app.extensions["patchwork"].play.bot_jobs
    jobs.beat("a test standing in for a worker until the real one starts")
    created = client.post(
        "/games", json={"players": [{"name": "Ann"}, {"name": "Bot", "bot": "random"}], "seed": 2}
    ).get_json()
    gid, auth = created["game"]["id"], {"Authorization": f"Bearer {created['tokens'][0]}"}
    assert client.post(f"/games/{gid}/moves", json={"action": "advance"}, headers=auth).status_code == 201
    assert jobs.queued() == 1
    taken = client.post(f"/games/{gid}/takeback", headers=auth)
    assert taken.status_code == 201 and taken.get_json()["version"] == 3 and taken.get_json()["turn"] == 0
    with BotWorkerProcess(backend.url, tmp_path / "worker.log", cluster=backend.cluster) as worker:
        assert client.post(f"/games/{gid}/moves", json={"action": "advance"}, headers=auth).status_code == 201

        def bot_moved():
            game = client.get(f"/games/{gid}").get_json()
            return game if game["version"] >= 5 else None

        wait_for(bot_moved, 20, f"the bot did not move after the takeback; its log:\n{worker.log()}")
    history = client.get(f"/games/{gid}/moves").get_json()["moves"]
    assert [entry.get("action") == "takeback" for entry in history[:3]] == [False, True, False]
    assert [entry["seat"] for entry in history[:4]] == [0, 0, 0, 1]

"""Quick pairing over HTTP on a single Redis and a Cluster (issue 20): POST/GET/DELETE /seeks."""

from __future__ import annotations

import json
import time

from service.api import create_app
from service.config import Settings
from service.games.clock import ClockSettings
from service.site.seeks import pool_of

from .conftest import checked_client_class, client_with

BLITZ = {"initial_s": 300, "increment_s": 3}


def _player(client, name):
    body = client.post("/players", json={"name": name}).get_json()
    return body["player"], {"Authorization": f"Bearer {body['token']}"}


def _seek(client, auth, **body):
    resp = client.post("/seeks", json={"clock": BLITZ, **body}, headers=auth)
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()["seek"]


def test_two_compatible_seeks_become_one_game_between_their_players(app, client):
    ann, ann_auth = _player(client, "Ann")
    bob, bob_auth = _player(client, "Bob")
    first = _seek(client, ann_auth, rated=True)
    assert first["status"] == "waiting" and first["game"] is None and first["rated"] is True
    second = _seek(client, bob_auth, rated=True)
    assert second["status"] == "paired" and second["game"]
    gid = second["game"]
    # The waiting seeker learns it from its seek, and from its stream.
    assert client.get(f"/seeks/{first['id']}", headers=ann_auth).get_json()["seek"]["game"] == gid
    game = client.get(f"/games/{gid}").get_json()
    assert [p["player_id"] for p in game["players"]] == [ann["id"], bob["id"]]
    assert [p["name"] for p in game["players"]] == ["Ann", "Bob"]
    assert game["rated"] is True and game["clock"]["initial_s"] == 300 and game["turn"] == 0
    players = app.extensions["patchwork"].players.store
    for player, seat in ((ann, 0), (bob, 1)):
        (event,) = players.events_after(player["id"], None, 10)
        assert (
            event.kind == "game_start" and f'"game":"{gid}"' in event.data and f'"seat":{seat}' in event.data
        )
    # Each player's token plays its seat.
    assert client.get(f"/games/{gid}/seat", headers=bob_auth).get_json() == {"seat": 1}


def test_seeks_pair_only_when_compatible(client):
    _ann, ann_auth = _player(client, "Ann")
    _bob, bob_auth = _player(client, "Bob")
    assert _seek(client, ann_auth)["status"] == "waiting"
    # Another clock, another `rated`, or the same player: no pairing.
    assert _seek(client, bob_auth, clock={"initial_s": 600, "increment_s": 3})["status"] == "waiting"
    assert _seek(client, bob_auth, rated=True)["status"] == "waiting"
    assert _seek(client, ann_auth)["status"] == "waiting"
    # A range of 0 pairs only with the same rating: both are 1500 here.
    assert _seek(client, bob_auth, range=0)["status"] == "paired"


def test_a_cancelled_seek_is_never_paired(client):
    _ann, ann_auth = _player(client, "Ann")
    _bob, bob_auth = _player(client, "Bob")
    first = _seek(client, ann_auth)
    cancelled = client.delete(f"/seeks/{first['id']}", headers=ann_auth).get_json()["seek"]
    assert cancelled["status"] == "cancelled"
    assert _seek(client, bob_auth)["status"] == "waiting"
    assert client.get(f"/seeks/{first['id']}", headers=ann_auth).get_json()["seek"]["status"] == "cancelled"
    # Another's seek, or none: 404.
    assert client.get(f"/seeks/{first['id']}", headers=bob_auth).status_code == 404
    assert client.delete("/seeks/nope", headers=bob_auth).status_code == 404
    assert client.post("/seeks", json={"clock": BLITZ}).get_json()["code"] == "missing_token"
    assert client.post("/seeks", json={}, headers=bob_auth).status_code == 400


def test_an_expired_seek_is_never_paired(backend, contract):
    app = create_app(backend.settings(seek_ttl_seconds=1))
    app.test_client_class = checked_client_class(contract)
    client = app.test_client()
    try:
        _ann, ann_auth = _player(client, "Ann")
        _bob, bob_auth = _player(client, "Bob")
        first = _seek(client, ann_auth)
        time.sleep(1.2)  # the TTL itself
        assert _seek(client, bob_auth)["status"] == "waiting"
        assert client.get(f"/seeks/{first['id']}", headers=ann_auth).get_json()["seek"]["status"] == "expired"
    finally:
        app.extensions["patchwork"].store.close()


def test_a_seek_is_timed_by_the_stores_clock_not_the_processs(backend, contract, monkeypatch):
    # This process's clock runs two minutes ahead of the store's: a seek the
    # store keeps for a minute still waits, as the store (which pairs it) says.
    real = time.time
    monkeypatch.setattr(time, "time", lambda: real() + 120)
    app = create_app(backend.settings(seek_ttl_seconds=60))
    app.test_client_class = checked_client_class(contract)
    client = app.test_client()
    try:
        _ann, ann_auth = _player(client, "Ann")
        first = _seek(client, ann_auth)
        assert first["status"] == "waiting"
        assert client.get(f"/seeks/{first['id']}", headers=ann_auth).get_json()["seek"]["status"] == "waiting"
    finally:
        app.extensions["patchwork"].store.close()


def test_a_pairing_whose_game_was_never_created_is_repaired_by_a_reader(app, client):
    ann, ann_auth = _player(client, "Ann")
    bob, _bob_auth = _player(client, "Bob")
    first = _seek(client, ann_auth)
    # As if Bob's instance had died between the pairing and the game: the
    # pairing is stored, the game is not.
    pool = app.extensions["patchwork"].seeks.pool
    settings = ClockSettings.from_json(BLITZ)
    pool.post(
        seek_id="B" * 22,
        pool=pool_of(settings, False),
        player_id=bob["id"],
        rating=1500,
        rating_range=500,
        ttl_ms=60_000,
        game_id="G" * 22,
        spec=json.dumps({"clock": settings.to_json(), "rated": False}),
        most_waiting=3,
    )
    assert client.get(f"/games/{'G' * 22}").status_code == 404
    seen = client.get(f"/seeks/{first['id']}", headers=ann_auth).get_json()["seek"]
    assert seen["status"] == "paired" and seen["game"] == "G" * 22
    game = client.get(f"/games/{'G' * 22}").get_json()
    assert [p["player_id"] for p in game["players"]] == [ann["id"], bob["id"]]
    # Reading again creates nothing twice.
    assert client.get(f"/seeks/{first['id']}", headers=ann_auth).status_code == 200


def test_one_player_keeps_at_most_three_seeks_waiting_by_default(client):
    """Issue 36, finding 7: 20 seekers were all paired with one player, who then sat on 20 games."""
    ann, ann_auth = _player(client, "Ann")
    clocks = [{"initial_s": 60 * n, "increment_s": 0} for n in range(1, 21)]
    posted = [client.post("/seeks", json={"clock": clock}, headers=ann_auth) for clock in clocks]
    assert [r.status_code for r in posted] == [201] * 3 + [409] * 17
    refused = posted[-1].get_json()
    assert refused["code"] == "too_many_waiting" and "3" in refused["detail"]
    # 20 seekers, one for each clock: three are paired with Ann, the others wait.
    paired_with_ann = 0
    for n, clock in enumerate(clocks):
        _other, other_auth = _player(client, f"Seeker {n}")
        seek = _seek(client, other_auth, clock=clock)
        if seek["status"] == "paired":
            game = client.get(f"/games/{seek['game']}").get_json()
            paired_with_ann += ann["id"] in [p["player_id"] for p in game["players"]]
    assert paired_with_ann == 3
    # A paired seek waits no more, nor a cancelled one: Ann may seek again.
    first = _seek(client, ann_auth, clock={"initial_s": 5000, "increment_s": 0})
    assert first["status"] == "waiting"
    assert client.post("/seeks", json={"clock": BLITZ}, headers=ann_auth).status_code == 201
    assert client.post("/seeks", json={"clock": BLITZ, "rated": True}, headers=ann_auth).status_code == 201
    assert (
        client.post(
            "/seeks", json={"clock": {"initial_s": 120, "increment_s": 1}}, headers=ann_auth
        ).status_code
        == 409
    )
    assert client.delete(f"/seeks/{first['id']}", headers=ann_auth).status_code == 200
    assert (
        client.post(
            "/seeks", json={"clock": {"initial_s": 120, "increment_s": 1}}, headers=ann_auth
        ).status_code
        == 201
    )


def test_the_seeks_a_player_keeps_waiting_is_a_setting(backend, contract):
    assert Settings().seeks_per_player == 3
    with client_with(backend, contract, seeks_per_player=1) as client:
        _ann, ann_auth = _player(client, "Ann")
        assert _seek(client, ann_auth)["status"] == "waiting"
        again = client.post("/seeks", json={"clock": BLITZ, "rated": True}, headers=ann_auth)
        assert again.status_code == 409 and again.get_json()["code"] == "too_many_waiting"
        # One seek, said in the singular.
        assert again.get_json()["detail"] == (
            "You already have 1 seek waiting, as many as a player may: cancel it, or wait until it is paired or expires."
        )

"""Challenges, blocks and rated lobby games over HTTP on a single Redis and a Cluster (issue 38)."""

from __future__ import annotations

import json
import time
from datetime import datetime

from service.config import RateLimit
from service.games.records import token_hash
from service.site.challenges import Challenge, Side, accepted
from tests.support.store_fill import squeeze

from .conftest import client_with

BLITZ = {"initial_s": 300, "increment_s": 3}
CORRESPONDENCE = {"days_per_move": 3}


def _player(client, name):
    body = client.post("/players", json={"name": name}).get_json()
    return body["player"], {"Authorization": f"Bearer {body['token']}"}


def _challenge(client, auth, **body):
    resp = client.post("/challenges", json={"to": None, **body}, headers=auth)
    assert resp.status_code == 201, resp.get_json()
    assert resp.headers["Location"] == f"/challenges/{resp.get_json()['challenge']['id']}"
    return resp.get_json()["challenge"]


def _events(app, player_id):
    store = app.extensions["patchwork"].players.store
    return [(event.kind, json.loads(event.data)) for event in store.events_after(player_id, None, 50)]


def test_a_named_challenge_accepted_makes_one_game_between_the_two_players(app, client):
    ann, ann_auth = _player(client, "Ann")
    bob, bob_auth = _player(client, "Bob")
    made = _challenge(client, ann_auth, to=bob["id"], clock=BLITZ, rated=True, seat=1)
    assert made["status"] == "pending" and made["game"] is None and made["decline_reason"] is None
    assert made["from"] == {"player_id": ann["id"], "name": "Ann", "rating": 1500, "bot": False}
    assert made["to"] == {"player_id": bob["id"], "name": "Bob", "rating": 1500, "bot": False}
    assert (
        made["seat"] == 1 and made["rated"] is True and made["clock"] == {**BLITZ, "first_move_s": 60}
    )  # the default first move, filled in
    # Bob hears of it, and both list it: incoming for Bob, outgoing for Ann.
    assert _events(app, bob["id"]) == [("challenge", {"challenge": made})]
    assert client.get("/players/me/challenges", headers=bob_auth).get_json() == {
        "incoming": [made],
        "outgoing": [],
    }
    assert client.get("/players/me/challenges", headers=ann_auth).get_json() == {
        "incoming": [],
        "outgoing": [made],
    }

    resp = client.post(f"/challenges/{made['id']}/accept", headers=bob_auth)
    assert resp.status_code == 201, resp.get_json()
    accepted = resp.get_json()
    game = accepted["game"]
    # Ann asked for seat 1, so Bob has seat 0; the clock started as for a joined lobby game.
    assert accepted["seat"] == 0 and resp.headers["Location"] == f"/games/{game['id']}"
    assert [p["player_id"] for p in game["players"]] == [bob["id"], ann["id"]]
    assert game["rated"] is True and game["clock"]["deadline"] is not None
    assert not any(p.get("open") for p in game["players"])
    # The seat token plays Bob's seat, Ann's player token hers.
    seat_auth = {"Authorization": f"Bearer {accepted['token']}"}
    assert client.get(f"/games/{game['id']}/seat", headers=seat_auth).get_json() == {"seat": 0}
    assert client.get(f"/games/{game['id']}/seat", headers=ann_auth).get_json() == {"seat": 1}
    # The challenge names its game; both hear game_start; neither lists it any more.
    shown = client.get(f"/challenges/{made['id']}").get_json()["challenge"]
    assert shown["status"] == "accepted" and shown["game"] == game["id"]
    assert ("game_start", {"game": game["id"], "seat": 1, "my_turn": False}) in _events(app, ann["id"])
    assert ("game_start", {"game": game["id"], "seat": 0, "my_turn": True}) in _events(app, bob["id"])
    assert client.get("/players/me/challenges", headers=bob_auth).get_json() == {
        "incoming": [],
        "outgoing": [],
    }
    # Once over, nothing more ends it: a decline and a withdrawal are refused, no second game.
    for resp in (
        client.post(f"/challenges/{made['id']}/decline", headers=bob_auth),
        client.delete(f"/challenges/{made['id']}", headers=ann_auth),
    ):
        assert resp.status_code == 409 and resp.get_json()["code"] == "challenge_not_pending"
    # Bob asking again (an answer lost on the way) gets the same game, his own token acting for the seat.
    again = client.post(f"/challenges/{made['id']}/accept", headers=bob_auth)
    assert again.status_code == 201 and again.get_json()["game"]["id"] == game["id"]
    assert again.get_json()["token"] == bob_auth["Authorization"].removeprefix("Bearer ")


def test_decline_with_a_reason_tells_the_challenger_and_withdraw_ends_it(app, client):
    ann, ann_auth = _player(client, "Ann")
    bob, bob_auth = _player(client, "Bob")
    first = _challenge(client, ann_auth, to=bob["id"])
    # Only Bob answers it; only Ann withdraws it.
    assert client.post(f"/challenges/{first['id']}/decline", headers=ann_auth).get_json()["code"] == (
        "not_your_challenge"
    )
    assert (
        client.delete(f"/challenges/{first['id']}", headers=bob_auth).get_json()["code"]
        == "not_your_challenge"
    )
    resp = client.post(f"/challenges/{first['id']}/decline", json={"reason": "too_fast"}, headers=bob_auth)
    assert resp.status_code == 200
    declined = resp.get_json()["challenge"]
    assert (
        declined["status"] == "declined"
        and declined["decline_reason"] == "too_fast"
        and declined["game"] is None
    )
    assert _events(app, ann["id"]) == [("challenge_declined", {"challenge": declined})]
    refused = client.post(f"/challenges/{first['id']}/accept", headers=bob_auth)
    assert refused.status_code == 409 and "declined" in refused.get_json()["detail"]

    second = _challenge(client, ann_auth, to=bob["id"])
    withdrawn = client.delete(f"/challenges/{second['id']}", headers=ann_auth)
    assert withdrawn.status_code == 200 and withdrawn.get_json()["challenge"]["status"] == "cancelled"
    assert client.post(f"/challenges/{second['id']}/accept", headers=bob_auth).status_code == 409
    # A decline with no body is `generic`.
    third = _challenge(client, ann_auth, to=bob["id"])
    plain = client.post(f"/challenges/{third['id']}/decline", headers=bob_auth).get_json()["challenge"]
    assert plain["decline_reason"] == "generic"


def test_an_open_challenge_is_accepted_once_by_anyone_with_its_link(client):
    _ann, ann_auth = _player(client, "Ann")
    open_one = _challenge(client, ann_auth, seat=0)
    assert open_one["to"] is None
    # Ann cannot take her own; nobody can decline an open one.
    own = client.post(f"/challenges/{open_one['id']}/accept", headers=ann_auth)
    assert own.status_code == 422 and own.get_json()["code"] == "cannot_target_self"
    _carl, carl_auth = _player(client, "Carl")
    assert client.post(f"/challenges/{open_one['id']}/decline", headers=carl_auth).status_code == 403
    # A guest under a name takes it (unrated); the next accept finds it over.
    resp = client.post(f"/challenges/{open_one['id']}/accept", json={"name": "Dora"})
    assert resp.status_code == 201
    game = resp.get_json()["game"]
    assert [p["name"] for p in game["players"]] == ["Ann", "Dora"] and resp.get_json()["seat"] == 1
    guest_auth = {"Authorization": f"Bearer {resp.get_json()['token']}"}
    assert client.get(f"/games/{game['id']}/seat", headers=guest_auth).get_json() == {"seat": 1}
    late = client.post(f"/challenges/{open_one['id']}/accept", headers=carl_auth)
    assert late.status_code == 409 and late.get_json()["code"] == "challenge_not_pending"


def test_a_rated_challenge_needs_a_clock_and_a_player_to_accept_it(client):
    _ann, ann_auth = _player(client, "Ann")
    no_clock = client.post("/challenges", json={"to": None, "rated": True}, headers=ann_auth)
    assert no_clock.status_code == 422 and no_clock.get_json()["code"] == "rated_not_possible"
    rated = _challenge(client, ann_auth, clock=BLITZ, rated=True)
    by_name = client.post(f"/challenges/{rated['id']}/accept", json={"name": "Guest"})
    assert by_name.status_code == 403 and by_name.get_json()["code"] == "player_required"
    # Refused, it is still pending: a player takes it.
    _bob, bob_auth = _player(client, "Bob")
    assert client.post(f"/challenges/{rated['id']}/accept", headers=bob_auth).status_code == 201


def test_challenges_refused_with_clear_codes(client):
    ann, ann_auth = _player(client, "Ann")
    assert client.post("/challenges", json={"to": ann["id"]}, headers=ann_auth).get_json()["code"] == (
        "cannot_target_self"
    )
    missing = client.post("/challenges", json={"to": "A" * 22}, headers=ann_auth)
    assert missing.status_code == 404 and missing.get_json()["code"] == "player_not_found"
    assert client.post("/challenges", json={"to": None}).get_json()["code"] == "missing_token"
    assert client.post("/challenges", json={"to": None, "seat": 2}, headers=ann_auth).status_code == 400
    unknown = client.post("/challenges/nope/accept", json={"name": "X"})
    assert unknown.status_code == 404 and unknown.get_json()["code"] == "challenge_not_found"
    assert client.get("/challenges/" + "B" * 22).status_code == 404
    bad_reason = _challenge(client, ann_auth)
    assert (
        client.post(
            f"/challenges/{bad_reason['id']}/decline", json={"reason": "rude"}, headers=ann_auth
        ).status_code
        == 400
    )


def test_a_correspondence_challenge_waits_seven_days_and_a_real_time_one_the_ttl(client):
    _ann, ann_auth = _player(client, "Ann")
    for clock, seconds in ((CORRESPONDENCE, 7 * 24 * 3600), (BLITZ, 600), (None, 600)):
        made = _challenge(client, ann_auth, clock=clock)
        created, expires = (_ms(made[k]) for k in ("created_at", "expires_at"))
        assert expires - created == seconds * 1000


def _ms(text: str) -> int:
    return round(datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() * 1000)


def test_at_most_twenty_pending_outgoing_challenges(client):
    _ann, ann_auth = _player(client, "Ann")
    made = [_challenge(client, ann_auth) for _ in range(20)]
    refused = client.post("/challenges", json={"to": None}, headers=ann_auth)
    assert refused.status_code == 409 and refused.get_json()["code"] == "too_many_waiting"
    # One ended (withdrawn) frees its place.
    client.delete(f"/challenges/{made[0]['id']}", headers=ann_auth)
    assert client.post("/challenges", json={"to": None}, headers=ann_auth).status_code == 201


def test_an_expired_challenge_cannot_be_accepted_and_makes_no_game(backend, contract):
    with client_with(backend, contract, challenge_ttl_seconds=1) as client:
        _ann, ann_auth = _player(client, "Ann")
        bob, bob_auth = _player(client, "Bob")
        made = _challenge(client, ann_auth, to=bob["id"])
        time.sleep(1.1)
        resp = client.post(f"/challenges/{made['id']}/accept", headers=bob_auth)
        assert resp.status_code == 409 and "expired" in resp.get_json()["detail"]
        shown = client.get(f"/challenges/{made['id']}").get_json()["challenge"]
        assert shown["status"] == "expired" and shown["game"] is None
        assert client.get("/players/me/challenges", headers=bob_auth).get_json()["incoming"] == []
        assert client.get("/players/me/games", headers=bob_auth).get_json()["games"] == []


def test_blocks_refuse_challenges_and_hide_lobby_games_and_seeks(client):
    ann, ann_auth = _player(client, "Ann")
    bob, bob_auth = _player(client, "Bob")
    resp = client.post(f"/players/me/blocks/{bob['id']}", headers=ann_auth)
    assert resp.status_code == 200 and resp.get_json() == {"players": [bob["id"]]}
    assert client.get("/players/me/blocks", headers=ann_auth).get_json() == {"players": [bob["id"]]}
    # Bob's challenges to Ann are refused; Ann's to Bob are not (a block is one-sided).
    refused = client.post("/challenges", json={"to": ann["id"]}, headers=bob_auth)
    assert refused.status_code == 403 and refused.get_json()["code"] == "blocked"
    assert client.post("/challenges", json={"to": bob["id"]}, headers=ann_auth).status_code == 201
    # Bob's open game is left out of Ann's lobby, shown to everyone else.
    made = client.post("/games", json={"players": [{"name": "Bob"}, {"open": True}]}, headers=bob_auth)
    game_id = made.get_json()["game"]["id"]
    assert game_id not in [
        g["id"] for g in client.get("/games?status=open", headers=ann_auth).get_json()["games"]
    ]
    assert game_id in [g["id"] for g in client.get("/games?status=open").get_json()["games"]]
    # Their seeks do not pair; a third player's does.
    assert (
        client.post("/seeks", json={"clock": BLITZ}, headers=bob_auth).get_json()["seek"]["status"]
        == "waiting"
    )
    assert (
        client.post("/seeks", json={"clock": BLITZ}, headers=ann_auth).get_json()["seek"]["status"]
        == "waiting"
    )
    _carl, carl_auth = _player(client, "Carl")
    assert (
        client.post("/seeks", json={"clock": BLITZ}, headers=carl_auth).get_json()["seek"]["status"]
        == "paired"
    )
    # Nor the other way round: Ann's seek waits first, and Bob's that comes after passes it by.
    rapid = {"initial_s": 900, "increment_s": 10}
    assert (
        client.post("/seeks", json={"clock": rapid}, headers=ann_auth).get_json()["seek"]["status"]
        == "waiting"
    )
    assert (
        client.post("/seeks", json={"clock": rapid}, headers=bob_auth).get_json()["seek"]["status"]
        == "waiting"
    )
    # Unblocked, Bob may challenge Ann again; blocking oneself or nobody is refused.
    assert client.delete(f"/players/me/blocks/{bob['id']}", headers=ann_auth).get_json() == {"players": []}
    assert client.post("/challenges", json={"to": ann["id"]}, headers=bob_auth).status_code == 201
    assert client.post(f"/players/me/blocks/{ann['id']}", headers=ann_auth).get_json()["code"] == (
        "cannot_target_self"
    )
    assert client.post("/players/me/blocks/" + "C" * 22, headers=ann_auth).status_code == 404


def test_a_rated_lobby_game_is_joined_by_a_player_only(client):
    ann, ann_auth = _player(client, "Ann")
    body = {"players": [{"name": "Ann"}, {"open": True}], "clock": BLITZ, "rated": True}
    resp = client.post("/games", json=body, headers=ann_auth)
    assert resp.status_code == 201, resp.get_json()
    game = resp.get_json()["game"]
    assert game["rated"] is True
    entry = next(g for g in client.get("/games?status=open").get_json()["games"] if g["id"] == game["id"])
    assert entry["rated"] is True
    by_name = client.post(f"/games/{game['id']}/join", json={"name": "Guest"})
    assert by_name.status_code == 403 and by_name.get_json()["code"] == "player_required"
    bob, bob_auth = _player(client, "Bob")
    joined = client.post(f"/games/{game['id']}/join", headers=bob_auth)
    assert joined.status_code == 201 and joined.get_json()["game"]["players"][1]["player_id"] == bob["id"]
    assert ann["id"] == joined.get_json()["game"]["players"][0]["player_id"]


def test_a_rated_lobby_game_needs_a_clock_a_player_and_one_open_seat(client):
    _ann, ann_auth = _player(client, "Ann")
    open_seat = [{"name": "Ann"}, {"open": True}]
    for body, auth in (
        ({"players": open_seat, "rated": True}, ann_auth),  # no clock
        ({"players": open_seat, "clock": BLITZ, "rated": True}, {}),  # no player token
        (
            {"players": [{"name": "Ann"}, {"name": "Bob"}], "clock": BLITZ, "rated": True},
            ann_auth,
        ),  # no open seat
        (
            {"players": [{"name": "Ann"}, {"name": "G", "bot": "greedy"}], "clock": BLITZ, "rated": True},
            ann_auth,
        ),
    ):
        resp = client.post("/games", json=body, headers=auth)
        assert resp.status_code == 422 and resp.get_json()["code"] == "rated_not_possible", body


def test_near_maxmemory_challenges_and_their_acceptance_are_refused_first(backend, contract):
    with client_with(backend, contract, store_reserve_check_seconds=0.0) as client:
        _ann, ann_auth = _player(client, "Ann")
        _bob, bob_auth = _player(client, "Bob")
        made = _challenge(client, ann_auth)
        try:
            # Filled well inside the reserve (the last 10%): filled only to its edge, a few freed bytes
            # (another test's key expiring, a buffer shrinking) would let the next creation through.
            for node in backend.nodes:
                squeeze(node, 0.95)
            assert client.post("/games", json={}).status_code == 503  # the reserve is reached
            for resp in (
                client.post("/challenges", json={"to": None}, headers=ann_auth),
                client.post(f"/challenges/{made['id']}/accept", headers=bob_auth),
            ):
                assert resp.status_code == 503 and resp.get_json()["code"] == "store_nearly_full"
            # Nothing was made: the challenge still waits, and reading it goes on.
            assert client.get(f"/challenges/{made['id']}").get_json()["challenge"]["status"] == "pending"
        finally:
            for node in backend.nodes:
                node.config_set("maxmemory", 0)  # the servers are shared with other tests


def test_challenges_count_among_the_games_a_client_makes_an_hour(backend, contract):
    with client_with(backend, contract, rate_limit_games=RateLimit(limit=2, window_seconds=60)) as client:
        _ann, ann_auth = _player(client, "Ann")
        assert [
            client.post("/challenges", json={"to": None}, headers=ann_auth).status_code for _ in range(3)
        ] == [
            201,
            201,
            429,
        ]


def test_an_accepted_challenge_whose_game_was_never_made_gets_it_from_its_next_reader(app, client):
    ann, ann_auth = _player(client, "Ann")
    bob, bob_auth = _player(client, "Bob")
    made = _challenge(client, ann_auth, to=bob["id"], seat=0)
    book = app.extensions["patchwork"].challenges.book
    stored = book.load(made["id"])
    before = Challenge.decode(stored.text)
    # The acceptor's process stored the accept, then died before creating the game.
    after = accepted(before, before.created_ms, Side(bob["id"], "Bob", 1500), token_hash("bobs-seat-token"))
    swapped = book.swap(
        made["id"], stored.version, after.encode(), "accepted", before_ms=None, keep_until_ms=after.expires_ms
    )
    assert swapped.done
    assert client.get(f"/games/{before.game}").status_code == 404
    shown = client.get(f"/challenges/{made['id']}").get_json()["challenge"]
    assert shown["status"] == "accepted" and shown["game"] == before.game
    game = client.get(f"/games/{before.game}").get_json()
    assert [p["player_id"] for p in game["players"]] == [ann["id"], bob["id"]]
    # The seat token minted before the accept plays Bob's seat, as does his player token.
    seat_auth = {"Authorization": "Bearer bobs-seat-token"}
    assert client.get(f"/games/{before.game}/seat", headers=seat_auth).get_json() == {"seat": 1}
    assert client.get(f"/games/{before.game}/seat", headers=bob_auth).get_json() == {"seat": 1}
    # Bob asking again gets that game; no second one is made.
    again = client.post(f"/challenges/{made['id']}/accept", headers=bob_auth)
    assert again.status_code == 201 and again.get_json()["game"]["id"] == before.game
    assert len(client.get("/players/me/games", headers=bob_auth).get_json()["games"]) == 1

"""Tournaments over HTTP (issue 39), on a single Redis and a Cluster: every endpoint, every refusal, and a
two-player round robin played to its end through the games' own requests.

Every answer is held to openapi.yaml by the checked client. Times are the
store's: `starts_at` is set from Redis's clock, which is this machine's.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime

from flask.testing import FlaskClient

from service.api.contract.spec import load_spec
from service.config import RateLimit
from tests.support.sse import compile_stream_item, event_faults, parse_blocks

from .conftest import client_with

BLITZ = {"initial_s": 300, "increment_s": 3}


def _auth(token):
    return {"Authorization": f"Bearer {token}"}


def _player(client, name):
    body = client.post("/players", json={"name": name}).get_json()
    return body["player"]["id"], body["token"]


def _at(seconds_ahead: float) -> str:
    return datetime.fromtimestamp(time.time() + seconds_ahead, UTC).isoformat().replace("+00:00", "Z")


def _swiss(**changes):
    return {
        "name": "Friday Swiss",
        "system": "swiss",
        "rounds": 3,
        "clock": BLITZ,
        "starts_at": _at(3600),
        "max_players": 8,
        **changes,
    }


def _robin(**changes):
    body = {**_swiss(name="Club round robin", system="round_robin", max_players=4), **changes}
    body.pop("rounds")
    return body


def _create(client, token, body):
    resp = client.post("/tournaments", json=body, headers=_auth(token))
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()["tournament"]


def _code(resp):
    return resp.status_code, resp.get_json()["code"]


def test_a_tournament_is_created_upcoming_with_every_default(client):
    ann_id, ann = _player(client, "Ann")
    starts_at = _at(600)
    resp = client.post("/tournaments", json=_swiss(starts_at=starts_at), headers=_auth(ann))
    assert resp.status_code == 201
    made = resp.get_json()["tournament"]
    assert resp.headers["Location"] == f"/tournaments/{made['id']}"
    assert made["status"] == "upcoming" and made["round"] == 0
    assert made["organiser"] == {"id": ann_id, "name": "Ann"}
    assert made["players"] == [] and made["standings"] == [] and made["round_pairings"] == []
    # The defaults of the contract: a 30 s pause, listed, unrated, single.
    assert (made["pause_s"], made["listed"], made["rated"], made["double"]) == (30, True, False, False)
    assert made["min_rating"] is None and made["max_rating"] is None
    assert made["rounds"] == 3 and made["max_players"] == 8 and made["system"] == "swiss"
    # Kept to the millisecond: the same instant as asked, and the start is what is due next.
    asked = datetime.fromisoformat(starts_at.replace("Z", "+00:00"))
    assert datetime.fromisoformat(made["starts_at"].replace("Z", "+00:00")) == asked.replace(
        microsecond=asked.microsecond // 1000 * 1000
    )
    assert made["next_round_at"] == made["starts_at"]
    assert made["clock"]["initial_s"] == 300 and made["clock"]["increment_s"] == 3
    assert client.get(f"/tournaments/{made['id']}").get_json() == {"tournament": made}


def test_creating_refuses_what_the_contract_does_not_allow(client):
    _ann_id, ann = _player(client, "Ann")
    assert _code(client.post("/tournaments", json=_swiss())) == (401, "missing_token")
    assert _code(client.post("/tournaments", json=_swiss(), headers=_auth("nope"))) == (401, "invalid_token")
    for starts_at in (_at(30), _at(-60), _at(31 * 24 * 3600)):
        resp = client.post("/tournaments", json=_swiss(starts_at=starts_at), headers=_auth(ann))
        assert _code(resp) == (422, "starts_at_out_of_range"), starts_at
    for body in (
        _swiss(rounds=None),
        {**_robin(), "rounds": 3},
        _robin(max_players=21),
        _swiss(min_rating=1600, max_rating=1500),
        _swiss(double=True),
    ):
        assert _code(client.post("/tournaments", json=body, headers=_auth(ann))) == (
            422,
            "tournament_invalid",
        )
    for body in (
        _swiss(rounds=16),
        _swiss(max_players=513),
        _swiss(max_players=1),
        _swiss(pause_s=601),
        _swiss(system="knockout"),
        _swiss(clock=None),
        _swiss(starts_at="tomorrow"),
        _swiss(colour="blue"),
    ):
        assert _code(client.post("/tournaments", json=body, headers=_auth(ann))) == (400, "invalid_request")


def test_an_unknown_tournament_is_not_found_on_every_path(client):
    _ann_id, ann = _player(client, "Ann")
    for tournament_id in ("A" * 22, "no-such-id"):
        assert _code(client.get(f"/tournaments/{tournament_id}")) == (404, "tournament_not_found")
        for action in ("join", "withdraw", "start", "cancel"):
            resp = client.post(f"/tournaments/{tournament_id}/{action}", headers=_auth(ann))
            assert _code(resp) == (404, "tournament_not_found"), action
        assert _code(client.get(f"/tournaments/{tournament_id}/events")) == (404, "tournament_not_found")


def test_joining_and_withdrawing_before_the_start(client):
    _ann_id, ann = _player(client, "Ann")
    bob_id, bob = _player(client, "Bob")
    cy_id, cy = _player(client, "Cy")
    made = _create(client, ann, _swiss(max_players=2))
    path = f"/tournaments/{made['id']}"
    joined = client.post(f"{path}/join", headers=_auth(bob))
    assert joined.status_code == 200
    assert joined.get_json()["tournament"]["players"] == [
        {"id": bob_id, "name": "Bob", "rating": 1500, "withdrawn": False}
    ]
    # Joining twice is joining once.
    assert (
        client.post(f"{path}/join", headers=_auth(bob)).get_json()["tournament"]["players"]
        == (joined.get_json()["tournament"]["players"])
    )
    assert client.post(f"{path}/join", headers=_auth(cy)).status_code == 200
    _dan_id, dan = _player(client, "Dan")
    assert _code(client.post(f"{path}/join", headers=_auth(dan))) == (409, "tournament_full")
    # Withdrawing before the start frees the place; withdrawing again is not being in it.
    left = client.post(f"{path}/withdraw", headers=_auth(bob)).get_json()["tournament"]
    assert [p["id"] for p in left["players"]] == [cy_id]
    assert _code(client.post(f"{path}/withdraw", headers=_auth(bob))) == (409, "not_in_tournament")
    assert client.post(f"{path}/join", headers=_auth(dan)).status_code == 200
    assert _code(client.post(f"{path}/join")) == (401, "missing_token")


def test_the_rating_bounds_keep_players_out(client):
    _ann_id, ann = _player(client, "Ann")
    _bob_id, bob = _player(client, "Bob")  # a new player is rated 1500
    above = _create(client, ann, _swiss(min_rating=1600))
    below = _create(client, ann, _swiss(max_rating=1400))
    within = _create(client, ann, _swiss(min_rating=1500, max_rating=1500))
    for made in (above, below):
        resp = client.post(f"/tournaments/{made['id']}/join", headers=_auth(bob))
        assert _code(resp) == (403, "rating_out_of_range")
        assert "1500" in resp.get_json()["detail"]
    assert client.post(f"/tournaments/{within['id']}/join", headers=_auth(bob)).status_code == 200


def test_only_the_organiser_starts_or_cancels_and_only_before_the_start(client):
    _ann_id, ann = _player(client, "Ann")
    bob_id, bob = _player(client, "Bob")
    cy_id, cy = _player(client, "Cy")
    made = _create(client, ann, _robin())
    path = f"/tournaments/{made['id']}"
    assert _code(client.post(f"{path}/start", headers=_auth(bob))) == (403, "not_organiser")
    assert _code(client.post(f"{path}/cancel", headers=_auth(bob))) == (403, "not_organiser")
    assert client.post(f"{path}/join", headers=_auth(bob)).status_code == 200
    assert _code(client.post(f"{path}/start", headers=_auth(ann))) == (409, "too_few_players")
    assert client.post(f"{path}/join", headers=_auth(cy)).status_code == 200
    started = client.post(f"{path}/start", headers=_auth(ann))
    assert started.status_code == 200
    running = started.get_json()["tournament"]
    # Two players of a round robin: one round, one game, its first player the higher seed (equal
    # ratings: the smaller id).
    assert (running["status"], running["round"], running["rounds"], running["next_round_at"]) == (
        "running",
        1,
        1,
        None,
    )
    (first_round,) = running["round_pairings"]
    assert first_round["number"] == 1 and first_round["status"] == "playing"
    (board,) = first_round["pairings"]
    assert {board["first"]["id"], board["second"]["id"]} == {bob_id, cy_id}
    assert board["winner"] is None and board["margin"] is None
    game = client.get(f"/games/{board['game']}").get_json()
    assert game["tournament"] == {"id": made["id"], "round": 1}
    assert [p["player_id"] for p in game["players"]] == [board["first"]["id"], board["second"]["id"]]
    for action in ("start", "cancel"):
        assert _code(client.post(f"{path}/{action}", headers=_auth(ann))) == (409, "tournament_started")
    _dan_id, dan = _player(client, "Dan")
    assert _code(client.post(f"{path}/join", headers=_auth(dan))) == (409, "tournament_started")


def test_a_cancelled_tournament_is_over_for_every_change(client):
    _ann_id, ann = _player(client, "Ann")
    _bob_id, bob = _player(client, "Bob")
    made = _create(client, ann, _swiss())
    path = f"/tournaments/{made['id']}"
    assert client.post(f"{path}/join", headers=_auth(bob)).status_code == 200
    cancelled = client.post(f"{path}/cancel", headers=_auth(ann))
    assert cancelled.status_code == 200
    assert cancelled.get_json()["tournament"]["status"] == "cancelled"
    # Cancelling twice is cancelling once.
    assert client.post(f"{path}/cancel", headers=_auth(ann)).get_json() == cancelled.get_json()
    assert _code(client.post(f"{path}/join", headers=_auth(bob))) == (409, "tournament_over")
    assert _code(client.post(f"{path}/withdraw", headers=_auth(bob))) == (409, "tournament_over")
    assert _code(client.post(f"{path}/start", headers=_auth(ann))) == (409, "tournament_over")


def test_the_lists_by_status(client):
    _ann_id, ann = _player(client, "Ann")
    _bob_id, bob = _player(client, "Bob")
    _create(client, ann, _swiss(name="later", starts_at=_at(7200)))
    _create(client, ann, _swiss(name="sooner", starts_at=_at(3600)))
    hidden = _create(client, ann, _swiss(name="hidden", listed=False))
    started = _create(client, ann, _robin(name="started"))
    for token in (ann, bob):
        client.post(f"/tournaments/{started['id']}/join", headers=_auth(token))
    assert client.post(f"/tournaments/{started['id']}/start", headers=_auth(ann)).status_code == 200
    dropped = _create(client, ann, _swiss(name="dropped"))
    client.post(f"/tournaments/{dropped['id']}/cancel", headers=_auth(ann))

    def names(status):
        page = client.get(f"/tournaments?status={status}").get_json()
        assert page["next"] is None
        return [t["name"] for t in page["tournaments"]]

    # Upcoming: the soonest to start first; the unlisted one nowhere.
    assert names("upcoming") == ["sooner", "later"]
    assert names("running") == ["started"]
    assert names("finished") == ["dropped"]
    assert hidden["listed"] is False
    summary = client.get("/tournaments?status=running").get_json()["tournaments"][0]
    assert (summary["player_count"], summary["round"], summary["status"]) == (2, 1, "running")
    assert _code(client.get("/tournaments?status=open")) == (400, "invalid_request")
    assert _code(client.get("/tournaments")) == (400, "invalid_request")


def test_the_lists_page_fifty_at_a_time(client):
    _ann_id, ann = _player(client, "Ann")
    made = [_create(client, ann, _swiss(name=f"t{n}", starts_at=_at(3600 + n))) for n in range(52)]
    first = client.get("/tournaments?status=upcoming").get_json()
    assert [t["id"] for t in first["tournaments"]] == [t["id"] for t in made[:50]]
    second = client.get(f"/tournaments?status=upcoming&cursor={first['next']}").get_json()
    assert [t["id"] for t in second["tournaments"]] == [t["id"] for t in made[50:]]
    assert second["next"] is None


def _tournament_events():
    media = load_spec()["paths"]["/tournaments/{tournament_id}/events"]["get"]["responses"]["200"]["content"]
    return compile_stream_item(load_spec(), media["text/event-stream"]["itemSchema"])


class Stream:
    """An open tournament stream in the app, read block by block."""

    def __init__(self, app, path, **kwargs):
        self.resp = FlaskClient(app).get(path, buffered=False, **kwargs)
        assert self.resp.status_code == 200, self.resp.get_data()
        self.chunks = iter(self.resp.response)
        assert next(self.chunks).startswith(b"retry:")
        self.validator = _tournament_events()

    def next(self):
        block = next(parse_blocks(next(self.chunks).decode().split("\n")))
        assert not event_faults(self.validator, block), block
        return block

    def rest(self):
        return [next(parse_blocks(chunk.decode().split("\n"))) for chunk in self.chunks]

    def close(self):
        self.resp.close()


def test_a_round_robin_of_two_played_out_with_its_events(app, client):
    _ann_id, ann = _player(client, "Ann")
    bob_id, bob = _player(client, "Bob")
    cy_id, cy = _player(client, "Cy")
    made = _create(client, ann, _robin(rated=True))
    path = f"/tournaments/{made['id']}"
    for token in (bob, cy):
        client.post(f"{path}/join", headers=_auth(token))
    stream = Stream(app, f"{path}/events")
    try:
        snapshot = stream.next()
        assert snapshot.kind == "tournament" and snapshot.json()["status"] == "upcoming"
        board = client.post(f"{path}/start", headers=_auth(ann)).get_json()["tournament"]["round_pairings"][
            0
        ]["pairings"][0]
        start = stream.next()
        assert start.kind == "round_start" and start.json() == {"round": 1, "pairings": [board]}
        # The second player resigns: the first wins, by the scores as they stand (both untouched: 0).
        tokens = {bob_id: bob, cy_id: cy}
        loser = board["second"]["id"]
        assert client.post(f"/games/{board['game']}/resign", headers=_auth(tokens[loser])).status_code == 201
        game_end, standings, finished = stream.next(), stream.next(), stream.next()
        assert game_end.kind == "game_end"
        assert game_end.json() == {"round": 1, "game": board["game"], "winner": "first", "margin": 0}
        assert standings.kind == "standings" and finished.kind == "finished"
        winner = board["first"]
        expected = [
            {
                "rank": 1,
                "player": winner,
                "points": 1.0,
                "buchholz": 0.0,
                "sonneborn_berger": 0.0,
                "margin": 0,
            },
            {
                "rank": 2,
                "player": board["second"],
                "points": 0.0,
                "buchholz": 1.0,
                "sonneborn_berger": 0.0,
                "margin": 0,
            },
        ]
        assert finished.json() == {"standings": expected}
        assert stream.rest() == []  # the stream ends after `finished`
    finally:
        stream.close()
    over = client.get(path).get_json()["tournament"]
    assert over["status"] == "finished" and over["standings"] == expected
    assert over["round_pairings"][0]["status"] == "finished"
    assert over["round_pairings"][0]["pairings"][0]["winner"] == "first"
    assert _code(client.post(f"{path}/withdraw", headers=_auth(bob))) == (409, "tournament_over")
    # Resumed after the round's start: exactly what came after it, then the end.
    resumed = Stream(app, f"{path}/events", headers={"Last-Event-ID": start.id})
    try:
        assert [e.kind for e in resumed.rest()] == ["game_end", "standings", "finished"]
    finally:
        resumed.close()
    # Resumed at the end: nothing more, closed at once; with no id, a snapshot of the end.
    assert Stream(app, f"{path}/events", headers={"Last-Event-ID": finished.id}).rest() == []
    again = Stream(app, f"{path}/events")
    shown = again.rest()
    assert [e.kind for e in shown] == ["tournament"] and shown[0].id == finished.id
    assert shown[0].json()["status"] == "finished"


def test_tournaments_count_among_the_games_a_client_makes_and_joins_among_its_joins(backend, contract):
    one = RateLimit(limit=1, window_seconds=60)
    with client_with(backend, contract, rate_limit_games=RateLimit(limit=2, window_seconds=60)) as client:
        _ann_id, ann = _player(client, "Ann")
        made = [client.post("/tournaments", json=_swiss(), headers=_auth(ann)) for _ in range(3)]
        assert [resp.status_code for resp in made] == [201, 201, 429]
        assert made[2].get_json()["code"] == "rate_limited" and "Retry-After" in made[2].headers
    with client_with(backend, contract, rate_limit_joins=one) as client:
        _ann_id, ann = _player(client, "Ann")
        _bob_id, bob = _player(client, "Bob")
        path = f"/tournaments/{_create(client, ann, _swiss())['id']}"
        assert client.post(f"{path}/join", headers=_auth(ann)).status_code == 200
        assert _code(client.post(f"{path}/join", headers=_auth(bob))) == (429, "rate_limited")


def test_the_stream_of_a_cancelled_tournament_says_so_and_ends(app, client):
    _ann_id, ann = _player(client, "Ann")
    path = f"/tournaments/{_create(client, ann, _swiss())['id']}"
    stream = Stream(app, f"{path}/events")
    try:
        assert stream.next().kind == "tournament"
        assert client.post(f"{path}/cancel", headers=_auth(ann)).status_code == 200
        cancelled = stream.next()
        assert (cancelled.kind, cancelled.json()) == ("cancelled", {})
        assert stream.rest() == []
    finally:
        stream.close()
    # An id that names no event kept (garbage, or one from before): a snapshot, never a 400.
    for last in ("garbage", "1-0"):
        shown = Stream(app, f"{path}/events", headers={"Last-Event-ID": last}).rest()
        assert [e.kind for e in shown] == ["tournament"] and shown[0].json()["status"] == "cancelled"

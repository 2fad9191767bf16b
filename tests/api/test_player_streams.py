"""A player's games and its event stream (GET /players/me/games, /players/me/events, stream tickets), issue 20."""

from __future__ import annotations

import json

from flask.testing import FlaskClient

from service.api.contract.spec import load_spec
from service.games.records import token_hash
from tests.support.sse import compile_stream_item, event_faults, parse_blocks

ADVANCE = {"data": json.dumps({"action": "advance"}), "content_type": "application/json"}


def _player(client, name):
    body = client.post("/players", json={"name": name}).get_json()
    return body["player"], body["token"]


def _bearer(token):
    return {"Authorization": f"Bearer {token}"}


def _game_between(client, first_token, second_token):
    """A game Ann (seat 0) opens and Bob (seat 1) joins; its id."""
    resp = client.post(
        "/games", json={"players": [{"name": "x"}, {"open": True}]}, headers=_bearer(first_token)
    )
    gid = resp.get_json()["game"]["id"]
    assert client.post(f"/games/{gid}/join", headers=_bearer(second_token)).status_code == 201
    return gid


def _player_events():
    media = load_spec()["paths"]["/players/me/events"]["get"]["responses"]["200"]["content"]
    return compile_stream_item(load_spec(), media["text/event-stream"]["itemSchema"])


class Stream:
    """An open player stream in the app, read block by block."""

    def __init__(self, app, **kwargs):
        self.resp = FlaskClient(app).get("/players/me/events", buffered=False, **kwargs)
        assert self.resp.status_code == 200, self.resp.get_data()
        self.chunks = iter(self.resp.response)
        assert next(self.chunks).startswith(b"retry:")
        self.validator = _player_events()

    def next(self):
        block = next(parse_blocks(next(self.chunks).decode().split("\n")))
        assert not event_faults(self.validator, block), block
        return block

    def close(self):
        self.resp.close()


def test_my_games_put_the_ones_awaiting_my_move_first(client):
    _ann, ann = _player(client, "Ann")
    _bob, bob = _player(client, "Bob")
    waiting_on_bob = _game_between(client, ann, bob)
    assert client.post(f"/games/{waiting_on_bob}/moves", headers=_bearer(ann), **ADVANCE).status_code == 201
    my_turn = _game_between(client, ann, bob)
    finished = _game_between(client, ann, bob)
    assert client.post(f"/games/{finished}/resign", headers=_bearer(ann)).status_code == 201
    games = client.get("/players/me/games", headers=_bearer(ann)).get_json()["games"]
    assert games[0]["game"]["id"] == my_turn
    assert {g["game"]["id"] for g in games} == {waiting_on_bob, my_turn, finished}
    assert [g["my_turn"] for g in games] == [True, False, False]
    assert all(g["seat"] == 0 and g["deadline"] is None for g in games)
    active = client.get("/players/me/games?status=active", headers=_bearer(ann)).get_json()["games"]
    assert {g["game"]["id"] for g in active} == {waiting_on_bob, my_turn}
    bobs = client.get("/players/me/games", headers=_bearer(bob)).get_json()["games"]
    assert bobs[0]["game"]["id"] == waiting_on_bob and bobs[0]["seat"] == 1 and bobs[0]["my_turn"]
    assert client.get("/players/me/games").get_json()["code"] == "missing_token"


def test_the_stream_tells_of_a_game_starting_turns_and_its_end_and_resumes(app, client):
    _ann, ann = _player(client, "Ann")
    _bob, bob = _player(client, "Bob")
    stream = Stream(app, headers=_bearer(ann))
    try:
        gid = _game_between(client, ann, bob)
        start = stream.next()
        assert start.kind == "game_start" and start.json() == {"game": gid, "seat": 0, "my_turn": True}
        assert client.post(f"/games/{gid}/moves", headers=_bearer(ann), **ADVANCE).status_code == 201
        assert client.post(f"/games/{gid}/moves", headers=_bearer(bob), **ADVANCE).status_code == 201
        turn = stream.next()
        assert turn.kind == "your_turn" and turn.json() == {"game": gid, "seat": 0, "version": 3}
        assert client.post(f"/games/{gid}/resign", headers=_bearer(bob)).status_code == 201
        end = stream.next()
        assert end.kind == "game_end" and end.json()["result"]["winner"] == 0
    finally:
        stream.close()
    # Resuming after the first event sends exactly the ones after it.
    resumed = Stream(app, headers={**_bearer(ann), "Last-Event-ID": start.id})
    try:
        assert [resumed.next().id for _ in range(2)] == [turn.id, end.id]
    finally:
        resumed.close()


def test_a_stream_ticket_is_good_for_one_stream_and_a_token_never_goes_in_the_url(app, client):
    _ann, ann = _player(client, "Ann")
    resp = client.post("/players/me/stream-tickets", headers=_bearer(ann))
    assert resp.status_code == 201 and resp.get_json()["expires_in"] == 60
    ticket = resp.get_json()["ticket"]
    stream = Stream(app, query_string={"ticket": ticket})
    stream.close()
    again = client.get("/players/me/events", query_string={"ticket": ticket})
    assert again.status_code == 401 and again.get_json()["code"] == "invalid_token"
    # A player token in ?ticket= is no ticket (longer than any: refused by its form).
    assert client.get("/players/me/events", query_string={"ticket": ann}).status_code == 400
    assert client.get("/players/me/events", query_string={"ticket": "x" * 43}).status_code == 401
    assert client.post("/players/me/stream-tickets").get_json()["code"] == "missing_token"


def test_a_ticket_is_used_up_by_the_first_request_naming_it_even_a_refused_one(app, client):
    """Issue 36: a request refused before the ticket was looked at (400) left the ticket valid."""
    _ann, ann = _player(client, "Ann")
    tickets = app.extensions["patchwork"].players.store
    ticket = client.post("/players/me/stream-tickets", headers=_bearer(ann)).get_json()["ticket"]
    refused = client.get(f"/players/me/events?ticket={ticket}&ticket=x")
    assert refused.status_code == 400
    # Gone from the store (asked there, as a valid ticket would open a stream that never ends).
    assert tickets.redeem_ticket(token_hash(ticket)) is None
    # With a token as well, the ticket beside it is used up too.
    other = client.post("/players/me/stream-tickets", headers=_bearer(ann)).get_json()["ticket"]
    assert client.get(f"/players/me/events?ticket={other}&ticket=x", headers=_bearer(ann)).status_code == 400
    assert tickets.redeem_ticket(token_hash(other)) is None

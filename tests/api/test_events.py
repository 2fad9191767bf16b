"""GET /games/{id}/events in the app, on a single Redis and on a cluster: what a stream opens
with, resuming, refusals, and each move's outcome (the history, /moves/{n} and events alike).

Streams across real gunicorn instances, outages and load: tests/system/test_events.py.
"""

from __future__ import annotations

import time

import pytest
from flask.testing import FlaskClient
from redis.exceptions import ResponseError

from service.api import create_app
from tests.support.anu import anu_games, create_body, request_body, tokens
from tests.support.backends import make_settings
from tests.support.redis_servers import ThrowawayRedis
from tests.support.sse import Event, check_event, events_of, parse_blocks

GAMES = anu_games()


def finished_game(table, index: int = 0):
    game = GAMES[index]
    t = table(create_body(game))
    state = t.game
    for token in tokens(game["moves"]):
        state = t.play(request_body(token), seat=state["turn"])
    assert state["status"] == "finished"
    return t, state


def test_a_finished_game_streams_its_snapshot_and_end_then_closes(table, client):
    t, final = finished_game(table)
    events = events_of(client.get(f"/games/{t.id}/events"))
    assert [e.kind for e in events] == ["game", "end"]
    assert events[0].json() == final and events[0].version == final["version"]
    assert events[1].json() == final["result"] and events[1].id is None


def test_resuming_a_finished_game_sends_every_missed_move_and_no_snapshot(table, client):
    t, final = finished_game(table)
    history = client.get(f"/games/{t.id}/moves").get_json()["moves"]
    for k in (1, 2, final["version"] - 1):
        for resume in ({"headers": {"Last-Event-ID": str(k)}}, {"query_string": {"last_event_id": k}}):
            events = events_of(client.get(f"/games/{t.id}/events", **resume))
            assert [e.kind for e in events] == ["move"] * (final["version"] - k) + ["end"]
            assert [e.version for e in events[:-1]] == list(range(k + 1, final["version"] + 1))
            assert [e.json()["move"] for e in events[:-1]] == history[k - 1 :]
            assert events[-2].json()["game"] == final and events[-1].json() == final["result"]


def test_a_client_that_has_the_whole_finished_game_gets_204_and_no_stream(table, client):
    """EventSource reconnects after any stream that ends, but stops on a 204 (WHATWG HTML)."""
    t, final = finished_game(table)
    last = final["version"]
    for after in (last, last + 1, last + 1000):
        for resume in (
            {"headers": {"Last-Event-ID": str(after)}},
            {"query_string": {"last_event_id": after}},
        ):
            resp = client.get(f"/games/{t.id}/events", **resume)
            assert resp.status_code == 204, resp.data
            assert resp.data == b"" and "Content-Encoding" not in resp.headers
    # One version short: the final move, then the end.
    events = events_of(client.get(f"/games/{t.id}/events", headers={"Last-Event-ID": str(last - 1)}))
    assert [(e.kind, e.id) for e in events] == [("move", str(last)), ("end", None)]
    assert events[0].json()["game"] == final and events[1].json() == final["result"]


def test_a_client_current_on_a_game_in_play_gets_a_stream_that_waits(app, table):
    t = table({"seed": 4})
    t.play({"action": "advance"})
    resp = FlaskClient(app).get(f"/games/{t.id}/events", headers={"Last-Event-ID": "2"}, buffered=False)
    try:
        assert resp.status_code == 200
        chunks = iter(resp.response)
        assert next(chunks).startswith(b"retry:")
        assert next(chunks) == b'event: watchers\ndata: {"count":1}\n\n'  # nothing missed: the count first
        t.play({"action": "advance"})
        assert next(chunks).startswith(b"id: 3\nevent: move\n")
    finally:
        resp.close()


def test_the_spec_declares_each_event_the_stream_sends(table, client):
    """openapi.yaml describes the stream's events as OpenAPI 3.2 does (an itemSchema: `event`,
    `id`, `data` as JSON of its own schema per type): every event of real streams of a game
    validates, and events the service would never send do not."""
    t, final = finished_game(table)
    fresh = events_of(client.get(f"/games/{t.id}/events"))
    resumed = events_of(
        client.get(f"/games/{t.id}/events", headers={"Last-Event-ID": str(final["version"] - 2)})
    )
    assert [e.kind for e in fresh] == ["game", "end"] and [e.kind for e in resumed] == ["move", "move", "end"]
    for event in fresh + resumed:
        check_event(event)
    snapshot, move, end = fresh[0], resumed[0], resumed[-1]
    not_sent = [
        Event("move", snapshot.data, move.id),  # a move event carrying a Game
        Event("end", move.data),  # an end carrying a move
        Event("game", snapshot.data),  # a snapshot without its version
        Event("game", snapshot.data, "0"),  # no version is 0
        Event("game", "{not json", snapshot.id),
        Event("message", end.data, snapshot.id),  # a type the stream has not
    ]
    for event in not_sent:
        with pytest.raises(AssertionError, match="breaks the stream's itemSchema"):
            check_event(event)


@pytest.mark.parametrize(
    "weird", ["", "abc", "0", "-3", "1.5", " 2x", "99999999999999999999999999", "\u0661\u0662"]
)
def test_a_last_event_id_that_is_no_version_of_the_game_gets_a_snapshot(table, client, weird):
    t, _final = finished_game(table)
    for resume in ({"headers": {"Last-Event-ID": weird}}, {"query_string": {"last_event_id": weird}}):
        events = events_of(client.get(f"/games/{t.id}/events", **resume))
        assert [e.kind for e in events] == ["game", "end"]


def test_a_version_older_than_the_events_kept_gets_a_snapshot(table, client, backend):
    t, final = finished_game(table)
    for node in backend.nodes:
        try:
            node.xtrim(f"patchwork:{{{t.id}}}:events", maxlen=5)
        except ResponseError:  # MOVED: another master of the cluster holds the game
            pass
    events = events_of(client.get(f"/games/{t.id}/events", headers={"Last-Event-ID": "2"}))
    assert [e.kind for e in events] == ["game", "end"]
    # The five kept still resume a client that has the version before them.
    kept = events_of(
        client.get(f"/games/{t.id}/events", headers={"Last-Event-ID": str(final["version"] - 5)})
    )
    assert [e.kind for e in kept] == ["move"] * 5 + ["end"]


def test_an_unknown_game_is_404_before_any_event(client):
    for game_id in ("AAAAAAAAAAAAAAAAAAAAAA", "no-such-game", "a}b"):
        resp = client.get(f"/games/{game_id}/events", headers={"Last-Event-ID": "3"})
        assert resp.status_code == 404 and resp.mimetype == "application/problem+json"


def test_an_open_stream_gets_each_move_as_it_is_made(app, table):
    t = table({"seed": 4})
    plain = FlaskClient(app)  # the checking client would read the whole (endless) body first
    resp = plain.get(f"/games/{t.id}/events", buffered=False)
    chunks = iter(resp.response)
    try:
        assert next(chunks).startswith(b"retry:")
        assert next(chunks).startswith(b"id: 1\nevent: game\n")
        # Then how many watch: this stream alone (issue 38).
        watchers = next(parse_blocks(next(chunks).decode().split("\n")))
        assert (watchers.kind, watchers.id, watchers.json()) == ("watchers", None, {"count": 1})
        check_event(watchers)
        for version in (2, 3):
            t.play({"action": "advance"})
            chunk = next(chunks)  # woken by the commit's PUBLISH through the listener thread
            block = next(parse_blocks(chunk.decode().split("\n")))
            assert (block.kind, block.version) == ("move", version)
            check_event(block)
    finally:
        resp.close()
    assert app.extensions["patchwork"].store.wakeups.watching == 0  # closing the response stopped it


def test_each_move_s_outcome_says_what_it_did(table, client):
    """Over known games: every outcome agrees with the games before and after it, and the
    games have moves of every kind: income paid, leather won, the bonus won."""
    patches = {p["id"]: p for p in client.get("/patches").get_json()["patches"]}
    seen = {"income": 0, "leather_won": 0, "bonus": 0}
    for index in (0, 1, 2):
        t, _final = finished_game(table, index)
        before = events_of(client.get(f"/games/{t.id}/events", headers={"Last-Event-ID": "1"}))
        history = client.get(f"/games/{t.id}/moves").get_json()["moves"]
        previous = t.game  # as created: version 1
        for event in before[:-1]:
            move, after = event.json()["move"], event.json()["game"]
            assert move == history[move["number"] - 1]
            assert client.get(f"/games/{t.id}/moves/{move['number']}").get_json() == move
            outcome, seat = move["outcome"], move["seat"]
            was, now = previous["players"][seat], after["players"][seat]
            assert outcome["buttons"] == now["buttons"] - was["buttons"]
            assert (outcome["from"], outcome["to"]) == (was["position"], now["position"])
            moved = outcome["to"] - outcome["from"]
            if move["action"] == "advance":
                assert outcome["buttons"] == moved + outcome["income"]
            elif move["action"] == "buy":
                assert outcome["buttons"] == outcome["income"] - patches[move["patch_id"]]["cost"]
            else:
                assert moved == 0 and outcome["buttons"] == 0 and outcome["leather_won"] == 0
            passed = [s for s in previous["leather_spaces"] if s not in after["leather_spaces"]]
            assert outcome["leather_won"] == len(passed)
            assert outcome["bonus"] == (previous["bonus_owner"] is None and after["bonus_owner"] == seat)
            for name in seen:
                seen[name] += outcome[name] > 0
            previous = after
    assert all(seen.values()), seen


def test_a_store_that_does_not_answer_is_503_before_the_stream(tmp_path):
    with ThrowawayRedis(tmp_path / "down") as server:
        app = create_app(make_settings(server.url))
        client = app.test_client()
        game_id = client.post("/games").get_json()["game"]["id"]
        server.stop()
        started = time.monotonic()
        resp = client.get(f"/games/{game_id}/events")
        assert resp.status_code == 503 and resp.get_json()["code"] == "storage_unavailable"
        assert time.monotonic() - started < 5  # generous; the contract says 2 s
        app.extensions["patchwork"].store.close()


def test_preflights_allow_last_event_id(client):
    resp = client.options(
        "/games/x/events",
        headers={
            "Origin": "https://example.org",
            "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": "last-event-id",
        },
    )
    assert resp.status_code == 204
    assert "Last-Event-ID" in [h.strip() for h in resp.headers["Access-Control-Allow-Headers"].split(",")]

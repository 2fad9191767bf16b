"""Records written by the code before issue 37's reshaping are served by today's code.

tests/data/old-records.json holds every Redis key the code at 8f3446e (main
before the reshaping) wrote while tools/old_records.py played players, a lobby
game, an active game, rated games, a game between names and a waiting seek
through its HTTP API, with the tokens it handed out (how it was made is at the
top of that tool). Each test restores those keys, type by type with their
TTLs, into the suite's throwaway redis-server, builds today's app on it and
reads and plays them through the API.

The dump has a date, and a correspondence game's deadline is a fortnight
after it: restored as written, a later run would find that game lost on time.
So the restore re-dates the whole dump by one offset (now minus the time it
was written): every epoch time in milliseconds within its span and every
RFC 3339 time moves by the same amount, as if the old code had written the
records just now. Nothing else in them is changed.
"""

from __future__ import annotations

import base64
import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from redis import Redis

from tests.api.conftest import checked_app

DUMP = Path(__file__).resolve().parent.parent / "data" / "old-records.json"

# Epoch milliseconds from a day before the dump to eleven years after it (the
# lobby and seek times were set ten years long): no id, hash or count of the
# dump is a 13-digit number in that span.
_EPOCH_MS = re.compile(r"(?<![0-9A-Za-z])\d{13}(?![0-9A-Za-z])")
_RFC3339 = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z")
_DAY_MS = 24 * 3600 * 1000
_SPAN_MS = 11 * 366 * _DAY_MS


def redated(text: str, written_at_ms: int, now_ms: int) -> str:
    """The dump's text with every time in it moved by now_ms - written_at_ms."""
    offset = now_ms - written_at_ms

    def epoch(match: re.Match) -> str:
        value = int(match.group())
        if written_at_ms - _DAY_MS <= value <= written_at_ms + _SPAN_MS:
            return str(value + offset)
        return match.group()

    def rfc3339(match: re.Match) -> str:
        millis = match.group(1) is not None
        written = datetime.strptime(
            match.group(), "%Y-%m-%dT%H:%M:%S.%fZ" if millis else "%Y-%m-%dT%H:%M:%SZ"
        )
        moved = written.replace(tzinfo=UTC) + timedelta(milliseconds=offset)
        if millis:
            return moved.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moved.microsecond // 1000:03d}Z"
        return moved.strftime("%Y-%m-%dT%H:%M:%SZ")

    return _RFC3339.sub(rfc3339, _EPOCH_MS.sub(epoch, text))


def _raw(value: str | dict) -> bytes:
    return base64.b64decode(value["base64"]) if isinstance(value, dict) else value.encode()


def restore(redis: Redis, keys: dict) -> None:
    """Write each dumped key back with its type's commands, then its expiry."""
    for key, entry in keys.items():
        kind, value = entry["type"], entry["value"]
        if kind == "string":
            redis.set(key, _raw(value))
        elif kind == "hash":
            redis.hset(key, mapping={_raw(f): _raw(v) for f, v in value.items()})
        elif kind == "list":
            redis.rpush(key, *(_raw(item) for item in value))
        elif kind == "set":
            redis.sadd(key, *(_raw(member) for member in value))
        elif kind == "zset":
            redis.zadd(key, {_raw(member): score for member, score in value})
        elif kind == "stream":
            for entry_id, fields in value:
                redis.xadd(key, {_raw(f): _raw(v) for f, v in fields.items()}, id=entry_id)
            redis.execute_command("XSETID", key, entry["last_id"])
            for group in entry["groups"]:
                redis.xgroup_create(key, group["name"], id=group["last_delivered_id"])
        else:
            raise AssertionError(f"{key}: no restore for type {kind}")
        if entry["pttl"] > 0:
            redis.pexpire(key, entry["pttl"])


@pytest.fixture
def old(redis_url, redis_server, contract):
    """(the dump, re-dated to now, restored; a checked client of today's app on it)."""
    with redis_server.client() as redis:
        seconds, micros = redis.time()
        dumped = json.loads(DUMP.read_text())
        dump = json.loads(redated(DUMP.read_text(), dumped["written_at_ms"], seconds * 1000 + micros // 1000))
        restore(redis, dump["keys"])
    # The settings of the app that wrote them: lobby seats and seeks wait ten years.
    ten_years = 10 * 365 * 24 * 3600
    app = checked_app(redis_url, contract, lobby_ttl_seconds=ten_years, seek_ttl_seconds=ten_years)
    yield dump, app.test_client()
    app.extensions["patchwork"].store.close()


def _stored(dump: dict, game_id: str, field: str) -> str:
    return dump["keys"][f"patchwork:{{{game_id}}}:game"]["value"][field]


def _game_ids(records: dict) -> list[str]:
    return [
        records["lobby_game"]["id"],
        records["active_game"]["id"],
        *records["rated_games"],
        records["realtime_game"]["id"],
        records["named_game"]["id"],
    ]


def _bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def test_every_old_game_is_served_as_the_old_code_stored_it(old):
    dump, client = old
    for game_id in _game_ids(dump["records"]):
        resp = client.get(f"/games/{game_id}")
        assert resp.status_code == 200, (game_id, resp.get_json())
        view = json.loads(_stored(dump, game_id, "view"))
        assert resp.get_json() == view, game_id
        assert resp.headers["ETag"] == f'"{_stored(dump, game_id, "version")}"'
        moves = client.get(f"/games/{game_id}/moves")
        assert moves.status_code == 200, (game_id, moves.get_json())
        stored_moves = dump["keys"].get(f"patchwork:{{{game_id}}}:moves", {"value": []})["value"]
        assert moves.get_json() == {"moves": [json.loads(move) for move in stored_moves]}, game_id
        assert len(stored_moves) == view["moves_played"]


def test_an_old_games_past_version_is_the_old_codes_answer_for_that_move(old):
    dump, client = old
    active = dump["records"]["active_game"]
    # The first move (keyed "active-1") made version 2: the old code answered it with that version.
    first = active["keyed_moves"]["active-1"]
    resp = client.get(f"/games/{active['id']}", query_string={"version": 2})
    assert resp.status_code == 200, resp.get_json()
    assert resp.headers["ETag"] == first["etag"] == '"2"'
    assert resp.get_json() == first["answer"]


def test_old_players_are_served_with_their_old_tokens_and_ratings(old):
    dump, client = old
    records = dump["records"]
    for name, player in records["players"].items():
        me = client.get("/players/me", headers=_bearer(player["token"]))
        assert me.status_code == 200, me.get_json()
        assert me.get_json()["id"] == player["id"]
        assert me.get_json()["name"] == name
        profile = client.get(f"/players/{player['id']}")
        # A record written before bot accounts is a person's: its profile gains `bot: false` (issue 40).
        assert profile.get_json() == {**records["profiles"][name], "bot": False}
    # Five rated games Ann won: both ratings moved, and both players are on the board.
    assert records["profiles"]["Ann"]["rating"] > 1500 > records["profiles"]["Bob"]["rating"]
    assert client.get("/leaderboard").get_json() == {
        "players": [{**row, "bot": False} for row in records["leaderboard"]["players"]]
    }
    assert [row["name"] for row in records["leaderboard"]["players"]] == ["Ann", "Bob"]
    for game_id in records["rated_games"]:
        result = client.get(f"/games/{game_id}").get_json()["result"]
        assert result["rated"] is True and result["reason"] == "resigned" and result["winner"] == 0


def test_an_old_players_games_are_listed_as_the_old_code_listed_them(old):
    dump, client = old
    records = dump["records"]
    for name, player in records["players"].items():
        listed = client.get(
            "/players/me/games", query_string={"status": "active"}, headers=_bearer(player["token"])
        )
        assert listed.status_code == 200, listed.get_json()
        assert listed.get_json() == records["active_games"][name]
        ids = {entry["game"]["id"] for entry in listed.get_json()["games"]}
        both = {records["active_game"]["id"], records["realtime_game"]["id"]}
        # Ann's lobby game waits for its second seat: hers, and active, not yet Bob's.
        assert ids == (both | {records["lobby_game"]["id"]} if name == "Ann" else both)


def test_a_rematch_of_an_old_rated_game_is_rated_with_the_seats_swapped(old):
    dump, client = old
    records = dump["records"]
    finished = records["rated_games"][-1]
    ann, bob = records["players"]["Ann"], records["players"]["Bob"]
    # Ann offers (an old record has no offer field: none stands), Bob accepts.
    offered = client.post(f"/games/{finished}/rematch", headers=_bearer(ann["token"]))
    assert offered.status_code == 202, offered.get_json()
    rematch = client.post(f"/games/{finished}/rematch", headers=_bearer(bob["token"]))
    assert rematch.status_code == 201, rematch.get_json()
    game = rematch.get_json()["game"]
    assert [seat["player_id"] for seat in game["players"]] == [bob["id"], ann["id"]]
    assert game["rated"] is True and game["clock"]["initial_s"] == 300
    assert client.get(f"/games/{finished}").get_json()["next_game"] == game["id"]
    # Ann's call answers the same game; Bob's old player token plays seat 0 of it.
    again = client.post(f"/games/{finished}/rematch", headers=_bearer(ann["token"]))
    assert again.status_code == 200 and again.get_json()["game"]["id"] == game["id"]
    moved = client.post(
        f"/games/{game['id']}/moves", json={"action": "advance"}, headers=_bearer(bob["token"])
    )
    assert moved.status_code == 201, moved.get_json()


def test_an_old_waiting_seek_is_served_and_the_old_lobby_lists_its_game(old):
    dump, client = old
    records = dump["records"]
    waiting = records["waiting_seek"]
    seeker = _bearer(records["players"][waiting["player"]]["token"])
    seek = client.get(f"/seeks/{waiting['id']}", headers=seeker)
    assert seek.status_code == 200, seek.get_json()
    assert seek.get_json() == waiting["answer"]
    assert seek.get_json()["seek"]["status"] == "waiting"
    lobby = client.get("/games", query_string={"status": "open"})
    assert lobby.status_code == 200
    listed = lobby.get_json()["games"]
    assert [game["id"] for game in listed] == [records["lobby_game"]["id"]]
    assert listed[0]["seat"] == 1
    assert listed[0]["host"]["player_id"] == records["players"]["Ann"]["id"]


def test_joining_an_old_open_game_starts_its_clock(old):
    dump, client = old
    records = dump["records"]
    game_id = records["lobby_game"]["id"]
    before = client.get(f"/games/{game_id}").get_json()
    assert before["clock"]["running"] is None
    joined = client.post(f"/games/{game_id}/join", headers=_bearer(records["players"]["Bob"]["token"]))
    assert joined.status_code == 201, joined.get_json()
    assert joined.get_json()["seat"] == 1
    after = client.get(f"/games/{game_id}").get_json()
    assert after["players"][1]["player_id"] == records["players"]["Bob"]["id"]
    assert after["version"] == before["version"]  # a join is not a move
    # The first move is now due within first_move_s (14 days) of the join, not of the lobby's ten years.
    deadline = datetime.strptime(after["clock"]["deadline"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
    left = deadline - datetime.now(UTC)
    assert timedelta(days=13, hours=23) < left <= timedelta(days=14, seconds=5)
    assert client.get("/games", query_string={"status": "open"}).get_json()["games"] == []
    # And the host moves first.
    moved = client.post(
        f"/games/{game_id}/moves",
        json={"action": "advance"},
        headers=_bearer(records["lobby_game"]["tokens"][0]),
    )
    assert moved.status_code == 201, moved.get_json()
    assert moved.get_json()["clock"]["running"] == 1


def test_a_move_with_an_old_seat_token_is_accepted_and_an_old_keyed_move_replays(old):
    dump, client = old
    active = dump["records"]["active_game"]
    game_id = active["id"]
    view = json.loads(_stored(dump, game_id, "view"))
    assert (view["version"], view["turn"]) == (4, 1)
    # A retry of the third move, keyed "active-3", answers what the old code answered.
    third = active["keyed_moves"]["active-3"]
    retry = client.post(
        f"/games/{game_id}/moves",
        json=third["body"],
        headers={**_bearer(active["tokens"][third["seat"]]), "Idempotency-Key": "active-3"},
    )
    assert retry.status_code == third["status"] == 201
    assert retry.get_json() == third["answer"]
    assert (retry.headers["ETag"], retry.headers["Location"]) == (third["etag"], third["location"])
    # Bob's seat token from the old join plays the next move.
    move = client.post(
        f"/games/{game_id}/moves", json={"action": "advance"}, headers=_bearer(active["tokens"][1])
    )
    assert move.status_code == 201, move.get_json()
    assert move.get_json()["version"] == 5
    assert move.headers["Location"] == f"/games/{game_id}/moves/4"
    served = client.get(f"/games/{game_id}")
    assert served.get_json() == move.get_json() and served.headers["ETag"] == '"5"'
    history = client.get(f"/games/{game_id}/moves").get_json()["moves"]
    assert [entry["number"] for entry in history] == [1, 2, 3, 4]
    assert history[3]["seat"] == 1 and history[3]["action"] == "advance"


def test_an_old_keyed_move_of_a_game_between_names_replays(old):
    dump, client = old
    named = dump["records"]["named_game"]
    for key, keyed in named["keyed_moves"].items():
        retry = client.post(
            f"/games/{named['id']}/moves",
            json=keyed["body"],
            headers={**_bearer(named["tokens"][keyed["seat"]]), "Idempotency-Key": key},
        )
        assert retry.status_code == keyed["status"] == 201
        assert retry.get_json() == keyed["answer"]
        assert retry.headers["ETag"] == keyed["etag"]

"""Game records over HTTP (issue 41, docs/records.md) on a single Redis and a Cluster.

GET /games/{id}/record, POST /games/import and GET /players/{id}/games.ndjson.
Known answers: the 14 ANU games (tests/data/anu-games.json) imported from
records this test writes itself, to their final scores, and written back to
their move strings; games played here (a resignation, a timeout, an abort,
a takeback) written, imported and compared with what was played.
"""

from __future__ import annotations

import json
import time

import pytest

from service.config import RateLimit
from service.engine import canonical_move, format_move, parse_move
from service.games.clock import ClockSettings
from tests.support.anu import anu_games, anu_record, record_moves, tokens

RECORD = "text/x-patchwork-record"
# What a game imported from another's record shows differently: who it is, when, its clock and rating.
NOT_PLAY = ("id", "created_at", "updated_at", "clock", "rated", "next_game")
SHORT = ClockSettings(initial_s=1, increment_s=0, first_move_s=1)


def _import(client, text: str | bytes, content_type: str = RECORD):
    return client.post("/games/import", data=text, content_type=content_type)


def _imported(client, text: str) -> dict:
    resp = _import(client, text)
    assert resp.status_code == 201, resp.get_json()
    game = resp.get_json()
    assert resp.headers["Location"] == f"/games/{game['id']}"
    assert resp.headers["ETag"] == f'"{game["version"]}"'
    assert (game["status"], game["rated"], game["clock"]) == ("finished", False, None)
    return game


def _record(client, game_id: str, **query) -> str:
    resp = client.get(f"/games/{game_id}/record", query_string=query)
    assert resp.status_code == 200, resp.get_data()
    assert resp.headers["Content-Type"] == "text/x-patchwork-record; charset=utf-8"
    return resp.get_data(as_text=True)


def _history(client, game_id: str) -> list[dict]:
    return client.get(f"/games/{game_id}/moves").get_json()["moves"]


def _play_of(game: dict) -> dict:
    return {key: value for key, value in game.items() if key not in NOT_PLAY} | {
        "players": [{k: v for k, v in p.items() if k != "player_id"} for p in game["players"]]
    }


def _round_trip(client, game_id: str) -> dict:
    """Export a finished game, import its record: the same play, history and result; the imported game."""
    played = client.get(f"/games/{game_id}").get_json()
    text = _record(client, game_id)
    again = _imported(client, text)
    assert _play_of(again) == _play_of(played)
    assert _history(client, again["id"]) == _history(client, game_id)
    # Written again from the import: the same moves and result (its id and date are its own).
    rewritten = _record(client, again["id"])
    assert record_moves(rewritten) == record_moves(text)
    assert [line for line in rewritten.splitlines() if line.startswith(("[Result", "[Scores"))] == [
        line for line in text.splitlines() if line.startswith(("[Result", "[Scores"))
    ]
    return again


def test_every_anu_game_is_imported_to_its_final_scores_and_written_back_to_its_moves(client):
    for game in anu_games():
        imported = _imported(client, anu_record(game))
        assert imported["result"]["scores"] == game["final_scores"]
        assert imported["result"]["reason"] == "completed"
        assert imported["moves_played"] == game["moves_played"]
        assert imported["version"] == len(tokens(game["moves"])) + 1
        written = _record(client, imported["id"])
        # A patch that looks the same turned two ways is written in its first such orientation.
        canonical = [format_move(canonical_move(parse_move(token))) for token in tokens(game["moves"])]
        assert record_moves(written) == canonical
        # ... which is the ANU string itself for the games with no such buy.
        if canonical == tokens(game["moves"]):
            assert "".join(record_moves(written)) == game["moves"]
        assert f'[Scores "{game["final_scores"][0]}" "{game["final_scores"][1]}"]' in written
        # And read back once more: the same end.
        assert _imported(client, written)["result"] == imported["result"]


def test_an_imported_game_is_read_replayed_and_analysable_as_any_finished_game(client):
    game = anu_games()[3]
    imported = _imported(
        client, anu_record(game).replace("[TimeBoard", '[Players "Ann" "Zoë \\"Q\\""]\n[TimeBoard')
    )
    gid = imported["id"]
    assert [p["name"] for p in imported["players"]] == ["Ann", 'Zoë "Q"']
    assert client.get(f"/games/{gid}").get_json() == imported
    # Each version replays, as for a game played here.
    assert client.get(f"/games/{gid}", query_string={"version": 1}).get_json()["moves_played"] == 0
    assert client.get(f"/games/{gid}/board.txt").status_code == 200
    asked = client.post(f"/games/{gid}/analysis")
    assert asked.status_code == 202, asked.get_json()
    # Nobody plays it again: it is over, and its seats have no tokens.
    refused = client.post(
        f"/games/{gid}/moves", json={"action": "advance"}, headers={"Authorization": "Bearer x"}
    )
    assert refused.status_code == 401


def test_a_resignation_by_the_seat_not_in_turn_is_written_and_imported_back(client, table):
    t = table({"seed": 7, "players": [{"name": "Ann"}, {"name": "Bob"}]})
    t.play({"action": "advance"})
    t.play({"action": "advance"})
    t.play(t.legal(patch_id=t.state()["market"][0])["moves"][0])
    turn = t.state()["turn"]
    resigned = client.post(f"/games/{t.id}/resign", headers=t.auth(1 - turn))
    assert resigned.status_code == 201
    text = _record(client, t.id)
    assert text.splitlines()[-1] == f"{resigned.get_json()['version'] - 1}. {1 - turn} resign"
    assert '[Seed "7"]' in text and '[Players "Ann" "Bob"]' in text and '[Clock "-"]' in text
    again = _round_trip(client, t.id)
    assert again["result"] == resigned.get_json()["result"] and again["result"]["reason"] == "resigned"


def test_a_takeback_is_written_with_the_moves_it_undid_and_imported_back(client, table):
    t = table({"seed": 2, "players": [{"name": "Ann"}, {"name": "Bob"}]})
    t.play({"action": "advance"}, seat=0)
    t.play(t.legal(patch_id=18)["moves"][0], seat=1)
    t.play({"action": "advance"}, seat=1)
    assert client.post(f"/games/{t.id}/takeback", headers=t.auth(1)).status_code == 202
    assert client.post(f"/games/{t.id}/takeback", headers=t.auth(0)).status_code == 201
    t.play({"action": "advance"}, seat=1)
    client.post(f"/games/{t.id}/resign", headers=t.auth(0))
    text = _record(client, t.id)
    assert text.endswith("\n\n1. 0 .\n2. 1 RAAA .\n4. 1 takeback\n5. 1 .\n6. 0 resign\n"), text
    again = _round_trip(client, t.id)
    assert _history(client, again["id"])[3] == {"number": 4, "seat": 1, "action": "takeback", "to_version": 2}


def test_a_timeout_and_an_abort_are_written_and_imported_back(app, client):
    play = app.extensions["patchwork"].play
    timed = play.create(("Ann", "Bob"), clock=SHORT, seed=3)
    aborted = play.create(("Cy", "Di"), clock=SHORT, seed=4)
    moved = client.post(
        f"/games/{timed.game_id}/moves",
        json={"action": "advance"},
        headers={"Authorization": f"Bearer {timed.tokens[0]}"},
    )
    assert moved.status_code == 201
    time.sleep(1.1)
    for created in (timed, aborted):
        assert play.expire(created.game_id, play.now_ms()).applied is not None
    text = _record(client, timed.game_id)
    assert '[Clock "1+0"]' in text
    assert text.endswith("\n2. 1 timeout\n") and '[Result "1-0"]' in text
    assert _round_trip(client, timed.game_id)["result"]["reason"] == "timeout"
    text = _record(client, aborted.game_id)
    assert text.endswith("\n1. 0 abort\n") and '[Result "aborted"]' in text
    assert _round_trip(client, aborted.game_id)["result"] == {
        "scores": [-157, -157],
        "winner": None,
        "reason": "aborted",
    }


def test_a_running_game_and_a_past_version_are_written_with_no_result_and_cached_by_version(client, table):
    t = table({"seed": 7})
    t.play({"action": "advance"})
    t.play({"action": "advance"})
    current = client.get(f"/games/{t.id}/record")
    assert current.headers["ETag"] == '"3"' and "Cache-Control" not in current.headers
    assert '[Result "*"]' in current.get_data(as_text=True)
    assert "Scores" not in current.get_data(as_text=True)
    assert record_moves(current.get_data(as_text=True)) == [".", "."]
    assert client.get(f"/games/{t.id}/record", headers={"If-None-Match": '"3"'}).status_code == 304
    past = client.get(f"/games/{t.id}/record", query_string={"version": 2})
    assert past.headers["ETag"] == '"2"' and past.headers["Cache-Control"].endswith("immutable")
    assert record_moves(past.get_data(as_text=True)) == ["."]
    assert record_moves(_record(client, t.id, version=1)) == []
    beyond = client.get(f"/games/{t.id}/record", query_string={"version": 4})
    assert (beyond.status_code, beyond.get_json()["code"]) == (404, "not_found")
    # A running game cannot be imported: its record does not end.
    unfinished = _import(client, current.get_data())
    assert (unfinished.status_code, unfinished.get_json()["code"]) == (422, "record_not_finished")
    assert unfinished.get_json()["errors"] == [
        {"line": 13, "token": ".", "message": unfinished.get_json()["detail"]}
    ]
    assert client.get("/games/AAAAAAAAAAAAAAAAAAAAAA/record").get_json()["code"] == "game_not_found"


SETUP = '[TimeBoard "revised"]\n[Seed "7"]\n[FirstPlayer "0"]\n\n'


@pytest.mark.parametrize(
    "text, line, token, words",
    [
        ('[Players "Ann" Bob]\n' + SETUP + "1. 0 abort\n", 1, "Players", "each value is a quoted string"),
        (SETUP + "1. 0 LHAX\n", 5, "LHAX", "is not a letter A..H"),
        (SETUP + "1. 0 xyz\n", 5, "xyz", "is not a move"),
        (SETUP + "1. 0 .\n2. 1 .\n3. 0 AAAA\n", 7, "AAAA", "patch 1 is not in the market [30, 11, 21]"),
        (SETUP + "1. 0 .\n2. 1 .\n3. 0 .\n4. 1 LHA", 8, "LHA", "neither '.' nor four characters"),
        ('[TimeBoard "revised"]\n[Seed "7"]\n[FirstPl', 3, "FirstPl", "each value is a quoted string"),
        ('[TimeBoard "revised"]\n[1Seed "7"]', 2, '[1Seed "7"]', "is not a tag"),
        ("\x00\x01garbage \U0001f9f5\n", 1, "\x00\x01garbage \U0001f9f5", "is not a move line"),
        (SETUP + "1. 0 resign\n2. 1 .\n", 6, ".", "the game is finished"),
    ],
)
def test_a_record_that_cannot_be_replayed_is_refused_naming_the_line_and_the_token(
    client, text, line, token, words
):
    resp = _import(client, text, "text/plain")
    problem = resp.get_json()
    assert (resp.status_code, problem["code"]) == (422, "invalid_record"), problem
    assert problem["errors"] == [{"line": line, "token": token, "message": problem["detail"]}]
    assert problem["detail"].startswith(f"line {line}: ") and words in problem["detail"]


def test_the_refusal_speaks_the_requests_language_with_the_rules_reason(client):
    resp = client.post(
        "/games/import",
        data=SETUP + "1. 0 .\n2. 1 .\n3. 0 AAAA\n",
        content_type=RECORD,
        headers={"Accept-Language": "fr"},
    )
    detail = resp.get_json()["detail"]
    assert detail.startswith("ligne 7 : 'AAAA' ne peut pas être joué : ") and "n'est pas au marché" in detail


def test_bodies_the_import_cannot_take(client):
    not_utf8 = _import(client, b'[Players "\xff"]\n')
    assert (not_utf8.status_code, not_utf8.get_json()["code"]) == (422, "invalid_record")
    assert not_utf8.get_json()["errors"][0]["line"] == 1
    huge = _import(client, SETUP + "1. 0 " + ". " * 40_000)
    assert (huge.status_code, huge.get_json()["code"]) == (413, "payload_too_large")
    as_json = client.post("/games/import", json={"record": SETUP})
    assert (as_json.status_code, as_json.get_json()["code"]) == (415, "unsupported_media_type")
    empty = _import(client, "")
    assert (empty.status_code, empty.get_json()["code"]) == (422, "invalid_record")


def test_imports_count_among_the_games_a_client_creates(backend, contract):
    from .conftest import client_with

    with client_with(backend, contract, rate_limit_games=RateLimit(limit=1, window_seconds=60)) as limited:
        text = anu_record(anu_games()[0])
        assert _import(limited, text).status_code == 201
        refused = _import(limited, text)
        assert (refused.status_code, refused.get_json()["code"]) == (429, "rate_limited")
        assert limited.post("/games", json={}).status_code == 429


def _player(client, name):
    body = client.post("/players", json={"name": name}).get_json()
    return body["player"], {"Authorization": f"Bearer {body['token']}"}


def _finished(client, first_auth, second_auth, rated: bool) -> str:
    """A game between two players paired by seeks, ended by a resignation after a move each."""
    seek = {"clock": {"initial_s": 300, "increment_s": 3}, "rated": rated, "range": 3000}
    assert client.post("/seeks", json=seek, headers=first_auth).status_code == 201
    game_id = client.post("/seeks", json=seek, headers=second_auth).get_json()["seek"]["game"]
    for auth in (first_auth, second_auth):
        assert (
            client.post(f"/games/{game_id}/moves", json={"action": "advance"}, headers=auth).status_code
            == 201
        )
    assert client.post(f"/games/{game_id}/resign", headers=first_auth).status_code == 201
    time.sleep(0.002)  # apart on the lists, which order by the ms a game ended
    return game_id


def _lines(client, player_id: str, **query) -> list[dict]:
    resp = client.get(f"/players/{player_id}/games.ndjson", query_string=query)
    assert resp.status_code == 200, resp.get_data()
    # A generator's answer, sent as it is made, not one body built first: no length known beforehand.
    assert "Content-Length" not in resp.headers and resp.mimetype == "application/x-ndjson"
    return [json.loads(line) for line in resp.get_data(as_text=True).splitlines()]


def test_a_players_finished_games_stream_as_ndjson_with_their_records_newest_first(client):
    ann, ann_auth = _player(client, "Ann")
    _bob, bob_auth = _player(client, "Bob")
    cy, cy_auth = _player(client, "Cy")
    casual = _finished(client, ann_auth, bob_auth, rated=False)
    rated = _finished(client, ann_auth, cy_auth, rated=True)
    # One still played: not a finished game.
    seek = {"clock": {"initial_s": 300, "increment_s": 3}, "rated": False, "range": 3000}
    client.post("/seeks", json=seek, headers=ann_auth)
    client.post("/seeks", json=seek, headers=cy_auth)
    last = _finished(client, cy_auth, ann_auth, rated=False)

    lines = _lines(client, ann["id"])
    assert [line["game"]["id"] for line in lines] == [last, rated, casual]
    for line in lines:
        assert line["game"] == client.get(f"/games/{line['game']['id']}").get_json()
        assert line["record"] == _record(client, line["game"]["id"])
    assert '[Event "Rated game"]' in lines[1]["record"] and f'"{ann["id"]}"' in lines[1]["record"]
    # Both new players were rated 1500 before it; the casual game names no ratings.
    assert '[Ratings "1500" "1500"]' in lines[1]["record"] and "[Ratings" not in lines[2]["record"]
    assert [line["game"]["id"] for line in _lines(client, cy["id"])] == [last, rated]

    assert [line["game"]["id"] for line in _lines(client, ann["id"], rated="true")] == [rated]
    assert [line["game"]["id"] for line in _lines(client, ann["id"], rated="false")] == [last, casual]
    assert [line["game"]["id"] for line in _lines(client, ann["id"], max=2)] == [last, rated]
    ended = [
        int(
            time.mktime(
                time.strptime(client.get(f"/games/{gid}").get_json()["updated_at"][:19], "%Y-%m-%dT%H:%M:%S")
            )
        )
        for gid in (casual, rated, last)
    ]
    assert ended == sorted(ended)
    assert [line["game"]["id"] for line in _lines(client, ann["id"], until="2000-01-01T00:00:00Z")] == []
    assert [line["game"]["id"] for line in _lines(client, ann["id"], since="2100-01-01T00:00:00+01:00")] == []
    assert len(_lines(client, ann["id"], since="2000-01-01T00:00:00Z", until="2100-01-01T00:00:00Z")) == 3
    # (A JSON answer, made whole, says its length: the stream above does not.)
    assert "Content-Length" in client.get(f"/games/{last}").headers


def test_the_ndjson_bounds_name_when_the_games_ended(app, client):
    ann, ann_auth = _player(client, "Ann")
    _bob, bob_auth = _player(client, "Bob")
    first = _finished(client, ann_auth, bob_auth, rated=False)
    lists = app.extensions["patchwork"].watching.lists
    ((_gid, first_ms),) = lists.newest(lists.player_finished(ann["id"]), None, 1)
    time.sleep(1.0)
    second = _finished(client, bob_auth, ann_auth, rated=False)
    cut = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(first_ms // 1000 + 1)) + "Z"
    assert [line["game"]["id"] for line in _lines(client, ann["id"], until=cut)] == [first]
    assert [line["game"]["id"] for line in _lines(client, ann["id"], since=cut)] == [second]


def test_the_ndjson_of_no_player_and_bad_bounds(client):
    missing = client.get("/players/AAAAAAAAAAAAAAAAAAAAAA/games.ndjson")
    assert (missing.status_code, missing.get_json()["code"]) == (404, "player_not_found")
    ann, _auth = _player(client, "Ann")
    assert _lines(client, ann["id"]) == []
    for query in ({"since": "yesterday"}, {"until": "2026-02-30T00:00:00Z"}, {"max": 0}, {"rated": "maybe"}):
        resp = client.get(f"/players/{ann['id']}/games.ndjson", query_string=query)
        assert (resp.status_code, resp.get_json()["code"]) == (400, "invalid_request"), query
        assert resp.get_json()["errors"][0]["parameter"] == next(iter(query))

"""Clocks through HTTP: the contract's bounds, Game.clock, a move past the deadline, the pictures.

The arithmetic is tests/games/test_clock.py's; timeouts with nobody asking
are tests/system/test_clocks.py's (they need the timekeepers' processes).
"""

from __future__ import annotations

import pytest

from tests.support.sse import events_of

BLITZ = {"initial_s": 600, "increment_s": 5}


@pytest.mark.parametrize(
    ("clock", "pointer"),
    [
        ({"initial_s": 5}, "/clock/initial_s"),
        ({"initial_s": 10_801}, "/clock/initial_s"),
        ({"initial_s": 60, "increment_s": 181}, "/clock/increment_s"),
        ({"days_per_move": 0}, "/clock/days_per_move"),
        ({"days_per_move": 15}, "/clock/days_per_move"),
        ({"days_per_move": 2, "first_move_s": 4}, "/clock/first_move_s"),
        ({"initial_s": 60, "first_move_s": 1_209_601}, "/clock/first_move_s"),
        ({"initial_s": 60, "days_per_move": 2}, "/clock"),
        ({}, "/clock"),
        ({"initial_s": 60, "tempo": "fast"}, "/clock/tempo"),
        ("10+5", "/clock"),
    ],
)
def test_a_clock_out_of_the_contracts_bounds_is_refused_naming_the_field(client, clock, pointer):
    resp = client.post("/games", json={"clock": clock})
    assert resp.status_code == 400
    problem = resp.get_json()
    assert problem["code"] == "invalid_request"
    assert pointer in [error["pointer"] for error in problem["errors"]]


def test_a_real_time_clock_is_shown_with_its_settings_and_nobody_running(client):
    resp = client.post("/games", json={"clock": BLITZ})
    assert resp.status_code == 201
    clock = resp.get_json()["game"]["clock"]
    assert clock["initial_s"] == 600 and clock["increment_s"] == 5 and clock["first_move_s"] == 60
    assert clock["remaining_ms"] == [600_000, 600_000] and clock["running"] is None
    assert clock["deadline"].endswith("Z") and "." in clock["deadline"]  # RFC 3339 with milliseconds
    game_id = resp.get_json()["game"]["id"]
    assert client.get(f"/games/{game_id}").get_json()["clock"] == clock


def test_correspondence_and_no_clock(client):
    post = client.post("/games", json={"clock": {"days_per_move": 3}}).get_json()["game"]["clock"]
    assert post["days_per_move"] == 3 and post["first_move_s"] == 3 * 86_400
    assert post["remaining_ms"] == [3 * 86_400_000] * 2
    assert client.post("/games", json={"clock": None}).get_json()["game"]["clock"] is None
    assert client.post("/games", json={}).get_json()["game"]["clock"] is None


def test_a_move_keeps_the_etag_a_function_of_the_version_and_charges_the_mover(client):
    created = client.post("/games", json={"clock": BLITZ}).get_json()
    game_id, tokens = created["game"]["id"], created["tokens"]
    first = client.post(
        f"/games/{game_id}/moves",
        json={"action": "advance"},
        headers={"Authorization": f"Bearer {tokens[0]}"},
    )
    assert first.status_code == 201 and first.headers["ETag"] == '"2"'
    body = first.get_json()
    assert body["clock"]["remaining_ms"] == [605_000, 600_000] and body["clock"]["running"] == 1
    again = client.get(f"/games/{game_id}", headers={"If-None-Match": '"2"'})
    assert again.status_code == 304
    assert client.get(f"/games/{game_id}?version=2").get_json() == body


def test_the_pictures_show_the_time_left(client):
    game_id = client.post("/games", json={"clock": BLITZ}).get_json()["game"]["id"]
    text = client.get(f"/games/{game_id}/board.txt").get_data(as_text=True)
    assert "Time: Player 1 10:00 | Player 2 10:00" in text
    svg = client.get(f"/games/{game_id}/board.svg").get_data(as_text=True)
    assert svg.count('class="clock"') == 2 and ">10:00<" in svg


def test_a_retried_move_on_a_clocked_game_replays_the_first_answer_byte_for_byte(client):
    created = client.post("/games", json={"clock": BLITZ}).get_json()
    game_id, tokens = created["game"]["id"], created["tokens"]
    headers = {"Authorization": f"Bearer {tokens[0]}", "Idempotency-Key": "clocked-1"}
    first = client.post(f"/games/{game_id}/moves", json={"action": "advance"}, headers=headers)
    again = client.post(f"/games/{game_id}/moves", json={"action": "advance"}, headers=headers)
    assert first.status_code == again.status_code == 201
    # The recorded answer's clock is the game's: written for the same time, in the same commit.
    assert again.get_data() == first.get_data()
    assert "\\u0001" not in again.get_data(as_text=True) and "\x01" not in again.get_data(as_text=True)
    assert again.get_json() == client.get(f"/games/{game_id}").get_json()


def test_names_with_control_characters_stay_as_given_in_a_clocked_game(client):
    # A name may hold control characters, which JSON escapes: whatever the commit does
    # with a clocked game's texts, a name reads back as it was given.
    names = ["\x01A\x01", "\\u0001B\\u0001"]
    created = client.post(
        "/games", json={"players": [{"name": names[0]}, {"name": names[1]}], "clock": BLITZ}
    ).get_json()
    game_id, tokens = created["game"]["id"], created["tokens"]
    headers = {"Authorization": f"Bearer {tokens[0]}", "Idempotency-Key": "named"}
    first = client.post(f"/games/{game_id}/moves", json={"action": "advance"}, headers=headers)
    again = client.post(f"/games/{game_id}/moves", json={"action": "advance"}, headers=headers)
    for body in (
        created["game"],
        first.get_json(),
        again.get_json(),
        client.get(f"/games/{game_id}").get_json(),
    ):
        assert [player["name"] for player in body["players"]] == names
    assert again.get_data() == first.get_data()


def test_a_clocked_games_stream_carries_each_versions_clock(client):
    created = client.post("/games", json={"clock": BLITZ}).get_json()
    game_id, tokens = created["game"]["id"], created["tokens"]
    auth = [{"Authorization": f"Bearer {token}"} for token in tokens]
    moved = client.post(f"/games/{game_id}/moves", json={"action": "advance"}, headers=auth[0]).get_json()
    resigned = client.post(f"/games/{game_id}/resign", headers=auth[1]).get_json()
    events = events_of(client.get(f"/games/{game_id}/events?last_event_id=1"))
    moves = [event.json() for event in events if event.kind == "move"]
    assert [m["game"] for m in moves] == [moved, resigned]  # each event's game is the answer's
    assert resigned["clock"]["running"] is None and resigned["result"]["reason"] == "resigned"

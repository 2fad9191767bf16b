"""Correspondence vacations (POST/DELETE /players/me/vacation, site/vacations.py): deadlines moved by the
days used, the bank charged once, an early end giving back the rest, real-time games untouched."""

from __future__ import annotations

import threading
from datetime import datetime

from service.games.clock import DAY_MS
from tests.api.conftest import client_with

ADVANCE = {"action": "advance"}
CORRESPONDENCE = {"days_per_move": 2}


def _player(client, name):
    body = client.post("/players", json={"name": name}).get_json()
    return body["player"], body["token"]


def _bearer(token):
    return {"Authorization": f"Bearer {token}"}


def _ms(text: str) -> int:
    return round(datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() * 1000)


def _started(client, first_token, second_token, clock):
    """A game on `clock` that the first player opens, the second joins, and the first moves in: the second's clock runs."""
    resp = client.post(
        "/games",
        json={"players": [{"name": "x"}, {"open": True}], "clock": clock},
        headers=_bearer(first_token),
    )
    game_id = resp.get_json()["game"]["id"]
    assert client.post(f"/games/{game_id}/join", headers=_bearer(second_token)).status_code == 201
    moved = client.post(f"/games/{game_id}/moves", json=ADVANCE, headers=_bearer(first_token))
    assert moved.status_code == 201, moved.get_json()
    return game_id


def _clock(client, game_id):
    return client.get(f"/games/{game_id}").get_json()["clock"]


def test_a_vacation_moves_the_running_deadlines_charges_the_bank_and_ends_early(client):
    _ann, ann = _player(client, "Ann")
    bob_profile, bob = _player(client, "Bob")
    slow = _started(client, ann, bob, CORRESPONDENCE)
    fast = _started(client, ann, bob, {"initial_s": 600})
    slow_deadline, fast_clock = _ms(_clock(client, slow)["deadline"]), _clock(client, fast)

    me = client.get("/players/me", headers=_bearer(bob)).get_json()
    assert (me["vacation_days_left"], me["vacation_until"]) == (14, None)
    started = client.post("/players/me/vacation", json={"days": 3}, headers=_bearer(bob))
    assert started.status_code == 200, started.get_json()
    vacation = started.get_json()
    assert vacation["games"] == [slow] and vacation["vacation_days_left"] == 11
    assert _ms(vacation["until"]) - _ms(vacation["since"]) == 3 * DAY_MS

    # The correspondence deadline moved by the days; the opponent sees until when.
    paused = _clock(client, slow)
    assert _ms(paused["deadline"]) == slow_deadline + 3 * DAY_MS
    assert paused["paused_until"] == vacation["until"]
    # Real time never pauses.
    assert _clock(client, fast) == fast_clock
    me = client.get("/players/me", headers=_bearer(bob)).get_json()
    assert (me["vacation_days_left"], me["vacation_until"]) == (11, vacation["until"])
    # Only the player's own profile shows its bank.
    public = client.get(f"/players/{bob_profile['id']}").get_json()
    assert "vacation_days_left" not in public and "vacation_until" not in public

    again = client.post("/players/me/vacation", json={"days": 1}, headers=_bearer(bob))
    assert (again.status_code, again.get_json()["code"]) == (409, "vacation_active")

    # Ended at once: the day begun is used, the two not begun go back, the clock runs again from now.
    ended = client.delete("/players/me/vacation", headers=_bearer(bob))
    assert ended.status_code == 200, ended.get_json()
    assert (ended.get_json()["days_returned"], ended.get_json()["vacation_days_left"]) == (2, 13)
    resumed = _ms(_clock(client, slow)["deadline"])
    assert slow_deadline <= resumed < slow_deadline + 60_000
    assert client.get("/players/me", headers=_bearer(bob)).get_json()["vacation_until"] is None

    none = client.delete("/players/me/vacation", headers=_bearer(bob))
    assert (none.status_code, none.get_json()["code"]) == (409, "no_vacation")
    short = client.post("/players/me/vacation", json={"days": 14}, headers=_bearer(bob))
    assert (short.status_code, short.get_json()["code"]) == (409, "vacation_days_short")
    assert client.get("/players/me", headers=_bearer(bob)).get_json()["vacation_days_left"] == 13


def test_a_game_that_hands_the_turn_during_the_vacation_starts_the_clock_at_its_end(client):
    _ann, ann = _player(client, "Ann")
    _bob, bob = _player(client, "Bob")
    vacation = client.post("/players/me/vacation", json={"days": 2}, headers=_bearer(bob)).get_json()
    assert vacation["games"] == []
    game_id = _started(client, ann, bob, CORRESPONDENCE)
    clock = _clock(client, game_id)
    assert clock["paused_until"] == vacation["until"]
    assert _ms(clock["deadline"]) == _ms(vacation["until"]) + 2 * DAY_MS
    # Ann's own clock never pauses for Bob's vacation: Bob moves, and Ann's deadline is the usual one.
    assert client.post(f"/games/{game_id}/moves", json=ADVANCE, headers=_bearer(bob)).status_code == 201
    assert "paused_until" not in _clock(client, game_id)


def test_refusals(client):
    _ann, ann = _player(client, "Ann")
    assert client.post("/players/me/vacation", json={"days": 3}).status_code == 401
    assert client.post("/players/me/vacation", json={"days": 0}, headers=_bearer(ann)).status_code == 400
    assert client.post("/players/me/vacation", json={}, headers=_bearer(ann)).status_code == 400
    short = client.post("/players/me/vacation", json={"days": 15}, headers=_bearer(ann))
    assert (short.status_code, short.get_json()["code"]) == (409, "vacation_days_short")


def test_two_instances_racing_charge_the_bank_once_and_pause_once(backend, contract):
    with client_with(backend, contract) as first, client_with(backend, contract) as second:
        _ann, ann = _player(first, "Ann")
        _bob, bob = _player(first, "Bob")
        game_id = _started(first, ann, bob, CORRESPONDENCE)
        deadline = _ms(_clock(first, game_id)["deadline"])
        start = threading.Barrier(2)
        answers: list[tuple[int, dict]] = []

        def ask(client):
            start.wait()
            resp = client.post("/players/me/vacation", json={"days": 4}, headers=_bearer(bob))
            answers.append((resp.status_code, resp.get_json()))

        threads = [threading.Thread(target=ask, args=(client,)) for client in (first, second)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert sorted(status for status, _ in answers) == [200, 409]
        assert [body["code"] for status, body in answers if status == 409] == ["vacation_active"]
        assert second.get("/players/me", headers=_bearer(bob)).get_json()["vacation_days_left"] == 10
        assert _ms(_clock(second, game_id)["deadline"]) == deadline + 4 * DAY_MS

"""Offers on two real instances, on a single Redis and on a Cluster (issue 38).

Both seats asking for a rematch at once make one game: whichever asks first
offers, the other's asking accepts, and the claim on the finished game lets
one game through. A takeback accepted while the seat in turn moves: exactly
one of them changes the game (the offer stands at its version only). A
rated rematch nobody accepted makes no game and changes no rating.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from tests.support.concurrency import run_together
from tests.support.live_service import LiveService
from tests.support.service_client import ServiceClient

REMATCH_ROUNDS = 5
TAKEBACK_ROUNDS = 8


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@contextmanager
def _two_instances(backend, tmp_path, **env: str) -> Iterator[list[str]]:
    env = {**({"REDIS_CLUSTER": "1"} if backend.cluster else {}), **env}
    with (
        LiveService(backend.url, tmp_path / "a.log", env=env) as first,
        LiveService(backend.url, tmp_path / "b.log", env=env) as second,
    ):
        yield [first.url, second.url]


def test_both_seats_asking_for_a_rematch_at_once_on_two_instances_make_one_game(backend, tmp_path):
    with _two_instances(backend, tmp_path) as urls:
        for _round in range(REMATCH_ROUNDS):
            with ServiceClient(urls[0]) as setup:
                game_id, tokens = setup.create_game(7)
                assert setup.post(f"/games/{game_id}/resign", headers=_bearer(tokens[0])).status_code == 201

            def asker(n: int, game_id=game_id, tokens=tokens):
                with ServiceClient(urls[n % 2]) as mine:
                    return n % 2, mine.post(f"/games/{game_id}/rematch", headers=_bearer(tokens[n % 2]))

            answers = run_together(4, asker)  # each seat twice, on both instances
            statuses = sorted(resp.status_code for _seat, resp in answers)
            # The first asking offers; the other seat's first accepts (one 201); the rest see
            # the offer standing (202) or the game made (200).
            assert statuses.count(201) == 1 and set(statuses) <= {200, 201, 202}, [
                r.text for _s, r in answers
            ]
            games = {resp.json()["game"]["id"] for _seat, resp in answers if resp.status_code in (200, 201)}
            assert len(games) == 1
            (next_id,) = games
            for seat, resp in answers:
                if resp.status_code in (200, 201):
                    assert resp.json()["seat"] == 1 - seat
            with ServiceClient(urls[1]) as reader:
                finished = reader.game(game_id)
                assert finished["next_game"] == next_id and "offer" not in finished
                nxt = reader.game(next_id)
                assert nxt["status"] == "active" and nxt["version"] == 1


def test_a_takeback_racing_the_next_move_on_two_instances_one_of_them_happens(backend, tmp_path):
    with _two_instances(backend, tmp_path) as urls:
        outcomes = set()
        for round_ in range(TAKEBACK_ROUNDS):
            with ServiceClient(urls[0]) as setup:
                game_id, tokens = setup.create_game(2)
                moved = setup.post(
                    f"/games/{game_id}/moves", json={"action": "advance"}, headers=_bearer(tokens[0])
                )
                assert moved.status_code == 201, moved.text
                asked = setup.post(f"/games/{game_id}/takeback", headers=_bearer(tokens[0]))
                assert asked.status_code == 202, asked.text

            def racer(n: int, game_id=game_id, tokens=tokens, round_=round_):
                # Seat 1 both accepts and moves on, each through another instance.
                with ServiceClient(urls[(n + round_) % 2]) as mine:
                    if n == 0:
                        return mine.post(f"/games/{game_id}/takeback", headers=_bearer(tokens[1]))
                    return mine.post(
                        f"/games/{game_id}/moves", json={"action": "advance"}, headers=_bearer(tokens[1])
                    )

            accept, move = run_together(2, racer)
            with ServiceClient(urls[1]) as reader:
                game = reader.game(game_id)
                history = reader.history(game_id)
            # One change was made: version 3, two entries.
            assert game["version"] == 3 and len(history) == 2, (accept.text, move.text)
            if accept.status_code == 201:
                # The takeback first: the game is back at its start, seat 0 in turn, and the move
                # was judged again on it: not seat 1's turn.
                assert history[1] == {"number": 2, "seat": 0, "action": "takeback", "to_version": 1}
                assert move.status_code == 409 and move.json()["code"] == "not_your_turn", move.text
                assert game["turn"] == 0 and game["moves_played"] == 0
                outcomes.add("takeback")
            else:
                # The move first: it voided the offer, and seat 1, having acted last, offered in turn.
                assert move.status_code == 201, move.text
                assert history[1]["action"] == "advance" and history[1]["seat"] == 1
                assert accept.status_code == 202 and accept.json()["offer"]["by"] == 1, accept.text
                assert game["moves_played"] == 2
                outcomes.add("move")
        assert outcomes <= {"takeback", "move"}


def test_a_rated_rematch_nobody_accepted_changes_no_rating(backend, tmp_path):
    with _two_instances(backend, tmp_path, OFFER_TTL_SECONDS="1") as urls:
        with ServiceClient(urls[0]) as a, ServiceClient(urls[1]) as b:
            ann = a.post("/players", json={"name": "Ann"}).json()
            bob = b.post("/players", json={"name": "Bob"}).json()
            seek = {"clock": {"initial_s": 60, "increment_s": 0}, "rated": True}
            assert a.post("/seeks", json=seek, headers=_bearer(ann["token"])).status_code == 201
            game_id = b.post("/seeks", json=seek, headers=_bearer(bob["token"])).json()["seek"]["game"]
            for client, player in ((a, ann), (b, bob)):  # both move: the game rates
                moved = client.post(
                    f"/games/{game_id}/moves", json={"action": "advance"}, headers=_bearer(player["token"])
                )
                assert moved.status_code == 201, moved.text
            resigned = b.post(f"/games/{game_id}/resign", headers=_bearer(bob["token"]))
            assert resigned.json()["result"]["rated"] is True
            before = [b.get(f"/players/{p['player']['id']}").json() for p in (ann, bob)]
            offered = a.post(f"/games/{game_id}/rematch", headers=_bearer(ann["token"]))
            assert offered.status_code == 202, offered.text
            # Past the offer's life: nobody accepted, so no game exists whose clock could run out on Bob.
            time.sleep(1.5)
            assert b.get(f"/games/{game_id}").json()["next_game"] is None
            lapsed = b.session.delete(f"{urls[1]}/games/{game_id}/rematch", headers=_bearer(bob["token"]))
            assert lapsed.status_code == 404 and lapsed.json()["code"] == "offer_not_found"
            for client, player in ((a, ann), (b, bob)):
                mine = client.get(
                    "/players/me/games", params={"status": "active"}, headers=_bearer(player["token"])
                )
                assert mine.json()["games"] == []
            after = [a.get(f"/players/{p['player']['id']}").json() for p in (ann, bob)]
            assert after == before

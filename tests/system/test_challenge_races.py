"""Races of challenges on two real instances, on a single Redis and on a Cluster (issue 38).

Each round makes a challenge and fires two answers at once, one through each
gunicorn: an accept against the challenger's withdrawal, or against the
challenged player's decline. Exactly one of the two wins (`201` or `200`),
the other is `409 challenge_not_pending`, the challenge reads as the winner
left it on both instances, and a game exists only for the accepted ones.
Against expiry, fifty accepts come from 250 ms before their challenge's
expiry to 240 ms after it: each is either accepted (and has its game) or
refused with the challenge expired (and no game), never both, and both
outcomes occur. Last, four players accept one open challenge at once: one
game.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime

from tests.support.concurrency import run_together
from tests.support.live_service import LiveService
from tests.support.service_client import ServiceClient

ROUNDS = 50
TTL_SECONDS = 3
OPEN_ROUNDS = 10


def _env(backend) -> dict[str, str]:
    env = {"CHALLENGE_TTL_SECONDS": str(TTL_SECONDS), "RATE_LIMIT_GAMES": "100000"}
    return {**env, "REDIS_CLUSTER": "1"} if backend.cluster else env


@contextmanager
def _two_instances(backend, tmp_path) -> Iterator[tuple[list[str], ServiceClient]]:
    """Two gunicorn instances on the backend: their URLs, and a client of the first to set up with."""
    with (
        LiveService(backend.url, tmp_path / "a.log", env=_env(backend)) as first,
        LiveService(backend.url, tmp_path / "b.log", env=_env(backend)) as second,
        ServiceClient(first.url) as setup,
    ):
        yield [first.url, second.url], setup


def _auth(player: dict) -> dict[str, str]:
    return {"Authorization": f"Bearer {player['token']}"}


def _epoch_ms(text: str) -> int:
    return round(datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() * 1000)


def _answer(url: str, kind: str, challenge_id: str, player: dict):
    with ServiceClient(url) as mine:
        if kind == "withdraw":
            return mine.session.delete(f"{mine.base_url}/challenges/{challenge_id}", headers=_auth(player))
        return mine.post(f"/challenges/{challenge_id}/{kind}", headers=_auth(player))


def test_accept_races_withdraw_decline_and_expiry_to_one_outcome(backend, tmp_path):
    with _two_instances(backend, tmp_path) as (urls, setup):
        ann, bob = (setup.post("/players", json={"name": name}).json() for name in ("Ann", "Bob"))
        accepted_games = []
        for race in ("withdraw", "decline"):
            wins = {"accept": 0, race: 0}
            for round_ in range(ROUNDS):
                made = setup.post("/challenges", json={"to": bob["player"]["id"]}, headers=_auth(ann))
                assert made.status_code == 201, made.text
                challenge_id = made.json()["challenge"]["id"]
                other = ann if race == "withdraw" else bob

                def answer(n: int, challenge_id=challenge_id, other=other, round_=round_):
                    url = urls[(n + round_) % 2]  # the two answers through different instances
                    return answer_kinds[n], _answer(url, answer_kinds[n], challenge_id, (bob, other)[n])

                answer_kinds = ("accept", race)
                answers = dict(run_together(2, answer))
                won = [kind for kind, resp in answers.items() if resp.status_code in (200, 201)]
                assert len(won) == 1, {kind: (resp.status_code, resp.text) for kind, resp in answers.items()}
                lost = answers[answer_kinds[1 - answer_kinds.index(won[0])]]
                assert lost.status_code == 409 and lost.json()["code"] == "challenge_not_pending", lost.text
                wins[won[0]] += 1
                expected = {"accept": "accepted", "withdraw": "cancelled", "decline": "declined"}[won[0]]
                for url in urls:
                    with ServiceClient(url) as reader:
                        shown = reader.get(f"/challenges/{challenge_id}").json()["challenge"]
                        assert shown["status"] == expected
                        assert (shown["game"] is not None) == (won[0] == "accept")
                if won[0] == "accept":
                    game_id = answers["accept"].json()["game"]["id"]
                    assert shown["game"] == game_id
                    accepted_games.append(game_id)
            # Both answers won some rounds: the race was run, not one side always first.
            assert min(wins.values()) > 0, wins

        # Against expiry: challengers of their own (20 pending each at most), accepts spread over the expiry.
        challengers = [setup.post("/players", json={"name": f"C{n}"}).json() for n in range(5)]
        expiring = []
        for n in range(ROUNDS):
            made = setup.post(
                "/challenges", json={"to": bob["player"]["id"]}, headers=_auth(challengers[n % 5])
            )
            assert made.status_code == 201, made.text
            expiring.append(made.json()["challenge"])

        def late_accept(n: int):
            due = _epoch_ms(expiring[n]["expires_at"]) + (-250 + 10 * n)
            time.sleep(max(0.0, due / 1000 - time.time()))
            return _answer(urls[n % 2], "accept", expiring[n]["id"], bob)

        outcomes = {"accepted": 0, "expired": 0}
        for n, resp in enumerate(run_together(ROUNDS, late_accept)):
            with ServiceClient(urls[(n + 1) % 2]) as reader:
                shown = reader.get(f"/challenges/{expiring[n]['id']}").json()["challenge"]
            if resp.status_code == 201:
                assert shown["status"] == "accepted" and shown["game"] == resp.json()["game"]["id"]
                accepted_games.append(shown["game"])
            else:
                assert resp.status_code == 409 and resp.json()["code"] == "challenge_not_pending", resp.text
                assert shown["status"] == "expired" and shown["game"] is None
            outcomes[shown["status"]] += 1
        assert min(outcomes.values()) > 0, outcomes

        # A game for each accepted challenge, and no other: Bob's games are exactly those.
        listed = setup.get("/players/me/games", headers=_auth(bob)).json()["games"]
        assert sorted(entry["game"]["id"] for entry in listed) == sorted(accepted_games)


def test_four_accepts_of_one_open_challenge_on_two_instances_make_one_game(backend, tmp_path):
    with _two_instances(backend, tmp_path) as (urls, setup):
        ann = setup.post("/players", json={"name": "Ann"}).json()
        takers = [setup.post("/players", json={"name": f"T{n}"}).json() for n in range(4)]
        for _round in range(OPEN_ROUNDS):
            made = setup.post("/challenges", json={"to": None}, headers=_auth(ann))
            challenge_id = made.json()["challenge"]["id"]

            def taker(n: int, challenge_id=challenge_id):
                return _answer(urls[n % 2], "accept", challenge_id, takers[n])

            answers = run_together(4, taker)
            won = [n for n, resp in enumerate(answers) if resp.status_code == 201]
            assert len(won) == 1, [(resp.status_code, resp.text) for resp in answers]
            assert all(
                resp.json()["code"] == "challenge_not_pending"
                for n, resp in enumerate(answers)
                if n != won[0]
            )
            game = answers[won[0]].json()["game"]
            with ServiceClient(urls[1]) as reader:
                shown = reader.get(f"/challenges/{challenge_id}").json()["challenge"]
                assert shown["status"] == "accepted" and shown["game"] == game["id"]
                players = {p["player_id"] for p in reader.game(game["id"])["players"]}
                assert players == {ann["player"]["id"], takers[won[0]]["player"]["id"]}
        # Ann's games are one a round: no accept that lost made one.
        assert len(setup.get("/players/me/games", headers=_auth(ann)).json()["games"]) == OPEN_ROUNDS

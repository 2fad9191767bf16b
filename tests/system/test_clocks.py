"""Clocks with real processes: games end at their deadline with nobody asking, once, whatever races or dies.

The stack is what `patchwork-service` runs, started piece by piece so that
a test can kill one: a Redis (single server or 3-master cluster), two web
instances (gunicorn), two timekeepers and two bot workers. Clocks
are the shortest the contract allows (10 s a seat, 5 s for a first move).
Times are compared on this machine, where the store runs too: a game's
`deadline` is in the store's clock, which `time.time()` reads here as well.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import pytest
import requests

from tests.support.bot_workers import BotWorkerProcess, TimekeeperProcess, create_bot_game, wait_for
from tests.support.live_service import LiveService
from tests.support.redis_cluster import ThrowawayCluster
from tests.support.redis_servers import ThrowawayRedis

# The promise: a timeout is applied within 2 s of its deadline. The polls
# below look every 50 ms, and a loaded 2-core machine delays what they see.
PROMISE_S = 2.0
SLACK_S = 1.0
SHORTEST = {"initial_s": 10, "increment_s": 0, "first_move_s": 5}


@dataclass
class Stack:
    web: list[LiveService]
    workers: list[BotWorkerProcess]
    timekeepers: list[TimekeeperProcess]


@contextmanager
def stack(kind: str, work: Path, *, think_ms: str = "50") -> Iterator[Stack]:
    """Redis of `kind`, two web instances, two timekeepers and two bot workers on it."""
    with ExitStack() as started:
        if kind == "single":
            url, cluster = started.enter_context(ThrowawayRedis(work / "redis")).url, False
        else:
            url, cluster = started.enter_context(ThrowawayCluster(work / "cluster")).url, True
        env = {"REDIS_CLUSTER": "1" if cluster else "0"}
        workers = [
            started.enter_context(
                BotWorkerProcess(url, work / f"worker-{n}.log", cluster=cluster, think_ms=think_ms)
            )
            for n in range(2)
        ]
        timekeepers = [
            started.enter_context(TimekeeperProcess(url, work / f"timekeeper-{n}.log", cluster=cluster))
            for n in range(2)
        ]
        web = [started.enter_context(LiveService(url, work / f"web-{n}.log", env=env)) for n in range(2)]
        yield Stack(web, workers, timekeepers)


def deadline_of(game: dict) -> float:
    """The game's deadline as Unix seconds."""
    return datetime.fromisoformat(game["clock"]["deadline"].replace("Z", "+00:00")).timestamp()


def advance(base: str, game_id: str, token: str) -> requests.Response:
    return requests.post(
        f"{base}/games/{game_id}/moves",
        json={"action": "advance"},
        headers={"Authorization": f"Bearer {token}", "Idempotency-Key": uuid.uuid4().hex},
        timeout=10,
    )


def finished_at(base: str, game_id: str, timeout: float) -> tuple[dict, float]:
    """(the finished game, when it was first seen finished), polling every 50 ms."""

    def look() -> tuple[dict, float] | None:
        game = requests.get(f"{base}/games/{game_id}", timeout=10).json()
        return (game, time.time()) if game["status"] == "finished" else None

    return wait_for(look, timeout, f"game {game_id} never finished")


def actions(base: str, game_id: str) -> list[tuple[int, str]]:
    return [
        (m["seat"], m["action"])
        for m in requests.get(f"{base}/games/{game_id}/moves", timeout=10).json()["moves"]
    ]


@pytest.mark.parametrize("kind", ["single", "cluster"])
def test_games_end_at_their_deadline_with_nobody_asking(kind, tmp_path):
    with stack(kind, tmp_path) as running:
        base = running.web[0].url
        never_started = requests.post(f"{base}/games", json={"clock": SHORTEST}, timeout=10).json()
        abandoned = requests.post(f"{base}/games", json={"clock": SHORTEST}, timeout=10).json()
        assert advance(base, abandoned["game"]["id"], abandoned["tokens"][0]).status_code == 201
        # Seat 1 of `abandoned` never moves; nobody moves in `never_started`.
        for created, reason, winner, last in (
            (never_started, "aborted", None, (0, "abort")),
            (abandoned, "timeout", 0, (1, "timeout")),
        ):
            game_id = created["game"]["id"]
            deadline = deadline_of(requests.get(f"{base}/games/{game_id}", timeout=10).json())
            game, seen = finished_at(running.web[1].url, game_id, 30)
            assert (game["result"]["reason"], game["result"]["winner"]) == (reason, winner)
            assert actions(base, game_id)[-1] == last
            assert seen - deadline < PROMISE_S + SLACK_S, f"{reason} applied {seen - deadline:.2f} s late"
            assert game["clock"]["running"] is None and game["clock"]["deadline"] is None


def test_moves_racing_the_deadline_on_two_instances_never_land_after_it(tmp_path):
    with stack("single", tmp_path) as running:
        bases = [web.url for web in running.web]
        games = [
            requests.post(f"{bases[0]}/games", json={"clock": SHORTEST}, timeout=10).json() for _ in range(6)
        ]
        for created in games:
            assert advance(bases[0], created["game"]["id"], created["tokens"][0]).status_code == 201
        deadlines = [
            deadline_of(requests.get(f"{bases[0]}/games/{g['game']['id']}", timeout=10).json()) for g in games
        ]

        def race(index: int) -> list[requests.Response]:
            """Seat 1's advance, from both instances in turn, from just before its deadline until one is answered."""
            created, deadline = games[index], deadlines[index]
            time.sleep(max(0.0, deadline - 0.3 + index * 0.1 - time.time()))
            answers: list[requests.Response] = []
            while not answers or answers[-1].status_code not in (201, 409):
                answers.append(advance(bases[len(answers) % 2], created["game"]["id"], created["tokens"][1]))
            return answers

        with ThreadPoolExecutor(len(games)) as pool:
            results = list(pool.map(race, range(len(games))))
        for created, answers in zip(games, results, strict=True):
            game_id = created["game"]["id"]
            accepted = [a for a in answers if a.status_code == 201]
            refused = [a for a in answers if a.status_code == 409]
            if accepted:
                # In before the deadline: seat 1 still had time, and no timeout is recorded.
                (only,) = accepted
                assert only.json()["clock"]["remaining_ms"][1] > 0
                assert actions(bases[0], game_id)[:2] == [(0, "advance"), (1, "advance")]
            else:
                assert refused[-1].json()["code"] == "game_finished"
                game, _seen = finished_at(bases[1], game_id, 10)
                assert game["result"]["reason"] == "timeout"
                assert actions(bases[0], game_id) == [(0, "advance"), (1, "timeout")]


def test_a_timekeeper_killed_leaves_its_timeouts_to_the_other(tmp_path):
    with stack("single", tmp_path) as running:
        base = running.web[0].url
        games = [
            requests.post(f"{base}/games", json={"clock": SHORTEST}, timeout=10).json() for _ in range(8)
        ]
        for created in games:
            assert advance(base, created["game"]["id"], created["tokens"][0]).status_code == 201
        deadline = min(
            deadline_of(requests.get(f"{base}/games/{g['game']['id']}", timeout=10).json()) for g in games
        )
        # At the first deadline: the first timekeeper is about to take (or has taken) them.
        time.sleep(max(0.0, deadline - time.time()))
        running.timekeepers[0].kill()
        for created in games:
            game_id = created["game"]["id"]
            own_deadline = deadline_of(requests.get(f"{base}/games/{game_id}?version=2", timeout=10).json())
            game, seen = finished_at(base, game_id, 30)
            assert game["result"]["reason"] == "timeout"
            assert actions(base, game_id) == [(0, "advance"), (1, "timeout")]  # applied once
            assert seen - own_deadline < PROMISE_S + SLACK_S, f"applied {seen - own_deadline:.2f} s late"


def test_a_bot_on_a_short_clock_plays_a_whole_game_without_flagging(tmp_path):
    # The bots think with their levels' own budgets (no BOT_THINK_MS), cut to fit the clock.
    with stack("single", tmp_path, think_ms="") as running:
        base = running.web[0].url
        created = create_bot_game(
            base,
            [{"name": "A", "bot": "search"}, {"name": "B", "bot": "search"}],
            clock={"initial_s": 20, "increment_s": 0},
        )
        game, _seen = finished_at(base, created["game"]["id"], 120)
        assert game["result"]["reason"] == "completed", game["result"]
        assert min(game["clock"]["remaining_ms"]) > 0

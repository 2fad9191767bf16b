"""Time kept apart from thinking, and a service that outlives its workers (issue 36), with real processes.

`patchwork-service` as operators run it (its default BOT_WORKERS=1 and
TIMEKEEPERS=2) on a throwaway Redis the test reads too:
- games whose first move never comes are aborted within the guide's 2 s of
  their deadline while the one bot worker thinks about `deep` bot games, and
  also when a timekeeper is killed with kill -9 as the deadlines fall. Each
  lag is read from the game's own clock log (the store's time of the abort's
  commit less the deadline), so no poll of the test blurs it;
- a bot worker that dies at once every time it is started leaves the web
  serving person-against-person games, `/readyz` ready with `bots:
  unavailable`, bot seats `503 bots_unavailable`, the crash loop in the log
  and on /metrics, and the supervisor running;
- `low_time` (issue 41): a player's clock running down while nobody moves
  is told once, about when its bank falls under a fifth, by whichever of
  the two timekeepers looks, and not again when the game ends on time.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from service.storage import Storage, open_storage
from tests.support.backends import play_on
from tests.support.bot_workers import create_bot_game, wait_for
from tests.support.clock_logs import expiry_lag, first_deadline, make_expiring_games
from tests.support.live_service import wait_until_healthy
from tests.support.patchwork_service import PatchworkService, children, program
from tests.support.redis_servers import ThrowawayRedis

PROMISE_S = 2.0  # the guide: a timeout is applied within 2 s of its deadline
TIMEKEEPER = "service.botworker.timekeeper_main"
BOT_WORKER = "service.botworker"
DEEP_GAMES = 4
# Due within half a second: the timekeeper that ran in the bot worker managed about 80 a second
# while the worker thought (issue 36), so most of these came seconds late; idle, two do thousands.
EXPIRING = 600


@pytest.fixture
def redis(tmp_path) -> Iterator[ThrowawayRedis]:
    with ThrowawayRedis(tmp_path / "redis") as server:
        yield server


@pytest.fixture
def storage(redis) -> Iterator[Storage]:
    opened = open_storage(redis.url, max_connections=16)
    yield opened
    opened.close()


def _children_running(service: PatchworkService, name: str) -> list[int]:
    return [pid for pid in children(service.process.pid) if program(pid) == name]


def _start_deep_bot_games(url: str, storage: Storage) -> None:
    """DEEP_GAMES `deep` bot-vs-bot games, and wait until the one bot worker is thinking about them."""
    deep = [{"name": "A", "bot": "deep"}, {"name": "B", "bot": "deep"}]
    for _ in range(DEEP_GAMES):
        create_bot_game(url, deep, timeout=60)
    wait_for(lambda: storage.bot_jobs.taken() > 0, 30, "the bot worker never took a job")


@pytest.mark.parametrize("kill_a_timekeeper", [False, True], ids=["busy", "busy-and-one-killed"])
def test_timeouts_come_within_2s_while_the_bot_worker_thinks(kill_a_timekeeper, redis, storage, tmp_path):
    service = PatchworkService(tmp_path / "data", tmp_path / "service.log", redis_url=redis.url)
    with service:
        _start_deep_bot_games(service.url, storage)
        play = play_on(storage, kept=0)
        game_ids = make_expiring_games(play, [time.time() + 3.0] * EXPIRING)
        if kill_a_timekeeper:
            # As the deadlines fall: it may hold leases on some of them, which the other takes over.
            time.sleep(max(0.0, first_deadline(storage.games, game_ids) + 0.1 - time.time()))
            keepers = _children_running(service, TIMEKEEPER)
            assert len(keepers) == 2, service.log()
            os.kill(keepers[0], signal.SIGKILL)
        wait_for(
            lambda: all(expiry_lag(storage.games, game_id) is not None for game_id in game_ids),
            30,
            "some games were never aborted",
            every=0.5,
        )
        # The worker was thinking all along.
        assert storage.bot_jobs.taken() > 0
        assert service.process.poll() is None
    lags = sorted(expiry_lag(storage.games, game_id) or 0.0 for game_id in game_ids)
    late = [lag for lag in lags if lag > PROMISE_S]
    assert not late, f"{len(late)} of {len(lags)} aborts more than 2 s late (max {lags[-1]:.2f} s)"


def test_a_bot_worker_dying_at_every_start_leaves_the_web_serving(redis, tmp_path):
    service = PatchworkService(tmp_path / "data", tmp_path / "service.log", redis_url=redis.url)
    killed: set[int] = set()
    stop = threading.Event()

    def kill_every_bot_worker() -> None:
        """kill -9 each bot worker as soon as it appears: long before it could beat its heartbeat."""
        while not stop.is_set():
            for pid in _children_running(service, BOT_WORKER):
                if pid not in killed:
                    os.kill(pid, signal.SIGKILL)
                    killed.add(pid)
            time.sleep(0.01)

    killer = threading.Thread(target=kill_every_bot_worker, daemon=True)
    try:
        service.launch()
        killer.start()
        wait_until_healthy(service.url, timeout=30, process=service.process)
        # Five deaths within 10 s of their starts: where the supervisor used to give up on the whole service.
        wait_for(lambda: len(killed) >= 5, 30, "the bot worker was not restarted five times")
        wait_for(
            lambda: "is crash-looping" in service.log() or "giving up" in service.log(),
            10,
            "no crash loop reported",
        )
        time.sleep(0.5)  # a supervisor giving up would be stopping the web by now
        assert service.process.poll() is None, service.log()
        assert "giving up" not in service.log()
        assert "bot-worker-1 is crash-looping: it exited 5 times in a row" in service.log()

        ready = requests.get(f"{service.url}/readyz", timeout=10)
        assert (ready.status_code, ready.json()) == (200, {"status": "ready", "bots": "unavailable"})
        # A game between two people is played as ever.
        created = requests.post(f"{service.url}/games", json={"seed": 5}, timeout=10)
        assert created.status_code == 201, created.text
        game_id, token = created.json()["game"]["id"], created.json()["tokens"][0]
        moved = requests.post(
            f"{service.url}/games/{game_id}/moves",
            json={"action": "advance"},
            headers={"Authorization": f"Bearer {token}"},
            timeout=10,
        )
        assert moved.status_code == 201, moved.text
        # A bot seat is refused while no worker runs.
        bot_game = requests.post(
            f"{service.url}/games",
            json={"players": [{"name": "A"}, {"name": "B", "bot": "random"}]},
            timeout=10,
        )
        assert (bot_game.status_code, bot_game.json()["code"]) == (503, "bots_unavailable")
        metrics = requests.get(f"{service.url}/metrics", timeout=10).text
        assert 'patchwork_children_crash_looping{child="bot-worker"} 1.0' in metrics
        exits = _sample(metrics, 'patchwork_child_exits_total{child="bot-worker"}')
        assert exits is not None and exits >= 5
    finally:
        stop.set()
        if killer.is_alive():
            killer.join(5)
        service.close()


def _sample(metrics: str, name: str) -> float | None:
    for line in metrics.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[-1])
    return None


def test_the_timekeepers_run_at_normal_priority_and_the_bot_worker_below(redis, tmp_path):
    with PatchworkService(tmp_path / "data", tmp_path / "service.log", redis_url=redis.url) as service:
        keepers = wait_for(lambda: _children_running(service, TIMEKEEPER), 10, "no timekeeper")
        workers = wait_for(lambda: _children_running(service, BOT_WORKER), 10, "no bot worker")
        wait_for(lambda: _nice(workers[0]) == 10, 10, "the bot worker did not lower its priority")
        assert [_nice(pid) for pid in keepers] == [_nice(service.process.pid)] * 2


def _nice(pid: int) -> int:
    """The process's nice value, from /proc/PID/stat (field 19)."""
    return int(Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[16])


INITIAL_S = 10  # the contract's least bank: the line is 2 s before the flag falls


def _low_times(storage: Storage, player_id: str) -> list[dict]:
    return [
        json.loads(e.data) for e in storage.players.events_after(player_id, None, 100) if e.kind == "low_time"
    ]


def test_two_timekeepers_tell_a_running_clock_once(redis, storage, tmp_path):
    with PatchworkService(tmp_path / "data", tmp_path / "service.log", redis_url=redis.url) as service:
        base = service.url
        ann = requests.post(f"{base}/players", json={"name": "Ann"}, timeout=10).json()
        bob = requests.post(f"{base}/players", json={"name": "Bob"}, timeout=10).json()
        created = requests.post(
            f"{base}/games",
            json={"players": [{"name": "x"}, {"open": True}], "clock": {"initial_s": INITIAL_S}},
            headers={"Authorization": f"Bearer {ann['token']}"},
            timeout=10,
        ).json()
        game_id = created["game"]["id"]
        bob_auth = {"Authorization": f"Bearer {bob['token']}"}
        assert requests.post(f"{base}/games/{game_id}/join", headers=bob_auth, timeout=10).status_code == 201
        moved = requests.post(
            f"{base}/games/{game_id}/moves",
            json={"action": "advance"},
            headers={"Authorization": f"Bearer {ann['token']}"},
            timeout=10,
        )
        assert moved.status_code == 201, moved.text
        deadline = time.time() + INITIAL_S
        bob_id = bob["player"]["id"]
        wait_for(lambda: _low_times(storage, bob_id), INITIAL_S + 5, "Bob was never told his time runs low")
        told_at = time.time()
        # Told at the line (2 s before the flag), give or take a timekeeper's look.
        assert deadline - 2.0 - 0.5 <= told_at <= deadline - 2.0 + 2.0
        (told,) = _low_times(storage, bob_id)
        assert told["game"] == game_id and told["seat"] == 1 and 0 < told["remaining_ms"] <= 2000
        wait_for(
            lambda: requests.get(f"{base}/games/{game_id}", timeout=10).json()["status"] == "finished",
            10,
            "the game never ended on time",
        )
        assert len(_low_times(storage, bob_id)) == 1
        assert _low_times(storage, ann["player"]["id"]) == []

"""Bot workers as real processes, and the faults no game may stall on.

gunicorn serves the API, `python -m service.botworker` processes play the
bots, on one redis-server or a 3-master cluster: a worker killed -9 in the
middle of a bot's thinking, the web killed right after the move that handed
a bot its turn, Redis restarted; and `patchwork-service` starting BOT_WORKERS
workers, restarting a killed one and stopping them between the web and
Redis. Each time the bot's move still arrives, once: the history replays.

A commit that is late (its web worker slow or stopped after it queued the
bot's job) or never comes (the web killed in between) is made real on a
cluster, where the queue and the game live on different nodes: a CLIENT
PAUSE on the game's node holds the commit while the queue goes on.
"""

from __future__ import annotations

import json
import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import requests
from redis import Redis
from redis.exceptions import MovedError

from service.botworker.worker import VERSION_WAIT_SECONDS
from service.games import GamePlay
from service.storage import Storage, open_storage
from tests.support.backends import play_on
from tests.support.bot_workers import BotWorkerProcess, create_bot_game, wait_for
from tests.support.history_check import replay_prefix
from tests.support.live_service import LiveService
from tests.support.patchwork_service import PatchworkService, alive, children, identity, program
from tests.support.redis_cluster import ThrowawayCluster
from tests.support.redis_servers import ThrowawayRedis

# A bot's move is due within think_ms plus a second; a dead worker's job is
# taken over after 5 s idle. Bounds with room for a busy 2-core machine.
BOT_MOVE_BOUND = 15.0
TAKEOVER_BOUND = 30.0
# Long enough to kill the worker while it surely still thinks.
LONG_THINK_MS = "4000"


@contextmanager
def redis_backend(kind: str, work: Path) -> Iterator[tuple[str, bool]]:
    """(url, cluster) of a fresh single redis-server or 3-master cluster."""
    if kind == "single":
        with ThrowawayRedis(work / "redis") as server:
            yield server.url, False
    else:
        with ThrowawayCluster(work / "cluster") as cluster:
            yield cluster.url, True


@contextmanager
def store_on(url: str, cluster: bool) -> Iterator[Storage]:
    """The stores on `url`, to look at games and queues behind the web's back."""
    storage = open_storage(url, cluster=cluster)
    try:
        yield storage
    finally:
        storage.close()


@contextmanager
def game_play(url: str, cluster: bool) -> Iterator[GamePlay]:
    """The game-play core on the store, to look at games (and the queue) behind the web's back."""
    with store_on(url, cluster) as storage:
        yield play_on(storage, kept=0)


def create(base: str, players: list[dict], **options) -> dict:
    resp = requests.post(f"{base}/games", json={"players": players, **options}, timeout=10)
    assert resp.status_code == 201, resp.text
    return resp.json()


def assert_replays(play: GamePlay, game_id: str) -> tuple[dict, list[dict]]:
    """The stored game is the replay of its history: every bot move applied once, by the rules."""
    stored = play.view(game_id)
    version, game = stored.version, json.loads(stored.view)
    _, entries = play.history(game_id)
    moves = [json.loads(entry) for entry in entries]
    assert [m["number"] for m in moves] == list(range(1, version))
    state = replay_prefix(game, moves, len(moves))
    assert state.moves_played == game["moves_played"] and state.turn == game["turn"]
    return game, moves


def jobs_taken(play: GamePlay) -> int:
    """Jobs a worker has taken and not yet done."""
    return play.bot_jobs.taken()


@pytest.mark.parametrize("kind", ["single", "cluster"])
def test_a_worker_killed_mid_thought_has_its_move_made_by_another_once(kind, tmp_path):
    with (
        redis_backend(kind, tmp_path) as (url, cluster),
        game_play(url, cluster) as play,
        LiveService(
            url, tmp_path / "web.log", workers=1, env={"REDIS_CLUSTER": "1" if cluster else "0"}
        ) as web,
        BotWorkerProcess(url, tmp_path / "slow.log", cluster=cluster, think_ms=LONG_THINK_MS) as slow,
    ):
        wait_for(play.bot_jobs.workers_seen, 20, f"no heartbeat:\n{slow.log()}")
        # The bot (seat 1) starts: its job is queued with the game.
        created = create(web.url, [{"name": "Ann"}, {"name": "Bot", "bot": "search"}], first_player=1, seed=8)
        game_id = created["game"]["id"]
        # The slow worker is the only one: the job taken is in its hands.
        wait_for(lambda: jobs_taken(play) == 1, 10, f"the worker did not take the job:\n{slow.log()}")
        slow.kill()
        assert play.view(game_id).version == 1, "the slow worker moved before it was killed"
        with BotWorkerProcess(url, tmp_path / "fast.log", cluster=cluster) as fast:
            wait_for(
                lambda: play.view(game_id).version > 1,
                TAKEOVER_BOUND,
                f"nobody took over the job of the killed worker:\n{fast.log()}",
            )
            game = wait_for(
                lambda: (g := assert_replays(play, game_id)[0])["turn"] == 0 and g,
                BOT_MOVE_BOUND,
                "the bot did not hand the turn back",
            )
            assert "took over job" in fast.log()
    assert game["moves_played"] >= 1


@pytest.mark.parametrize("kind", ["single", "cluster"])
def test_the_web_killed_right_after_handing_a_bot_the_turn_does_not_stall_the_game(kind, tmp_path):
    with (
        redis_backend(kind, tmp_path) as (url, cluster),
        game_play(url, cluster) as play,
        BotWorkerProcess(url, tmp_path / "worker.log", cluster=cluster) as worker,
    ):
        wait_for(play.bot_jobs.workers_seen, 20, f"no heartbeat:\n{worker.log()}")
        web = LiveService(
            url, tmp_path / "web.log", workers=1, env={"REDIS_CLUSTER": "1" if cluster else "0"}
        )
        with web:
            created = create(web.url, [{"name": "Ann"}, {"name": "Bot", "bot": "greedy"}], seed=5)
            game_id, token = created["game"]["id"], created["tokens"][0]
            resp = requests.post(
                f"{web.url}/games/{game_id}/moves",
                json={"action": "advance"},
                headers={"Authorization": f"Bearer {token}"},
                timeout=10,
            )
            assert resp.status_code == 201 and resp.json()["players"][resp.json()["turn"]]["bot"]
            os.killpg(web.process.pid, signal.SIGKILL)
        wait_for(
            lambda: play.view(game_id).version > 2,
            BOT_MOVE_BOUND,
            f"the bot did not move with the web gone:\n{worker.log()}",
        )
        _game, moves = assert_replays(play, game_id)
        assert moves[0]["seat"] == 0 and moves[1]["seat"] == 1


def test_a_redis_restart_mid_game_loses_no_bot_turn(durable_redis, tmp_path):
    url = durable_redis.url
    with (
        game_play(url, False) as play,
        LiveService(url, tmp_path / "web.log", workers=1) as web,
        BotWorkerProcess(url, tmp_path / "worker.log") as worker,
    ):
        wait_for(play.bot_jobs.workers_seen, 20, f"no heartbeat:\n{worker.log()}")
        created = create(web.url, [{"name": "Ann"}, {"name": "Bot", "bot": "greedy"}], seed=6)
        game_id, token = created["game"]["id"], created["tokens"][0]

        def person_moves() -> int:
            resp = requests.post(
                f"{web.url}/games/{game_id}/moves",
                json={"action": "advance"},
                headers={"Authorization": f"Bearer {token}"},
                timeout=10,
            )
            assert resp.status_code in (201, 409, 503), resp.text
            return resp.status_code == 201 and resp.json()["version"]

        def bot_moved_after(version: int):
            def check():
                try:
                    found = play.view(game_id)
                except Exception:  # Redis still starting
                    return False
                return found.version > version and '"turn":0' in found.view

            return check

        version = person_moves()
        wait_for(bot_moved_after(version), BOT_MOVE_BOUND, f"no bot move:\n{worker.log()}")
        durable_redis.stop()
        durable_redis.start()
        version = wait_for(person_moves, 20, "the web did not take moves again")
        wait_for(bot_moved_after(version), BOT_MOVE_BOUND, f"no bot move after the restart:\n{worker.log()}")
        wait_for(play.bot_jobs.workers_seen, 10, "the worker's heartbeat did not come back")
        assert_replays(play, game_id)


def test_a_bots_own_commit_fenced_while_it_thinks_is_made_again(tmp_path):
    # The worker's commit is the late one here: another worker fenced it
    # (the game's revision renewed) while this one was thinking.
    with (
        ThrowawayRedis(tmp_path / "redis") as server,
        game_play(server.url, False) as play,
        LiveService(server.url, tmp_path / "web.log", workers=1) as web,
        BotWorkerProcess(server.url, tmp_path / "worker.log", think_ms="1500") as worker,
    ):
        wait_for(play.bot_jobs.workers_seen, 20, f"no heartbeat:\n{worker.log()}")
        created = create(web.url, [{"name": "Ann"}, {"name": "Bot", "bot": "search"}], first_player=1, seed=8)
        game_id = created["game"]["id"]
        wait_for(lambda: jobs_taken(play) == 1, 10, f"the worker did not take the job:\n{worker.log()}")

        def fenced_until_retried() -> bool:
            # Fenced again and again: whenever the worker read the game, its
            # copy is out of date by the time it commits.
            if "moving again" in worker.log():
                return True
            game = play.load(game_id)
            assert game.version == 1, "the fenced commit was stored"
            play.fence(game_id, game)
            return False

        wait_for(fenced_until_retried, TAKEOVER_BOUND, f"no commit refused:\n{worker.log()}")
        wait_for(lambda: play.view(game_id).version > 1, BOT_MOVE_BOUND, f"no second try:\n{worker.log()}")
        _game, moves = assert_replays(play, game_id)
        assert moves[0]["seat"] == 1


def _owns(node: Redis, key: str) -> bool:
    try:
        node.execute_command("EXISTS", key)
    except MovedError:  # another node's slot
        return False
    return True


def node_of(cluster: ThrowawayCluster, key: str) -> int:
    """The index of the cluster node that owns `key`'s slot."""
    for index, node in enumerate(cluster.nodes):
        with node.client() as client:
            if _owns(client, key):
                return index
    raise AssertionError(f"no node owns {key}")


def game_away_from_the_queue(cluster: ThrowawayCluster, play: GamePlay, base: str) -> tuple[str, str, int]:
    """(id, Ann's token, node) of a new Ann-vs-random game, Ann to move, on another node than the queue."""
    queue_node = node_of(cluster, play.bot_jobs.heartbeat_key)  # every {bots} key is in its slot
    for _ in range(50):
        created = create(base, [{"name": "Ann"}, {"name": "Bot", "bot": "random"}], first_player=0, seed=3)
        game_id = created["game"]["id"]
        node = node_of(cluster, f"patchwork:{{{game_id}}}:game")
        if node != queue_node:
            return game_id, created["tokens"][0], node
    raise AssertionError("every game landed on the queue's node")


def advance(base: str, game_id: str, token: str) -> requests.Response:
    return requests.post(
        f"{base}/games/{game_id}/moves",
        json={"action": "advance"},
        headers={"Authorization": f"Bearer {token}"},
        timeout=60,
    )


def person_in_turn(play: GamePlay, game_id: str) -> bool:
    game = json.loads(play.view(game_id).view)
    return game["status"] == "finished" or game["players"][game["turn"]]["bot"] is None


# Longer than the worker's wait for a commit, so that it gives the commit up as late.
PAUSE_MS = int(VERSION_WAIT_SECONDS * 1000 * 2) + 1000
# The web's Redis timeout outlasts the pause: its commit is held, not failed.
PATIENT_WEB = {"REDIS_CLUSTER": "1", "REDIS_TIMEOUT_SECONDS": "15"}


def test_a_commit_that_lands_after_the_workers_wait_still_gets_the_bot_its_move(tmp_path):
    with (
        ThrowawayCluster(tmp_path / "cluster") as cluster,
        game_play(cluster.url, True) as play,
        LiveService(cluster.url, tmp_path / "web.log", workers=1, env=PATIENT_WEB) as web,
        BotWorkerProcess(cluster.url, tmp_path / "worker.log", cluster=True) as worker,
    ):
        wait_for(play.bot_jobs.workers_seen, 20, f"no heartbeat:\n{worker.log()}")
        game_id, token, node = game_away_from_the_queue(cluster, play, web.url)
        with cluster.nodes[node].client() as client:
            client.execute_command("CLIENT", "PAUSE", PAUSE_MS, "WRITE")
        # The bot's job is queued on the queue's node; the commit waits out the pause.
        resp = advance(web.url, game_id, token)
        assert resp.status_code == 201, resp.text
        assert resp.json()["version"] == 2 and not person_in_turn(play, game_id)
        wait_for(
            lambda: person_in_turn(play, game_id),
            BOT_MOVE_BOUND + PAUSE_MS / 1000,
            f"the bot never moved after the late commit:\n{worker.log()}",
        )
        _game, moves = assert_replays(play, game_id)
        assert [m["seat"] for m in moves[:2]] == [0, 1]
        wait_for(lambda: play.bot_jobs.queued() == 0, BOT_MOVE_BOUND, "a job was left behind")


def test_the_web_killed_between_queueing_and_committing_leaves_no_job_and_no_stall(tmp_path):
    with (
        ThrowawayCluster(tmp_path / "cluster") as cluster,
        game_play(cluster.url, True) as play,
        BotWorkerProcess(cluster.url, tmp_path / "worker.log", cluster=True) as worker,
    ):
        wait_for(play.bot_jobs.workers_seen, 20, f"no heartbeat:\n{worker.log()}")
        web = LiveService(cluster.url, tmp_path / "web.log", workers=1, env=PATIENT_WEB)
        with web:
            game_id, token, node = game_away_from_the_queue(cluster, play, web.url)
            with cluster.nodes[node].client() as client:
                client.execute_command("CLIENT", "PAUSE", PAUSE_MS, "WRITE")
            # The move's request hangs in its commit; it is killed with the web.
            hanging = threading.Thread(target=lambda: _ignore_errors(advance, web.url, game_id, token))
            hanging.start()
            wait_for(lambda: play.bot_jobs.queued() == 1, 10, "the web did not queue the bot's job")
            os.killpg(web.process.pid, signal.SIGKILL)
            hanging.join(30)
        with cluster.nodes[node].client() as client:
            # Now, not when the pause runs out: the test's own reads of the
            # history (scripts) would wait behind it. The dead web's commit
            # may or may not run, as Redis notices its socket closed or not.
            client.execute_command("CLIENT", "UNPAUSE")
        # Whether or not Redis ran the dead web's commit, nobody waits on a bot for ever.
        wait_for(
            lambda: play.bot_jobs.queued() == 0 and person_in_turn(play, game_id),
            BOT_MOVE_BOUND + PAUSE_MS / 1000 + TAKEOVER_BOUND,
            f"the job was neither played nor dropped:\n{worker.log()}",
        )
        version = play.view(game_id).version
        assert_replays(play, game_id)
        # And the game goes on.
        with LiveService(cluster.url, tmp_path / "web2.log", workers=1, env=PATIENT_WEB) as web2:
            resp = advance(web2.url, game_id, token)
            assert resp.status_code == 201, resp.text
            wait_for(lambda: person_in_turn(play, game_id), BOT_MOVE_BOUND, "no bot move after the restart")
        assert play.view(game_id).version > version + 1
        assert_replays(play, game_id)


def _ignore_errors(call, *args) -> None:
    try:
        call(*args)
    except requests.RequestException:
        pass  # the server was killed under the request


def worker_children(service: PatchworkService) -> list[tuple[int, str]]:
    return [identity(pid) for pid in children(service.process.pid) if program(pid) == "service.botworker"]


def test_patchwork_service_runs_restarts_and_stops_its_bot_workers(tmp_path):
    service = PatchworkService(tmp_path / "data", tmp_path / "service.log")
    service.env.update(BOT_WORKERS="2", BOT_THINK_MS="50")
    with service:
        workers = wait_for(
            lambda: len(found := worker_children(service)) == 2 and found,
            20,
            f"not two bot workers:\n{service.log()}",
        )
        for pid, _ in workers:
            assert os.getpriority(os.PRIO_PROCESS, pid) > os.getpriority(
                os.PRIO_PROCESS, service.child("gunicorn")
            )
        # A game between bots plays to its end by itself, even with a worker killed -9 on the way.
        created = create_bot_game(
            service.url, [{"name": "A", "bot": "greedy"}, {"name": "B", "bot": "random"}]
        )
        game_id = created["game"]["id"]
        os.kill(workers[0][0], signal.SIGKILL)
        wait_for(
            lambda: len(found := worker_children(service)) == 2 and workers[0] not in found,
            20,
            f"the killed worker was not replaced:\n{service.log()}",
        )
        game = wait_for(
            lambda: (
                (g := requests.get(f"{service.url}/games/{game_id}", timeout=10).json())["status"]
                == "finished"
                and g
            ),
            90,
            "the bot game did not finish",
        )
        history = requests.get(f"{service.url}/games/{game_id}/moves", timeout=10).json()["moves"]
        assert replay_prefix(game, history, len(history)).finished
        # SIGTERM: everything stops, the workers with it.
        everything = [identity(pid) for pid in children(service.process.pid)]
        service.process.send_signal(signal.SIGTERM)
        assert service.process.wait(60) == 0, service.log()
        assert not [p for p in everything if p is not None and alive(p)]
        log = service.log()
        assert log.index("stopping web") < log.index("stopping bot-worker-2") < log.index("stopping redis")


def test_a_worker_calibrates_itself_at_start_and_bots_shows_what_it_spent(tmp_path):
    with (
        ThrowawayRedis(tmp_path / "redis") as server,
        LiveService(server.url, tmp_path / "web.log", workers=1) as web,
        BotWorkerProcess(server.url, tmp_path / "worker.log") as worker,
    ):
        measured = wait_for(
            lambda: requests.get(f"{web.url}/bots", timeout=10).json()["measured"],
            20,
            f"no worker reported:\n{worker.log()}",
        )
        assert measured["calibration"] == "measured" and measured["nodes_per_ms"] >= 1
        assert f"plan with {measured['nodes_per_ms']} nodes per CPU ms" in worker.log()
        game = create(web.url, [{"name": "Ann"}, {"name": "Bot", "bot": "deep"}], first_player=1, seed=3)
        wait_for(
            lambda: "deep" in requests.get(f"{web.url}/bots", timeout=10).json()["measured"]["levels"],
            BOT_MOVE_BOUND,
            f"the deep level's move was not reported:\n{worker.log()}",
        )
        assert requests.get(f"{web.url}/games/{game['game']['id']}", timeout=10).json()["turn"] == 0


def analysis_taken(redis_url: str, base: str, storage: Storage, worker: BotWorkerProcess, seed: int) -> str:
    """A random-vs-random game played to its end by `worker`, its analysis asked for and taken by it: the game's id."""
    wait_for(storage.bot_jobs.workers_seen, 20, f"no heartbeat:\n{worker.log()}")
    game_id = create(base, [{"name": "A", "bot": "random"}, {"name": "B", "bot": "random"}], seed=seed)[
        "game"
    ]["id"]
    wait_for(
        lambda: requests.get(f"{base}/games/{game_id}", timeout=10).json()["status"] == "finished",
        BOT_MOVE_BOUND * 4,
        f"the bot game did not end:\n{worker.log()}",
    )
    resp = requests.post(f"{base}/games/{game_id}/analysis", timeout=10)
    assert resp.status_code == 202 and resp.headers["Location"] == f"/games/{game_id}/analysis"
    analyses = storage.analyses
    taken = Redis.from_url(redis_url)
    wait_for(lambda: taken.zcard(analyses.taken_key) == 1, 20, f"the worker did not take it:\n{worker.log()}")
    return game_id


def test_an_analysis_survives_its_worker_killed_mid_computation_and_is_stored_once(tmp_path):
    with (
        ThrowawayRedis(tmp_path / "redis") as server,
        store_on(server.url, False) as storage,
        LiveService(server.url, tmp_path / "web.log", workers=1) as web,
        # Random bots ignore think_ms: the game ends at once, its analysis takes long.
        BotWorkerProcess(server.url, tmp_path / "slow.log", think_ms=LONG_THINK_MS) as slow,
    ):
        game_id = analysis_taken(server.url, web.url, storage, slow, seed=4)
        analyses = storage.analyses
        taken = Redis.from_url(server.url)
        slow.kill()
        assert requests.get(f"{web.url}/games/{game_id}/analysis", timeout=10).status_code == 202
        with BotWorkerProcess(server.url, tmp_path / "fast.log") as fast:
            wait_for(
                lambda: requests.get(f"{web.url}/games/{game_id}/analysis", timeout=10).status_code == 200,
                TAKEOVER_BOUND * 2,
                f"nobody took over the analysis of the killed worker:\n{fast.log()}",
            )
            # Asked again once stored: nothing is queued, nothing computed again.
            assert requests.post(f"{web.url}/games/{game_id}/analysis", timeout=10).status_code == 202
            assert taken.llen(analyses.queue_key) == 0 and taken.zcard(analyses.taken_key) == 0
            assert not taken.sismember(analyses.pending_key, game_id)
        assert fast.log().count(f"analysed game {game_id}") == 1
        assert f"analysed game {game_id}" not in slow.log()
        analysis = requests.get(f"{web.url}/games/{game_id}/analysis", timeout=10).json()
        assert analysis["moves"] and analysis["moves"][0]["number"] == 1


# What an analysed move's searches take at this think time, on any machine this runs on: minutes.
HUGE_THINK_MS = "300000"


def test_a_bot_move_that_comes_during_an_analysis_does_not_wait_for_its_searches(tmp_path):
    with (
        ThrowawayRedis(tmp_path / "redis") as server,
        store_on(server.url, False) as storage,
        LiveService(server.url, tmp_path / "web.log", workers=1) as web,
        # Random bots ignore think_ms: their moves are instant, the analysis's searches endless.
        BotWorkerProcess(server.url, tmp_path / "worker.log", think_ms=HUGE_THINK_MS) as worker,
    ):
        game_id = analysis_taken(server.url, web.url, storage, worker, seed=5)
        # The worker is inside the first move's searches: a person's game with the bot to move first.
        live = create(web.url, [{"name": "Ann"}, {"name": "Bot", "bot": "random"}], first_player=1, seed=6)
        live_id = live["game"]["id"]
        wait_for(
            lambda: requests.get(f"{web.url}/games/{live_id}", timeout=10).json()["turn"] == 0,
            BOT_MOVE_BOUND,
            f"the bot's move waited for the analysis:\n{worker.log()}",
        )
        assert requests.get(f"{web.url}/games/{game_id}/analysis", timeout=10).status_code == 202

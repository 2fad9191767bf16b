"""GET /metrics on real processes: gunicorn with two workers, patchwork-service and its bot workers, a standalone worker.

The counts must add up whichever worker answered and survive workers that
exit (their files are folded into accumulated ones, so files do not pile up
either); labels are route templates, never a game id, token or raw path;
each instance has a directory of its own, gone when it stops.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest
import requests
from prometheus_client.mmap_dict import MmapedDict

from service.instance.metrics_dir import RETIRED
from tests.support.bot_workers import BotWorkerProcess, create_bot_game, wait_for
from tests.support.live_service import LiveService
from tests.support.metrics import open_streams, scrape, value
from tests.support.patchwork_service import PatchworkService, children, program
from tests.support.redis_monitor import ClientCommands
from tests.support.redis_servers import ThrowawayRedis, free_port
from tests.support.sse import EventStream

MOVES_ROUTE = "/games/<game_id>/moves"


def requests_of(samples: dict, route: str, method: str = "GET", status: str = "200") -> float:
    return value(samples, "patchwork_http_requests_total", route=route, method=method, status=status)


def metrics_dir_of(pid: int) -> Path | None:
    """The metrics directory a process has files open in (read from /proc: it lives only in its memory)."""
    for line in Path(f"/proc/{pid}/maps").read_text().splitlines():
        fields = line.split(maxsplit=5)
        if len(fields) == 6 and fields[5].endswith(".db") and "patchwork-metrics-" in fields[5]:
            return Path(fields[5]).parent
    return None


def worker_pids(web: LiveService) -> list[int]:
    return [pid for pid in children(web.process.pid) if pid != web.process.pid]


def create_game(url: str, players: list[dict] | None = None) -> dict:
    resp = requests.post(
        f"{url}/games", json={"players": players or [{"name": "Ann"}, {"name": "Bob"}]}, timeout=10
    )
    assert resp.status_code == 201, resp.text
    return resp.json()


@pytest.fixture
def redis(tmp_path):
    with ThrowawayRedis(tmp_path / "redis") as server:
        yield server


@pytest.fixture
def web(redis, tmp_path):
    with LiveService(
        redis.url, tmp_path / "web.log", workers=2, env={"EVENTS_KEEPALIVE_SECONDS": "0.2"}
    ) as service:
        yield service


def test_counts_add_up_across_workers_and_survive_restarted_ones_without_piling_up_files(web):
    workers = wait_for(lambda: len(found := worker_pids(web)) == 2 and found, 10, web.log())
    directory = wait_for(lambda: metrics_dir_of(workers[0]), 10, "no metrics file open")
    sent = requests_of(scrape(web.url), "/healthz")  # LiveService's own, until it answered

    def answered_by() -> set[int]:
        """The workers whose own counter file holds a /healthz."""
        found = set()
        for path in directory.glob("counter_*.db"):
            pid = path.name[len("counter_") : -len(".db")]
            if pid.isdigit() and any(
                '"/healthz"' in key for key, *_ in MmapedDict.read_all_values_from_file(str(path))
            ):
                found.add(int(pid))
        return found

    for restart in range(4):
        current = set(worker_pids(web))
        # Fresh connections until both workers have answered some.
        deadline = time.monotonic() + 20
        while not current <= answered_by():
            assert time.monotonic() < deadline, "one worker answered every request"
            for _ in range(10):
                assert requests.get(f"{web.url}/healthz", timeout=10).status_code == 200
                sent += 1
        assert requests_of(scrape(web.url), "/healthz") == sent
        # A worker recycled (as max_requests or a crash would): its counts stay, its files go.
        os.kill(sorted(current)[restart % 2], signal.SIGKILL)
        wait_for(lambda: len(found := set(worker_pids(web))) == 2 and found != current, 20, "no new worker")
        assert requests_of(scrape(web.url), "/healthz") == sent
        # Two live workers (each a counter, a histogram and a gauge file) and the accumulated ones.
        files = sorted(path.name for path in directory.glob("*.db"))
        pids = {name.rpartition("_")[2][: -len(".db")] for name in files} - {RETIRED}
        assert len(pids) <= 3, files  # the workers and the arbiter (its gauge, made at import)
        assert len(files) <= 3 * 3 + 2, files
    assert f"counter_{RETIRED}.db" in files and f"histogram_{RETIRED}.db" in files


def test_labels_are_route_templates_and_moves_are_counted_by_result(web):
    created = create_game(web.url)
    game_id, tokens = created["game"]["id"], created["tokens"]
    in_turn = created["game"]["turn"]
    mover, waiter = tokens[in_turn], tokens[1 - in_turn]

    def move(token: str, **headers: str) -> requests.Response:
        return requests.post(
            f"{web.url}/games/{game_id}/moves",
            json={"action": "advance"},
            headers={"Authorization": f"Bearer {token}", **headers},
            timeout=10,
        )

    assert move(waiter).status_code == 409  # not_your_turn
    assert move(mover, **{"If-Match": '"7"'}).status_code == 412  # version_mismatch
    assert move(create_game(web.url)["tokens"][0]).status_code == 401  # invalid_token: another game's
    assert move(mover, **{"Idempotency-Key": "k1"}).status_code == 201
    assert move(mover, **{"Idempotency-Key": "k1"}).status_code == 201  # the replay
    assert requests.get(f"{web.url}/games/{game_id}", timeout=10).status_code == 200
    assert requests.get(f"{web.url}/games/{game_id}/secret-{mover}", timeout=10).status_code == 404
    assert requests.request("BREW", f"{web.url}/games/{game_id}", timeout=10).status_code == 405

    resp = requests.get(f"{web.url}/metrics", timeout=10)
    for secret in (game_id, mover, waiter, "secret-", "BREW"):
        assert secret not in resp.text
    samples = scrape(web.url)
    assert requests_of(samples, MOVES_ROUTE, "POST", "201") == 2
    assert requests_of(samples, MOVES_ROUTE, "POST", "409") == 1
    assert requests_of(samples, "/games/<game_id>") == 1
    assert requests_of(samples, "unmatched", "GET", "404") == 1
    assert requests_of(samples, "unmatched", "other", "405") == 1
    results = {
        dict(labels)["result"]: count
        for (name, labels), count in samples.items()
        if name == "patchwork_moves_total"
    }
    assert results == {
        "accepted": 1,
        "replayed": 1,
        "not_your_turn": 1,
        "version_mismatch": 1,
        "invalid_token": 1,
    }
    assert (
        value(samples, "patchwork_http_request_duration_seconds_count", route=MOVES_ROUTE, method="POST") == 5
    )
    assert value(samples, "patchwork_store_call_duration_seconds_count", operation="commit_move") == 1
    assert value(samples, "patchwork_bot_jobs_queued") == 0


def test_open_event_streams_go_up_and_down_however_they_close(web):
    created = create_game(web.url)
    game_id, token = created["game"]["id"], created["tokens"][created["game"]["turn"]]
    left = EventStream(web.url, game_id)
    ended = EventStream(web.url, game_id)
    assert left.take(1)[0].kind == "game" and ended.take(1)[0].kind == "game"
    assert open_streams(web.url) == 2
    left.close()  # the client goes away: its stream ends at once
    wait_for(lambda: open_streams(web.url) == 1, 10, "a stream the client left still counted")
    resp = requests.post(
        f"{web.url}/games/{game_id}/resign", headers={"Authorization": f"Bearer {token}"}, timeout=10
    )
    assert resp.status_code == 201
    assert [event.kind for event in ended.rest()] == ["move", "end"]
    wait_for(lambda: open_streams(web.url) == 0, 10, "a stream the service ended still counted")
    ended.close()


def test_store_errors_are_counted_by_operation_while_metrics_still_answer(redis, web):
    game_id = create_game(web.url)["game"]["id"]
    redis.stop()
    try:
        for _ in range(3):
            assert requests.get(f"{web.url}/games/{game_id}", timeout=10).status_code == 503
        samples = scrape(web.url)
    finally:
        redis.start()
    assert value(samples, "patchwork_store_errors_total", operation="load_view") == 3
    assert value(samples, "patchwork_store_call_duration_seconds_count", operation="load_view") == 3
    assert requests_of(samples, "/games/<game_id>", status="503") == 3
    # The queue's length could not be read: left out, not made up.
    assert ("patchwork_bot_jobs_queued", ()) not in samples


def test_two_instances_on_one_host_have_directories_of_their_own_removed_when_they_stop(redis, tmp_path):
    first = LiveService(redis.url, tmp_path / "first.log", workers=1)
    second = LiveService(redis.url, tmp_path / "second.log", workers=1)
    with first, second:
        requests.get(f"{first.url}/patches", timeout=10)
        for _ in range(3):
            requests.get(f"{second.url}/patches", timeout=10)
        dirs = [
            wait_for(lambda s=s: metrics_dir_of(worker_pids(s)[0]), 10, "no metrics file open")
            for s in (first, second)
        ]
        assert dirs[0] != dirs[1]
        assert requests_of(scrape(first.url), "/patches") == 1
        assert requests_of(scrape(second.url), "/patches") == 3
    assert not dirs[0].exists() and not dirs[1].exists()


def bot_moves(samples: dict) -> float:
    return sum(count for (name, _), count in samples.items() if name == "patchwork_bot_moves_total")


def test_bot_workers_of_patchwork_service_report_on_its_metrics_port_even_when_restarted(tmp_path):
    service = PatchworkService(tmp_path / "data", tmp_path / "service.log")
    metrics_port = free_port()
    service.env.update(BOT_WORKERS="1", BOT_THINK_MS="20", METRICS_PORT=str(metrics_port))
    own = f"http://127.0.0.1:{metrics_port}"  # the web's: its bot workers serve none of their own
    with service:
        assert_served_on_its_port_alone(service.url, own)
        created = create_bot_game(
            service.url, [{"name": "A", "bot": "greedy"}, {"name": "B", "bot": "random"}]
        )
        game_id = created["game"]["id"]
        worker = wait_for(
            lambda: [p for p in children(service.process.pid) if program(p) == "service.botworker"],
            10,
            "no bot worker",
        )[0]
        directory = wait_for(lambda: metrics_dir_of(worker), 20, f"no metrics file:\n{service.log()}")
        wait_for(lambda: bot_moves(scrape(own)) >= 3, 30, "no bot moves on /metrics")
        os.kill(worker, signal.SIGKILL)  # its counts must stay, folded by the supervisor
        wait_for(
            lambda: requests.get(f"{service.url}/games/{game_id}", timeout=10).json()["status"] == "finished",
            90,
            f"the bot game did not finish:\n{service.log()}",
        )
        history = requests.get(f"{service.url}/games/{game_id}/moves", timeout=10).json()["moves"]
        samples = scrape(own)
        committed = sum(
            count
            for (name, labels), count in samples.items()
            if name == "patchwork_bot_moves_total" and ("outcome", "committed") in labels
        )
        # Every move a bot committed, the killed worker's too; it may have been
        # killed between its commit and counting it, a window of microseconds.
        assert committed in (len(history) - 1, len(history))
        thought = sum(
            count for (name, _), count in samples.items() if name == "patchwork_bot_think_seconds_count"
        )
        assert thought >= len(history)
        assert value(samples, "patchwork_bot_moves_total", level="greedy", outcome="committed") > 0
        assert not list(directory.glob(f"*_{worker}.db")), "the killed worker's files were left"
    assert not directory.exists()


def assert_not_found(resp: requests.Response) -> None:
    """The answer of a path no route matches: what a refused scrape must look like."""
    assert (resp.status_code, resp.headers["Content-Type"]) == (404, "application/problem+json"), resp.text
    assert resp.json()["code"] == "not_found"


def assert_served_on_its_port_alone(service_url: str, metrics_url: str) -> None:
    """/metrics answers on METRICS_PORT only, and nothing else does there; the Host header changes neither."""
    assert scrape(metrics_url), "no samples on METRICS_PORT"
    assert_not_found(requests.get(f"{service_url}/metrics", timeout=10))
    metrics_host = {"Host": metrics_url.removeprefix("http://")}
    assert_not_found(requests.get(f"{service_url}/metrics", headers=metrics_host, timeout=10))
    for path in ("/healthz", "/games", "/docs", "/nowhere"):
        assert_not_found(requests.get(f"{metrics_url}{path}", timeout=10))
    assert requests.get(f"{service_url}/healthz", timeout=10).status_code == 200


def test_metrics_port_of_a_lone_gunicorn_serves_metrics_and_nothing_else(redis, tmp_path):
    port = free_port()
    with LiveService(redis.url, tmp_path / "web.log", workers=2, env={"METRICS_PORT": str(port)}) as web:
        own = f"http://127.0.0.1:{port}"
        assert_served_on_its_port_alone(web.url, own)
        create_game(web.url)
        assert (
            value(scrape(own), "patchwork_http_requests_total", route="/games", method="POST", status="201")
            == 1
        )


def test_metrics_token_is_asked_for_and_a_scrape_costs_redis_at_most_one_count_a_second(redis, tmp_path):
    token = "scrape-" + "x" * 24
    with (
        LiveService(redis.url, tmp_path / "web.log", workers=1, env={"METRICS_TOKEN": token}) as web,
        ClientCommands(redis.url) as commands,
    ):
        for refused in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": f"Basic {token}"}):
            assert_not_found(requests.get(f"{web.url}/metrics", headers=refused, timeout=10))
        bearer = {"Authorization": f"Bearer {token}"}
        assert scrape(web.url, bearer)  # the worker's first Redis connection (its handshake) is made
        commands.take()
        started = time.monotonic()
        for _ in range(10):
            assert value(scrape(web.url, bearer), "patchwork_bot_jobs_queued") == 0
        elapsed = time.monotonic() - started
        # One count is two XLENs (the two job streams), read again only once it is a second old.
        assert commands.take() <= 2 * (int(elapsed) + 1), f"10 scrapes in {elapsed:.2f} s"


def test_a_standalone_worker_serves_its_own_metrics_on_metrics_port(redis, tmp_path):
    port = free_port()
    with (
        LiveService(redis.url, tmp_path / "web.log", workers=1) as web,
        BotWorkerProcess(
            redis.url, tmp_path / "worker.log", think_ms="20", env={"METRICS_PORT": str(port)}
        ) as worker,
    ):
        own = f"http://127.0.0.1:{port}"
        wait_for(lambda: _answers(own), 20, f"no metrics on METRICS_PORT:\n{worker.log()}")
        created = create_bot_game(
            web.url, [{"name": "Ann"}, {"name": "Bot", "bot": "greedy"}], first_player=1
        )
        wait_for(
            lambda: value(scrape(own), "patchwork_bot_moves_total", level="greedy", outcome="committed") == 1,
            20,
            f"the worker's bot move is not on its metrics:\n{worker.log()}",
        )
        assert created["game"]["id"] not in requests.get(f"{own}/metrics", timeout=10).text
        wait_for(lambda: value(scrape(own), "patchwork_bot_jobs_queued") == 0, 10, "a job left queued")
        samples = scrape(own)
        assert value(samples, "patchwork_store_call_duration_seconds_count", operation="bot_take") > 0
        assert bot_moves(scrape(web.url)) == 0  # another instance's


def _answers(url: str) -> bool:
    try:
        return requests.get(f"{url}/metrics", timeout=2).status_code == 200
    except requests.ConnectionError:
        return False

"""`patchwork-service` as the parent of its embedded Redis and of gunicorn.

Real processes, killed for real: a dead child is restarted with its data, a
second service refuses the data dir the first holds, SIGTERM stops the web
before Redis and leaves nothing running, a data dir of a newer Redis is
refused instead of coming up empty.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from service.run.dir_lock import LOCK_FILE
from service.run.embedded import VERSION_FILE, find_redis_server
from service.run.redis_process import answers_ping, redis_server_version
from tests.support.live_service import wait_until_healthy
from tests.support.patchwork_service import PatchworkService, alive, children, descendants, identity, program
from tests.support.service_client import ServiceClient, wait_until_ready


@pytest.fixture
def service(tmp_path) -> Iterator[PatchworkService]:
    with PatchworkService(tmp_path / "data", tmp_path / "service.log") as running:
        yield running


def _create_game(url: str) -> str:
    with ServiceClient(url) as client:
        created = client.post("/games", json={"seed": 3})
        assert created.status_code == 201, created.text
        return created.headers["Location"]


def _assert_game_there(url: str, location: str) -> None:
    with ServiceClient(url) as client:
        got = client.get(location)
        assert got.status_code == 200, got.text
        assert got.json()["version"] == 1


def _wait_until_written(data_dir: Path, text: str, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not any(text.encode() in path.read_bytes() for path in data_dir.rglob("*.aof")):
        assert time.monotonic() < deadline, f"{text} not in the append-only file within {timeout} s"
        time.sleep(0.05)


def test_a_killed_embedded_redis_is_restarted_and_keeps_the_games(service):
    location = _create_game(service.url)
    # appendfsync everysec: Redis may hold a write back while its last fsync
    # runs, so the kill waits until the game is in the append-only file.
    _wait_until_written(service.data_dir, location.rpartition("/")[2])
    killed = service.child("redis-server")
    os.kill(killed, signal.SIGKILL)

    wait_until_ready(service.url, timeout=15)
    assert service.child("redis-server") != killed
    _assert_game_there(service.url, location)
    assert service.process.poll() is None


def test_a_killed_gunicorn_is_restarted_and_its_workers_do_not_linger(service):
    location = _create_game(service.url)
    arbiter = service.child("gunicorn")
    workers = [identity(pid) for pid in descendants(arbiter)]
    assert workers
    os.kill(arbiter, signal.SIGKILL)

    deadline = time.monotonic() + 15
    while [pid for pid in children(service.process.pid) if program(pid) == "gunicorn"] in ([], [arbiter]):
        assert time.monotonic() < deadline, f"gunicorn not restarted within 15 s\n{service.log()}"
        time.sleep(0.05)
    wait_until_healthy(service.url, timeout=15, process=service.process)
    _assert_game_there(service.url, location)
    assert not [worker for worker in workers if alive(worker)]


def test_a_second_service_on_the_same_data_dir_refuses_naming_the_first(service, tmp_path):
    location = _create_game(service.url)
    said = PatchworkService(service.data_dir, tmp_path / "second.log").refused()
    assert f"pid {service.process.pid}" in said
    assert str(service.data_dir) in said

    wait_until_ready(service.url)
    _assert_game_there(service.url, location)


def test_sigterm_stops_the_web_before_redis_and_leaves_nothing_running(service):
    arbiter = service.child("gunicorn")
    redis_url = f"unix://{service.data_dir / 'redis.sock'}"
    started = [identity(pid) for pid in descendants(service.process.pid)]
    assert len(started) >= 3  # Redis, the arbiter and its worker

    os.kill(arbiter, signal.SIGSTOP)  # a web that takes its time to stop
    try:
        os.kill(service.process.pid, signal.SIGTERM)
        # While the web has not stopped, its requests still reach Redis.
        until = time.monotonic() + 2
        while time.monotonic() < until:
            assert answers_ping(redis_url), service.log()
            time.sleep(0.1)
        assert service.process.poll() is None
    finally:
        os.kill(arbiter, signal.SIGCONT)

    assert service.process.wait(timeout=30) == 0, service.log()
    assert not answers_ping(redis_url)
    assert not [process for process in started if alive(process)]
    log = service.log()
    assert log.index("web stopped") < log.index("stopping redis"), log


def test_a_data_dir_written_by_a_newer_redis_is_refused_and_left_as_it_is(tmp_path):
    major = redis_server_version(find_redis_server())[0]
    data = tmp_path / "data"
    data.mkdir()
    (data / VERSION_FILE).write_text(f"{major + 1}.0.0\n")
    (data / "appendonlydir").mkdir()
    manifest = data / "appendonlydir" / "appendonly.aof.manifest"
    manifest.write_text(
        "file appendonly.aof.1.base.rdb seq 1 type b\nfile appendonly.aof.1.incr.aof seq 1 type i\n"
    )
    before = sorted(path.name for path in data.rglob("*"))

    said = PatchworkService(data, tmp_path / "service.log").refused()
    assert f"Redis {major + 1}.0.0" in said
    assert "cannot read it" in said
    after = sorted(path.name for path in data.rglob("*") if path.name != LOCK_FILE)
    assert after == before
    assert (data / VERSION_FILE).read_text() == f"{major + 1}.0.0\n"
    assert not (data / "appendonly.aof").exists()

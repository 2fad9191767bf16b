"""The ways operators start the service, run as written.

- The Procfile's `web`, `worker` and `clock` lines under honcho (a Foreman
  clone, as Heroku-style platforms run it): with PORT and REDIS_URL set it
  serves /healthz, creates games, plays bot games and keeps time, and
  stopping honcho takes gunicorn down with it.
- The Dockerfile's CMD with the environment its ENV lines set, and its
  HEALTHCHECK command: 0 against the running service, non-zero once it is gone.
  (No Docker engine here: both run on the host from this checkout.)
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import requests

from tests.support.bot_workers import wait_for
from tests.support.dockerfile import ROOT, arguments, environment, exec_form, healthcheck_command
from tests.support.live_service import spawn_logged, stop_process_group, wait_until_healthy
from tests.support.redis_servers import free_port
from tests.support.service_client import ServiceClient

VENV_BIN = Path(sys.executable).parent


def _env(**overrides: str) -> dict[str, str]:
    """This environment with the virtualenv's scripts (gunicorn, honcho) first on PATH."""
    return {**os.environ, "PATH": f"{VENV_BIN}{os.pathsep}{os.environ.get('PATH', '')}", **overrides}


def _assert_serves(url: str) -> None:
    with ServiceClient(url) as client:
        health = client.get("/healthz")
        assert (health.status_code, health.json()) == (200, {"status": "ok"})
        created = client.post("/games", json={"seed": 1})
        assert created.status_code == 201, created.text
        assert client.get(created.headers["Location"]).status_code == 200


def _wait_until_closed(port: int, timeout: float = 15.0) -> None:
    """Poll until nothing accepts connections on the port any more."""
    deadline = time.monotonic() + timeout
    while True:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) != 0:
                return
        assert time.monotonic() < deadline, f"port {port} still served {timeout} s after the stop"
        time.sleep(0.05)


def _group_members(pgid: int) -> list[int]:
    """Processes of the group that still run (zombies waiting for init to reap them do not)."""
    members = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue  # gone meanwhile
        state, group = fields[0], int(fields[2])
        if group == pgid and state != "Z":
            members.append(int(stat.parent.name))
    return members


def _wait_until_group_gone(pgid: int, timeout: float = 15.0) -> bool:
    deadline = time.monotonic() + timeout
    while _group_members(pgid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _assert_plays_bots(url: str) -> None:
    """A game between two bots is created (a worker is alive) and played by itself."""
    players = [{"name": "A", "bot": "random"}, {"name": "B", "bot": "random"}]
    created = wait_for(
        lambda: (
            (r := requests.post(f"{url}/games", json={"players": players}, timeout=10)).status_code == 201
            and r.json()
        ),
        30,
        "bot games refused: no bot worker",
    )
    game_url = f"{url}/games/{created['game']['id']}"
    wait_for(
        lambda: requests.get(game_url, timeout=10).json()["status"] == "finished",
        60,
        "the bots did not play their game to the end",
    )


def test_procfile_web_serves_worker_plays_bots_and_clock_keeps_time_under_honcho(redis_url, tmp_path):
    port = free_port()
    no_dotenv = tmp_path / "empty.env"  # a developer's .env must not change the run
    no_dotenv.write_text("")
    log_path = tmp_path / "honcho.log"
    with open(log_path, "wb") as log:
        honcho = subprocess.Popen(
            [
                str(VENV_BIN / "honcho"),
                "start",
                "-f",
                str(ROOT / "Procfile"),
                "-e",
                str(no_dotenv),
                "--no-colour",
                "web",
                "worker",
                "clock",
            ],
            cwd=ROOT,
            env=_env(PORT=str(port), REDIS_URL=redis_url, WEB_CONCURRENCY="2"),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    web_group = None
    try:
        wait_until_healthy(f"http://127.0.0.1:{port}", process=honcho)
        # honcho runs each process in a session (and group) of its own and says which.
        found = re.search(r"web\.1 started \(pid=(\d+)\)", log_path.read_text())
        assert found, log_path.read_text()
        web_group = int(found.group(1))
        _assert_serves(f"http://127.0.0.1:{port}")
        _assert_plays_bots(f"http://127.0.0.1:{port}")
        assert re.search(r"clock\.1 +\| .*keeping time", log_path.read_text()), log_path.read_text()
    finally:
        stop_process_group(honcho)  # honcho passes the TERM on to web's group
        web_gone = web_group is not None and _wait_until_group_gone(web_group)
        if web_group is not None and not web_gone:
            os.killpg(web_group, signal.SIGKILL)  # left behind: fail, but leave nothing running
    assert web_gone, "gunicorn outlived honcho"
    _wait_until_closed(port)


def test_dockerfile_cmd_serves_and_its_healthcheck_tells_up_from_down(redis_url, tmp_path):
    port = free_port()
    env = _env(**{**environment(), "PORT": str(port), "REDIS_URL": redis_url})
    assert env["HOST"] == "0.0.0.0"  # from the Dockerfile: the container listens on every interface
    healthcheck = healthcheck_command()
    service = spawn_logged(exec_form(arguments("CMD")[-1]), env, tmp_path / "service.log")
    try:
        wait_until_healthy(f"http://127.0.0.1:{port}", process=service)
        _assert_serves(f"http://127.0.0.1:{port}")
        _assert_plays_bots(f"http://127.0.0.1:{port}")
        healthy = subprocess.run(healthcheck, env=env, capture_output=True, timeout=30)
        assert healthy.returncode == 0, healthy.stderr
    finally:
        stop_process_group(service)
    _wait_until_closed(port)
    down = subprocess.run(healthcheck, env=env, capture_output=True, timeout=30)
    assert down.returncode != 0

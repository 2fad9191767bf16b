"""What a clock costs a move: instructions per move, counted by valgrind, with and without one.

CPU time per move on the shared 2-core machine moves by a tenth from run to
run (`./dev bench http`), more than the 5% a clock may cost a move (issue
19); the instructions a process executes do not. Both ways play the HTTP
benchmark's scripted game (`httpbench/plans.py`), with and without a
real-time clock, under valgrind's callgrind:

- a whole move: gunicorn as `patchwork-service` runs it (one worker, every
  middleware, the contract's checks, the views, gunicorn's own parsing) and
  its own redis-server, both under callgrind, driven over HTTP; their counts
  are read (callgrind_control) after a game to warm up and again after
  `--games` more. The kernel's part (sockets) is not counted: a move with a
  clock makes the same round trips as one without. What each process runs
  idle (Redis's serverCron, about a million instructions a second under
  valgrind; gunicorn's heartbeat) is measured after the requests and taken
  out: valgrind makes a move some 50 times slower, and that idle work would
  be charged to it in proportion (some 90,000 of Redis's instructions a
  move, half the commit's own, and more to the slower clocked move). Then `GET /healthz`,
  counted the same way: the ratio of the two is `./dev bench http`'s
  "x /healthz" (issue 19: moves at 0.40 or more) without the noise of a
  shared machine, the kernel's part and the load generator's.
- the game-play core alone, as before the whole move was counted: two
  GamePlays sharing their copies (each move on either at random) against a
  throwaway Redis, a child process with `--games` games and with none.

It also prints the commit script's time in Redis (INFO commandstats,
microseconds per call; not instructions, so noisier) from a run without
valgrind.

    ./dev bench clockcost [--games 10]      (valgrind: apt-get install valgrind; about 10 minutes)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

# Run as a script, this file's directory would come first on sys.path and
# its http.py would hide the standard library's http package.
ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "benchmarks"]
sys.path.insert(0, str(ROOT))

import http.client  # after the path is fixed: see above

from redis import Redis, RedisError

from benchmarks.httpbench.plans import CLOCKED_CREATE_BODY, CREATE_BODY, PATCH_ORDER, move_script
from service.engine import move_from_json
from service.games import KeptCopies
from service.games.clock import ClockSettings
from service.instance.shared_copies import SharedCopies
from service.run.redis_process import find_redis_server
from service.site.core import game_play
from service.storage import open_storage
from tests.support.redis_servers import ThrowawayRedis, free_port

# The HTTP benchmark's clock (httpbench/plans.py): its time never runs out.
CLOCK = ClockSettings(initial_s=10800, increment_s=180)
_COLLECTED = re.compile(r"Collected : (\d+)")
# callgrind_control -e Ir: one "Th <n> <count>" line per thread.
_THREAD_COUNT = re.compile(r"^\s*Th\s+\d+\s+([\d,]+)", re.MULTILINE)


def play_games(redis_url: str, clocked: bool, games: int) -> int:
    """Play `games` scripted games after one to warm up (scripts loaded, the clock reckoned); the moves played."""
    storage = open_storage(redis_url)
    shared = SharedCopies(4096)
    plays = [game_play(storage, KeptCopies(1000, shared)) for _ in (0, 1)]
    moves = [(move_from_json(json.loads(step.body)), step.seat) for step in move_script()]
    chooser = random.Random(1)
    clock = CLOCK if clocked else None
    played = 0
    for index in range(games + 1):
        created = plays[0].create(("A", "B"), clock=clock, patch_order=list(PATCH_ORDER))
        for move, seat in moves:
            (plays[0] if index == 0 else chooser.choice(plays)).play(
                created.game_id, move, created.tokens[seat]
            )
            played += index > 0
    storage.close()
    return played


def instructions(redis_url: str, clocked: bool, games: int) -> int:
    """The instructions a child process playing `games` games executes, under callgrind."""
    command = [
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        sys.executable,
        __file__,
        "--child",
        "clock" if clocked else "none",
        "--games",
        str(games),
        "--redis",
        redis_url,
    ]
    # A fixed hash seed: the same dictionaries, the same instructions, run after run.
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    finished = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    found = _COLLECTED.search(finished.stderr)
    if found is None:
        raise SystemExit(f"callgrind printed no count:\n{finished.stderr[-2000:]}")
    return int(found.group(1))


class Counted:
    """A process under callgrind whose instructions so far can be read while it runs (callgrind_control)."""

    def __init__(self, command: list[str], env: dict[str, str], log: Path):
        self.log = log.open("w")
        self.process = subprocess.Popen(
            [
                "valgrind",
                "--tool=callgrind",
                "--trace-children=yes",
                "--callgrind-out-file=/dev/null",
                *command,
            ],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=self.log,
        )

    def instructions(self, pid: int | None = None) -> int:
        """The instructions the process (or its child `pid`) has executed so far, all threads."""
        shown = subprocess.run(
            ["callgrind_control", "-e", "Ir", str(pid or self.process.pid)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        return sum(int(count.replace(",", "")) for count in _THREAD_COUNT.findall(shown))

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()


def wait_until(ready, what: str, seconds: float = 600) -> None:
    """Poll `ready()` until it is true (valgrind takes a minute or two to start a Python service)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if ready():
                return
        except (OSError, RedisError):
            pass  # not up yet
        time.sleep(0.5)
    raise SystemExit(f"{what} did not start within {seconds:.0f} s")


def play_over_http(port: int, clocked: bool, games: int) -> int:
    """Play `games` scripted games through the service's HTTP API, one keep-alive connection; the moves played."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    json_body = {"Content-Type": "application/json"}
    played = 0
    for _ in range(games):
        connection.request("POST", "/games", CLOCKED_CREATE_BODY if clocked else CREATE_BODY, json_body)
        answer = connection.getresponse()
        created = json.loads(answer.read())
        assert answer.status == 201, created
        game_id, tokens = created["game"]["id"], created["tokens"]
        for step in move_script():
            headers = {**json_body, "Authorization": f"Bearer {tokens[step.seat]}"}
            connection.request("POST", f"/games/{game_id}/moves", step.body, headers)
            reply = connection.getresponse()
            text = reply.read()
            assert reply.status == 201, text
            played += 1
    connection.close()
    return played


# GET /healthz requests counted per service run: what a move is measured against.
HEALTHZ_REQUESTS = 200
# Seconds both processes are left idle after the counted requests: their
# instructions per second then are taken out of every count (service_instructions).
IDLE_SECONDS = 20.0


class _Counts(NamedTuple):
    """The instructions run so far by the web worker and by Redis, read at `at` (time.monotonic())."""

    web: int
    redis: int
    at: float


def service_instructions(clocked: bool, games: int, work: Path) -> tuple[float, float, float]:
    """Instructions per move of the web worker and of Redis, and per GET /healthz of both: gunicorn as patchwork-service runs it, one worker.

    Both under callgrind; their counts are read after a game to warm up and
    again after `games` more, so start-up and the first requests are left out;
    then again around HEALTHZ_REQUESTS requests for /healthz on the same connection,
    and after IDLE_SECONDS with nothing asked: what each process runs per
    second idle is taken out of every count.
    """
    redis_port, web_port = free_port(), free_port()
    redis = Counted(
        [
            find_redis_server(),
            "--port",
            str(redis_port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        dict(os.environ),
        work / "redis.log",
    )
    env = {
        **os.environ,
        "REDIS_URL": f"redis://127.0.0.1:{redis_port}",
        "PORT": str(web_port),
        "WEB_CONCURRENCY": "1",
        "PATCHWORK_DATA_DIR": str(work / "data"),
        "PYTHONHASHSEED": "0",
    }
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    web = Counted(
        [gunicorn, "-c", "python:service.run.gunicorn_conf", "--timeout", "600", "service.wsgi:app"],
        env,
        work / "web.log",
    )
    try:
        wait_until(lambda: Redis(port=redis_port, socket_timeout=5).ping(), "redis-server")
        wait_until(lambda: _answers(web_port, "/healthz"), "gunicorn")
        (worker,) = _children(web.process.pid)

        def counts() -> _Counts:
            return _Counts(web.instructions(worker), redis.instructions(), time.monotonic())

        play_over_http(web_port, clocked, 1)
        before = counts()
        moves = play_over_http(web_port, clocked, games)
        after = counts()
        ask_healthz(web_port, HEALTHZ_REQUESTS)
        healthz = counts()
        time.sleep(IDLE_SECONDS)
        idle = counts()
    finally:
        web.close()
        redis.close()
    # What each process runs per second with nothing asked of it (Redis's
    # serverCron, gunicorn's heartbeat): a move's or a request's share of it is
    # its time under valgrind, some 50 times its real one, so it is taken out.
    idle_web = (idle.web - healthz.web) / (idle.at - healthz.at)
    idle_redis = (idle.redis - healthz.redis) / (idle.at - healthz.at)

    def spent(start: _Counts, end: _Counts) -> tuple[float, float]:
        """Instructions of the web worker and of Redis between two readings, less their idle work."""
        seconds = end.at - start.at
        return end.web - start.web - idle_web * seconds, end.redis - start.redis - idle_redis * seconds

    per_move = (after.at - before.at) / moves
    print(
        f"{'clock' if clocked else 'no clock'}: idle web worker {idle_web:,.0f} and Redis {idle_redis:,.0f} "
        f"instructions/s, taken out of each move's count ({per_move * 1000:.0f} ms a move under valgrind): "
        f"{idle_web * per_move:,.0f} and {idle_redis * per_move:,.0f}",
        flush=True,
    )
    move_web, move_redis = spent(before, after)
    return move_web / moves, move_redis / moves, sum(spent(after, healthz)) / HEALTHZ_REQUESTS


def ask_healthz(port: int, requests: int) -> None:
    """GET /healthz `requests` times on one keep-alive connection."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    for _ in range(requests):
        connection.request("GET", "/healthz")
        answer = connection.getresponse()
        answer.read()
        assert answer.status == 200, answer.status
    connection.close()


def _answers(port: int, path: str) -> bool:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", path)
        return connection.getresponse().status == 200
    finally:
        connection.close()


def _children(pid: int) -> list[int]:
    """The process ids of pid's children (gunicorn's workers)."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(child) for child in (task / "children").read_text().split()]
    return found


def commit_script_us(redis: ThrowawayRedis, clocked: bool, games: int) -> float:
    """Microseconds Redis spends per script call while the games are played (no valgrind)."""
    with redis.client() as client:
        client.config_resetstat()
        play_games(redis.url, clocked, games)
        stats = client.info("commandstats").get("cmdstat_evalsha", {})
    return float(stats.get("usec_per_call", 0.0))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10, help="games per counted run (10)")
    parser.add_argument("--child", choices=("none", "clock"), help=argparse.SUPPRESS)
    parser.add_argument("--redis", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        play_games(args.redis, args.child == "clock", args.games)
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed: apt-get install -y valgrind")
    with tempfile.TemporaryDirectory() as work, ThrowawayRedis(Path(work) / "redis") as redis:
        moves = len(move_script()) * args.games
        core = {}
        for clocked in (False, True):
            with_games = instructions(redis.url, clocked, args.games)
            without = instructions(redis.url, clocked, 0)
            core[clocked] = (with_games - without) / moves
        redis_us = {clocked: commit_script_us(redis, clocked, args.games) for clocked in (False, True)}
        served = {clocked: service_instructions(clocked, args.games, Path(work)) for clocked in (False, True)}
    print(f"{args.games} games of {len(move_script())} moves each way")
    rows = (
        ("game-play core (two workers' cores sharing copies)", core[False], core[True]),
        ("web worker (gunicorn, all of a request)", served[False][0], served[True][0]),
        ("Redis", served[False][1], served[True][1]),
        ("a whole move (web worker + Redis)", sum(served[False][:2]), sum(served[True][:2])),
    )
    for name, none, clock in rows:
        print(
            f"{name}, instructions per move: no clock {none:,.0f}, clock {clock:,.0f} ({clock / none - 1:+.1%})"
        )
    healthz = (served[False][2] + served[True][2]) / 2
    print(
        f"GET /healthz (web worker + Redis), instructions per request: {healthz:,.0f}; "
        f"healthz/move (the share of /healthz's rate a move reaches on CPU alone, as ./dev bench http's "
        f"'x /healthz' but without the kernel's and the load generator's part): no clock "
        f"{healthz / sum(served[False][:2]):.3f}, clock {healthz / sum(served[True][:2]):.3f}"
    )
    print(
        f"Redis, per commit script call (time, no valgrind): no clock {redis_us[False]:.1f} us, "
        f"clock {redis_us[True]:.1f} us ({redis_us[True] - redis_us[False]:+.1f} us)"
    )


if __name__ == "__main__":
    main()

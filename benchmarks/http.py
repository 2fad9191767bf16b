"""Throughput and latency of the HTTP service, from a separate load-generator process.

Run:  ./dev bench http                      (about 2 minutes)
      ./dev bench http --duration 10 --repeat 7 --connections 32
      ./dev bench http --generator python   (force the built-in generator)
      ./dev bench http --gzip               (every request accepts gzip: the cost of compressing)

It starts a throwaway redis-server (no persistence) and the service under
gunicorn with 2 workers (service/run/gunicorn_conf.py, as in production), makes
the games it needs through the API, then drives each endpoint in turn with
keep-alive connections from another process:

  healthz       GET /healthz (no store: the cost of Flask + gunicorn alone)
  game          GET /games/{id} -> 200 (a mid-game view)
  game 304      GET /games/{id} with If-None-Match of the current tag -> 304
  move          POST /games/{id}/moves -> 201 (scripted legal moves: buys,
                advances and leather patches, each game to its end; a
                game's moves go out on different connections, as two
                players' would)
  legal-moves   GET /games/{id}/legal-moves (a mid-game position)
  board         GET /games/{id}/board.svg -> 200 (the same mid-game games,
                drawn; issue 12: at most 4x the cost of a GET /games/{id})

The load generator is wrk when it is on PATH (Debian/Ubuntu: `sudo apt-get
install -y wrk`; macOS: `brew install wrk`), otherwise a built-in Python
generator (forked processes, raw keep-alive sockets). wrk is preferred: the
Python generator needs more CPU per request, which a 2-core machine takes
from the service.

Reading it: each round measures every endpoint once, with a /healthz run
before and after each. The table gives medians over the rounds of
requests/s, p50 and p99 latency, and "x /healthz": the median over rounds of
each endpoint's throughput divided by the mean of the two /healthz runs
around it. The ratios are the figures to compare between machines and
commits: absolute rates move with the machine and whatever else runs on it. "unexpected" counts answers whose status was
not the expected one (200, 304 or 201) and must be 0. "Redis round trips
per move" is counted with MONITOR over whole games played on one connection;
"store calls per move under load" comes from the service's /metrics around
the move runs (a stale kept copy shows there as extra load_game and
commit_move calls).
A second table gives the CPU time per answer that the workers, Redis and
the generator spent (httpbench/cpuuse.py): where each endpoint's cost goes.
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this file's directory would come first on sys.path and
# this module would shadow the standard library's `http` package.
ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "benchmarks"]
sys.path.insert(0, str(ROOT))

import argparse
import dataclasses
import math
import os
import tempfile
import time
import urllib.request

from benchmarks.httpbench import plans, pyload, wrk_runner
from benchmarks.httpbench.balance import MAX_WORKER_SHARE, busiest_share, cpu_seconds, worker_pids
from benchmarks.httpbench.cpuuse import CpuReading
from benchmarks.httpbench.idle_streams import IdleStreams
from benchmarks.httpbench.plans import (
    CLOCKED_CREATE_BODY,
    CREATE_BODY,
    GetPlan,
    MovePlan,
    move_script,
    script_mix,
)
from benchmarks.httpbench.prepare import create_games, play
from benchmarks.httpbench.results import RunResult, cpu_table, kernel_line, summarize, table
from benchmarks.httpbench.roundtrips import calls_per_answer, round_trips_per_move, store_calls
from tests.support.live_service import LiveService
from tests.support.redis_servers import ThrowawayRedis

HEALTHZ = "GET /healthz"
GAME = "GET /games/{id}"
GAME_304 = "GET /games/{id} (304)"
MOVE = "POST /games/{id}/moves"
LEGAL = "GET /games/{id}/legal-moves"
BOARD = "GET /games/{id}/board.svg"
# Issue 4: moves at no less than 0.4 of /healthz, game reads at no less than 0.6.
TARGETS = {GAME: 0.6, GAME_304: 0.6, MOVE: 0.4}
SHORT = {
    HEALTHZ: "healthz",
    GAME: "game",
    GAME_304: "304",
    MOVE: "move",
    LEGAL: "legal-moves",
    BOARD: "board",
}
# Issue 12: a board costs at most this many times a game read (CPU per answer, uncached).
BOARD_COST_TARGET = 4.0
READ_GAMES = 16
# Runs in which one worker served (nearly) everything are made again, this many times at most.
MAX_ATTEMPTS = 8
# The worker balance is read over this window (from, length) after the load starts, in seconds.
BALANCE_WINDOW = (0.2, 0.4)
WARMUP_SECONDS = 1.0


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=3.0, help="seconds per run (3)")
    parser.add_argument("--repeat", type=int, default=4, help="rounds; medians are over these (4)")
    parser.add_argument("--connections", type=int, default=16, help="keep-alive connections (16)")
    parser.add_argument(
        "--generator",
        choices=("auto", "wrk", "python"),
        default="auto",
        help="load generator: wrk if installed (auto), or the built-in one",
    )
    parser.add_argument("--threads", type=int, default=1, help="wrk threads (1)")
    parser.add_argument("--processes", type=int, default=2, help="Python generator processes (2)")
    parser.add_argument(
        "--gzip",
        action="store_true",
        help="every request sends Accept-Encoding: gzip (answers of 1 KiB and up come compressed)",
    )
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (2)")
    parser.add_argument(
        "--clock",
        action="store_true",
        help="the moved games have a real-time clock (3 h + 3 min): what a clock costs a move",
    )
    parser.add_argument(
        "--idle-streams",
        type=int,
        default=0,
        help="event streams (GET /games/{id}/events) held open, idle, during the runs (0)",
    )
    parser.add_argument(
        "--redis-socket",
        choices=("tcp", "unix"),
        default="tcp",
        help="how the service reaches Redis: TCP loopback (tcp, as to a Redis elsewhere) or a "
        "unix socket (unix, as patchwork-service reaches its embedded Redis)",
    )
    return parser.parse_args()


class Bench:
    """The running service and the load generator chosen for it."""

    def __init__(self, args: argparse.Namespace, service: LiveService, redis: ThrowawayRedis):
        self.args = args
        self.service = service
        self.redis = redis
        self.redis_url = redis.url
        self.host, self.port = "127.0.0.1", service.port
        use_wrk = args.generator == "wrk" or (args.generator == "auto" and wrk_runner.wrk_path())
        if use_wrk and not wrk_runner.wrk_path():
            raise SystemExit("wrk is not installed: sudo apt-get install -y wrk (or --generator python)")
        self.generator = "wrk" if use_wrk else "python"
        self.script = move_script()
        self.repeated_runs = 0

    def describe_generator(self) -> str:
        a = self.args
        if self.generator == "wrk":
            return f"wrk, {a.connections} connections on {min(a.threads, a.connections)} thread(s)"
        return (
            f"built-in Python generator, {a.connections} connections in "
            f"{min(a.processes, a.connections)} processes (wrk not used)"
        )

    def run(self, make_plan, duration: float) -> RunResult:
        """A run of the plan `make_plan()` gives, in which both workers served (see balance.py).

        A run whose first moments show one worker doing nearly all the work
        is stopped and made again, MAX_ATTEMPTS times at most.
        """
        for attempt in range(1, MAX_ATTEMPTS + 1):
            pids = worker_pids(self.service.pid)
            plan = make_plan()
            calls = store_calls(self.host, self.port)
            started = CpuReading.now(pids, self.redis.pid)
            run = self._start(plan, duration)
            if len(pids) < 2 or attempt == MAX_ATTEMPTS:
                return self._finish(run, pids, started, calls)
            time.sleep(max(0.0, run.load_starts - time.time()) + BALANCE_WINDOW[0])
            before = cpu_seconds(pids)
            time.sleep(BALANCE_WINDOW[1])
            if busiest_share(before, cpu_seconds(pids)) <= MAX_WORKER_SHARE:
                return self._finish(run, pids, started, calls)
            run.abort()
            self.repeated_runs += 1
        raise AssertionError("unreachable")

    def _finish(self, run, pids: list[int], started: CpuReading, calls: dict[str, float]) -> RunResult:
        """The run's figures, with the CPU time each part spent and the store calls made per answer."""
        result = run.result()
        spent = CpuReading.now(pids, self.redis.pid).per_request_us(started, result.requests)
        made = calls_per_answer(calls, store_calls(self.host, self.port), result.requests)
        return dataclasses.replace(result, cpu_us=spent, store_calls=made)

    def _start(self, plan, duration: float):
        a = self.args
        if self.generator == "wrk":
            return wrk_runner.WrkRun(
                plan, self.host, self.port, connections=a.connections, threads=a.threads, duration=duration
            )
        return pyload.PythonRun(
            plan, self.host, self.port, connections=a.connections, processes=a.processes, duration=duration
        )

    def move_plan(self, healthz_rps: float, duration: float) -> MovePlan:
        """Enough fresh games that the move run cannot run out, even at /healthz speed."""
        # Besides the games played through: one in flight and one queued per connection.
        needed = math.ceil(healthz_rps * duration * 1.3 / len(self.script)) + 3 * self.args.connections
        body = CLOCKED_CREATE_BODY if self.args.clock else CREATE_BODY
        return MovePlan(MOVE, create_games(self.host, self.port, needed, body=body), self.script)

    def read_plans(self) -> list[GetPlan]:
        """Plans for the reads, on games played to the middle of the script."""
        games = create_games(self.host, self.port, READ_GAMES)
        played = len(self.script) // 2
        play(self.host, self.port, games, self.script, played)
        tag = {"If-None-Match": f'"{played + 1}"'}
        ids = [game.id for game in games]
        return [
            GetPlan(GAME, [f"/games/{i}" for i in ids], 200),
            GetPlan(GAME_304, [f"/games/{i}" for i in ids], 304, headers=tag),
            GetPlan(LEGAL, [f"/games/{i}/legal-moves" for i in ids], 200),
            GetPlan(BOARD, [f"/games/{i}/board.svg" for i in ids], 200),
        ]

    def body_size(self, path: str) -> int:
        with urllib.request.urlopen(f"{self.service.url}{path}", timeout=10) as resp:
            return len(resp.read())


def main() -> None:
    args = parse_args()
    if args.gzip:
        plans.COMMON_HEADERS["Accept-Encoding"] = "gzip"
    with tempfile.TemporaryDirectory(prefix="bench-http-") as scratch:
        scratch_dir = Path(scratch)
        socket_path = scratch_dir / "redis.sock"
        unix = args.redis_socket == "unix"
        directives = ["--unixsocket", str(socket_path), "--unixsocketperm", "700"] if unix else []
        with ThrowawayRedis(scratch_dir / "redis", directives) as redis:
            env = {
                "RATE_LIMIT_CREATE": "0",
                "RATE_LIMIT_MOVES": "0",
                "RATE_LIMIT_GAMES": "0",
                "ACCESS_LOG": "0",
            }
            # --idle-streams all come from this one address: lift the per-client stream limit above them.
            env["STREAMS_PER_CLIENT"] = str(args.idle_streams + 1)
            service_url = f"unix://{socket_path}" if unix else redis.url
            with LiveService(
                service_url, scratch_dir / "service.log", workers=args.workers, env=env
            ) as service:
                try:
                    bench = Bench(args, service, redis)
                    with idle_streams(bench):
                        measure(bench)
                except BaseException:
                    print(service.log()[-3000:], file=sys.stderr)
                    raise


def idle_streams(bench: Bench) -> IdleStreams:
    """--idle-streams N: N streams on 16 games that nothing moves, held open for the whole measurement."""
    count = bench.args.idle_streams
    games = create_games(bench.host, bench.port, 16) if count else []
    streams = IdleStreams(bench.host, bench.port, [game.id for game in games], count)
    if count:
        print(
            f"{len(streams.sockets):,} idle event streams held open during the runs "
            f"({streams.failures} failed to open)"
        )
    return streams


def measure(bench: Bench) -> None:
    args = bench.args
    healthz = GetPlan(HEALTHZ, ["/healthz"], 200)
    reads = bench.read_plans()
    reads_by_name = {plan.name: plan for plan in reads}
    print(
        f"service: gunicorn, {args.workers} workers, on {os.cpu_count()} cores; "
        f"load: {bench.describe_generator()}, same machine; Redis over {args.redis_socket}"
    )
    print(
        f"move script: {len(bench.script)} moves per game ({script_mix(bench.script)}); "
        f"reads at move {len(bench.script) // 2}: game view "
        f"{bench.body_size(reads[0].paths[0]):,} B, legal-moves {bench.body_size(reads[2].paths[0]):,} B"
    )

    # Warm-up: compiled scripts loaded into Redis, caches filled, connections open.
    warm = bench.run(lambda: healthz, WARMUP_SECONDS)
    for make_plan in [
        *(lambda plan=plan: plan for plan in reads),
        lambda: bench.move_plan(warm.rps, WARMUP_SECONDS),
    ]:
        bench.run(make_plan, WARMUP_SECONDS)
    first, rest = round_trips_per_move(
        bench.redis_url, bench.host, bench.port, create_games(bench.host, bench.port, 4), bench.script
    )
    print(
        f"Redis round trips per move (MONITOR, whole games on one connection): "
        f"{first:.1f} for a game's first move, {rest:.2f} for the others"
    )

    # /healthz runs before and after every other run: each ratio compares
    # with its neighbours, so load that comes and goes on a shared machine
    # moves both sides of it.
    runs: dict[str, list[RunResult]] = {name: [] for name in SHORT}
    ratios: dict[str, list[float]] = {name: [] for name in SHORT}
    began = time.monotonic()
    before = bench.run(lambda: healthz, args.duration)
    runs[HEALTHZ].append(before)
    for round_number in range(1, args.repeat + 1):
        for name in (GAME, GAME_304, MOVE, LEGAL, BOARD):
            if name == MOVE:
                result = bench.run(lambda: bench.move_plan(before.rps, args.duration), args.duration)
            else:
                result = bench.run(lambda: reads_by_name[name], args.duration)
            after = bench.run(lambda: healthz, args.duration)
            runs[name].append(result)
            runs[HEALTHZ].append(after)
            ratios[name].append(result.rps / ((before.rps + after.rps) / 2))
            ratios[HEALTHZ].append(1.0)
            before = after
        figures = "  ".join(f"{SHORT[name]} {r[-1].rps:,.0f}" for name, r in runs.items())
        print(f"round {round_number}/{args.repeat}: req/s {figures}", flush=True)
    print(
        f"({time.monotonic() - began:.0f} s of rounds; medians over {args.repeat} rounds "
        f"of {args.duration:g} s per endpoint, /healthz between every two)\n"
    )
    if bench.repeated_runs:
        print(
            f"{bench.repeated_runs} runs were stopped and made again: one gunicorn worker "
            f"had accepted (nearly) every connection, leaving the other idle.\n"
        )
    rows = [summarize(name, runs[name], ratios[name]) for name in SHORT]
    print(table(rows, TARGETS))
    print("\nCPU time per answered request, in microseconds (medians; Linux /proc and getrusage):\n")
    print(cpu_table(rows, HEALTHZ))
    print("\n" + kernel_line(rows, SHORT))
    print("\n" + board_cost_line(rows))
    print(store_calls_line(rows))
    if any(row.unexpected for row in rows):
        print("\nSome answers had an unexpected status: the figures above are not valid.")
        sys.exit(1)


def store_calls_line(rows) -> str:
    """The store calls a move made in the move runs, by operation (medians; the service's /metrics)."""
    calls = next(row for row in rows if row.name == MOVE).store_calls
    # Operations under 0.005 a move are not the move's (the scrapes' own XLEN of the bot queue).
    calls = {operation: count for operation, count in calls.items() if count >= 0.005}
    listed = ", ".join(f"{operation} {count:.2f}" for operation, count in calls.items())
    return (
        f"Store calls per move under load (each a Redis round trip; /metrics, medians): "
        f"{sum(calls.values()):.2f} ({listed})"
    )


def board_cost_line(rows) -> str:
    """How many game reads a board costs, in CPU per answer (all parts) and in throughput."""
    by_name = {row.name: row for row in rows}
    game, board = by_name[GAME], by_name[BOARD]
    cpu_ratio = sum(board.cpu_us.values()) / sum(game.cpu_us.values())
    verdict = "ok" if cpu_ratio <= BOARD_COST_TARGET else "MISSED"
    return (
        f"{BOARD} costs {cpu_ratio:.2f}x a {GAME} in CPU per answer (target <= {BOARD_COST_TARGET:g}: "
        f"{verdict}); throughput {board.rps / game.rps:.2f} of the game read's"
    )


if __name__ == "__main__":
    main()

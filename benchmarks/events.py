"""Event streams: how many one instance holds and what each costs, and move-to-event latency.

Run:  ./dev bench events                       (about a minute)
      ./dev bench events --streams 5000 --games 200 --idle 1000 --duration 20

It starts a throwaway redis-server (no persistence) and two instances of the
service under gunicorn (2 workers each, service/run/gunicorn_conf.py), A and B.

1. Capacity: opens --streams idle streams on B (each reads its snapshot),
   and prints how many opened, the memory the workers of B grew by per
   stream (resident set, /proc), and the time of a move and a read on B
   while they are all open.
2. Latency: --games games, each moved every --interval seconds on A (the
   script of benchmarks/httpbench/plans.py, new games as games end), each
   watched by one stream on B, with --idle more idle streams open on B.
   For every move the time from sending its POST to A to its event arriving
   on B's stream: p50, p99 and max. The POST's own time is inside it (the
   commit happens somewhere within it), so this bounds the delay from above;
   the time from reading the 201 to the event bounds it from below.

Moves against /healthz with idle streams open: `./dev bench http --idle-streams 1000`.
The load generator runs on the same machine (one asyncio process).
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this file's directory would come first on sys.path and
# benchmarks/http.py would shadow the standard library's `http` package.
ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "benchmarks"]
sys.path.insert(0, str(ROOT))

import argparse
import asyncio
import json
import os
import tempfile
import time

from benchmarks.httpbench.balance import worker_pids
from benchmarks.httpbench.idle_streams import IdleStreams, raise_open_file_limit
from benchmarks.httpbench.plans import CREATE_BODY, move_script
from benchmarks.httpbench.prepare import ApiClient, create_games
from tests.support.live_service import LiveService
from tests.support.redis_servers import ThrowawayRedis

HOST = "127.0.0.1"
# Streams opened and closed on B before the capacity run, so its baseline has every worker warm.
WARM_UP_STREAMS = 200


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=5000, help="idle streams for the capacity run (5000)")
    parser.add_argument("--games", type=int, default=200, help="games moving in the latency run (200)")
    parser.add_argument("--interval", type=float, default=0.5, help="seconds between a game's moves (0.5)")
    parser.add_argument("--idle", type=int, default=1000, help="idle streams during the latency run (1000)")
    parser.add_argument("--duration", type=float, default=20.0, help="seconds of the latency run (20)")
    return parser.parse_args()


def rss_kib(pids: list[int]) -> int:
    """The resident set of these processes together, in KiB."""
    total = 0
    for pid in pids:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total


def timed(call) -> float:
    started = time.perf_counter()
    call()
    return time.perf_counter() - started


def capacity(args, a: LiveService, b: LiveService) -> None:
    client = ApiClient(HOST, b.port)
    games = [game.id for game in create_games(HOST, b.port, 100)]
    # Warm up B's workers (imports, the listener, connections) before the baseline.
    with IdleStreams(HOST, b.port, games, WARM_UP_STREAMS):
        pass
    time.sleep(1)
    pids = worker_pids(b.pid)
    before = rss_kib(pids)
    with IdleStreams(HOST, b.port, games, args.streams) as streams:
        time.sleep(1)
        after = rss_kib(pids)
        opened = len(streams.sockets)
        game = create_games(HOST, b.port, 1)[0]
        move = timed(
            lambda: client.call(
                "POST",
                f"/games/{game.id}/moves",
                '{"action": "advance"}',
                {"Authorization": f"Bearer {game.tokens[0]}"},
            )
        )
        read = timed(lambda: client.call("GET", f"/games/{game.id}"))
        print(
            f"capacity: {opened:,} of {args.streams:,} streams open on one instance "
            f"({len(pids)} workers), opened in {streams.open_seconds:.1f} s"
            + (f"; first failure: {streams.first_error}" if streams.failures else "")
        )
        print(
            f"  workers' memory grew {(after - before) / 1024:.1f} MiB: "
            f"{(after - before) / max(opened, 1):.1f} KiB per stream"
        )
        print(f"  with them open: a move {move * 1000:.1f} ms, a read {read * 1000:.1f} ms")


class Movers:
    """Games moved on A every `interval` s from the benchmark's script; the send time of each version."""

    def __init__(self, port: int, interval: float):
        self.port = port
        self.interval = interval
        self.script = move_script()
        self.sent: dict[tuple[str, int], float] = {}
        self.acked: dict[tuple[str, int], float] = {}

    async def _call(self, reader, writer, method: str, path: str, body: str, token: str | None = None):
        head = [
            f"{method} {path} HTTP/1.1",
            f"Host: {HOST}",
            "Content-Type: application/json",
            f"Content-Length: {len(body)}",
        ]
        if token:
            head.append(f"Authorization: Bearer {token}")
        writer.write(("\r\n".join(head) + "\r\n\r\n" + body).encode())
        status_line = await reader.readline()
        length = 0
        while (line := await reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        answer = await reader.readexactly(length)
        if not status_line.startswith(b"HTTP/1.1 201"):
            raise RuntimeError(f"{method} {path}: {status_line!r} {answer[:200]!r}")
        return json.loads(answer)

    async def game(self, game_id: str, tokens: list[str], watch, stop: float) -> None:
        """Move one game until `stop`, and each game after it ends; `watch(id)` starts its watcher."""
        reader, writer = await asyncio.open_connection(HOST, self.port)
        try:
            while time.monotonic() < stop:
                for number, step in enumerate(self.script, start=1):
                    await asyncio.sleep(self.interval)
                    if time.monotonic() >= stop:
                        return
                    key = (game_id, number + 1)
                    self.sent[key] = time.monotonic()
                    await self._call(
                        reader, writer, "POST", f"/games/{game_id}/moves", step.body, tokens[step.seat]
                    )
                    self.acked[key] = time.monotonic()
                created = await self._call(reader, writer, "POST", "/games", CREATE_BODY)
                game_id, tokens = created["game"]["id"], created["tokens"]
                await watch(game_id)
        finally:
            writer.close()


class Watchers:
    """One stream per game on B; the arrival time of each event."""

    def __init__(self, port: int):
        self.port = port
        self.arrived: dict[tuple[str, int], float] = {}
        self.tasks: list[asyncio.Task] = []

    async def watch(self, game_id: str) -> None:
        """Open the game's stream and read its snapshot; then keep reading in a task."""
        reader, writer = await asyncio.open_connection(HOST, self.port)
        writer.write(f"GET /games/{game_id}/events HTTP/1.1\r\nHost: {HOST}\r\n\r\n".encode())
        while not (await reader.readline()).startswith(b"event: game"):
            pass
        self.tasks.append(asyncio.create_task(self._read(game_id, reader, writer)))

    async def _read(self, game_id: str, reader, writer) -> None:
        try:
            while line := await reader.readline():
                if line.startswith(b"id: "):
                    self.arrived[(game_id, int(line[4:]))] = time.monotonic()
        finally:
            writer.close()


async def latency_run(args, a: LiveService, b: LiveService, games):
    movers, watchers = Movers(a.port, args.interval), Watchers(b.port)
    for game in games:
        await watchers.watch(game.id)
    stop = time.monotonic() + args.duration

    # Spread the games' moves over the interval rather than all at once.
    async def start(index, game):
        await asyncio.sleep(args.interval * index / len(games))
        await movers.game(game.id, list(game.tokens), watchers.watch, stop)

    await asyncio.gather(*(start(i, game) for i, game in enumerate(games)))
    await asyncio.sleep(1.0)  # the last events
    for task in watchers.tasks:
        task.cancel()
    delays = [watchers.arrived[key] - sent for key, sent in movers.sent.items() if key in watchers.arrived]
    posts = [movers.acked[key] - sent for key, sent in movers.sent.items() if key in movers.acked]
    # The commit is between the POST's sending and its 201: the event's delay
    # after it lies between these two (negative: the event came first).
    after_ack = [
        watchers.arrived[key] - acked for key, acked in movers.acked.items() if key in watchers.arrived
    ]
    return delays, posts, after_ack, len(movers.sent) - len(delays)


def latency(args, a: LiveService, b: LiveService) -> None:
    games = create_games(HOST, a.port, args.games)
    idle_games = [game.id for game in create_games(HOST, b.port, 50)]
    with IdleStreams(HOST, b.port, idle_games, args.idle) as idle:
        delays, posts, after_ack, missing = asyncio.run(latency_run(args, a, b, games))
        held = len(idle.sockets)
    delays.sort()
    posts.sort()
    after_ack.sort()

    def p(q: float, values: list[float] = delays) -> float:
        return values[min(len(values) - 1, int(q * len(values)))] * 1000

    print(
        f"latency: {args.games} games moved on A every {args.interval:g} s, one watcher each on B, "
        f"{held:,} idle streams on B, {args.duration:g} s"
    )
    print(
        f"  {len(delays):,} moves: POST sent on A -> event read on B: p50 {p(0.5):.1f} ms, "
        f"p99 {p(0.99):.1f} ms, max {delays[-1] * 1000:.1f} ms (target: p99 <= 100 ms); "
        f"events missing: {missing}"
    )
    print(
        f"  of which the POST itself (sent -> 201 read): p50 {p(0.5, posts):.1f} ms, "
        f"p99 {p(0.99, posts):.1f} ms; {len(delays) / args.duration:,.0f} moves/s "
        f"(asked: {args.games / args.interval:,.0f})"
    )
    print(
        f"  201 read on A -> event read on B (a lower bound of the delay after the commit; "
        f"negative: the event came first): p50 {p(0.5, after_ack):.1f} ms, p99 {p(0.99, after_ack):.1f} ms"
    )


def main() -> None:
    args = parse_args()
    print(f"open-file limit of the load generator: {raise_open_file_limit():,}; {os.cpu_count()} cores")
    # Every stream comes from this one address: lift the per-client stream limit above them all
    # (the warm-up's too: a refused stream waits out its socket timeout, 10 s, in IdleStreams).
    # More games than one client may create in an hour by default (RATE_LIMIT_GAMES).
    env = {
        "ACCESS_LOG": "0",
        "RATE_LIMIT_GAMES": "0",
        "STREAMS_PER_CLIENT": str(WARM_UP_STREAMS + args.streams + args.idle + 1),
    }
    with tempfile.TemporaryDirectory(prefix="bench-events-") as scratch:
        scratch_dir = Path(scratch)
        with (
            ThrowawayRedis(scratch_dir / "redis") as redis,
            LiveService(redis.url, scratch_dir / "a.log", env=env) as a,
            LiveService(redis.url, scratch_dir / "b.log", env=env) as b,
        ):
            try:
                capacity(args, a, b)
                latency(args, a, b)
            except BaseException:
                print(a.log()[-3000:], b.log()[-2000:], sep="\n", file=sys.stderr)
                raise


if __name__ == "__main__":
    main()

"""Quick pairing on one instance: seeks paired per second, and the time from the second seek to both seekers' game_start.

Starts a Redis and one service instance (gunicorn, `--workers` workers, its
rate limits off), makes the players, and first leaves `--waiting` seeks
waiting in the benchmark's own pool that no benchmark seek can pair with
(each rated apart with a range of 0), so every pairing looks past them.

1. Throughput: `--clients` threads post `2 * --pairs` seeks of new players
   (each either waits or pairs a waiting one into a game). Prints seeks
   paired per second.
2. Latency: `--latency-pairs` times, both seekers' player streams open
   (GET /players/me/events), the first seek posted, then the second; the
   time from sending the second to the later of the two `game_start` events.
   Prints p50, p99 and max (target: p99 at most 100 ms with 1,000 waiting).

    ./dev bench lobby [--waiting 1000] [--pairs 2000] [--clients 8] [--latency-pairs 200] [--workers 2]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

# Run as a script, this file's directory would come first on sys.path and
# its http.py would hide the standard library's http package.
ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "benchmarks"]
sys.path.insert(0, str(ROOT))

import http.client  # after the path is fixed: see above

import requests

from service.storage import open_storage
from tests.support.live_service import LiveService
from tests.support.redis_servers import ThrowawayRedis

CLOCK = {"initial_s": 300, "increment_s": 3}
UNLIMITED = {
    "RATE_LIMIT_PLAYERS": "0",
    "RATE_LIMIT_SEEKS": "0",
    "RATE_LIMIT_JOINS": "0",
    "RATE_LIMIT_GAMES": "0",
}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def make_players(url: str, count: int) -> list[str]:
    """`count` new players' tokens."""

    def one(n: int) -> str:
        resp = requests.post(f"{url}/players", json={"name": f"P{n}"}, timeout=10)
        resp.raise_for_status()
        return resp.json()["token"]

    with ThreadPoolExecutor(8) as pool:
        return list(pool.map(one, range(count)))


class PlayerStream:
    """A player's event stream, read line by line until an event of a kind arrives."""

    def __init__(self, url: str, token: str):
        host, port = url.removeprefix("http://").split(":")
        self.connection = http.client.HTTPConnection(host, int(port), timeout=10)
        self.connection.request("GET", "/players/me/events", headers={"Authorization": f"Bearer {token}"})
        self.response = self.connection.getresponse()
        assert self.response.status == 200, self.response.status
        self.response.readline()  # retry:
        self.response.readline()

    def wait_for(self, kind: str) -> float:
        """The time (perf_counter) the first `kind` event's data line arrives."""
        event = None
        while True:
            line = self.response.readline().decode().rstrip("\n")
            if line.startswith("event: "):
                event = line.removeprefix("event: ")
            elif line.startswith("data: ") and event == kind:
                return time.perf_counter()

    def close(self) -> None:
        self.connection.close()


def seek(session: requests.Session, url: str, token: str, rating_range: int | None = None) -> dict:
    body: dict = {"clock": CLOCK}
    if rating_range is not None:
        body["range"] = rating_range
    resp = session.post(f"{url}/seeks", json=body, headers={"Authorization": f"Bearer {token}"}, timeout=10)
    resp.raise_for_status()
    return resp.json()["seek"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--waiting", type=int, default=1000, help="seeks left waiting, unpairable (1000)")
    parser.add_argument("--pairs", type=int, default=2000, help="pairs for the throughput (2000)")
    parser.add_argument("--clients", type=int, default=8, help="client threads for the throughput (8)")
    parser.add_argument("--latency-pairs", type=int, default=200, help="pairs timed one at a time (200)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (2)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as work_dir:
        work = Path(work_dir)
        with (
            ThrowawayRedis(work / "redis") as redis,
            LiveService(redis.url, work / "service.log", workers=args.workers, env=UNLIMITED) as service,
        ):
            url = service.url
            storage = open_storage(redis.url)
            # The waiting seeks: each player rated apart, from 1000 up, so those up to 2000 sit
            # within a benchmark seek's range (1500 +- 500) and are looked at, none compatible (range 0).
            waiting = make_players(url, args.waiting)
            session = requests.Session()
            for n, token in enumerate(waiting):
                player_id = token.partition(".")[0]
                rating = 1000 + n + (n >= 500)  # never 1500, the benchmark seekers' own rating
                storage.players.apply_rating(
                    player_id, f"bench{n}", (float(rating), 350.0, 0.06), rating - 1500.0
                )
                assert seek(session, url, token, rating_range=0)["status"] == "waiting"
            print(f"{args.waiting} seeks waiting, none pairable")

            tokens = make_players(url, 2 * args.pairs)
            counter = iter(range(2 * args.pairs))
            lock = threading.Lock()

            def client(_n: int) -> set[str]:
                """Post seeks until none are left; the games they were paired into (as each answer says)."""
                games: set[str] = set()
                with requests.Session() as mine:
                    while True:
                        with lock:
                            index = next(counter, None)
                        if index is None:
                            return games
                        answer = seek(mine, url, tokens[index])
                        if answer["game"] is not None:
                            games.add(answer["game"])

            started = time.perf_counter()
            with ThreadPoolExecutor(args.clients) as pool:
                found = set().union(*pool.map(client, range(args.clients)))
            games = len(found)
            elapsed = time.perf_counter() - started
            print(
                f"throughput: {2 * args.pairs} seeks posted in {elapsed:.1f} s by {args.clients} clients, "
                f"{games} games: {2 * games / elapsed:.0f} seeks paired a second ({games / elapsed:.0f} games)"
            )

            pairs = make_players(url, 2 * args.latency_pairs)
            latencies = []
            for n in range(args.latency_pairs):
                first, second = pairs[2 * n], pairs[2 * n + 1]
                streams = PlayerStream(url, first), PlayerStream(url, second)
                try:
                    assert seek(session, url, first)["status"] == "waiting"
                    sent = time.perf_counter()
                    assert seek(session, url, second)["status"] == "paired"
                    arrived = max(stream.wait_for("game_start") for stream in streams)
                    latencies.append((arrived - sent) * 1000)
                finally:
                    for stream in streams:
                        stream.close()
            p99 = percentile(latencies, 0.99)
            print(
                f"second seek to both game_start ({args.latency_pairs} pairs, {args.waiting} waiting): "
                f"p50 {statistics.median(latencies):.1f} ms, p99 {p99:.1f} ms, max {max(latencies):.1f} ms "
                f"(target p99 <= 100 ms: {'ok' if p99 <= 100 else 'MISSED'})"
            )
            storage.close()


if __name__ == "__main__":
    main()

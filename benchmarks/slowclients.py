"""/healthz latency while N slow clients hold connections open.

Run:  ./dev bench slowclients                    (about half a minute)
      ./dev bench slowclients --slow 0 128 512 2048 --requests 300 --workers 1

It starts a throwaway redis-server and the service under gunicorn with the
production config (service/run/gunicorn_conf.py), then for each N opens N
connections that send an unfinished request head (no blank line) and hold
it, and times sequential GET /healthz requests from an honest client, each
on a new connection. It prints the median and p99 latency per N, and how
many slow connections the service still held at the end (all N: the
figures were taken under the full load, not after the service dropped
them). The read deadline is raised for the run so that no slow connection
is closed while it is measured.

Compare the rows between commits (gthread, before the gevent workers:
every request waited for as long as the slow connections were held).
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
import resource
import socket
import statistics
import tempfile
import time
from urllib.parse import urlsplit

from tests.support.live_service import LiveService
from tests.support.redis_servers import ThrowawayRedis
from tests.support.slow_clients import SlowClients

# An honest request that gets no answer in this long counts as this long.
GIVE_UP_SECONDS = 10.0


def healthz_seconds(url: str) -> float:
    """One GET /healthz on a new connection, until the whole answer is read."""
    parts = urlsplit(url)
    start = time.perf_counter()
    try:
        with socket.create_connection((parts.hostname, parts.port), timeout=GIVE_UP_SECONDS) as sock:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            while sock.recv(65536):
                pass
    except TimeoutError:
        return GIVE_UP_SECONDS
    return time.perf_counter() - start


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def raise_open_file_limit(needed: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < needed:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(needed, hard), hard))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--slow", type=int, nargs="+", default=[0, 128, 512], help="slow clients per run (0 128 512)"
    )
    parser.add_argument("--requests", type=int, default=200, help="timed /healthz requests per run (200)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers (2)")
    args = parser.parse_args()
    raise_open_file_limit(max(args.slow) + 256)

    with tempfile.TemporaryDirectory() as work:
        with (
            ThrowawayRedis(Path(work) / "redis") as redis,
            LiveService(
                redis.url,
                Path(work) / "service.log",
                workers=args.workers,
                env={"READ_TIMEOUT_SECONDS": "600", "ACCESS_LOG": "0"},
            ) as service,
        ):
            print(
                f"service: gunicorn, {args.workers} worker(s); {args.requests} sequential GET /healthz "
                f"per run, each on a new connection"
            )
            print()
            print("| slow clients | p50 ms | p99 ms | max ms | slow still held |")
            print("| ---: | ---: | ---: | ---: | ---: |")
            for count in args.slow:
                for _ in range(20):  # warm up: imports, first connections
                    healthz_seconds(service.url)
                with SlowClients(service.url, count) as slow:
                    took = [healthz_seconds(service.url) for _ in range(args.requests)]
                    held = slow.still_open()
                print(
                    f"| {count:,} | {statistics.median(took) * 1000:.1f} | "
                    f"{percentile(took, 0.99) * 1000:.1f} | {max(took) * 1000:.1f} | {held:,} |"
                )


if __name__ == "__main__":
    main()

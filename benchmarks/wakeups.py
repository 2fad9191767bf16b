"""What hearing one move costs a web worker that holds an event stream.

Run:  ./dev bench wakeups                 (about 20 seconds)
      ./dev bench wakeups --messages 10000 --gap-ms 0.2

Every commit PUBLISHes one wake-up message, and every worker of every
instance that holds at least one open stream receives it (one channel,
storage/wakeups.py), whether or not it watches that game. This starts a
throwaway redis-server and the service under gunicorn with one worker,
opens one idle stream on it (so the worker subscribes), then publishes
--messages wake-ups naming other games, one at a time --gap-ms apart (as
moves spread over time arrive), and then the same number again in bursts
(as under load, when messages queue up). It prints the worker's CPU time
(/proc) per message for each, and for the same time with no messages
(the idle worker's own cost, subtracted from both).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "benchmarks"]
sys.path.insert(0, str(ROOT))

import argparse
import socket
import tempfile
import time

from redis import Redis

from benchmarks.httpbench.balance import cpu_seconds, worker_pids
from benchmarks.httpbench.prepare import create_games
from tests.support.live_service import LiveService
from tests.support.redis_servers import ThrowawayRedis

BURST = 500


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=5000, help="wake-ups per run (5000)")
    parser.add_argument("--gap-ms", type=float, default=0.5, help="pause between single messages (0.5)")
    return parser.parse_args()


def main() -> None:
    args = parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-wakeups-") as scratch:
        work = Path(scratch)
        with (
            ThrowawayRedis(work / "redis") as redis,
            LiveService(redis.url, work / "service.log", workers=1, env={"ACCESS_LOG": "0"}) as service,
        ):
            game = create_games("127.0.0.1", service.port, 1)[0]
            stream = socket.create_connection(("127.0.0.1", service.port))
            stream.sendall(f"GET /games/{game.id}/events HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
            stream.recv(65536)  # the snapshot: the worker now holds a watch
            publisher = Redis.from_url(redis.url)
            deadline = time.monotonic() + 10
            while not publisher.pubsub_numsub(b"patchwork:events")[0][1]:
                assert time.monotonic() < deadline, "the worker never subscribed"
                time.sleep(0.05)
            (worker,) = worker_pids(service.pid)

            def measure(send) -> tuple[float, float]:
                start_cpu, start = cpu_seconds([worker])[0], time.monotonic()
                send()
                time.sleep(0.5)  # the last messages are handled
                return cpu_seconds([worker])[0] - start_cpu, time.monotonic() - start

            def singly() -> None:
                for n in range(args.messages):
                    publisher.publish("patchwork:events", f"elsewhere{n % 100} {n}")
                    time.sleep(args.gap_ms / 1000)

            def bursts() -> None:
                pipe = publisher.pipeline(transaction=False)
                for n in range(args.messages):
                    pipe.publish("patchwork:events", f"elsewhere{n % 100} {n}")
                    if n % BURST == BURST - 1:
                        pipe.execute()
                        time.sleep(0.05)
                pipe.execute()

            single_cpu, single_wall = measure(singly)
            idle_cpu, idle_wall = measure(lambda: time.sleep(single_wall - 0.5))
            idle_rate = idle_cpu / idle_wall
            burst_cpu, burst_wall = measure(bursts)
            stream.close()
    per = lambda cpu, wall: (cpu - idle_rate * wall) / args.messages * 1e6  # noqa: E731
    print(f"idle worker: {idle_rate * 100:.1f}% of a core")
    print(
        f"one at a time ({args.gap_ms:g} ms apart): {per(single_cpu, single_wall):.0f} us of worker CPU per message"
    )
    print(f"in bursts of {BURST}: {per(burst_cpu, burst_wall):.0f} us of worker CPU per message")


if __name__ == "__main__":
    main()

"""CPU per refused request: a small malformed body against 63 KB of garbage of each shape.

Run:  ./dev bench refusals                 (about 20 s)
      ./dev bench refusals --repeat 9 --requests 200

Issue 8: a buy whose placement.cells held 10,500 pairs cost ~160 ms of CPU
before its 400, because jsonschema checked every item after maxItems had
failed; 8 such requests a second took a core. Refusing must cost about the
same whatever the garbage carries. Each body below is sent in-process to the
app (Flask test client, on a throwaway redis-server: none of these requests
reaches it) and the process's CPU time per answer is measured, median over
the rounds; "x small" is that over the small body's. Every answer must be
400 (the status column; the script fails otherwise).
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this file's directory would come first on sys.path, and
# benchmarks/http.py would shadow the standard library's `http` package.
ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "benchmarks"]
sys.path.insert(0, str(ROOT))

import argparse
import json
import statistics
import tempfile
import time

from service.api import create_app
from service.config import RateLimit, Settings
from tests.support.redis_servers import ThrowawayRedis

LIMIT = 63 * 1024


def compact(doc) -> bytes:
    return json.dumps(doc, separators=(",", ":")).encode()


def fill(make, count_for_size) -> bytes:
    """The largest body `make(n)` gives that is at most LIMIT bytes, by bisection on n."""
    low, high = 1, count_for_size
    while low < high:
        middle = (low + high + 1) // 2
        low, high = (middle, high) if len(make(middle)) <= LIMIT else (low, middle - 1)
    return make(low)


def buy(cells) -> bytes:
    return compact({"action": "buy", "patch_id": 1, "placement": {"cells": cells}})


# (label, operation, body)
BODIES = [
    ("small: one cell off the board", "move", buy([[9, 9]])),
    ("cells: pairs past maxItems", "move", fill(lambda n: buy([[9, 9]] * n), 20_000)),
    ("cells: one pair of 10,000 numbers", "move", fill(lambda n: buy([[0] * n]), 40_000)),
    ("unknown fields", "create", fill(lambda n: compact({f"f{i}": i for i in range(n)}), 20_000)),
    (
        "player name past maxLength",
        "create",
        fill(lambda n: compact({"players": [{"name": "x" * n}, {"name": "B"}]}), 70_000),
    ),
    ("patch_order past maxItems", "create", fill(lambda n: compact({"patch_order": list(range(n))}), 40_000)),
    ("nested arrays in a field", "create", fill(lambda n: b'{"seed":' + b"[" * n + b"]" * n + b"}", 900)),
    ("nested past the parser", "create", b"[" * 30_000 + b"]" * 30_000),
    ("not JSON at all", "create", fill(lambda n: b"{" + b" " * n + b"x", 70_000)),
]


def measure(client, path: str, body: bytes, requests: int) -> tuple[float, set[int]]:
    """CPU seconds per answer over `requests` posts of `body`, and the statuses answered."""
    statuses = set()
    began = time.process_time()
    for _ in range(requests):
        statuses.add(client.post(path, data=body, content_type="application/json").status_code)
    return (time.process_time() - began) / requests, statuses


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeat", type=int, default=5, help="rounds (the median is shown)")
    parser.add_argument("--requests", type=int, default=100, help="requests per body per round")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work, ThrowawayRedis(Path(work)) as redis:
        # Off: hundreds of refused creations from one client would meet RATE_LIMIT_GAMES (counted
        # before the body is read) and be answered 429, not the 400 measured here.
        app = create_app(Settings(redis_url=redis.url, rate_limit_games=RateLimit()))
        client = app.test_client()
        game_id = client.post("/games").get_json()["game"]["id"]
        paths = {"move": f"/games/{game_id}/moves", "create": "/games"}
        rounds: dict[str, list[float]] = {label: [] for label, _, _ in BODIES}
        answered: dict[str, set[int]] = {label: set() for label, _, _ in BODIES}
        for _ in range(args.repeat):
            for label, operation, body in BODIES:
                cpu, statuses = measure(client, paths[operation], body, args.requests)
                rounds[label].append(cpu)
                answered[label] |= statuses
        app.extensions["patchwork"].store.close()
    small = statistics.median(rounds[BODIES[0][0]])
    print(f"{'body':36} {'bytes':>7} {'CPU us/request':>15} {'x small':>8}  status")
    for label, _, body in BODIES:
        cpu = statistics.median(rounds[label])
        shown = ", ".join(map(str, sorted(answered[label])))
        print(f"{label:36} {len(body):>7} {cpu * 1e6:>15.0f} {cpu / small:>8.1f}  {shown}")
    if any(statuses != {400} for statuses in answered.values()):
        raise SystemExit("every answer must be 400")


if __name__ == "__main__":
    main()

"""How long a person waits for a bot's move: from the commit that hands the bot its turn to the bot's commit.

A throwaway Redis, one real bot worker process (`python -m service.botworker`,
niced as in production) thinking with each level's own think_ms, and the app
in this process. A person plays against each level, always advancing (or placing a leather patch); after
each 201 the game is polled every 2 ms until the bot's move is stored. The
contract: within think_ms plus a second while the workers are not all busy.

    ./dev bench botplay [--moves 40] [--levels random,greedy,search-quick]
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this file's directory would come first on sys.path and
# shadow the standard library's modules of the same name; the project's top goes there instead.
ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "benchmarks"]
sys.path.insert(0, str(ROOT))

import argparse
import json
import statistics
import tempfile
import time

from service.api import create_app
from service.bots import level
from service.config import Settings
from tests.support.bot_workers import BotWorkerProcess, wait_for
from tests.support.redis_servers import ThrowawayRedis


def bot_latencies(client, level_id: str, moves: int) -> list[float]:
    """Seconds from each person's 201 to the bot's move being stored, over `moves` bot turns."""
    waits: list[float] = []
    while len(waits) < moves:
        created = client.post("/games", json={"players": [{"name": "Ann"}, {"name": "Bot", "bot": level_id}]})
        assert created.status_code == 201, created.get_json()
        game_id, token = created.get_json()["game"]["id"], created.get_json()["tokens"][0]
        game = created.get_json()["game"]
        while game["status"] != "finished" and len(waits) < moves:
            if game["turn"] == 1:  # the bot's turn: wait for it (not measured: handed by a bot)
                game = wait_until_moved(client, game_id, game["version"])[1]
                continue
            move = {"action": "advance"}
            if game["phase"] == "place_leather":
                move = client.get(f"/games/{game_id}/legal-moves").get_json()["moves"][0]
            resp = client.post(
                f"/games/{game_id}/moves", json=move, headers={"Authorization": f"Bearer {token}"}
            )
            assert resp.status_code == 201, resp.get_json()
            handed = time.perf_counter()
            game = resp.get_json()
            if game["turn"] == 1:
                moved_at, game = wait_until_moved(client, game_id, game["version"])
                waits.append(moved_at - handed)
    return waits


def wait_until_moved(client, game_id: str, version: int) -> tuple[float, dict]:
    """(when the game was first seen past `version`, the game then)."""
    deadline = time.perf_counter() + 30
    while time.perf_counter() < deadline:
        resp = client.get(f"/games/{game_id}")
        game = json.loads(resp.get_data())
        if game["version"] > version:
            return time.perf_counter(), game
        time.sleep(0.002)
    raise SystemExit(f"no bot move in game {game_id} after version {version} within 30 s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=40, help="bot turns measured per level")
    parser.add_argument("--levels", default="random,greedy,search-quick")
    args = parser.parse_args()
    with (
        tempfile.TemporaryDirectory() as work,
        ThrowawayRedis(Path(work) / "redis") as redis,
        BotWorkerProcess(redis.url, Path(work) / "worker.log", think_ms="") as worker,
    ):
        app = create_app(Settings(redis_url=redis.url))
        wait_for(
            app.extensions["patchwork"].play.bot_jobs.workers_seen,
            20,
            f"no bot worker heartbeat:\n{worker.log()}",
        )
        client = app.test_client()
        print(
            f"{'level':<14}{'think_ms':>9}{'moves':>7}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}"
            f"{'p99 - think_ms':>16}"
        )
        for level_id in args.levels.split(","):
            think_ms = level(level_id).think_ms
            waits = sorted(1000 * w for w in bot_latencies(client, level_id, args.moves))
            p99 = waits[min(len(waits) - 1, round(0.99 * (len(waits) - 1)))]
            print(
                f"{level_id:<14}{think_ms:>9}{len(waits):>7}{statistics.median(waits):>9.1f}"
                f"{p99:>9.1f}{waits[-1]:>9.1f}{p99 - think_ms:>16.1f}"
            )
        app.extensions["patchwork"].store.close()


if __name__ == "__main__":
    main()

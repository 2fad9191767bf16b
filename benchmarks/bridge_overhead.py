"""patchwork-bot's overhead per move: from the bot's turn to its move's commit, less the engine's own thinking.

Starts a Redis, one `patchwork-service` (gunicorn, 2 workers, no bot
workers, rate limits off) and one `patchwork-bot` for a bot account, whose
engine is `patchwork-engine random` (about a millisecond a move, so the
bridge is what is measured). The benchmark plays `--games` games against the
bot as a person, one at a time, each on a 10-minute clock: on its turn it
sends a random legal move; a reader of the game's own stream notes when each
of the bot's moves arrives. For every bot turn that follows a person's move (but a game's first, which
also waits for that game's engine process to start: its median is printed
apart):
- end to end: from the person's move answered (201; committed just before)
  to the bot's move seen on the game's stream, less the engine's think
  time the bridge logs for that turn. It includes the stream's delivery of
  the person's move to the bridge and of the bot's move back, so it is an
  upper bound of what the bridge adds;
- in the bridge: from the bridge receiving its turn to its move answered,
  less the engine's think time, as the bridge logs it;
- the bridge process's CPU per move (its engines not counted).
Prints p50, p99 and the maximum. Figures are printed, never asserted.
Issue 40's target: under 50 ms p99 on this machine.

    ./dev bench bridge_overhead [--games 8]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

# Run as a script, this file's directory would come first on sys.path and
# its http.py would hide the standard library's http package.
ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "benchmarks"]
sys.path.insert(0, str(ROOT))

import requests

from benchmarks.tournament_round import cpu_seconds, percentile
from service.bridge.service_client import parse_events
from tests.support.bridges import Bridge
from tests.support.patchwork_service import PatchworkService
from tests.support.redis_servers import ThrowawayRedis

SERVICE_ENV = {
    "BOT_WORKERS": "0",
    "WEB_CONCURRENCY": "2",
    "RATE_LIMIT_PLAYERS": "0",
    "RATE_LIMIT_GAMES": "0",
    "RATE_LIMIT_MOVES": "0",
    "RATE_LIMIT_CREATE": "0",
}
CLOCK = {"initial_s": 600, "increment_s": 0}


def player(url: str, name: str, bot: bool) -> tuple[str, str]:
    answer = requests.post(f"{url}/players", json={"name": name, "bot": bot}, timeout=30)
    answer.raise_for_status()
    return answer.json()["player"]["id"], answer.json()["token"]


class MoveWatch:
    """Reads a game's stream on a thread: when each version arrived, and the latest Game."""

    def __init__(self, url: str, game_id: str):
        self.arrived: dict[int, float] = {}  # version -> when its event came
        self.game: dict | None = None
        self.changed = threading.Condition()
        self.answer = requests.get(f"{url}/games/{game_id}/events", stream=True, timeout=(5, 120))
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        with self.answer:
            for event in parse_events(self.answer.iter_content(chunk_size=None)):
                if event.event not in ("game", "move"):
                    continue
                game = event.data if event.event == "game" else event.data["game"]
                with self.changed:
                    self.arrived.setdefault(game["version"], time.perf_counter())
                    self.game = game
                    self.changed.notify_all()

    def wait(self, ready) -> dict:
        with self.changed:
            if not self.changed.wait_for(lambda: self.game is not None and ready(self.game), timeout=60):
                raise SystemExit("the game stopped moving")
            assert self.game is not None
            return self.game


def play_game(url: str, bot_id: str, token: str, chance: random.Random) -> list[tuple[str, int, float]]:
    """One game against the bot: (game, version the bot moved at, ms from the person's move to the bot's)."""
    auth = {"Authorization": f"Bearer {token}"}
    body: dict[str, Any] = {"to": bot_id, "clock": CLOCK, "rated": False, "seat": 0}
    asked = requests.post(f"{url}/challenges", json=body, headers=auth, timeout=30).json()["challenge"]
    while (found := requests.get(f"{url}/challenges/{asked['id']}", timeout=30).json()["challenge"])[
        "game"
    ] is None:
        time.sleep(0.02)
    game_id = found["game"]
    watch = MoveWatch(url, game_id)
    timings = []
    game = watch.wait(lambda g: True)
    while game["status"] == "active":
        if game["turn"] != 0:
            game = watch.wait(lambda g, v=game["version"]: g["version"] > v)
            continue
        legal = requests.get(f"{url}/games/{game_id}/legal-moves", timeout=30).json()["moves"]
        answer = requests.post(
            f"{url}/games/{game_id}/moves", json=chance.choice(legal), headers=auth, timeout=30
        )
        sent = time.perf_counter()
        game = answer.json()
        if game["status"] == "active" and game["turn"] == 1:
            version = game["version"]
            game = watch.wait(lambda g, v=version: g["version"] > v)
            timings.append((game_id, version, (watch.arrived[version + 1] - sent) * 1000))
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8)
    args = parser.parse_args()
    chance = random.Random(40)
    with tempfile.TemporaryDirectory() as work:
        work_dir = Path(work)
        with (
            ThrowawayRedis(work_dir / "redis") as redis,
            PatchworkService(
                work_dir / "data", work_dir / "service.log", redis_url=redis.url, env=SERVICE_ENV
            ) as service,
        ):
            bot_id, bot_token = player(service.url, "Bench", bot=True)
            _, person = player(service.url, "Person", bot=False)
            bridge = Bridge(service.url, bot_token, work_dir, "bench").start()
            try:
                time.sleep(2)  # the bridge connects and follows its stream
                assert bridge.process is not None
                cpu_before = cpu_seconds(bridge.process.pid)
                timings = [
                    t for _ in range(args.games) for t in play_game(service.url, bot_id, person, chance)
                ]
                cpu = cpu_seconds(bridge.process.pid) - cpu_before
            finally:
                bridge.close()
            played = bridge.played_timings()  # read before the work directory goes
    logged = {(game, version): (engine, inside) for game, version, _move, engine, inside in played}
    # A game's first turn also waits for the bridge to start that game's engine process: told apart.
    first_turn = {game: min(v for g, v, _ in timings if g == game) for game, _, _ in timings}
    end_to_end: list[float] = []
    first_moves: list[float] = []
    for game, version, ms in timings:
        if (game, version) in logged:
            (first_moves if version == first_turn[game] else end_to_end).append(
                ms - logged[(game, version)][0]
            )
    inside = [bridge_ms for _engine, bridge_ms in logged.values()]
    engine = [engine_ms for engine_ms, _ in logged.values()]
    print(f"{args.games} games, {len(logged)} bot moves ({len(end_to_end)} right after a person's move)")
    print(
        f"a game's first such move (the engine starting too): median {statistics.median(first_moves):.1f} ms"
    )
    for name, values in (
        ("end to end, less the engine", end_to_end),
        ("in the bridge, less the engine", inside),
        ("the engine's own think", engine),
    ):
        print(
            f"{name:32} p50 {statistics.median(values):6.1f} ms  p99 {percentile(values, 0.99):6.1f} ms"
            f"  max {max(values):6.1f} ms"
        )
    print(f"bridge CPU per move: {cpu * 1000 / len(logged):.1f} ms (its engines not counted)")


if __name__ == "__main__":
    main()

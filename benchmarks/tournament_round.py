"""A 512-player Swiss round paired and created: the time from the last game of a round ending to every game of
the next existing, and the CPU it cost.

Starts a Redis and one `patchwork-service` (gunicorn, 2 workers, its own
timekeeper, no bot workers, rate limits off), makes `--players` players and
runs `--tournaments` Swiss tournaments of `--rounds` rounds among them,
`pause_s` 0, each started early by its organiser. Every round, the
benchmark ends the round's games by resignation over HTTP (a random seat
of each gives up, so the score groups spread as in a real field), all but
the last game first; once the tournament has heard those results, it
resigns the last game and times, reading the Redis directly every few
milliseconds (no request to the service in the way):
- from sending that last resignation to every game of the next round
  existing (its `game` key in Redis): what a player waits between rounds
  with `pause_s` 0. The timekeeper looks every 0.25 s
  (botworker/timekeeper.py), so up to that much of it is the wait for its
  next look, the rest the pairing and the games' creation;
- the CPU the timekeeper process and redis-server spent over that span.
Prints p50, p99 and the maximum over every round change (the first rounds
are started by the organiser and not counted). Figures are printed, never
asserted. Issue 39's target: under 2 s for 512 players.

    ./dev bench tournament_round [--players 512] [--tournaments 4] [--rounds 5]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path

# Run as a script, this file's directory would come first on sys.path and
# its http.py would hide the standard library's http package.
ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "benchmarks"]
sys.path.insert(0, str(ROOT))

import requests

from service.site.tournament_records import Board, Tournament
from service.storage import open_storage
from tests.support.patchwork_service import PatchworkService, descendants, program
from tests.support.redis_servers import ThrowawayRedis

CLOCK = {"initial_s": 600, "increment_s": 0, "first_move_s": 600}
SERVICE_ENV = {
    "BOT_WORKERS": "0",
    "TIMEKEEPERS": "1",
    "RATE_LIMIT_PLAYERS": "0",
    "RATE_LIMIT_JOINS": "0",
    "RATE_LIMIT_GAMES": "0",
    "RATE_LIMIT_MOVES": "0",
    "RATE_LIMIT_CREATE": "0",
}
TIMEKEEPER = "service.botworker.timekeeper_main"
POLL_S = 0.005
CLIENTS = 8


def cpu_seconds(pid: int) -> float:
    """User and system CPU of a process so far (/proc/<pid>/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def post(url: str, path: str, token: str, body: dict | None = None, status: int = 200) -> dict:
    resp = requests.post(
        f"{url}{path}", json=body or {}, headers={"Authorization": f"Bearer {token}"}, timeout=60
    )
    if resp.status_code != status:
        raise SystemExit(f"POST {path}: {resp.status_code} {resp.text}")
    return resp.json()


class Field:
    """The players, the service and a direct reading of the store."""

    def __init__(self, url: str, storage, players: int):
        self.url = url
        self.storage = storage
        self.link = storage.games
        self.chance = random.Random(39)
        with ThreadPoolExecutor(CLIENTS) as pool:
            made = list(pool.map(self._player, range(players + 1)))
        self.organiser = made[0][1]
        self.tokens = dict(made[1:])

    def _player(self, index: int) -> tuple[str, str]:
        resp = requests.post(f"{self.url}/players", json={"name": f"P{index:03d}"}, timeout=60)
        if resp.status_code != 201:
            raise SystemExit(f"POST /players: {resp.status_code} {resp.text}")
        body = resp.json()
        return body["player"]["id"], body["token"]

    def tournament(self, tournament_id: str) -> Tournament:
        stored = self.storage.tournaments.load(tournament_id)
        assert stored is not None
        return Tournament.decode(stored.text)

    def organise(self, rounds: int) -> str:
        starts = datetime.now(UTC) + timedelta(seconds=300)
        body = {
            "name": "Benchmark",
            "system": "swiss",
            "rounds": rounds,
            "clock": CLOCK,
            "max_players": len(self.tokens),
            "pause_s": 0,
            "starts_at": starts.strftime("%Y-%m-%dT%H:%M:%SZ"),
        }
        tournament_id = post(self.url, "/tournaments", self.organiser, body, 201)["tournament"]["id"]
        with ThreadPoolExecutor(CLIENTS) as pool:
            list(
                pool.map(
                    lambda token: post(self.url, f"/tournaments/{tournament_id}/join", token),
                    self.tokens.values(),
                )
            )
        post(self.url, f"/tournaments/{tournament_id}/start", self.organiser)
        return tournament_id

    def games_exist(self, tournament_id: str, number: int) -> bool:
        """Whether round `number` is paired and each of its played boards' games is in the store."""
        tournament = self.tournament(tournament_id)
        if tournament.round < number:
            return False
        games = [board.game for board in tournament.played[number - 1].boards if board.game]
        return all(self.storage.games.load_game(game_id) is not None for game_id in games)

    def resign(self, board: Board) -> None:
        """A random seat of the board's game resigns."""
        assert board.game is not None
        loser = board.first if board.second is None or self.chance.random() < 0.5 else board.second
        post(self.url, f"/games/{board.game}/resign", self.tokens[loser], status=201)

    def heard(self, tournament_id: str, number: int, results: int) -> None:
        """Wait until round `number` has `results` decided boards (the game's end reaches its tournament)."""
        while True:
            boards = self.tournament(tournament_id).played[number - 1].boards
            if sum(1 for board in boards if board.game and board.winner is not None) >= results:
                return
            time.sleep(POLL_S)


def play_round(
    field: Field, tournament_id: str, number: int, pids: dict[str, int]
) -> tuple[float, dict] | None:
    """End round `number`; the seconds to the next round's games and the CPU per process (None: it was the last)."""
    while not field.games_exist(tournament_id, number):
        time.sleep(POLL_S)
    boards = [board for board in field.tournament(tournament_id).played[number - 1].boards if board.game]
    *early, last = boards
    with ThreadPoolExecutor(CLIENTS) as pool:
        list(pool.map(lambda board: field.resign(board), early))
    field.heard(tournament_id, number, len(early))
    time.sleep(0.5)  # the timekeeper's repair look after those results settles first
    before = {name: cpu_seconds(pid) for name, pid in pids.items()}
    start = time.perf_counter()
    field.resign(last)
    if number == field.tournament(tournament_id).rounds:
        return None
    while not field.games_exist(tournament_id, number + 1):
        time.sleep(POLL_S)
    waited = time.perf_counter() - start
    return waited, {name: cpu_seconds(pid) - before[name] for name, pid in pids.items()}


def watched_processes(service: PatchworkService, redis: ThrowawayRedis) -> dict[str, int]:
    """The processes whose CPU a round change is charged: the service's timekeeper and the Redis."""
    assert service.process is not None and redis.pid is not None
    timekeeper = next(pid for pid in descendants(service.process.pid) if program(pid) == TIMEKEEPER)
    return {"the timekeeper": timekeeper, "redis-server": redis.pid}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=512)
    parser.add_argument("--tournaments", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as work:
        work_dir = Path(work)
        with ThrowawayRedis(work_dir / "redis") as redis:
            env = {**SERVICE_ENV, "WEB_CONCURRENCY": str(args.workers)}
            with PatchworkService(
                work_dir / "service", work_dir / "service.log", redis_url=redis.url, env=env
            ) as service:
                storage = open_storage(redis.url, max_connections=4)
                pids = watched_processes(service, redis)
                started = time.perf_counter()
                field = Field(service.url, storage, args.players)
                print(f"{args.players} players made in {time.perf_counter() - started:.1f} s")
                waits: list[float] = []
                cpu: dict[str, list[float]] = {name: [] for name in pids}
                for _ in range(args.tournaments):
                    tournament_id = field.organise(args.rounds)
                    for number in range(1, args.rounds + 1):
                        measured = play_round(field, tournament_id, number, pids)
                        if measured is None:
                            continue
                        waits.append(measured[0])
                        for name, seconds in measured[1].items():
                            cpu[name].append(seconds)
                        print(
                            f"  round {number} -> {number + 1}: {measured[0] * 1000:.0f} ms, CPU "
                            + ", ".join(
                                f"{name} {seconds * 1000:.0f} ms" for name, seconds in measured[1].items()
                            )
                        )
                storage.close()

    games = args.players // 2
    print(
        f"\n{len(waits)} round changes of a {args.players}-player Swiss ({games} games a round), pause_s 0:"
    )
    print("| figure | p50 | p99 | max |")
    print("| --- | ---: | ---: | ---: |")
    print(
        f"| last game's end -> every next game exists | {percentile(waits, 0.5) * 1000:.0f} ms "
        f"| {percentile(waits, 0.99) * 1000:.0f} ms | {max(waits) * 1000:.0f} ms |"
    )
    for name, values in cpu.items():
        print(
            f"| CPU of {name} over that span | {statistics.median(values) * 1000:.0f} ms "
            f"| {percentile(values, 0.99) * 1000:.0f} ms | {max(values) * 1000:.0f} ms |"
        )


if __name__ == "__main__":
    main()

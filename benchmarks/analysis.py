"""Live bot moves while analyses run: the bot-move latency alone and with 10 analyses queued, and the time per analysed game.

Run:  ./dev bench analysis [--analyses 10] [--moves 40] [--live-moves 40] [--bot greedy] [--workers 1] [--think-ms MS]

Real processes, as the system tests start them: a throwaway redis-server,
gunicorn (2 web workers) and `--workers` bot workers (`patchwork-worker`,
niced as in production), with the levels' own think times, so each
analysis judges every position with the `deep` level's budget (two or three
searches of one `deep` move's nodes). First `--analyses` finished games
are played over HTTP (random legal moves, `--moves` of them, then a
resignation: games of 40 analysed moves). Then a person plays `--bot` (the
person advances, a second after the bot's reply; each reply is timed from
the person's 201 to the bot's move seen, polled every 5 ms):
1. baseline: `--live-moves` replies with no analysis queued;
2. with analyses: every analysis is asked for (POST /games/{id}/analysis),
   and the person keeps playing (a second between moves) until the last is
   stored; only the replies that began and ended while some analysis was
   still pending are counted (the person looks every 2 s).
Prints median, p99 and max of each phase, and per analysed game the
worker's own time (its log line "analysed game ...: N moves in S s") and
the wall time from the requests to the last analysis stored.
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
import random
import re
import statistics
import tempfile
import time
from contextlib import ExitStack

import requests

from benchmarks.stress import bot_in_turn, game_of, new_bot_game, reply_latency
from tests.support.bot_workers import BotWorkerProcess, wait_for
from tests.support.live_service import LiveService
from tests.support.redis_servers import ThrowawayRedis
from tests.support.service_client import ServiceClient, choose_move

REQUEST_TIMEOUT = 10
# The person looks whether the analyses are all stored this often (10 GETs), and
# pauses this long between moves: the benchmark's own requests stay a small load.
LOOK_EVERY_S = 2.0
# A person who answers at once, for ever, would starve the analyses: a worker
# takes one only when half a second passed with no bot job (worker.py's block_ms).
PERSON_PAUSE_S = 1.0
# A line of figures so far, this often (a long run shows where it is).
PROGRESS_EVERY_S = 60.0
# The worker's line for each analysis it stored (service/botworker/analyst.py).
_ANALYSED = re.compile(r"analysed game (\S+): (\d+) moves in ([0-9.]+) s")


def finished_games(url: str, count: int, moves: int, seed: int) -> list[str]:
    """`count` games of `moves` random legal moves each (fewer if one ends), then resigned by seat 0: finished."""
    games = []
    with ServiceClient(url) as client:
        for number in range(count):
            rng = random.Random(seed + number)
            game_id, tokens = client.create_game(seed + number)
            for _ in range(moves):
                _, choice = choose_move(client, game_id, rng)
                if choice is None:
                    break
                assert client.move(choice, tokens[choice.seat]).status_code == 201
            if client.game(game_id)["status"] != "finished":  # a random game may end sooner
                resp = client.post(
                    f"/games/{game_id}/resign", json={}, headers={"Authorization": f"Bearer {tokens[0]}"}
                )
                assert resp.status_code == 201, resp.text
            games.append(game_id)
    return games


def pending(url: str, games: list[str]) -> int:
    """How many of `games` have no stored analysis yet."""
    return sum(
        requests.get(f"{url}/games/{game_id}/analysis", timeout=REQUEST_TIMEOUT).status_code != 200
        for game_id in games
    )


class LivePlayer:
    """A person playing `bot` game after game, one timed reply at a time."""

    def __init__(self, url: str, bot: str):
        self.url, self.bot = url, bot
        self.game, self.token = new_bot_game(url, bot)

    def reply(self) -> tuple[float, float]:
        """(the person's 201, the bot's move seen) for one person move; a new game when one ends."""
        if self.game["status"] == "finished":
            self.game, self.token = new_bot_game(self.url, self.bot)
        handed, seen, self.game = reply_latency(self.url, self.game, self.token, {})
        while bot_in_turn(self.game):  # a bot moving again (it is still behind): not timed
            time.sleep(0.01)
            self.game = game_of(self.url, self.game["id"])
        return handed, seen


def summary(label: str, waits: list[float]) -> str:
    if not waits:
        return f"{label:<22}{0:>7}"
    ordered = sorted(1000 * w for w in waits)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return f"{label:<22}{len(ordered):>7}{statistics.median(ordered):>10.1f}{p99:>10.1f}{ordered[-1]:>10.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--analyses", type=int, default=10)
    parser.add_argument("--moves", type=int, default=40, help="moves of each analysed game")
    parser.add_argument("--live-moves", type=int, default=40, help="bot replies timed in the baseline")
    parser.add_argument("--bot", default="greedy", help="the level the live games are played against")
    parser.add_argument("--workers", type=int, default=1, help="bot worker processes")
    parser.add_argument(
        "--think-ms",
        default="",
        help="the workers' BOT_THINK_MS (default: each level's own; the analyses' too)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--bound-s", type=float, default=1800, help="give up waiting for the analyses after this"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work, ExitStack() as stack:
        redis = stack.enter_context(ThrowawayRedis(Path(work) / "redis"))
        web = stack.enter_context(
            LiveService(redis.url, Path(work) / "web.log", env={"RATE_LIMIT_BOT_GAMES": "0"})
        )
        workers = [
            stack.enter_context(
                BotWorkerProcess(redis.url, Path(work) / f"worker-{n}.log", think_ms=args.think_ms)
            )
            for n in range(args.workers)
        ]
        wait_for(lambda: new_bot_game(web.url, args.bot), 30, "no bot worker seen alive")
        games = finished_games(web.url, args.analyses, args.moves, args.seed)
        player = LivePlayer(web.url, args.bot)

        baseline = []
        for _ in range(args.live_moves):
            handed, seen = player.reply()
            baseline.append(seen - handed)
            time.sleep(PERSON_PAUSE_S)
        print(summary("no analysis", baseline), file=sys.stderr)

        asked = time.monotonic()
        for game_id in games:
            resp = requests.post(f"{web.url}/games/{game_id}/analysis", timeout=REQUEST_TIMEOUT)
            assert resp.status_code == 202, resp.text
        during: list[float] = []
        unsure: list[float] = []  # replies since the last look at the analyses
        next_look = time.monotonic() + LOOK_EVERY_S
        next_progress = time.monotonic() + PROGRESS_EVERY_S
        while True:
            handed, seen = player.reply()
            unsure.append(seen - handed)
            time.sleep(PERSON_PAUSE_S)
            if time.monotonic() < next_look:
                continue
            next_look = time.monotonic() + LOOK_EVERY_S
            if not pending(web.url, games):
                break  # the replies since the last look may have come after the last analysis: not counted
            during += unsure  # some analysis was pending from before each of them to after
            unsure = []
            if time.monotonic() >= next_progress:
                next_progress = time.monotonic() + PROGRESS_EVERY_S
                print(f"{time.monotonic() - asked:.0f} s: {summary('so far', during)}", file=sys.stderr)
            if time.monotonic() - asked > args.bound_s:
                raise SystemExit(f"analyses still pending after {args.bound_s:g} s")
        finished = time.monotonic()

        logs = "\n".join(worker.log() for worker in workers)
        analysed = [(int(n), float(s)) for _, n, s in _ANALYSED.findall(logs)]
        print(
            f"{args.analyses} analyses of {args.moves}-move games, {args.workers} bot worker(s), "
            f"live games against {args.bot}"
        )
        print(f"{'bot replies':<22}{'moves':>7}{'p50 ms':>10}{'p99 ms':>10}{'max ms':>10}")
        print(summary("no analysis", baseline))
        print(summary(f"{args.analyses} analyses queued", during))
        if analysed:
            seconds = [s for _, s in analysed]
            print(
                f"per analysed game ({len(analysed)} games, {sum(n for n, _ in analysed)} moves): "
                f"worker time median {statistics.median(seconds):.1f} s, max {max(seconds):.1f} s; "
                f"wall time {(finished - asked) / args.analyses:.1f} s a game "
                f"({finished - asked:.0f} s for all, {args.workers} worker(s))"
            )


if __name__ == "__main__":
    main()

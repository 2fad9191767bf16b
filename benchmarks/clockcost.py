"""What a clock costs a move in the game-play core: instructions per move, counted by valgrind, with and without one.

CPU time per move on the shared 2-core machine moves by a tenth from run to
run (`./dev bench http`), more than the 5% a clock may cost a move (issue
19); the instructions a process executes do not. This plays the HTTP
benchmark's scripted game (`httpbench/plans.py`) through the game-play core
as two gunicorn workers would (two GamePlays sharing their copies, each
move on either at random), against a throwaway Redis, under valgrind's
callgrind: with and without a real-time clock, each with `--games` games and
with none, so that the difference is the moves' own. It prints the core's
instructions per move either way and their ratio, and the commit script's
time in Redis (INFO commandstats, microseconds per call; not instructions,
so noisier) from a run without valgrind.

    ./dev bench clockcost [--games 10]      (valgrind: apt-get install valgrind)

The core is about a third of what a move costs the service (the HTTP layer
and Redis are the rest), so the clock's share of a whole move is about a
third of the core's ratio, plus its Redis time.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

# Run as a script, this file's directory would come first on sys.path and
# its http.py would hide the standard library's http package.
ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "benchmarks"]
sys.path.insert(0, str(ROOT))

from benchmarks.httpbench.plans import PATCH_ORDER, move_script
from service.engine import move_from_json
from service.games import GamePlay, KeptCopies
from service.games.clock import ClockSettings
from service.games.shared_copies import SharedCopies
from service.storage import open_storage
from tests.redis_servers import ThrowawayRedis

# The HTTP benchmark's clock (httpbench/plans.py): its time never runs out.
CLOCK = ClockSettings(initial_s=10800, increment_s=180)
_COLLECTED = re.compile(r"Collected : (\d+)")


def play_games(redis_url: str, clocked: bool, games: int) -> int:
    """Play `games` scripted games after one to warm up (scripts loaded, the clock reckoned); the moves played."""
    storage = open_storage(redis_url)
    shared = SharedCopies(4096)
    plays = [
        GamePlay(storage.games, KeptCopies(1000, shared), storage.bot_jobs, storage.deadlines) for _ in (0, 1)
    ]
    moves = [(move_from_json(json.loads(step.body)), step.seat) for step in move_script()]
    chooser = random.Random(1)
    clock = CLOCK if clocked else None
    played = 0
    for index in range(games + 1):
        created = plays[0].create(("A", "B"), clock=clock, patch_order=list(PATCH_ORDER))
        for move, seat in moves:
            (plays[0] if index == 0 else chooser.choice(plays)).play(
                created.game_id, move, created.tokens[seat]
            )
            played += index > 0
    storage.close()
    return played


def instructions(redis_url: str, clocked: bool, games: int) -> int:
    """The instructions a child process playing `games` games executes, under callgrind."""
    command = [
        "valgrind",
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        sys.executable,
        __file__,
        "--child",
        "clock" if clocked else "none",
        "--games",
        str(games),
        "--redis",
        redis_url,
    ]
    # A fixed hash seed: the same dictionaries, the same instructions, run after run.
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    finished = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    found = _COLLECTED.search(finished.stderr)
    if found is None:
        raise SystemExit(f"callgrind printed no count:\n{finished.stderr[-2000:]}")
    return int(found.group(1))


def commit_script_us(redis: ThrowawayRedis, clocked: bool, games: int) -> float:
    """Microseconds Redis spends per script call while the games are played (no valgrind)."""
    with redis.client() as client:
        client.config_resetstat()
        play_games(redis.url, clocked, games)
        stats = client.info("commandstats").get("cmdstat_evalsha", {})
    return float(stats.get("usec_per_call", 0.0))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10, help="games per counted run (10)")
    parser.add_argument("--child", choices=("none", "clock"), help=argparse.SUPPRESS)
    parser.add_argument("--redis", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        play_games(args.redis, args.child == "clock", args.games)
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed: apt-get install -y valgrind")
    with tempfile.TemporaryDirectory() as work, ThrowawayRedis(Path(work) / "redis") as redis:
        moves = len(move_script()) * args.games
        per_move = {}
        for clocked in (False, True):
            with_games = instructions(redis.url, clocked, args.games)
            without = instructions(redis.url, clocked, 0)
            per_move[clocked] = (with_games - without) / moves
        redis_us = {clocked: commit_script_us(redis, clocked, args.games) for clocked in (False, True)}
    none, clock = per_move[False], per_move[True]
    print(f"{args.games} games of {len(move_script())} moves each way, two workers' cores sharing copies")
    print(
        f"game-play core, instructions per move: no clock {none:,.0f}, clock {clock:,.0f} ({clock / none - 1:+.1%})"
    )
    print(
        f"Redis, per commit script call: no clock {redis_us[False]:.1f} us, clock {redis_us[True]:.1f} us "
        f"({redis_us[True] - redis_us[False]:+.1f} us)"
    )


if __name__ == "__main__":
    main()

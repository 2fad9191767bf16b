"""Timekeeper lag and CPU per expiry: many games whose deadlines fall within a minute, on one instance.

Starts a Redis and the bot workers of one instance (`BOT_WORKERS` of them,
1 by default, as `patchwork-service` does; each runs a timekeeper), makes
`--games` games through the game-play core, each with a clock whose first
move never comes, their deadlines spread evenly over `--window` seconds
starting a little after the last is made, and waits until every one is
aborted at its deadline. Then it reads each game: the lag of its expiry is
the store's time of the commit that applied it less its deadline (both
kept in the game's clock log), so no poll of ours blurs it.

Prints the lag's p50, p99 and max, the expiries per second the window asked
for, and CPU per expiry of the workers and of Redis (their CPU over the
window, less what they spent idle before it, per game). Target: p99 lag at
most 1 s.

    ./dev bench clocks [--games 10000] [--window 60] [--workers 1]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

# Run as a script, this file's directory would come first on sys.path and
# its http.py would hide the standard library's http package.
ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "benchmarks"]
sys.path.insert(0, str(ROOT))

from service.games.clock import ClockSettings, ClockState
from service.storage import open_storage
from tests.backends import play_on
from tests.bot_workers import BotWorkerProcess
from tests.redis_servers import ThrowawayRedis

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000, help="games that expire (10000)")
    parser.add_argument("--window", type=float, default=60.0, help="seconds their deadlines spread over (60)")
    parser.add_argument("--workers", type=int, default=1, help="bot workers, each a timekeeper (1)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as work_dir:
        work = Path(work_dir)
        with ThrowawayRedis(work / "redis") as redis:
            storage = open_storage(redis.url, max_connections=16)
            play = play_on(storage, kept=0)
            # The deadlines: from `lead` seconds after we start making games, spread over the window.
            make_rate = 600.0  # games a second this process makes, roughly (measured below)
            lead = args.games / make_rate + 5.0
            started = time.time()
            first_deadline = started + lead

            def make(index: int) -> str:
                at = first_deadline + args.window * index / args.games
                # The clock starts at the creation: first_move_s (whole seconds) puts the deadline
                # within half a second of `at`, so about a second's games fall due together.
                settings = ClockSettings(initial_s=600, first_move_s=max(1, round(at - time.time())))
                return play.create(("A", "B"), clock=settings, seed=index).game_id

            with ThreadPoolExecutor(8) as pool:
                game_ids = list(pool.map(make, range(args.games)))
            made = time.time()
            print(
                f"made {args.games} games in {made - started:.1f} s; deadlines from +{first_deadline - made:.1f} s"
            )
            if made > first_deadline:
                print(
                    "warning: making the games took longer than the lead; the first deadlines passed while making"
                )
            workers = [
                BotWorkerProcess(redis.url, work / f"worker-{n}.log", think_ms="50")
                for n in range(args.workers)
            ]
            for worker in workers:
                worker.start()
            try:
                redis_pid = redis.pid
                time.sleep(max(0.0, first_deadline - time.time() - 1.0))
                cpu_before = {w.pid: cpu_seconds(w.pid) for w in workers}
                redis_before = cpu_seconds(redis_pid) if redis_pid else 0.0
                idle_from = time.time()
                time.sleep(1.0)
                idle_s = time.time() - idle_from
                idle_cpu = sum(cpu_seconds(w.pid) - cpu_before[w.pid] for w in workers) / idle_s
                redis_idle = ((cpu_seconds(redis_pid) - redis_before) if redis_pid else 0.0) / idle_s
                window_from = time.time()
                deadline = first_deadline + args.window + 30
                while storage.deadlines.pending() and time.time() < deadline:
                    time.sleep(0.5)
                window_s = time.time() - window_from
                workers_cpu = sum(cpu_seconds(w.pid) - cpu_before[w.pid] for w in workers)
                redis_cpu = (cpu_seconds(redis_pid) - redis_before) if redis_pid else 0.0
            finally:
                for worker in workers:
                    worker.close()
            lags = []
            unexpired = 0
            for game_id in game_ids:
                # Each version's clock, from the store's clock log: the creation's, then the abort's.
                created, aborted = (storage.games.load_clock(game_id, version) for version in (1, 2))
                if created is None or aborted is None:
                    unexpired += 1
                    continue
                fallen, ended = (ClockState.from_log(json.loads(entry)) for entry in (created, aborted))
                assert fallen.deadline_ms is not None
                lags.append((ended.since_ms - fallen.deadline_ms) / 1000)
            storage.close()
    print(
        f"expired {len(lags)} of {args.games} games ({unexpired} not) at {args.games / args.window:.0f} a second"
    )
    print(
        f"timekeeper lag (deadline to commit, the store's clock): p50 {statistics.median(lags) * 1000:.0f} ms, "
        f"p99 {percentile(lags, 0.99) * 1000:.0f} ms, max {max(lags) * 1000:.0f} ms (target p99 <= 1000 ms: "
        f"{'ok' if percentile(lags, 0.99) <= 1.0 else 'MISSED'})"
    )
    per_expiry_us = (workers_cpu - idle_cpu * window_s) / max(1, len(lags)) * 1e6
    redis_us = (redis_cpu - redis_idle * (window_s + 1.0)) / max(1, len(lags)) * 1e6
    print(
        f"CPU per expiry: workers {per_expiry_us:.0f} us, redis {redis_us:.0f} us (less their idle "
        f"polling: {idle_cpu * 100:.1f}% and {redis_idle * 100:.1f}% of a core)"
    )


if __name__ == "__main__":
    main()

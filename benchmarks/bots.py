"""Arena for the computer players: win rates between levels and think time per move.

Run: ./dev bench bots [--games N] [--pair A:B ...] [--think-ms MS] [--jobs J] [--nodes-per-ms N]
     ./dev bench bots --calibrate     (search nodes per CPU millisecond here)
     ./dev bench bots --analyse N [--think-ms MS]   (CPU seconds per analysed game)

The searching levels plan with the calibration a bot worker would measure
here at its start (`service/bots/calibration.py`), or `--nodes-per-ms`.

A pair's side may also be `independent-greedy`, the test suite's greedy
player written apart from service/bots (tests/bots/independent_greedy.py).

Each pair plays N games. Games go in twos on the same circle (patch order
from the game's seed), each level starting one of them, so neither the
first move nor the circle favours a level. Bot seeds come from
`seed_for(game name, version)`, as in the service. Prints each pair's win
rate with a 95% Wilson interval, the mean score margin, and think time per
move per level (median, p99, max). Targets from issue 11 (one core per bot):
greedy beats random >= 95% over 200 games; search beats greedy >= 90% over
200 games; think time p99 <= think_ms + 10%, max <= think_ms + 1 s.
`--jobs` plays games in parallel processes: only on otherwise idle cores,
or the searching levels lose nodes to the clock cap and the times grow.
"""

import argparse
import math
import os
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from service.bots import LEVELS, choose_move, level, seed_for
from service.bots.analysis import analyse_game
from service.bots.calibration import measure_nodes_per_ms
from service.bots.levels import SEARCHING
from service.bots.search import search_option
from service.engine import apply_move, new_game
from tests.bots import independent_greedy

DEFAULT_PAIRS = ("greedy:random", "search:greedy")
Z95 = 1.959964


def wilson(wins: int, games: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if not games:
        return 0.0, 1.0
    p = wins / games
    centre = (p + Z95**2 / (2 * games)) / (1 + Z95**2 / games)
    half = Z95 * math.sqrt(p * (1 - p) / games + Z95**2 / (4 * games**2)) / (1 + Z95**2 / games)
    return centre - half, centre + half


def play_game(job: tuple) -> dict:
    """One game: seats (level ids), the circle's seed, think_ms override; who won and times."""
    name, seats, circle_seed, think_ms, clock_cap, nodes_per_ms = job
    state = new_game(seed=circle_seed)
    times: dict[int, list[float]] = {0: [], 1: []}
    version = 0
    while not state.finished:
        seat = state.turn
        start = time.perf_counter()
        if seats[seat] == independent_greedy.NAME:
            move = independent_greedy.independent_greedy_move(state)
        else:
            move = choose_move(state, seats[seat], seed_for(name, version), think_ms, clock_cap, nodes_per_ms)
        times[seat].append((time.perf_counter() - start) * 1000)
        state = apply_move(state, move)
        version += 1
    return {"seats": seats, "winner": state.result.winner, "scores": state.result.scores, "times": times}


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(share * len(ordered)) - 1)]


def run_pair(
    pair: str,
    games: int,
    think_ms: int | None,
    jobs: int,
    first_seed: int,
    clock_cap: bool,
    nodes_per_ms: int,
) -> None:
    a, b = pair.split(":")
    for player in (a, b):
        if player != independent_greedy.NAME:
            level(player)  # UnknownLevel before any game is played
    work = []
    for i in range(games):
        seats = (a, b) if i % 2 == 0 else (b, a)
        work.append((f"arena-{pair}-{i}", seats, first_seed + i // 2, think_ms, clock_cap, nodes_per_ms))
    started = time.perf_counter()
    results = []
    with Pool(jobs) as pool:
        for result in pool.imap_unordered(play_game, work):
            results.append(result)
            if len(results) % 10 == 0:
                print(f"  {pair}: {len(results)}/{games} games", file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - started
    wins = sum(1 for r in results if r["seats"][r["winner"]] == a)
    margins = [r["scores"][r["seats"].index(a)] - r["scores"][1 - r["seats"].index(a)] for r in results]
    low, high = wilson(wins, games)
    print(
        f"\n{a} vs {b}: {wins}/{games} won by {a} = {wins / games:.1%} "
        f"(95% interval {low:.1%}..{high:.1%}), mean margin {statistics.mean(margins):+.1f}, "
        f"{elapsed:.0f} s wall with {jobs} job(s)"
    )
    for name in dict.fromkeys((a, b)):
        moves = [
            t for r in results for seat, lv in enumerate(r["seats"]) if lv == name for t in r["times"][seat]
        ]
        if name == independent_greedy.NAME:
            promised = "none: not a level"
        elif think_ms is not None and level(name).kind in SEARCHING:
            promised = str(think_ms)
        else:
            promised = str(level(name).think_ms)
        print(
            f"  {name:>13}: {len(moves)} moves, think ms median {statistics.median(moves):.1f}, "
            f"p99 {percentile(moves, 0.99):.1f}, max {max(moves):.1f} "
            f"(think_ms {promised})"
        )


def time_analyses(games: int, think_ms: int | None, nodes_per_ms: int, first_seed: int) -> None:
    """CPU time of analysing `games` games of search against greedy, at the deep level's budget as a worker plans it."""
    budget = max(1, int((think_ms or level("deep").think_ms) * nodes_per_ms))
    spent, moves = [], 0
    for i in range(games):
        start = new_game(seed=first_seed + i)
        state, played = start, []
        while not state.finished:
            move = choose_move(state, ("search", "greedy")[state.turn], 0, 50, False, nodes_per_ms)
            played.append(move)
            state = apply_move(state, move)
        cpu = time.process_time()
        moves += len(analyse_game(start, played, budget))
        spent.append(time.process_time() - cpu)
    print(
        f"analysis at {budget} nodes a position ({think_ms or level('deep').think_ms} ms x {nodes_per_ms}): "
        f"{games} games, {moves} moves, CPU s per game median {statistics.median(spent):.1f}, "
        f"max {max(spent):.1f}"
    )


def calibrate() -> None:
    """Search nodes per CPU millisecond on positions of greedy games, with no budget limit."""
    rates = []
    for seed in range(3):
        state = new_game(seed=seed)
        while not state.finished:
            if state.phase == "choose" and state.moves_played % 5 == 0:
                cpu = time.process_time()
                found = search_option(state, 10**9, time.perf_counter() + 0.5)
                spent = time.process_time() - cpu
                if found.nodes > 100 and spent > 0:
                    rates.append(found.nodes / spent / 1000)
            state = apply_move(state, choose_move(state, "greedy", 0))
    print(
        f"search nodes per CPU ms over {len(rates)} positions: median "
        f"{statistics.median(rates):.1f}, min {min(rates):.1f}, max {max(rates):.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--pair", action="append", help="A:B, level ids (repeatable)")
    parser.add_argument("--think-ms", type=int, help="override the searching levels' think_ms")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1, help="first circle seed")
    parser.add_argument("--calibrate", action="store_true")
    parser.add_argument("--analyse", type=int, metavar="N", help="time the analysis of N games instead")
    parser.add_argument(
        "--nodes-per-ms", type=int, help="the searching levels' calibration (default: measured now)"
    )
    parser.add_argument(
        "--no-clock-cap",
        action="store_true",
        help="searches use their whole node budget (strength apart from load)",
    )
    args = parser.parse_args()
    if args.calibrate:
        calibrate()
        return
    nodes_per_ms = args.nodes_per_ms or measure_nodes_per_ms()
    if args.analyse:
        time_analyses(args.analyse, args.think_ms, nodes_per_ms, args.seed)
        return
    print(
        "levels: "
        + ", ".join(f"{lv.id} ({lv.think_ms} ms)" for lv in LEVELS)
        + f"; {os.cpu_count()} cores; {nodes_per_ms} nodes per ms"
    )
    for pair in args.pair or DEFAULT_PAIRS:
        run_pair(pair, args.games, args.think_ms, args.jobs, args.seed, not args.no_clock_cap, nodes_per_ms)


if __name__ == "__main__":
    main()

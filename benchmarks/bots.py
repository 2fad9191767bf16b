"""Arena for the computer players: win rates between levels and think time per move.

Run: ./dev bench bots [--games N] [--pair A:B ...] [--think-ms MS] [--jobs J] [--nodes-per-ms N]
     ./dev bench bots --calibrate     (search nodes per CPU millisecond here)
     ./dev bench bots --analyse N [--think-ms MS]   (CPU seconds per analysed game)
     ./dev bench bots --under-load [--games 20] [--deep-games 6] [--level search]

The searching levels plan with the calibration a bot worker would measure
here at its start (`service/bots/calibration.py`), or `--nodes-per-ms`.

A pair's side may also be `independent-greedy`, the test suite's greedy
player written apart from service/bots (tests/support/independent_greedy.py).

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

`--under-load` (issue 36) plays no arena: it starts one instance as
operators do (`python -m service`, its embedded Redis, the default
BOT_WORKERS=1), has one client keep `--deep-games` deep bot-vs-bot games on
no clock going, and another play `--games` games on 10 s + 0 against a
`--level` bot, answering each of its turns at once over HTTP with a random
legal move. It prints how many games the bot finished on time and the least
time it had left after a move. Target: every game, whatever the load ("a
bot never loses on time while its workers run").
"""

import argparse
import math
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from multiprocessing import Pool
from pathlib import Path

# Run as a script, this file's directory would come first on sys.path and
# shadow the standard library's modules of the same name (benchmarks/http.py
# is http's, which requests needs); the project's top goes there instead.
ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "benchmarks"]
sys.path.insert(0, str(ROOT))

import requests

from service.bots import LEVELS, choose_move, level, seed_for
from service.bots.analysis import analyse_game
from service.bots.calibration import measure_nodes_per_ms
from service.bots.levels import SEARCHING
from service.bots.search import search_option
from service.engine import apply_move, new_game
from tests.support import independent_greedy
from tests.support.bot_workers import wait_for
from tests.support.patchwork_service import PatchworkService

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
        assert seat is not None  # the game is not finished
        start = time.perf_counter()
        if seats[seat] == independent_greedy.NAME:
            move = independent_greedy.independent_greedy_move(state)
        else:
            move = choose_move(state, seats[seat], seed_for(name, version), think_ms, clock_cap, nodes_per_ms)
        times[seat].append((time.perf_counter() - start) * 1000)
        state = apply_move(state, move)
        version += 1
    result = state.result
    assert result is not None  # the game is finished
    return {"seats": seats, "winner": result.winner, "scores": result.scores, "times": times}


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
            assert state.turn is not None  # the game is not finished
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


# The two clients of --under-load, told apart by the instance behind one trusted proxy hop.
PERSON_CLIENT, LOAD_CLIENT = "203.0.113.7", "198.51.100.2"
# The clocked games of --under-load: 10 s each and no increment.
UNDER_LOAD_CLOCK = {"initial_s": 10, "increment_s": 0}
# How often the person looks whether the bot has moved.
POLL_SECONDS = 0.01


def client_session(address: str) -> requests.Session:
    session = requests.Session()
    session.headers["X-Forwarded-For"] = address
    return session


def create_game(session: requests.Session, base: str, body: dict) -> dict:
    """POST /games until it is created (bot games are 503 until the worker's heartbeat)."""

    def create() -> dict | None:
        resp = session.post(f"{base}/games", json=body, timeout=10)
        if resp.status_code == 201:
            return resp.json()
        if resp.status_code != 503:
            raise SystemExit(f"POST /games: {resp.status_code} {resp.text}")
        return None

    return wait_for(create, 60, "no bot game created", every=0.5)


def keep_deep_games_going(
    base: str, count: int, stop: threading.Event, seed: int, moves: dict[str, int]
) -> None:
    """Keep `count` deep bot-vs-bot games on no clock in play, as another client would; `moves`: each one's moves so far."""
    session = client_session(LOAD_CLIENT)
    deep = [{"name": "Deep", "bot": "deep"}, {"name": "Deeper", "bot": "deep"}]
    games = [
        create_game(session, base, {"players": deep, "seed": seed + n})["game"]["id"] for n in range(count)
    ]
    while not stop.wait(1.0):
        for index, game_id in enumerate(games):
            game = session.get(f"{base}/games/{game_id}", timeout=10).json()
            moves[game_id] = game["moves_played"]
            if game["status"] == "finished":
                games[index] = create_game(session, base, {"players": deep})["game"]["id"]


def play_clocked_game(
    base: str, level_id: str, first_player: int, rng: random.Random
) -> tuple[dict, list[int]]:
    """A person (seat 0) who answers at once against `level_id` (seat 1) on 10 s + 0: the game, the bot's bank after each of its turns."""
    session = client_session(PERSON_CLIENT)
    players = [{"name": "Quick"}, {"name": "Bot", "bot": level_id}]
    body = {"players": players, "clock": UNDER_LOAD_CLOCK, "first_player": first_player}
    created = create_game(session, base, body)
    game, token = created["game"], created["tokens"][0]
    url, auth = f"{base}/games/{game['id']}", {"Authorization": f"Bearer {token}"}
    banks: list[int] = []
    while game["status"] != "finished":
        if game["turn"] == 1:
            time.sleep(POLL_SECONDS)
            game = session.get(url, timeout=10).json()
            if game["turn"] != 1:
                banks.append(game["clock"]["remaining_ms"][1])
            continue
        move = rng.choice(session.get(f"{url}/legal-moves", timeout=10).json()["moves"])
        move.get("placement", {}).pop("cells", None)  # either form is enough
        resp = session.post(f"{url}/moves", json=move, headers=auth, timeout=10)
        game = resp.json() if resp.status_code == 201 else session.get(url, timeout=10).json()
    return game, banks


def under_load(games: int, deep_games: int, level_id: str, seed: int) -> None:
    """Issue 36's figure: a clocked bot against an instant person while another client's deep games run."""
    with tempfile.TemporaryDirectory() as work:
        service = PatchworkService(
            Path(work) / "data",
            Path(work) / "service.log",
            env={"TRUST_PROXY_HEADERS": "1", "RATE_LIMIT_BOT_GAMES": "1000"},
        )
        with service:
            stop = threading.Event()
            deep_moves: dict[str, int] = {}
            loader = threading.Thread(
                target=keep_deep_games_going, args=(service.url, deep_games, stop, seed, deep_moves)
            )
            loader.start()
            rng = random.Random(seed)
            on_time, least_left, flagged = 0, math.inf, []
            try:
                wait_for(lambda: sum(deep_moves.values()), 120, "the deep games did not start")
                started, deep_before = time.monotonic(), sum(deep_moves.values())
                for number in range(games):
                    game, banks = play_clocked_game(service.url, level_id, number % 2, rng)
                    result = game["result"] or {}
                    bot_flagged = result.get("reason") == "timeout" and result.get("winner") == 0
                    on_time += not bot_flagged
                    if bot_flagged:
                        flagged.append(game["id"])
                    least_left = min([least_left, *banks])
                    print(
                        f"game {number + 1}: {result.get('reason')}, winner {result.get('winner')}, "
                        f"{len(banks)} bot turns, the bot's least time left "
                        f"{min(banks) if banks else float('nan'):.0f} ms",
                        flush=True,
                    )
            finally:
                stop.set()
                loader.join()
    deep_made = sum(deep_moves.values()) - deep_before
    print(f"meanwhile the deep games made {deep_made} moves in {time.monotonic() - started:.0f} s")
    print(
        f"{level_id} on 10 s + 0 against an instant person, {deep_games} deep games of another client on "
        f"BOT_WORKERS=1: {on_time} of {games} finished on time by the bot; its least time left after a "
        f"turn: {least_left:.0f} ms" + (f"; flagged: {', '.join(flagged)}" if flagged else "")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--games",
        type=int,
        help="games per pair (default 200), or clocked games with --under-load (default 20)",
    )
    parser.add_argument("--pair", action="append", help="A:B, level ids (repeatable)")
    parser.add_argument("--think-ms", type=int, help="override the searching levels' think_ms")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1, help="first circle seed")
    parser.add_argument("--calibrate", action="store_true")
    parser.add_argument(
        "--under-load",
        action="store_true",
        help="clocked games against a bot while deep games load its worker",
    )
    parser.add_argument(
        "--deep-games", type=int, default=6, help="--under-load: the other client's deep games"
    )
    parser.add_argument("--level", default="search", help="--under-load: the clocked bot's level")
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
    if args.under_load:
        under_load(args.games or 20, args.deep_games, args.level, args.seed)
        return
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
        run_pair(
            pair, args.games or 200, args.think_ms, args.jobs, args.seed, not args.no_clock_cap, nodes_per_ms
        )


if __name__ == "__main__":
    main()

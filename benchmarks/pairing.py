"""Swiss pairing time: one round of 64, 256 and 512 players after 1, 4 and 8 rounds played.

Run: ./dev bench pairing   (or .venv/bin/python benchmarks/pairing.py)
Issue 39 asks for a 512-player round paired and its games created within
2 s; this measures the pairing alone (service/pairing/swiss.py), in
process, as CPU time of this thread (a shared machine's preemption lands in
some calls and not others). Each field's history is simulated: players of
hidden strengths, the stronger more likely to win, the Swiss itself pairing
every round. Figures are medians over a few fields and repeats, printed,
never asserted; the maximum shows the tail.
"""

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from service.pairing import Outcome, Pairing, swiss_round


def played(pairings: list[Pairing], strength: dict[str, float], chance: random.Random) -> list[Outcome]:
    """The round's results: the stronger player wins more often, by a few points."""
    outcomes = []
    for pairing in pairings:
        if pairing.second is None:
            outcomes.append(Outcome(pairing.first, None, None, 0))
            continue
        edge = strength[pairing.first] - strength[pairing.second]
        first_wins = chance.random() < 0.5 + edge / 2
        margin = chance.randint(1, 30)
        winner = pairing.first if first_wins else pairing.second
        outcomes.append(Outcome(pairing.first, pairing.second, winner, margin if first_wins else -margin))
    return outcomes


def fields(size: int, rounds: int, count: int) -> list[tuple[list[str], list[list[Outcome]]]]:
    """`count` simulated fields of `size` players, each after `rounds` rounds."""
    made = []
    for seed in range(count):
        chance = random.Random(seed)
        players = [f"player-{i:03d}" for i in range(size)]
        strength = {player: chance.random() for player in players}
        past: list[list[Outcome]] = []
        for _ in range(rounds):
            past.append(played(swiss_round(players, past), strength, chance))
        made.append((players, past))
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[64, 256, 512])
    parser.add_argument("--rounds", type=int, nargs="+", default=[1, 4, 8])
    parser.add_argument("--fields", type=int, default=3, help="simulated fields per size and rounds")
    parser.add_argument("--repeat", type=int, default=3, help="pairings of each field")
    args = parser.parse_args()
    print(f"median CPU ms of one Swiss round ({args.fields} fields x {args.repeat} repeats)")
    print(f"{'players':>8} {'after':>6} {'median ms':>10} {'max ms':>8}")
    for size in args.sizes:
        for rounds in args.rounds:
            times = []
            for players, past in fields(size, rounds, args.fields):
                for _ in range(args.repeat):
                    start = time.thread_time_ns()
                    swiss_round(players, past)
                    times.append((time.thread_time_ns() - start) / 1e6)
            print(f"{size:>8} {rounds:>6} {statistics.median(times):>10.1f} {max(times):>8.1f}", flush=True)


if __name__ == "__main__":
    main()

"""Fit the evaluation's weights to the final margins of self-play games: how DEEP_WEIGHTS were found.

Run: ./dev evalfit [--games 240] [--nodes 2000] [--jobs 2] [--players analysis|deep]

A tool, not a benchmark: it measures no speed; it is how the weights were
chosen, run again when the evaluation's terms change.

Plays `--games` games of the `deep` search against itself at `--nodes` a
move (one move in ten at 300 nodes, drawn from the game's seed, so that
the positions are not all of one player's taste), on the circles of seeds
10000 and up, with the weights `--players` names (`analysis`, the default,
are `deep`'s weights before the fit). Every position where a seat chooses
a move (no leather pending) becomes a row: the evaluation's terms, seat 0's
minus seat 1's, and the game's final margin for seat 0. A least-squares fit
of the margin on the terms, over the games whose index is not a multiple of
5, gives the weights; the other fifth is held out. Prints the error (RMS)
of the fitted and of both shipped weight sets on the held-out positions,
and the fitted weights in `Weights` terms, scaled to a button's worth of 1.

Deterministic: the same options print the same figures on any machine
(searches count nodes; no clock). The defaults are the run behind
DEEP_WEIGHTS (evaluation.py says what was rounded and left out); about 4
minutes with 2 jobs on the project's 2-core machine.
"""

import argparse
import math
import random
import sys
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from service.bots.evaluation import (
    ANALYSIS_WEIGHTS,
    DEEP_WEIGHTS,
    PAYDAYS_AHEAD,
    Weights,
    buy_prospect,
    shape_terms,
)
from service.bots.options import to_move
from service.bots.search import search_option
from service.engine import TRACK_END, GameState, apply_move, new_game
from service.engine.state import PLACE_LEATHER

FIRST_SEED = 10000
# One move in this many is searched with WEAK_NODES instead: other positions to learn from.
WEAK_SHARE, WEAK_NODES = 0.1, 300
TERMS = ("buttons", "empty", "income", "bonus", "ahead", "ahead_squared", "perimeter", "holes", "prospect")


def seat_terms(state: GameState, seat: int) -> list[float]:
    """One seat's terms, each as seat_value counts it before its weight.

    The time ahead is the pair (spaces ahead a, a^2 / TRACK_END): a linear
    rate over the track, as `Weights.time_early`/`time_late` make it, is a
    combination of the two. A pending leather patch never occurs here
    (rows are taken where the seat chooses).
    """
    player = state.players[seat]
    empty = player.empty_cells
    perimeter, holes = shape_terms(player.quilt) if empty else (0, 0)
    ahead = TRACK_END - player.position
    return [
        player.buttons,
        empty,
        player.income * PAYDAYS_AHEAD[player.position],
        1 if state.bonus_owner == seat else 0,
        ahead,
        ahead * ahead / TRACK_END,
        perimeter,
        holes,
    ]


def as_terms(weights: Weights) -> list[float]:
    """A weight set's coefficients of TERMS (the time rate written as the linear pair)."""
    return [
        1.0,
        -weights.empty_cell,
        weights.income,
        weights.bonus,
        weights.time_late,
        (weights.time_early - weights.time_late) / 2,
        -weights.perimeter,
        -weights.hole,
        weights.prospect,
    ]


def play_game(job: tuple[int, Weights, int]) -> list[tuple[list[float], float]]:
    """One self-play game's rows: (seat 0's terms minus seat 1's, prospect signed by the mover), margin.

    The prospect is valued with the players' weights, for every weight set's
    error alike (DEEP_WEIGHTS would value it with its own: at its weight of
    0.09 the difference is small).
    """
    seed, weights, nodes = job
    draws = random.Random(seed)
    state = new_game(seed=seed)
    rows = []
    while not state.finished:
        if state.phase != PLACE_LEATHER:
            mine, theirs = seat_terms(state, 0), seat_terms(state, 1)
            sign = 1 if state.turn == 0 else -1
            rows.append(
                [a - b for a, b in zip(mine, theirs, strict=True)] + [sign * buy_prospect(state, weights)]
            )
        budget = WEAK_NODES if draws.random() < WEAK_SHARE else nodes
        found = search_option(state, budget, math.inf, weights, best_first=True)
        state = apply_move(state, to_move(found.option))
    result = state.result
    assert result is not None
    final = result.scores[0] - result.scores[1]
    return [(row, final) for row in rows]


def least_squares(rows: list[list[float]], targets: list[float]) -> list[float]:
    """The coefficients minimising the squared error: the normal equations, solved by elimination."""
    size = len(rows[0])
    normal = [[sum(r[i] * r[j] for r in rows) for j in range(size)] for i in range(size)]
    right = [sum(r[i] * t for r, t in zip(rows, targets, strict=True)) for i in range(size)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda i: abs(normal[i][col]))
        normal[col], normal[pivot] = normal[pivot], normal[col]
        right[col], right[pivot] = right[pivot], right[col]
        for i in range(size):
            if i != col and normal[col][col]:
                factor = normal[i][col] / normal[col][col]
                normal[i] = [a - factor * b for a, b in zip(normal[i], normal[col], strict=True)]
                right[i] -= factor * right[col]
    return [right[i] / normal[i][i] if normal[i][i] else 0.0 for i in range(size)]


def rms_error(coefficients: list[float], rows: list[list[float]], targets: list[float]) -> float:
    errors = [
        t - sum(c * x for c, x in zip(coefficients, r, strict=True))
        for r, t in zip(rows, targets, strict=True)
    ]
    return math.sqrt(sum(e * e for e in errors) / len(errors))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=240)
    parser.add_argument("--nodes", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--players", choices=("analysis", "deep"), default="analysis")
    args = parser.parse_args()
    weights = ANALYSIS_WEIGHTS if args.players == "analysis" else DEEP_WEIGHTS
    jobs = [(FIRST_SEED + i, weights, args.nodes) for i in range(args.games)]
    with Pool(args.jobs) as pool:
        games = pool.map(play_game, jobs)
    split: dict[bool, tuple[list[list[float]], list[float]]] = {True: ([], []), False: ([], [])}
    for index, game in enumerate(games):
        rows, targets = split[index % 5 != 0]
        for row, final in game:
            rows.append(row)
            targets.append(final)
    (train, train_targets), (held, held_targets) = split[True], split[False]
    fitted = least_squares(train, train_targets)
    print(
        f"{args.games} games of {args.players} weights at {args.nodes} nodes: {len(train) + len(held)} positions"
    )
    print(f"error on the held-out fifth ({len(held)} positions), RMS points:")
    print(f"  fitted            {rms_error(fitted, held, held_targets):.2f}")
    print(f"  ANALYSIS_WEIGHTS  {rms_error(as_terms(ANALYSIS_WEIGHTS), held, held_targets):.2f}")
    print(f"  DEEP_WEIGHTS      {rms_error(as_terms(DEEP_WEIGHTS), held, held_targets):.2f}")
    print("fitted coefficients: " + ", ".join(f"{n} {c:+.3f}" for n, c in zip(TERMS, fitted, strict=True)))
    scale = fitted[0]
    (_, empty, income, bonus, ahead, squared, perimeter, holes, prospect) = (c / scale for c in fitted)
    print(
        f"as Weights (a button = 1): time_early={ahead + 2 * squared:.2f}, time_late={ahead:.2f}, "
        f"perimeter={-perimeter:.2f}, hole={-holes:.2f}, empty_cell={-empty:.2f}, income={income:.2f}, "
        f"bonus={bonus:.2f}, prospect={prospect:.2f}"
    )


if __name__ == "__main__":
    main()

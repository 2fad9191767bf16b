"""Speed of the rules engine on one core: legal moves, apply_move, random games.

Run: ./dev bench engine   (or .venv/bin/python benchmarks/engine.py)
Prints medians over repeated samples; targets from issue 2: start-position
legal moves <= 300 us, >= 150 complete random games per second.
"""

import os
import random
import statistics
import time

from service.engine import Buy, GameState, apply_move, legal_moves, new_game

START_TARGET_US = 300
GAMES_TARGET = 150
# Patches 2, 3, 4 open the circle: all three affordable with the 5 starting buttons.
START_ORDER = tuple(range(2, 34)) + (1,)


def pin_to_one_core() -> str:
    if hasattr(os, "sched_setaffinity"):
        core = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {core})
        return f"pinned to core {core}"
    return "not pinned (no sched_setaffinity)"


def median_us(action, calls: int, samples: int) -> float:
    """Median time of one call of action, in microseconds, over samples of calls."""
    times = []
    for _ in range(samples):
        start = time.perf_counter_ns()
        for _ in range(calls):
            action()
        times.append((time.perf_counter_ns() - start) / calls / 1000)
    return statistics.median(times)


def random_game(rng: random.Random) -> list[GameState]:
    state = new_game(seed=rng.randrange(2**53))
    states = [state]
    while not state.finished:
        state = apply_move(state, rng.choice(legal_moves(state)))
        states.append(state)
    return states


def crowded_position(rng: random.Random) -> GameState:
    """A mid-game choose position whose mover has half a quilt and can afford the market."""
    while True:
        for state in random_game(rng):
            if (
                state.phase == "choose"
                and state.turn is not None
                and 30 <= 81 - state.players[state.turn].empty_cells <= 45
            ):
                moves = legal_moves(state)
                if len({m.patch_id for m in moves if isinstance(m, Buy)}) == 3:
                    return state


def main() -> None:
    print(f"engine benchmark, {pin_to_one_core()}")
    rng = random.Random(2024)

    start = new_game(patch_order=START_ORDER)
    us = median_us(lambda: legal_moves(start), calls=200, samples=50)
    print(
        f"legal_moves, start position ({len(legal_moves(start))} moves): "
        f"{us:8.1f} us median  (target <= {START_TARGET_US} us, "
        f"{START_TARGET_US / us:.1f}x margin)"
    )

    crowded = crowded_position(rng)
    assert crowded.turn is not None  # a choose position
    filled = 81 - crowded.players[crowded.turn].empty_cells
    us = median_us(lambda: legal_moves(crowded), calls=200, samples=50)
    print(
        f"legal_moves, crowded mid-game ({filled} cells covered, "
        f"{len(legal_moves(crowded))} moves): {us:8.1f} us median"
    )

    pairs = []
    for state in random_game(rng)[:-1] + random_game(rng)[:-1]:
        pairs.append((state, rng.choice(legal_moves(state))))
    us = median_us(lambda: [apply_move(s, m) for s, m in pairs], calls=20, samples=30) / len(pairs)
    print(f"apply_move, {len(pairs)} moves of random games: {us:8.1f} us median per move")

    rates = []
    for _ in range(15):
        begin = time.perf_counter()
        count = 0
        while time.perf_counter() - begin < 0.2:
            random_game(rng)
            count += 1
        rates.append(count / (time.perf_counter() - begin))
    rate = statistics.median(rates)
    print(
        f"complete random games (uniform legal moves): {rate:8.0f} games/s median  "
        f"(target >= {GAMES_TARGET}, {rate / GAMES_TARGET:.1f}x)"
    )


if __name__ == "__main__":
    main()

"""The `random` level: a uniformly drawn legal move (for tests and beginners)."""

import random

from service.engine import GameState, Move, legal_moves


def random_move(state: GameState, seed: int) -> Move:
    """One of state's legal moves, drawn uniformly by a generator seeded with seed."""
    return random.Random(seed).choice(legal_moves(state))

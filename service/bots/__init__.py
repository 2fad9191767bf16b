"""Computer players: pure decision-making over the rules engine (no web, no storage).

`choose_move(state, level_id, seed, think_ms=None)` returns the Move a
level plays; `seed_for(game_id, version)` is the seed a game's bot uses for
the move after that version; `LEVELS` lists the levels, weakest first.
"""

from .levels import LEVELS, NODES_PER_MS, Level, UnknownLevel, choose_move, level, seed_for

__all__ = [
    "LEVELS",
    "NODES_PER_MS",
    "Level",
    "UnknownLevel",
    "choose_move",
    "level",
    "seed_for",
]

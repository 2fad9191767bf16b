"""Ratings: Glicko-2, pure maths on numbers, knowing nothing of games, players or storage.

The site (service/site/rated_games.py) decides which games are rated and
stores what a game's end did to both ratings; this package only computes it.
"""

from .glicko2 import (
    INITIAL_RATING,
    INITIAL_RD,
    INITIAL_VOLATILITY,
    MIN_RD,
    Rating,
    Result,
    Settlement,
    after_game,
    settle,
    updated,
)

__all__ = [
    "INITIAL_RATING",
    "INITIAL_RD",
    "INITIAL_VOLATILITY",
    "MIN_RD",
    "Rating",
    "Result",
    "Settlement",
    "after_game",
    "settle",
    "updated",
]

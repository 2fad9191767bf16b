"""Pairing and standings for tournaments: pure functions of the players and the rounds played.

Like service/ratings/, it imports nothing of the project's layers: the
tournament module (service/site/tournaments.py) keeps the rounds and asks
here who plays whom and who stands where.
"""

from .records import Outcome, Pairing, Standing
from .round_robin import round_robin
from .standings import standings
from .swiss import swiss_round, within_the_rules

__all__ = ["Outcome", "Pairing", "Standing", "round_robin", "standings", "swiss_round", "within_the_rules"]

"""The error catalogue: one entry per problem code (status, title, help, headers).

Plain data importing nothing above the languages' message markers, so the
game-play core's refusals (service/games/refusals.py) and the API's
problem+json answers (service/api/problems.py) read the same entries.
"""

from .catalogue import CATALOGUE, ProblemType

__all__ = ["CATALOGUE", "ProblemType"]

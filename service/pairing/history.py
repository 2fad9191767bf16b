"""What the rounds played so far say about each player: points, opponents, byes and starts.

Both the Swiss pairing and the standings read the past through this one summary.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .records import Outcome


@dataclass(slots=True)
class History:
    """One player's record over the rounds played so far."""

    # Wins, byes included (Patchwork has no draws).
    points: int = 0
    byes: int = 0
    # The opponents of every game played, in order (a repeat would appear twice).
    opponents: list[str] = field(default_factory=list)
    # The opponents beaten.
    beaten: list[str] = field(default_factory=list)
    # Games moved first and games moved second (a bye is neither).
    starts: int = 0
    seconds: int = 0
    # Whether the player moved first in its latest game; None before its first game.
    started_last: bool | None = None
    # The sum of the score margins from the player's side.
    margin: int = 0


def histories(past: Sequence[Sequence[Outcome]], players: Iterable[str] = ()) -> dict[str, History]:
    """Each player's history after `past`: everyone named there, and every one of `players`."""
    found = {player: History() for player in players}
    for round_ in past:
        for outcome in round_:
            first = found.setdefault(outcome.first, History())
            if outcome.second is None:
                first.byes += 1
                first.points += 1
                continue
            second = found.setdefault(outcome.second, History())
            first.opponents.append(outcome.second)
            second.opponents.append(outcome.first)
            first.starts += 1
            second.seconds += 1
            first.started_last = True
            second.started_last = False
            first.margin += outcome.margin
            second.margin -= outcome.margin
            if outcome.winner == outcome.first:
                first.points += 1
                first.beaten.append(outcome.second)
            elif outcome.winner == outcome.second:
                second.points += 1
                second.beaten.append(outcome.first)
            # Any other winner (None) is a game neither won: two withdrawn players' forfeit.
    return found

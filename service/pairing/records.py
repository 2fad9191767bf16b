"""The values the pairing package takes and gives: pairings, played-out pairings, standings.

Players are named by their ids (strings) only: the package knows nothing of
names, ratings or games, so the tournament module decides what an id is.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pairing:
    """One pairing of a round: `first` moves first (seat 0); no `second` is a bye for `first`."""

    first: str
    second: str | None


@dataclass(frozen=True, slots=True)
class Outcome:
    """A pairing of a past round, played out.

    `winner` is a player id, None for a bye (a bye counts as a win for
    `first`; None for a game is a game neither won, as when both players had
    withdrawn from a round robin); `margin` is first's final score minus
    second's (0 for a bye).
    """

    first: str
    second: str | None
    winner: str | None
    margin: int


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's line in the standings (Patchwork has no draws: a win or a bye is 1 point)."""

    player: str
    points: float
    # The sum of the opponents' points (a bye adds nothing).
    buchholz: float
    # The sum of the points of the opponents beaten.
    sonneborn_berger: float
    # The sum of the score margins, signed, from the player's side.
    margin: int
    # 1-based; players equal on every tie-break share a rank.
    rank: int

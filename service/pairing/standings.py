"""Standings: points, then Buchholz, then Sonneborn-Berger, then the sum of score margins.

Patchwork has no draws, so a win (or a bye) is 1 point and Sonneborn-Berger
is simply the sum of the points of the opponents a player beat. A bye adds
nothing to the tie-breaks (no opponent), and a withdrawn player's games stay
in everyone's tie-breaks as they were played.
"""

from __future__ import annotations

from collections.abc import Sequence

from .history import History, histories
from .records import Outcome, Standing


def standings(players: Sequence[str], past: Sequence[Sequence[Outcome]]) -> list[Standing]:
    """The standings of `players` (everyone who ever played, withdrawn ones included), best first.

    Players equal on every tie-break share a rank (1, 2, 2, 4) and are listed
    by id, so the order is stable.
    """
    found = histories(past, players)
    lines = [line_of(player, found) for player in dict.fromkeys(players)]
    lines.sort(key=lambda line: (tie_breaks(line), line.player))
    ranked: list[Standing] = []
    for place, line in enumerate(lines, start=1):
        tied = ranked and tie_breaks(ranked[-1]) == tie_breaks(line)
        rank = ranked[-1].rank if tied else place
        ranked.append(
            Standing(line.player, line.points, line.buchholz, line.sonneborn_berger, line.margin, rank)
        )
    return ranked


def line_of(player: str, found: dict[str, History]) -> Standing:
    """A player's standing, its rank not yet known (0)."""
    history = found[player]
    return Standing(
        player=player,
        points=float(history.points),
        buchholz=float(sum(found[opponent].points for opponent in history.opponents)),
        sonneborn_berger=float(sum(found[opponent].points for opponent in history.beaten)),
        margin=history.margin,
        rank=0,
    )


def tie_breaks(line: Standing) -> tuple[float, float, float, int]:
    """The sort key, best first: every criterion negated."""
    return (-line.points, -line.buchholz, -line.sonneborn_berger, -line.margin)

"""The one-line state of a game, in words, shared by the SVG and the text picture."""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def signed(number: int, minus: str = "-") -> str:
    """`number` with `minus` as its sign when negative (U+2212 reads better in a picture)."""
    return f"{minus}{-number}" if number < 0 else str(number)


def status_line(game: Mapping, names: Sequence[str], minus: str = "-") -> str:
    """Who acts next ("Ada to play, move 12"), or the result; `names` already made safe for the output."""
    result = game.get("result")
    if result is None:
        seat = int(game["turn"])
        doing = "places a leather patch" if game["phase"] == "place_leather" else "to play"
        return f"{names[seat]} {doing}, move {int(game['moves_played']) + 1}"
    winner = int(result["winner"])
    if result.get("reason") == "resigned":
        return f"{names[1 - winner]} resigned: {names[winner]} wins"
    scores = [int(s) for s in result["scores"]]
    tie = " (a tie: reached space 53 first)" if scores[0] == scores[1] else ""
    return f"{names[winner]} wins {signed(scores[winner], minus)} to {signed(scores[1 - winner], minus)}{tie}"

"""The one-line state of a game, in words, shared by the SVG and the text picture."""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def signed(number: int, minus: str = "-") -> str:
    """`number` with `minus` as its sign when negative (U+2212 reads better in a picture)."""
    return f"{minus}{-number}" if number < 0 else str(number)


def time_left(ms: int) -> str:
    """A seat's time left as a clock shows it: h:mm:ss from an hour, m:ss below, tenths under ten seconds."""
    ms = max(0, int(ms))
    if ms < 10_000:
        return f"0:{ms // 1000:02d}.{ms % 1000 // 100}"
    seconds = ms // 1000
    hours, rest = divmod(seconds, 3600)
    if hours >= 24:
        return f"{hours // 24}d {hours % 24}h"
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


def clock_line(game: Mapping, names: Sequence[str]) -> str | None:
    """Each seat's time left as of the version ("Ada 4:59 | Bo 5:00, Ada's running"), None without a clock."""
    clock = game.get("clock")
    if not clock:
        return None
    left = [time_left(ms) for ms in clock["remaining_ms"]]
    running = clock.get("running")
    tail = f", {names[int(running)]}'s running" if running is not None else ""
    return f"Time: {names[0]} {left[0]} | {names[1]} {left[1]}{tail}"


def status_line(game: Mapping, names: Sequence[str], minus: str = "-") -> str:
    """Who acts next ("Ada to play, move 12"), or the result; `names` already made safe for the output."""
    result = game.get("result")
    if result is None:
        seat = int(game["turn"])
        doing = "places a leather patch" if game["phase"] == "place_leather" else "to play"
        return f"{names[seat]} {doing}, move {int(game['moves_played']) + 1}"
    if result.get("winner") is None:
        return "Aborted: no first move in time"
    winner = int(result["winner"])
    if result.get("reason") == "resigned":
        return f"{names[1 - winner]} resigned: {names[winner]} wins"
    if result.get("reason") == "timeout":
        return f"{names[1 - winner]} ran out of time: {names[winner]} wins"
    scores = [int(s) for s in result["scores"]]
    tie = " (a tie: reached space 53 first)" if scores[0] == scores[1] else ""
    return f"{names[winner]} wins {signed(scores[winner], minus)} to {signed(scores[1 - winner], minus)}{tie}"

"""The one-line state of a game, in words of any of the service's languages, shared by the SVG and the text picture."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from service.languages import DEFAULT_LANGUAGE, Text


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


def clock_line(game: Mapping, names: Sequence[str], language: str = DEFAULT_LANGUAGE) -> str | None:
    """Each seat's time left as of the version ("Time: Ada 4:59 | Bo 5:00, Ada's running"), None without a clock."""
    clock = game.get("clock")
    if not clock:
        return None
    left = [time_left(ms) for ms in clock["remaining_ms"]]
    running = clock.get("running")
    values = {"first": names[0], "first_left": left[0], "second": names[1], "second_left": left[1]}
    if running is None:
        return Text("Time: {first} {first_left} | {second} {second_left}", values).in_language(language)
    values["running"] = names[int(running)]
    return Text(
        "Time: {first} {first_left} | {second} {second_left}, {running}'s running", values
    ).in_language(language)


def status_line(
    game: Mapping, names: Sequence[str], minus: str = "-", language: str = DEFAULT_LANGUAGE
) -> str:
    """Who acts next ("Ada to play, move 12"), or the result; `names` already made safe for the output."""
    result = game.get("result")
    if result is None:
        seat = int(game["turn"])
        values = {"name": names[seat], "move": int(game["moves_played"]) + 1}
        if game["phase"] == "place_leather":
            return Text("{name} places a leather patch, move {move}", values).in_language(language)
        return Text("{name} to play, move {move}", values).in_language(language)
    if result.get("winner") is None:
        return Text("Aborted: no first move in time").in_language(language)
    winner = int(result["winner"])
    ended = {"loser": names[1 - winner], "winner": names[winner]}
    if result.get("reason") == "resigned":
        return Text("{loser} resigned: {winner} wins", ended).in_language(language)
    if result.get("reason") == "timeout":
        return Text("{loser} ran out of time: {winner} wins", ended).in_language(language)
    scores = [int(s) for s in result["scores"]]
    values = {
        "winner": names[winner],
        "score": signed(scores[winner], minus),
        "other": signed(scores[1 - winner], minus),
    }
    if scores[0] == scores[1]:
        return Text("{winner} wins {score} to {other} (a tie: reached space 53 first)", values).in_language(
            language
        )
    return Text("{winner} wins {score} to {other}", values).in_language(language)

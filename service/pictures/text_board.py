"""The game as plain text for terminals (`curl .../board.txt`): quilts side by side, the track, the circle.

A quilt cell shows the id of the patch covering it (so the cells of one
piece share a number), `##` for leather and `.` when empty. The track is
drawn straight, space 0 on the left. Names pass through
`safe_text.displayable`, so no escape sequence reaches the terminal.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from service.engine import LEATHER_PATCH_ID, PATCHES, TRACK_END
from service.languages import DEFAULT_LANGUAGE, N_, Text, translate

from .safe_text import display_width, displayable
from .seat_names import bot_mark, marked
from .status import clock_line, status_line

SEAT_LETTERS = ("A", "B")
QUILT_GAP = " " * 6
MARKET_COLUMN = 26
NAME_COLUMNS = 24
LINE_WIDTH = 78


def board_text(game: Mapping, language: str = DEFAULT_LANGUAGE) -> str:
    """The game (a `Game` view as docs/api-guide.md#resources defines it) as lines of UTF-8 text in `language`, ending in a newline."""
    players = game["players"]
    shown = [(displayable(p["name"]), bot_mark(p, language)) for p in players]
    names = [name + mark for name, mark in shown]
    clipped = [_clip(name, mark) for name, mark in shown]
    lines = [f"Patchwork: {status_line(game, names, language=language)}"]
    clock = clock_line(game, names, language)
    if clock is not None:
        lines.append(clock)
    lines.append("")
    for seat, player in enumerate(players):
        stats = Text(
            "buttons {buttons}  income {income}  score {score}  space {space}",
            {
                "buttons": int(player["buttons"]),
                "income": int(player["income"]),
                "score": int(player["score"]),
                "space": int(player["position"]),
            },
        ).in_language(language)
        bonus = "  " + translate(language, N_BONUS) if player["has_bonus"] else ""
        lines.append(f"{SEAT_LETTERS[seat]}  {clipped[seat]}  {stats}{bonus}")
    lines.append("")
    lines += _quilts(players, clipped)
    lines.append("")
    lines += _track(game, language)
    lines.append("")
    lines += _market(game["circle"], len(game["market"]), language)
    return "\n".join(lines) + "\n"


N_BONUS = N_("7x7 bonus")


def _clip(name: str, mark: str) -> str:
    """`name` and its bot `mark` cut to NAME_COLUMNS terminal columns (the mark kept whole), padded to exactly
    that many."""
    name = marked(name, mark, NAME_COLUMNS)
    return name + " " * (NAME_COLUMNS - display_width(name))


def _quilts(players, clipped: list[str]) -> list[str]:
    titles = [f"{SEAT_LETTERS[seat]}  {clipped[seat]}" for seat in (0, 1)]
    lines = [(titles[0] + _TITLE_PAD + titles[1]).rstrip(), _QUILT_HEADERS]
    left, right = players[0]["quilt"], players[1]["quilt"]
    for r in range(9):
        lines.append(
            f"{_ROW_LABELS[r]}{''.join(map(_CELL_TEXT.__getitem__, left[r]))}{QUILT_GAP}"
            f"{_ROW_LABELS[r]}{''.join(map(_CELL_TEXT.__getitem__, right[r]))}"
        )
    return lines


# What a quilt cell shows: the covering patch's id, ## for leather, . when empty.
_CELL_TEXT: dict[int | None, str] = {
    None: "  .",
    LEATHER_PATCH_ID: " ##",
    **{patch_id: f"{patch_id:3d}" for patch_id in PATCHES},
}
_ROW_LABELS = tuple(f"{r:2d} " for r in range(9))
_QUILT_HEADER = "   " + "".join(f"{c:3d}" for c in range(9))
_QUILT_HEADERS = _QUILT_HEADER + QUILT_GAP + _QUILT_HEADER
_TITLE_PAD = " " * (len(_QUILT_HEADER) - 3 - NAME_COLUMNS) + QUILT_GAP


def _track(game: Mapping, language: str) -> list[str]:
    marks = list(_PLAIN_TRACK)
    for space in game["income_spaces"]:
        marks[int(space)] = "$"
    for space in game["leather_spaces"]:
        marks[int(space)] = "L"
    lines = [translate(language, _TRACK_LEGEND), _TRACK_RULER, "".join(marks)]
    for seat, player in enumerate(game["players"]):
        position = int(player["position"])
        where = Text("space {space}", {"space": position}).in_language(language)
        lines.append(f"{' ' * position}{SEAT_LETTERS[seat]}  {where}")
    return lines


_PLAIN_TRACK = "\u00b7" * (TRACK_END + 1)
_TRACK_LEGEND = N_("time track: $ pays button income, L leather patch still there")
_TRACK_RULER = "".join(f"{tens:<10d}" for tens in range(0, TRACK_END + 1, 10)).rstrip()


def _market(circle, market_size: int, language: str) -> list[str]:
    market = [int(p) for p in circle[:market_size]]
    lines = [translate(language, N_("market: the next three patches, one may be bought (shape as printed)"))]
    if market:
        drawings = [_market_drawing(p, language) for p in market]
        height = max(len(drawing) for drawing in drawings)
        for r in range(height):
            lines.append("".join(d[r] if r < len(d) else _BLANK_COLUMN for d in drawings).rstrip())
    rest = [int(p) for p in circle[market_size:]]
    if rest:
        lines.append("")
        lines += _wrapped(
            translate(language, N_("then around the circle (#id cost/time):")),
            [f"#{p} {PATCHES[p].cost}/{PATCHES[p].time}" for p in rest],
        )
    return lines


_BLANK_COLUMN = " " * MARKET_COLUMN


@cache
def _market_drawing(patch_id: int, language: str) -> tuple[str, ...]:
    """A market column: the caption, then the shape as printed, each line MARKET_COLUMN wide."""
    patch = PATCHES[patch_id]
    caption = Text(
        "#{patch} cost {cost} time {time} +{income}",
        {"patch": patch_id, "cost": patch.cost, "time": patch.time, "income": patch.income},
    )
    lines = [caption.in_language(language)]
    lines += ["".join("\u2588\u2588" if char == "X" else "  " for char in row) for row in patch.shape]
    return tuple(line.ljust(MARKET_COLUMN) for line in lines)


def _wrapped(title: str, items: list[str]) -> list[str]:
    lines, line = [], title
    for item in items:
        if len(line) + 2 + len(item) > LINE_WIDTH:
            lines.append(line)
            line = " "
        line += "  " + item
    lines.append(line)
    return lines

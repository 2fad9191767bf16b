"""The game as plain text for terminals (`curl .../board.txt`): quilts side by side, the track, the circle.

A quilt cell shows the id of the patch covering it (so the cells of one
piece share a number), `##` for leather and `.` when empty. The track is
drawn straight, space 0 on the left. Names pass through
`safe_text.displayable`, so no escape sequence reaches the terminal.
"""

from __future__ import annotations

from collections.abc import Mapping

from service.engine import LEATHER_PATCH_ID, PATCHES

from .safe_text import display_width, displayable
from .status import status_line

SEAT_LETTERS = ("A", "B")
QUILT_GAP = " " * 6
MARKET_COLUMN = 26
NAME_COLUMNS = 24
LINE_WIDTH = 78


def board_text(game: Mapping) -> str:
    """The game (a `Game` view as API.md defines it) as lines of UTF-8 text ending in a newline."""
    players = game["players"]
    names = [displayable(p["name"]) for p in players]
    lines = [f"Patchwork: {status_line(game, names)}", ""]
    for seat, player in enumerate(players):
        bonus = "  7x7 bonus" if player["has_bonus"] else ""
        lines.append(f"{SEAT_LETTERS[seat]}  {_clip(names[seat])}  buttons {int(player['buttons'])}  "
                     f"income {int(player['income'])}  score {int(player['score'])}  "
                     f"space {int(player['position'])}{bonus}")
    lines.append("")
    lines += _quilts(players, names)
    lines.append("")
    lines += _track(game)
    lines.append("")
    lines += _market(game["circle"], len(game["market"]))
    return "\n".join(lines) + "\n"


def _clip(name: str) -> str:
    """`name` cut to NAME_COLUMNS terminal columns, padded to exactly that many."""
    if display_width(name) > NAME_COLUMNS:
        while display_width(name) > NAME_COLUMNS - 1:
            name = name[:-1]
        name += "\u2026"
    return name + " " * (NAME_COLUMNS - display_width(name))


def _quilts(players, names: list[str]) -> list[str]:
    header = "   " + "".join(f"{c:3d}" for c in range(9))
    width = len(header)
    titles = [f"{SEAT_LETTERS[seat]}  {_clip(names[seat])}" for seat in (0, 1)]
    lines = [titles[0] + " " * (width - 3 - NAME_COLUMNS) + QUILT_GAP + titles[1],
             header + QUILT_GAP + header]
    rows = [[_quilt_row(r, row) for r, row in enumerate(player["quilt"])] for player in players]
    lines += [left + QUILT_GAP + right for left, right in zip(*rows)]
    return [line.rstrip() for line in lines]


def _quilt_row(number: int, row) -> str:
    return f"{number:2d} " + "".join(_cell(patch_id) for patch_id in row)


def _cell(patch_id) -> str:
    if patch_id is None:
        return "  ."
    if patch_id == LEATHER_PATCH_ID:
        return " ##"
    return f"{int(patch_id):3d}"


def _track(game: Mapping) -> list[str]:
    end = int(game["track_length"])
    marks = ["\u00b7"] * (end + 1)
    for space in game["income_spaces"]:
        marks[int(space)] = "$"
    for space in game["leather_spaces"]:
        marks[int(space)] = "L"
    ruler = "".join(f"{tens:<10d}" for tens in range(0, end + 1, 10)).rstrip()
    lines = ["time track: $ pays button income, L leather patch still there",
             ruler, "".join(marks)]
    for seat, player in enumerate(game["players"]):
        position = int(player["position"])
        lines.append(" " * position + SEAT_LETTERS[seat] + f"  space {position}")
    return lines


def _market(circle, market_size: int) -> list[str]:
    market = [int(p) for p in circle[:market_size]]
    lines = ["market: the next three patches, one may be bought (shape as printed)"]
    if market:
        lines.append("".join(_caption(p).ljust(MARKET_COLUMN) for p in market).rstrip())
        height = max(len(PATCHES[p].shape) for p in market)
        for r in range(height):
            lines.append("".join(_shape_row(p, r).ljust(MARKET_COLUMN) for p in market).rstrip())
    rest = [int(p) for p in circle[market_size:]]
    if rest:
        lines.append("")
        lines += _wrapped("then around the circle (#id cost/time):",
                          [f"#{p} {PATCHES[p].cost}/{PATCHES[p].time}" for p in rest])
    return lines


def _caption(patch_id: int) -> str:
    patch = PATCHES[patch_id]
    return f"#{patch_id} cost {patch.cost} time {patch.time} +{patch.income}"


def _shape_row(patch_id: int, row: int) -> str:
    shape = PATCHES[patch_id].shape
    if row >= len(shape):
        return ""
    return "".join("\u2588\u2588" if char == "X" else "  " for char in shape[row])


def _wrapped(title: str, items: list[str]) -> list[str]:
    lines, line = [], title
    for item in items:
        if len(line) + 2 + len(item) > LINE_WIDTH:
            lines.append(line)
            line = " "
        line += "  " + item
    lines.append(line)
    return lines

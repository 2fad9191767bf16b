"""The whole game as one SVG: both quilts, the time track between them, the circle of patches below.

Input is the public `Game` view (the dict GET /games/{id} serves), so the
route renders what it would serve, with no second read of the store.
Layout (900 px wide): a title bar with whose turn it is or the result; per
seat a header (name, buttons, income, score) over its quilt; the spiral
track in the middle; the market's three patches, then the rest of the circle
in order. What never changes with the game (the quilt grids, the track's
spaces) is drawn once at import, the labels once per language; a render
joins cached fragments. Labels are in any of the service's languages.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache

from service.engine import PATCHES, TRACK_END
from service.languages import DEFAULT_LANGUAGE, N_, Plural, Text, translate

from .icons import OUTLINE_COLOUR, button_svg, hourglass_svg
from .patch_picture import price_svg, price_width, printed_cells
from .pieces import EMPTY_COLOUR, LEATHER_COLOUR, PIECE_STROKE, normalized, piece_svg, quilt_pieces
from .safe_text import clipped, displayable, svg_text
from .seat_names import bot_mark, marked
from .status import signed, status_line, time_left
from .svg_document import TEXT_COLOUR, svg_document
from .track_layout import SPACE_CELLS, TRACK_COLUMNS

WIDTH = 900
MARGIN = 30
CELL = 32
QUILT = 9 * CELL
QUILT_X = (MARGIN, WIDTH - MARGIN - QUILT)
TOP = 126
TRACK_X = (WIDTH - TRACK_COLUMNS * CELL) // 2
MARKET_Y = 484
MARKET_CELL = 22
MARKET_SLOT = 150
LEGEND_X = MARGIN + 3 * MARKET_SLOT + 16
CIRCLE_Y = 652
CIRCLE_CELL = 9
CIRCLE_SLOT = 56
CIRCLE_PER_ROW = 15
CIRCLE_ROW = 64
HEIGHT = CIRCLE_Y + 2 * CIRCLE_ROW + 8
SEAT_COLOURS = ("#d1495b", "#00798c")
MUTED = "#7a6f64"
TRACK_TILE = "#efe4cc"
MINUS = "\u2212"
# The title bar's right part, after "Patchwork" and before the turn marker.
STATUS_ROOM = WIDTH - 2 * MARGIN - 150
# Longer names are cut (with an ellipsis) where they are shown: at 12 px, 22 em
# fill the width of a quilt, and two names of 23 em the title bar.
NAME_EMS = (QUILT - 24) / 12
STATUS_NAME_EMS = 23


def board_svg(game: Mapping, language: str = DEFAULT_LANGUAGE) -> str:
    """The game (a `Game` view as docs/api-guide.md#resources defines it) drawn as a standalone SVG document, labelled in `language`."""
    shown = [displayable(player["name"]) for player in game["players"]]
    marks = [bot_mark(player, language) for player in game["players"]]
    result = game.get("result")
    in_status = [
        marked(name, mark, STATUS_NAME_EMS, em_width) for name, mark in zip(shown, marks, strict=True)
    ]
    body = [_STATIC, _title_bar(game, in_status, result, language)]
    for seat in (0, 1):
        name = clipped(shown[seat], NAME_EMS - em_width(marks[seat]), em_width)
        body.append(_player(game, seat, name, marks[seat], result, language))
    body.append(_track(game, language))
    body.append(_circle(game["circle"], len(game["market"]), language))
    body.append(_legend_text(game["bonus_owner"] is None, language))
    names = {
        "first": svg_text(shown[0] + marks[0]),
        "second": svg_text(shown[1] + marks[1]),
        "move": int(game["moves_played"]),
    }
    title = Text("Patchwork: {first} against {second}, move {move}", names).in_language(language)
    return svg_document(WIDTH, HEIGHT, title, "".join(body))


# --- title bar ---------------------------------------------------------------


def _winner(result: Mapping) -> str:
    """The winning seat as the attribute shows it: "none" for an aborted game."""
    return "none" if result.get("winner") is None else str(int(result["winner"]))


def _title_bar(game: Mapping, shown: list[str], result: Mapping | None, language: str) -> str:
    """Whose turn it is, or the result; `shown` are the names as displayable text."""
    size, fit = _fitted(em_width(status_line(game, shown, MINUS, language)), STATUS_ROOM, 15.0)
    status = status_line(game, [svg_text(name) for name in shown], MINUS, language)
    if result is not None:
        return (
            f'<text class="result" data-winner="{_winner(result)}" x="{WIDTH - MARGIN}" '
            f'y="29" font-size="{size:.3g}" font-weight="bold" text-anchor="end" fill="#fff6dd"{fit}>'
            f"{status}</text>"
        )
    seat = int(game["turn"])
    return (
        f'<circle cx="{WIDTH - MARGIN - 6}" cy="23" r="7" fill="{SEAT_COLOURS[seat]}" '
        f'stroke="#fff6dd" stroke-width="1.5"/>'
        f'<text class="status" x="{WIDTH - MARGIN - 20}" y="28" font-size="{size:.3g}" '
        f'text-anchor="end" fill="#fff6dd"{fit}>{status}</text>'
    )


def em_width(text: str) -> float:
    """A generous estimate of `text`'s width in em in a bold sans-serif (no font metrics at hand)."""
    return sum(
        1.0 if unicodedata.east_asian_width(char) in "WF" else 0.8 if char.isupper() else 0.62
        for char in text
    )


def _fitted(ems: float, room: float, size: float) -> tuple[float, str]:
    """(font size, extra attributes) for text `ems` em wide in `room` px.

    Smaller when it would not fit at `size`, down to 12 px; if the estimate
    says it still overflows, also squeezed to `room` by textLength (browsers
    honour it; librsvg does not, and names are cut to fit at 12 px anyway).
    """
    if ems * size <= room:
        return size, ""
    size = max(12.0, room / ems)
    if ems * size <= room:
        return size, ""
    return size, f' textLength="{room:g}" lengthAdjust="spacingAndGlyphs"'


# --- players -----------------------------------------------------------------


def _player(
    game: Mapping, seat: int, shown_name: str, mark: str, result: Mapping | None, language: str
) -> str:
    player = game["players"][seat]
    say = _say(language)
    x = QUILT_X[seat]
    in_turn = result is None and game["turn"] == seat
    badge = None
    if in_turn:
        badge = _badge(x + QUILT, BADGE_Y, say(N_TO_PLAY), SEAT_COLOURS[seat], "to-play")
    elif result is not None and result.get("winner") is not None and int(result["winner"]) == seat:
        badge = _badge(x + QUILT, BADGE_Y, say(N_WINNER), "#b8860b", "winner")
    # The badge shares the name's row (the stats row below holds the clock): the name yields it room.
    name_room = QUILT - 24 - (0 if badge is None else badge.width + BADGE_GAP)
    parts = [
        f'<circle cx="{x + 8}" cy="78" r="8" fill="{SEAT_COLOURS[seat]}" '
        f'stroke="{OUTLINE_COLOUR}" stroke-width="1.5"/>',
        _name_text(x + 24, 84, shown_name, mark, name_room),
        f'<g fill="{TEXT_COLOUR}" font-size="14">',
        _STATS_BUTTONS[seat],
        f'<text x="{x + 20}" y="109"><tspan font-weight="bold">{int(player["buttons"])}</tspan>'
        f'<tspan dx="14" fill="{MUTED}">{say(N_INCOME)}</tspan> {int(player["income"])}'
        f'<tspan dx="14" fill="{MUTED}">{say(N_SCORE)}</tspan> '
        f'<tspan font-weight="bold">{signed(int(player["score"]), MINUS)}</tspan></text></g>',
    ]
    clock = game.get("clock")
    if clock:
        parts.append(_time_left(clock, seat, x + QUILT))
    if badge is not None:
        parts.append(badge.svg)
    parts.append(_quilt(player["quilt"], seat, x, in_turn))
    footer = Plural(
        "space {space} of {length} · {empty} empty",
        "space {space} of {length} · {empty} empty",
        "empty",
        {
            "space": int(player["position"]),
            "length": int(game["track_length"]),
            "empty": int(player["empty_cells"]),
        },
    ).in_language(language)
    parts.append(f'<text x="{x}" y="{TOP + QUILT + 22}" font-size="12" fill="{MUTED}">{footer}</text>')
    if player["has_bonus"]:
        parts.append(_bonus_tile(x + QUILT - 92, TOP + QUILT + 8, say(N_BONUS), seat))
    return "".join(parts)


# Under this much time left, a running clock is drawn red.
LOW_TIME_MS = 20_000


def _time_left(clock: Mapping, seat: int, right: int) -> str:
    """The seat's time left as of the version, at the end of its stats line; bold while it runs."""
    left = int(clock["remaining_ms"][seat])
    running = clock.get("running") == seat
    colour = "#b22222" if running and left < LOW_TIME_MS else TEXT_COLOUR if running else MUTED
    weight = ' font-weight="bold"' if running else ""
    return (
        f'<text class="clock" data-seat="{seat}" x="{right}" y="109" font-size="15" text-anchor="end" '
        f'fill="{colour}"{weight}>{time_left(left)}</text>'
    )


def _name_text(x: int, y: int, shown: str, mark: str, room: float) -> str:
    """The name in bold, a bot account's mark after it, smaller (and at worst squeezed) when they would not
    fit in `room` px."""
    size, fit = _fitted(em_width(shown + mark), room, 19.0)
    # The mark in the same run of text, so it follows the name wherever the name ends.
    after = f'<tspan class="bot-mark" fill="{MUTED}">{svg_text(mark)}</tspan>' if mark else ""
    return (
        f'<text class="name" x="{x}" y="{y}" font-size="{size:.3g}" font-weight="bold" '
        f'fill="{TEXT_COLOUR}"{fit}>{svg_text(shown)}{after}</text>'
    )


# The badges' top: level with the name (its baseline at 84), clear of the stats row and its clock.
BADGE_Y = 68
BADGE_GAP = 8


@dataclass(frozen=True)
class _Badge:
    svg: str
    width: float


def _badge(right: int, y: int, label: str, colour: str, kind: str) -> _Badge:
    """A pill with white bold `label` (escaped), its right end at `right`; `kind` names it for readers."""
    width = 10 + 7.4 * len(label)
    return _Badge(
        f'<g class="badge" data-kind="{kind}">'
        f'<rect x="{right - width:g}" y="{y}" width="{width:g}" height="20" rx="10" fill="{colour}"/>'
        f'<text x="{right - width / 2:g}" y="{y + 14}" font-size="12" font-weight="bold" '
        f'text-anchor="middle" fill="#ffffff">{label}</text></g>',
        width,
    )


def _bonus_tile(x: float, y: float, label: str, holder: int | None) -> str:
    """The 7x7 bonus tile: a small gold square marked 7, and a label to its right."""
    held = "none" if holder is None else holder
    return (
        f'<g class="bonus" data-holder="{held}"><rect x="{x:g}" y="{y:g}" width="18" height="18" rx="2" '
        f'fill="#f2c14e" stroke="{OUTLINE_COLOUR}" stroke-width="1"/>'
        f'<text x="{x + 9:g}" y="{y + 13:g}" font-size="10" font-weight="bold" text-anchor="middle" '
        f'fill="{TEXT_COLOUR}">7</text>'
        f'<text x="{x + 25:g}" y="{y + 13:g}" font-size="12" fill="{TEXT_COLOUR}">{label}</text></g>'
    )


def _quilt(quilt, seat: int, x: int, in_turn: bool) -> str:
    frame = SEAT_COLOURS[seat] if in_turn else "#b9ab97"
    placed = "".join([_placed_piece(patch_id, cells) for patch_id, cells in quilt_pieces(quilt)])
    return (
        f'<g class="quilt" data-seat="{seat}" transform="translate({x} {TOP})">{_QUILT_GRID}'
        f"<g {PIECE_STROKE}>{placed}</g>"
        f'<rect x="-3" y="-3" width="{QUILT + 6}" height="{QUILT + 6}" rx="4" fill="none" '
        f'stroke="{frame}" stroke-width="{3 if in_turn else 2}"/></g>'
    )


# A patch has at most 448 placements, so this holds every piece any game can
# show in a few MB; the bound only keeps a worker's memory predictable.
@lru_cache(maxsize=4096)
def _placed_piece(patch_id: int, cells: tuple[tuple[int, int], ...]) -> str:
    """A piece where it lies on a quilt, in the quilt's coordinates."""
    shape, top, left = normalized(cells)
    return f'<g transform="translate({left * CELL} {top * CELL})">{piece_svg(patch_id, shape, CELL)}</g>'


def _quilt_grid() -> str:
    lines = "".join(f"M{i * CELL} 0v{QUILT}M0 {i * CELL}h{QUILT}" for i in range(1, 9))
    return (
        f'<rect width="{QUILT}" height="{QUILT}" fill="{EMPTY_COLOUR}"/>'
        f'<path d="{lines}" stroke="#ddd2bf" stroke-width="1"/>'
    )


# --- time track --------------------------------------------------------------


def space_centre(space: int) -> tuple[int, int]:
    """Centre (x, y) of a track space in the board's coordinates."""
    row, col = SPACE_CELLS[space]
    return TRACK_X + col * CELL + CELL // 2, TOP + row * CELL + CELL // 2


def _track(game: Mapping, language: str) -> str:
    parts = [_track_spaces(tuple(game["income_spaces"])), _track_title(language)]
    for space in game["leather_spaces"]:
        x, y = space_centre(int(space))
        parts.append(
            f'<rect class="leather" data-space="{int(space)}" x="{x - 5}" y="{y - 4}" '
            f'width="14" height="14" rx="1.5" fill="{LEATHER_COLOUR}" stroke="{OUTLINE_COLOUR}" '
            f'stroke-width="1"/>'
        )
    positions = [int(p["position"]) for p in game["players"]]
    # On a shared space the seat that arrived last is on top: the one in turn.
    order = (1, 0) if game.get("turn") == 0 else (0, 1)
    for seat in order:
        x, y = space_centre(positions[seat])
        shift = (-6 if seat == 0 else 6) if positions[0] == positions[1] else 0
        parts.append(
            f'<circle class="token" data-seat="{seat}" data-position="{positions[seat]}" '
            f'cx="{x + shift}" cy="{y}" r="9" fill="{SEAT_COLOURS[seat]}" '
            f'stroke="{OUTLINE_COLOUR}" stroke-width="2"/>'
        )
    return "".join(parts)


@cache
def _track_spaces(income_spaces: tuple[int, ...]) -> str:
    centres = [space_centre(space) for space in range(len(SPACE_CELLS))]
    road = "L".join(f"{x} {y}" for x, y in centres)
    parts = [f'<path d="M{road}" fill="none" stroke="#c9b48c" stroke-width="12" stroke-linejoin="round"/>']
    parts.append(f'<g stroke="#b39c74" fill="{TRACK_TILE}">')
    goal = ' fill="#e7cf95"'
    parts += [
        f'<rect class="space" data-space="{space}" x="{x - 14}" y="{y - 14}" width="28" height="28" '
        f'rx="5"{goal if space == TRACK_END else ""}/>'
        for space, (x, y) in enumerate(centres)
    ]
    parts.append(f'</g><g font-size="7.5" fill="{MUTED}">')
    parts += [f'<text x="{x - 11}" y="{y - 5}">{space}</text>' for space, (x, y) in enumerate(centres)]
    parts.append("</g>")
    parts += [button_svg(x + 2, y + 3, 7) for space, (x, y) in enumerate(centres) if space in income_spaces]
    return "".join(parts)


@cache
def _track_title(language: str) -> str:
    return (
        f'<text x="{TRACK_X + TRACK_COLUMNS * CELL // 2}" y="{TOP - 34}" font-size="13" '
        f'font-weight="bold" text-anchor="middle" fill="{MUTED}">{_say(language)(N_TIME_TRACK)}</text>'
    )


# --- market and circle -------------------------------------------------------


@dataclass(frozen=True)
class _Shelf:
    """A run of slots, wrapped in rows, showing patches as printed: the market or the rest of the circle."""

    kind: str
    x: int
    y: int
    slot: int
    per_row: int
    row: int
    cell: int
    text: int

    def origin(self, index: int) -> tuple[int, int]:
        row, col = divmod(index, self.per_row)
        return self.x + col * self.slot, self.y + row * self.row


MARKET = _Shelf("market-patch", MARGIN, MARKET_Y, MARKET_SLOT, 3, 0, MARKET_CELL, 15)
REST_OF_CIRCLE = _Shelf(
    "circle-patch", MARGIN, CIRCLE_Y, CIRCLE_SLOT, CIRCLE_PER_ROW, CIRCLE_ROW, CIRCLE_CELL, 10
)


def _circle(circle, market_size: int, language: str) -> str:
    market = [int(p) for p in circle[:market_size]]
    rest = [int(p) for p in circle[market_size:]]
    parts = [
        _circle_titles(language) if rest else _market_title(language),
        '<g fill="#fbf8f1" stroke="#e2d8c6">',
        _backgrounds(MARKET, len(market)),
        _backgrounds(REST_OF_CIRCLE, len(rest)),
        f"</g><g {PIECE_STROKE}>",
    ]
    parts += [_shelf_piece(MARKET, patch_id, index) for index, patch_id in enumerate(market)]
    parts += [_shelf_piece(REST_OF_CIRCLE, patch_id, index) for index, patch_id in enumerate(rest)]
    parts.append(f'</g><g fill="{TEXT_COLOUR}">')
    parts += [_shelf_price(MARKET, patch_id, index) for index, patch_id in enumerate(market)]
    parts += [_shelf_price(REST_OF_CIRCLE, patch_id, index) for index, patch_id in enumerate(rest)]
    parts.append("</g>")
    return "".join(parts)


@cache
def _backgrounds(shelf: _Shelf, count: int) -> str:
    """The cards under the first `count` slots of `shelf`."""
    height = 4 * shelf.cell + 2.1 * shelf.text + 10
    return "".join(
        f'<rect x="{x - 3}" y="{y - 4}" width="{shelf.slot - 8}" height="{height:g}" rx="6"/>'
        for x, y in map(shelf.origin, range(count))
    )


@cache
def _shelf_piece(shelf: _Shelf, patch_id: int, index: int) -> str:
    """Patch `patch_id` as printed, centred in slot `index` of `shelf`."""
    x, y = shelf.origin(index)
    left = x + (shelf.slot - 14 - len(PATCHES[patch_id].shape[0]) * shelf.cell) / 2
    return (
        f'<g class="{shelf.kind}" data-patch-id="{patch_id}" transform="translate({left:g} {y})">'
        f"{piece_svg(patch_id, printed_cells(patch_id), shelf.cell)}</g>"
    )


@cache
def _shelf_price(shelf: _Shelf, patch_id: int, index: int) -> str:
    """The cost and time of `patch_id` under slot `index` of `shelf`, below room for 4 rows of cells."""
    x, y = shelf.origin(index)
    patch = PATCHES[patch_id]
    left = x + (shelf.slot - 14 - price_width(patch.cost, patch.time, shelf.text)) / 2
    return price_svg(left, y + 4 * shelf.cell + shelf.text + 2, patch.cost, patch.time, shelf.text)


@cache
def _legend_text(bonus_open: bool, language: str) -> str:
    """What the marks mean, and the 7x7 bonus tile while nobody holds it."""
    x, y = LEGEND_X, MARKET_Y
    say = _say(language)
    parts = [
        f'<g font-size="12" fill="{TEXT_COLOUR}">',
        button_svg(x + 8, y + 8, 7),
        f'<text x="{x + 24}" y="{y + 12}">{say(_LEGEND_INCOME)}</text>',
        f'<rect x="{x + 1}" y="{y + 27}" width="14" height="14" rx="1.5" fill="{LEATHER_COLOUR}" '
        f'stroke="{OUTLINE_COLOUR}"/>',
        f'<text x="{x + 24}" y="{y + 38}">{say(_LEGEND_LEATHER)}</text>',
        button_svg(x + 8, y + 60, 7),
        hourglass_svg(x + 8, y + 82, 14),
        f'<text x="{x + 24}" y="{y + 64}">{say(_LEGEND_COST)}</text>'
        f'<text x="{x + 24}" y="{y + 86}">{say(_LEGEND_TIME)}</text>',
    ]
    if bonus_open:
        parts.append(_bonus_tile(x - 1, y + 98, say(_LEGEND_BONUS), None))
    parts.append("</g>")
    return "".join(parts)


@cache
def _market_title(language: str) -> str:
    say = _say(language)
    market = say(N_MARKET)
    return (
        f'<text x="{MARGIN}" y="{MARKET_Y - 14}" font-size="14" font-weight="bold" '
        f'fill="{TEXT_COLOUR}">{market}</text><text x="{MARGIN + 12 + 9 * len(market)}" y="{MARKET_Y - 14}" '
        f'font-size="12" fill="{MUTED}">{say(_MARKET_NOTE)}</text>'
    )


@cache
def _circle_titles(language: str) -> str:
    return (
        f'{_market_title(language)}<text x="{MARGIN}" y="{CIRCLE_Y - 14}" font-size="13" '
        f'font-weight="bold" fill="{TEXT_COLOUR}">{_say(language)(_REST_OF_CIRCLE)}</text>'
    )


def _say(language: str):
    """The labels of `language`, escaped for SVG text (a translation may hold an ampersand)."""
    return lambda message: svg_text(translate(language, message))


N_INCOME = N_("income")
N_MARKET = N_("market")
_MARKET_NOTE = N_("the next three patches after the neutral token: one may be bought")
_REST_OF_CIRCLE = N_("then around the circle")
_LEGEND_INCOME = N_("button income: on a patch, and paid on these spaces")
_LEGEND_LEATHER = N_("leather patch: the first to pass it takes it")
_LEGEND_COST = N_("cost in buttons")
_LEGEND_TIME = N_("time: spaces the buyer moves")
_LEGEND_BONUS = N_("7x7 bonus, 7 points: nobody has it yet")
N_SCORE = N_("score")
N_TO_PLAY = N_("to play")
N_WINNER = N_("winner")
N_BONUS = N_("7x7 bonus")
N_TIME_TRACK = N_("time track")
_QUILT_GRID = _quilt_grid()
_STATS_BUTTONS = tuple(button_svg(x + 8, 104, 7) for x in QUILT_X)
_STATIC = (
    f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#fbf6ec"/>'
    f'<rect width="{WIDTH}" height="44" fill="#4a3b31"/>'
    f'<text x="{MARGIN}" y="30" font-size="20" font-weight="bold" fill="#fff6dd">Patchwork</text>'
)

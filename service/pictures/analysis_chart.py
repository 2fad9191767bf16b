"""A game's analysis as a chart: seat 0's expected final margin after each move, the classed moves marked.

A pure function of the analysis body (GET /games/{id}/analysis), the
players' names and a language: its title, axis labels, legend and the
marks' tooltips are in that language, like board.svg's labels. The names
are the only text from outside and go through `svg_text`, like board.svg's;
the translations are escaped too (one may hold an ampersand).

The x axis is ticked at round move numbers. Each move also has a line
across the plot at its x, drawn with no stroke and named by its number
(`<line class="move-at" data-number="12">`): a page that shows the chart
inline and steps through the moves marks the move it shows by styling that
line, with no geometry of its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from service.languages import DEFAULT_LANGUAGE, N_, number, translate

from .safe_text import clipped, svg_text
from .svg_document import TEXT_COLOUR, svg_document

WIDTH, HEIGHT = 640, 280
_LEFT, _RIGHT, _TOP, _BOTTOM = 48, 16, 40, 44
_MARK_COLOURS = {"inaccuracy": "#e0a400", "mistake": "#e06c00", "blunder": "#c0262d"}
# The classes as the legend and the marks' tooltips name them.
_CLASS_NAMES = {"inaccuracy": N_("inaccuracy"), "mistake": N_("mistake"), "blunder": N_("blunder")}
_AHEAD_UP, _AHEAD_DOWN = N_("{name} ahead ↑"), N_("{name} ahead ↓")
_MOVES_AXIS, _POINTS_AXIS = N_("move number →"), N_("margin (points)")
_MARK_TITLE = N_("move {number}: {kind}, {loss} points lost")
_TITLE = N_("Analysis: {first} against {second}")
_NAME_CHARS = 24
_LEGEND_STEP = 96
# Move numbers are ticked every this many moves: the first step that leaves at most _MOST_TICKS ticks.
_TICK_STEPS = (1, 2, 5, 10, 20, 50, 100)
_MOST_TICKS = 10


def tick_step(moves: int) -> int:
    """How many moves apart the x axis's ticks are for a game of `moves` moves."""
    return next((step for step in _TICK_STEPS if moves / step <= _MOST_TICKS), _TICK_STEPS[-1])


def _margin_for_seat0(move: Mapping) -> float:
    after = float(move["eval_after"])
    return after if move["seat"] == 0 else -after


def _say(language: str, message: str, **values: object) -> str:
    """`message` in `language`, escaped for SVG; `values` (already SVG-safe) filled in after translation."""
    return svg_text(translate(language, message)).format_map(values)


def analysis_svg(analysis: Mapping, names: Sequence[str], language: str = DEFAULT_LANGUAGE) -> str:
    """The chart as a standalone SVG document, labelled in `language`."""
    moves = list(analysis["moves"])
    values = [_margin_for_seat0(m) for m in moves] or [0.0]
    top = max(10.0, max(abs(v) for v in values))
    plot_w, plot_h = WIDTH - _LEFT - _RIGHT, HEIGHT - _TOP - _BOTTOM
    middle = _TOP + plot_h / 2

    def x(index: int) -> float:
        return _LEFT + plot_w * (index + 1) / max(1, len(moves))

    def y(value: float) -> float:
        return middle - (plot_h / 2) * value / top

    first, second = (svg_text(clipped(name, _NAME_CHARS)) for name in names)
    points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
    marks = "".join(
        f'<circle cx="{x(i):.1f}" cy="{y(values[i]):.1f}" r="4" fill="{_MARK_COLOURS[m["class"]]}">'
        "<title>"
        + _say(
            language,
            _MARK_TITLE,
            number=int(m["number"]),
            kind=_say(language, _CLASS_NAMES[m["class"]]),
            loss=number(round(float(m["loss"]), 1), language),
        )
        + "</title></circle>"
        for i, m in enumerate(moves)
        if m["class"] in _MARK_COLOURS
    )
    bottom = HEIGHT - _BOTTOM
    step = tick_step(len(moves))
    ticks = "".join(
        f'<line x1="{x(i):.1f}" y1="{bottom}" x2="{x(i):.1f}" y2="{bottom + 4}" stroke="#999"/>'
        f'<text x="{x(i):.1f}" y="{bottom + 15}" font-size="11" text-anchor="middle" fill="{TEXT_COLOUR}">'
        f"{int(m['number'])}</text>"
        for i, m in enumerate(moves)
        if int(m["number"]) % step == 0
    )
    move_lines = "".join(
        f'<line class="move-at" data-number="{int(m["number"])}" x1="{x(i):.1f}" y1="{_TOP}" '
        f'x2="{x(i):.1f}" y2="{bottom}" stroke="none"/>'
        for i, m in enumerate(moves)
    )
    body = (
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#fbf8f2"/>'
        f'<text x="{_LEFT}" y="16" font-size="13" fill="{TEXT_COLOUR}">'
        f"{_say(language, _AHEAD_UP, name=first)}</text>"
        f'<text x="{_LEFT}" y="{HEIGHT - 8}" font-size="13" fill="{TEXT_COLOUR}">'
        f"{_say(language, _AHEAD_DOWN, name=second)}</text>"
        f'<text x="{WIDTH - _RIGHT}" y="{HEIGHT - 8}" font-size="11" text-anchor="end" fill="{TEXT_COLOUR}">'
        f"{_say(language, _MOVES_AXIS)}</text>"
        f'<line x1="{_LEFT}" y1="{middle:.1f}" x2="{WIDTH - _RIGHT}" y2="{middle:.1f}" stroke="#999"/>'
        f'<text x="4" y="{_TOP + 4}" font-size="11" fill="{TEXT_COLOUR}">+{top:.0f}</text>'
        f'<text transform="translate(16 {middle:.1f}) rotate(-90)" font-size="11" text-anchor="middle" '
        f'fill="{TEXT_COLOUR}">{_say(language, _POINTS_AXIS)}</text>'
        f'<text x="4" y="{bottom}" font-size="11" fill="{TEXT_COLOUR}">-{top:.0f}</text>'
        f'<line x1="{_LEFT}" y1="{bottom}" x2="{WIDTH - _RIGHT}" y2="{bottom}" stroke="#ccc"/>{ticks}{move_lines}'
        f'<polyline points="{points}" fill="none" stroke="#3a5f8f" stroke-width="2"/>{marks}'
        f"{_legend(language)}"
    )
    title = _say(language, _TITLE, first=first, second=second)
    return svg_document(WIDTH, HEIGHT, title, body)


def _legend(language: str) -> str:
    """The marks' colours and the classes they stand for, top right."""
    left = WIDTH - _RIGHT - _LEGEND_STEP * len(_MARK_COLOURS)
    return "".join(
        f'<circle cx="{left + i * _LEGEND_STEP + 4}" cy="12" r="4" fill="{colour}"/>'
        f'<text x="{left + i * _LEGEND_STEP + 12}" y="16" font-size="11" fill="{TEXT_COLOUR}">'
        f"{_say(language, _CLASS_NAMES[kind])}</text>"
        for i, (kind, colour) in enumerate(_MARK_COLOURS.items())
    )

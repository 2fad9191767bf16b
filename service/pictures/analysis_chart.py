"""A game's analysis as a chart: seat 0's expected final margin after each move, the classed moves marked.

A pure function of the analysis body (GET /games/{id}/analysis) and the
players' names; the names are the only text from outside and go through
`svg_text`, like board.svg's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .safe_text import clipped, svg_text
from .svg_document import TEXT_COLOUR, svg_document

WIDTH, HEIGHT = 640, 280
_LEFT, _RIGHT, _TOP, _BOTTOM = 48, 16, 40, 32
_MARK_COLOURS = {"inaccuracy": "#e0a400", "mistake": "#e06c00", "blunder": "#c0262d"}
_NAME_CHARS = 24


def _margin_for_seat0(move: Mapping) -> float:
    after = float(move["eval_after"])
    return after if move["seat"] == 0 else -after


def analysis_svg(analysis: Mapping, names: Sequence[str]) -> str:
    """The chart as a standalone SVG document."""
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
        f"<title>move {int(m['number'])}: {m['class']}, {float(m['loss']):.1f} points lost</title></circle>"
        for i, m in enumerate(moves)
        if m["class"] in _MARK_COLOURS
    )
    body = (
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#fbf8f2"/>'
        f'<text x="{_LEFT}" y="16" font-size="13" fill="{TEXT_COLOUR}">{first} ahead ↑</text>'
        f'<text x="{_LEFT}" y="{HEIGHT - 8}" font-size="13" fill="{TEXT_COLOUR}">{second} ahead ↓</text>'
        f'<line x1="{_LEFT}" y1="{middle:.1f}" x2="{WIDTH - _RIGHT}" y2="{middle:.1f}" stroke="#999"/>'
        f'<text x="4" y="{_TOP + 4}" font-size="11" fill="{TEXT_COLOUR}">+{top:.0f}</text>'
        f'<text x="4" y="{HEIGHT - _BOTTOM}" font-size="11" fill="{TEXT_COLOUR}">-{top:.0f}</text>'
        f'<polyline points="{points}" fill="none" stroke="#3a5f8f" stroke-width="2"/>{marks}'
    )
    return svg_document(WIDTH, HEIGHT, f"Analysis: {first} against {second}", body)

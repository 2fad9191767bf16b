"""The two small pictures used everywhere: a sewing button and an hourglass.

Each is defined once per document (`ICON_DEFS`, a `<symbol>` in `<defs>`) and
placed with `<use href="#...">`: a board shows about a hundred of them, and a
reference to an id in the same document is all the SVG ever points at.
Ids carry a `pw-` prefix so they stay apart from a page's own when the SVG
is inlined; two boards inlined in one page define them identically.
"""

from __future__ import annotations

OUTLINE_COLOUR = "#2b2622"
BUTTON_COLOUR = "#2f63b0"
BUTTON_HOLES = "#d5e3f7"

# Drawn in a 20 x 20 box centred on (0, 0), scaled by each <use>.
ICON_DEFS = (
    "<defs>"
    '<symbol id="pw-button" viewBox="-10 -10 20 20">'
    f'<circle r="9.1" fill="{BUTTON_COLOUR}" stroke="#ffffff" stroke-width="1.8"/>'
    f'<g fill="{BUTTON_HOLES}" stroke="none"><circle cx="-3" cy="-3" r="1.4"/><circle cx="3" cy="-3" r="1.4"/>'
    '<circle cx="-3" cy="3" r="1.4"/><circle cx="3" cy="3" r="1.4"/></g></symbol>'
    '<symbol id="pw-hourglass" viewBox="-10 -10 20 20">'
    f'<path d="M-6.2 -9.3h12.4L0 0L6.2 9.3h-12.4L0 0Z" fill="#e8d6a8" stroke="{OUTLINE_COLOUR}" '
    'stroke-width="1.4" stroke-linejoin="round"/></symbol>'
    "</defs>"
)


def button_svg(x: float, y: float, radius: float) -> str:
    """A sewing button of `radius` centred on (x, y)."""
    return (
        f'<use href="#pw-button" x="{x - radius:.4g}" y="{y - radius:.4g}" '
        f'width="{2 * radius:.3g}" height="{2 * radius:.3g}"/>'
    )


def hourglass_svg(x: float, y: float, height: float) -> str:
    """An hourglass (the time a patch costs) `height` tall, centred on (x, y)."""
    return (
        f'<use href="#pw-hourglass" x="{x - height / 2:.4g}" y="{y - height / 2:.4g}" '
        f'width="{height:.3g}" height="{height:.3g}"/>'
    )

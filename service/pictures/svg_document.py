"""The outer element every picture shares: self-contained SVG, nothing fetched, nothing run."""

from __future__ import annotations

from .icons import ICON_DEFS

TEXT_COLOUR = "#2b2622"
# Local fonts only: the route's Content-Security-Policy allows no font download, and none is needed.
FONT_FAMILY = "'DejaVu Sans', 'Segoe UI', Roboto, Helvetica, Arial, sans-serif"


def svg_document(width: float, height: float, title: str, body: str) -> str:
    """A standalone SVG document of `width` x `height` px; `title` and `body` are already XML-safe."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
        f'viewBox="0 0 {width:g} {height:g}" role="img" font-family="{FONT_FAMILY}">'
        f"<title>{title}</title>{ICON_DEFS}{body}</svg>"
    )

"""Pictures of a game: pure functions from a position to SVG or plain text, like python-chess's `chess.svg`.

- `board_svg(game)`: the whole game (a `Game` view, the dict GET /games/{id}
  serves) as a standalone SVG document.
- `patch_svg(patch_id, rotation=0, flipped=False)`: one patch with its
  printed buttons, cost and time.
- `board_text(game)`: the same game as plain text for terminals.

They import the engine and the standard library only, and know nothing of
HTTP: routes wrap them.

Why strings rather than an SVG library such as drawsvg: every picture is a
few kinds of element (paths, rects, circles, text) in a fixed layout, which
f-strings say directly; a board must cost no more than a few game reads
(well under a millisecond), and most of it is fragments drawn once and
cached (quilt grid, track spaces, each patch shape), which a library would
rebuild as objects and serialize on every call; and the safety rules are
easiest to prove in one place: the only text from a request is a player's
name, which goes through `safe_text.svg_text` (escaped, controls replaced),
everything else is numbers and our own words. The output has no script, no
stylesheet and no external reference (the one kind of reference is
`<use href="#pw-button">` to a symbol defined in the same document):
presentation attributes only, so it works as an `<img>`, inline in a page,
and under `default-src 'none'; style-src 'unsafe-inline'`.

Elements that tests and frontends can find: `g.quilt[data-seat]` holding one
`path.piece[data-patch-id]` per piece, `rect.space[data-space]` for the 54
track spaces, `circle.token[data-seat][data-position]`,
`rect.leather[data-space]`, `g.market-patch` and `g.circle-patch` in circle
order, `g.bonus[data-holder]`, `text.name` (with `tspan.bot-mark` in it for a
bot account, whose name carries " [BOT]" in every picture), `text.status`
while active and `text.result[data-winner]` when finished.
"""

from .analysis_chart import analysis_svg
from .board import board_svg
from .patch_picture import patch_svg
from .text_board import board_text

__all__ = ["analysis_svg", "board_svg", "board_text", "patch_svg"]

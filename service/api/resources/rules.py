"""/rules: the game taught to a player, in the request's language (or `?lang=`), with pictures the service draws.

The words are the project's own (docs/rules.md says what the engine
enforces; this page says it for a player), each paragraph a message of the
catalogues. The pictures are service.pictures': a board drawn from a game
a few moves in, and patches served by /patches/{id}.svg.
"""

from __future__ import annotations

from functools import cache

from flask import Blueprint
from markupsafe import escape

from service.api.bodies import StaticBody
from service.api.incoming import read_query
from service.api.languages import request_language
from service.api.people_pages import page_body, page_response, rich
from service.engine import new_game
from service.games.records import Seat, create_record
from service.games.views import game_view
from service.languages import LANGUAGE_NAMES, LANGUAGES, N_, translate
from service.pictures import board_svg

bp = Blueprint("rules", __name__)

# Each section: its heading, its paragraphs (a list's items start with "- "), and a picture after it.
_SECTIONS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    (
        N_("The game"),
        (
            N_(
                "Patchwork is a game for two. Each player sews a quilt on a board of 9 by 9 cells, out of patches "
                "bought with buttons and paid for in time. Whoever has the better quilt and more buttons at the "
                "end wins."
            ),
        ),
        "",
    ),
    (
        N_("Setup"),
        (
            N_(
                "- Each player starts with 5 buttons, an empty quilt board, and a time token on the first space of the time track."
            ),
            N_(
                "- The 33 patches lie in a circle in random order. The neutral token stands just after the "
                "smallest patch (the 1x2), so the smallest patch is the last of the circle."
            ),
            N_("- One player is chosen to start; at the start both tokens share the first space."),
        ),
        "board",
    ),
    (
        N_("Whose turn it is"),
        (
            N_(
                "There are no rounds: the player whose time token is further behind on the track plays, and may "
                "play several times in a row. When both tokens are on the same space, the one who arrived last "
                "(whose token is on top) plays."
            ),
        ),
        "",
    ),
    (
        N_("On your turn: one of two actions"),
        (
            N_(
                "**Advance and take buttons.** Move your time token to the space just in front of your "
                "opponent's, and take one button for each space you moved. You may always do this."
            ),
            N_(
                "**Buy and place a patch.** Choose one of the three patches that follow the neutral token. "
                "Pay its cost in buttons, place it on your quilt (turned or flipped any way, wholly on the board, "
                "over no other patch), and move your time token forward as many spaces as its time. The neutral "
                "token moves to where the patch was, so the patches you skipped come round again later."
            ),
            N_(
                "Each patch shows its cost in buttons, its time in hourglasses, and the buttons printed on it: "
                "its income."
            ),
        ),
        "patches",
    ),
    (
        N_("The time track: income and leather patches"),
        (
            N_(
                "- **Button income.** Each time your token passes a space marked with a button, take as many "
                "buttons as are printed on all the patches of your quilt. A patch bought on this turn already "
                "counts."
            ),
            N_(
                "- **Leather patches.** Five small 1x1 patches lie on the track. The first player to pass one "
                "takes it and must sew it at once on any empty cell of their own quilt. It fills a hole, and "
                "holes cost points at the end."
            ),
        ),
        "",
    ),
    (
        N_("The 7x7 bonus"),
        (
            N_(
                "The first player whose quilt fully covers a square of 7 by 7 cells, anywhere on the board, "
                "takes the bonus tile: 7 points. It is never lost and never shared."
            ),
        ),
        "",
    ),
    (
        N_("The end and the score"),
        (
            N_("The game ends when both time tokens have reached the last space of the track."),
            N_(
                "Your score is the buttons you hold, plus 7 with the bonus tile, minus 2 for each empty cell of "
                "your quilt. Buttons printed on patches do not count. Scores can be negative."
            ),
            N_("The higher score wins. On equal scores, the player who reached the last space first wins."),
        ),
        "",
    ),
)
_TITLE = N_("How to play Patchwork")
_PATCH_ALT = N_("A patch with its cost, time and income")
_INTRO = N_("The rules of the game as this service plays them.")
# Patches shown in the buying section: small, middling and large, with and without income.
_EXAMPLE_PATCHES = (1, 7, 13)


@bp.get("/rules")
def rules_page():
    """The rules, in `?lang=` when given, else the request's Accept-Language."""
    query = read_query("getRules")
    language = query.get("lang") or request_language()
    return page_response(_page(language), language)


@cache
def _page(language: str) -> StaticBody:
    return page_body(language, translate(language, _TITLE) + ": Patchwork", _page_main(language), home=".")


def _page_main(language: str) -> str:
    say = _say(language)
    others = " ".join(
        f'<a href="rules?lang={other}" hreflang="{other}" lang="{other}">{LANGUAGE_NAMES[other]}</a>'
        for other in LANGUAGES
        if other != language
    )
    parts = [
        f'<nav class="languages">{others}</nav>',
        f"<h1>{escape(say(_TITLE))}</h1>",
        f"<p>{escape(say(_INTRO))}</p>",
    ]
    for heading, paragraphs, picture in _SECTIONS:
        parts.append(f"<h2>{escape(say(heading))}</h2>")
        parts += _paragraphs([say(paragraph) for paragraph in paragraphs])
        if picture == "board":
            parts.append(f"<figure>{board_svg(_example_game(), language)}</figure>")
        elif picture == "patches":
            parts.append(
                "<figure>"
                + "".join(
                    f'<img src="patches/{patch}.svg?lang={language}" alt="{escape(say(_PATCH_ALT))}" width="160">'
                    for patch in _EXAMPLE_PATCHES
                )
                + "</figure>"
            )
    return "\n".join(parts)


def _paragraphs(texts: list[str]) -> list[str]:
    """Paragraphs, and runs of "- " items as a list; **bold** at the start of a text."""
    html, items = [], []
    for text in texts:
        if text.startswith("- "):
            items.append(f"<li>{_bold(text[2:])}</li>")
            continue
        if items:
            html.append(f"<ul>{''.join(items)}</ul>")
            items = []
        html.append(f"<p>{_bold(text)}</p>")
    if items:
        html.append(f"<ul>{''.join(items)}</ul>")
    return html


def _bold(text: str) -> str:
    if text.startswith("**") and "**" in text[2:]:
        strong, rest = text[2:].split("**", 1)
        return f"<strong>{rich(strong)}</strong>{rich(rest)}"
    return str(rich(text))


def _say(language: str):
    return lambda message: translate(language, message)


@cache
def _example_game() -> dict:
    """A game at its start, both seats with their 5 buttons, seat 0 to play: what the setup section shows."""
    state = new_game(seed=2014)
    record, _tokens = create_record(state, (Seat("Ada"), Seat("Ben")))
    return game_view(record, 1)

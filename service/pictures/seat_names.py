"""How the pictures name a seat: a bot account's name carries a bot mark.

A bot account (an outside engine playing through the API; `bot: true` in
the Game view) is a player whose name says nothing of what it is, so every
picture marks it. A seat the service's own level plays already bears the
name it was given ("Computer (deep)"), and a person's bears theirs: neither
is marked. The mark is text in the picture's language, never cut: a long
name yields it the room it needs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from service.languages import N_, translate

from .safe_text import clipped, display_width

N_BOT = N_("BOT")


def bot_mark(player: Mapping, language: str) -> str:
    """ " [BOT]" in `language` after a bot account's name; "" for a person's seat or a level's."""
    return f" [{translate(language, N_BOT)}]" if player.get("bot") is True else ""


def marked(name: str, mark: str, limit: float, width: Callable[[str], float] = display_width) -> str:
    """`name` cut so that it and its `mark` fit in `limit` (as `width` measures), the mark after it."""
    return clipped(name, limit - width(mark), width) + mark

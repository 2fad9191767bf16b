"""The compiled catalogues (locale/<language>/LC_MESSAGES/messages.mo), read once with the standard library's gettext.

English is the catalogues' source language: its messages are the msgids,
so it needs no catalogue. A message missing from a catalogue comes out in
English (gettext's own fallback), which the catalogue tests rule out.
"""

from __future__ import annotations

import gettext
from functools import cache
from importlib import resources

from .spoken import DEFAULT_LANGUAGE, LANGUAGES

DOMAIN = "messages"


@cache
def catalogue_of(language: str) -> gettext.NullTranslations:
    """The translations of `language` (one of LANGUAGES); English's translates nothing."""
    if language not in LANGUAGES:
        raise ValueError(f"{language!r} is not one of {', '.join(LANGUAGES)}")
    if language == DEFAULT_LANGUAGE:
        return gettext.NullTranslations()
    mo = resources.files(__package__).joinpath("locale", language, "LC_MESSAGES", f"{DOMAIN}.mo")
    with mo.open("rb") as data:
        return gettext.GNUTranslations(data)


def translate(language: str, message: str) -> str:
    """`message` (an English msgid) in `language`."""
    return catalogue_of(language).gettext(message)


def translate_plural(language: str, singular: str, plural: str, count: int) -> str:
    """The form of a message with a count that `language` uses for `count` (English: singular for 1 alone)."""
    return catalogue_of(language).ngettext(singular, plural, count)

"""The languages people read the service in, listed once in `spoken.py` (`LANGUAGES`).

What a person reads (problem titles and details, problem pages, /play,
/rules, the pictures' labels) is written in English in the code, marked as
a message, and translated from the gettext catalogues in locale/ (sources
`.po`, compiled `.mo`: tools/messages.py). This package imports nothing of
the project and nothing of the web: the API negotiates the language of a
request (`negotiate`), and every layer that writes text takes a language
and asks `translate`.
"""

from __future__ import annotations

from .catalogues import catalogue_of, translate, translate_plural
from .messages import N_, NP_, Plural, Text
from .negotiation import negotiate
from .numbers import DECIMAL_MARKS, number
from .spoken import DEFAULT_LANGUAGE, LANGUAGE_NAMES, LANGUAGES

__all__ = [
    "DECIMAL_MARKS",
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "NP_",
    "N_",
    "Plural",
    "Text",
    "catalogue_of",
    "negotiate",
    "number",
    "translate",
    "translate_plural",
]

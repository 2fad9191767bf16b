"""Numbers as each language writes them inside a text: a decimal point in English, a decimal comma in es, pt and fr."""

from __future__ import annotations

DECIMAL_MARKS = {"en": ".", "es": ",", "pt": ",", "fr": ","}


def number(value: float, language: str) -> str:
    """`value` as `language` writes it: Python's shortest form of the float ("5.0", "12.25"), its decimal
    mark the language's. Round first for fewer places; integers need none of this."""
    return repr(float(value)).replace(".", DECIMAL_MARKS[language])

"""A message before it is translated: its English text (the catalogues' msgid) and the values it names.

Placeholders are `{name}`, filled by str.format after translation, so a
translator may move them (a test proves every translation names the same
ones). A message with no values is shown as written, braces and all. Code marks its messages with `Text(...)` or `N_(...)`, the names
tools/messages.py extracts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .catalogues import translate
from .numbers import number
from .spoken import DEFAULT_LANGUAGE


def N_(message: str) -> str:
    """Mark `message` for the catalogues where it is written; it is translated where it is shown."""
    return message


@dataclass(frozen=True)
class Text:
    """A translatable message and its values: `str()` is the English, `in_language` any other."""

    message: str
    values: Mapping[str, Any] = field(default_factory=dict)

    def in_language(self, language: str) -> str:
        return self._filled(translate(language, self.message), language)

    def __str__(self) -> str:
        return self._filled(self.message, DEFAULT_LANGUAGE)

    def _filled(self, text: str, language: str) -> str:
        if not self.values:
            return text
        # A value that is itself a message (a reason inside a sentence) speaks the same language,
        # and a fraction takes the language's decimal mark.
        values = {
            name: value.in_language(language)
            if isinstance(value, Text)
            else number(value, language)
            if isinstance(value, float)
            else value
            for name, value in self.values.items()
        }
        return text.format_map(values)

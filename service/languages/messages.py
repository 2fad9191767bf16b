"""A message before it is translated: its English text (the catalogues' msgid) and the values it names.

Placeholders are `{name}`, filled by str.format after translation, so a
translator may move them (a test proves every translation names the same
ones). A message with no values is shown as written, braces and all. Code marks its messages with
`Text(...)` or `N_(...)`, and those with a count with `Plural(...)` or `NP_(...)`, the names
tools/messages.py extracts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .catalogues import translate, translate_plural
from .numbers import number
from .spoken import DEFAULT_LANGUAGE


def N_(message: str) -> str:
    """Mark `message` for the catalogues where it is written; it is translated where it is shown."""
    return message


def NP_(singular: str, plural: str) -> tuple[str, str]:
    """Mark a message with a count where it is written, its English singular and plural (see `Plural`)."""
    return singular, plural


@dataclass(frozen=True)
class Text:
    """A translatable message and its values: `str()` is the English, `in_language` any other.

    A message with a `plural` has words that depend on a number, the value named `count`:
    each language picks its form by its own rule (gettext's ngettext; French says "0 coup").
    """

    message: str
    values: Mapping[str, Any] = field(default_factory=dict)
    plural: str | None = None
    count: str | None = None

    def in_language(self, language: str) -> str:
        if self.plural is None:
            return self._filled(translate(language, self.message), language)
        return self._filled(translate_plural(language, self.message, self.plural, self._count()), language)

    def __str__(self) -> str:
        if self.plural is None:
            return self._filled(self.message, DEFAULT_LANGUAGE)
        return self._filled(self.message if self._count() == 1 else self.plural, DEFAULT_LANGUAGE)

    def _count(self) -> int:
        assert self.count is not None  # Plural names it
        return int(self.values[self.count])

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


def Plural(singular: str, plural: str, count: str, values: Mapping[str, Any]) -> Text:
    """A message whose words depend on the number `values[count]`: "{moves} move" / "{moves} moves"."""
    return Text(singular, values, plural=plural, count=count)

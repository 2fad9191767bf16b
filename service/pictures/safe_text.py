"""Text taken from requests (player names), made safe to show in SVG and in terminals.

A name may hold any Unicode the API accepts. XML 1.0 forbids most C0
control characters and lone surrogates, a terminal obeys escape sequences
(ESC is a C0 character) and bidirectional overrides can scramble a line, so
every such character becomes U+FFFD before the text is shown anywhere; the
SVG form is then XML-escaped, so `<script>` or `]]>` is shown as text.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

REPLACEMENT = "\ufffd"
# C0 and C1 controls (tab and newline included: a name is one line), lone
# surrogates, the two XML non-characters, and the bidirectional embeddings,
# overrides, isolates and marks.
_NOT_SHOWN = re.compile(
    "[\x00-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"
)
_XML_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"})


def displayable(text: str) -> str:
    """`text` with every character that must not reach a document or terminal replaced."""
    return _NOT_SHOWN.sub(REPLACEMENT, text)


def svg_text(text: str) -> str:
    """`text` as XML character data or an attribute value (either quote)."""
    return displayable(text).translate(_XML_ESCAPES)


def clipped(text: str, limit: float, width: Callable[[str], float] | None = None) -> str:
    """`text` cut to at most `limit` wide, an ellipsis marking a cut.

    Width is in terminal columns unless `width` measures it otherwise.
    """
    width = width or display_width
    if width(text) <= limit:
        return text
    while width(text) > limit - 1:
        text = text[:-1]
    return text + "\u2026"


def display_width(text: str) -> int:
    """Terminal columns `text` takes: East Asian wide and fullwidth characters take two."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)

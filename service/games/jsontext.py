"""Encoding the service's JSON texts: every response body and stored text.

orjson encodes a game view an order of magnitude faster than the standard
library, and every move encodes the view, the stored record and often an
answer to record. Request bodies are still parsed by the standard library
(incoming.py): orjson refuses integers beyond 64 bits, and such a number in
a request must reach the spec check and its pointed 400, not invalid_json.
"""

from __future__ import annotations

from typing import Any

import orjson

# JSON text this service encoded already (a stored view or history entry, a
# move's form encoded once), placed as it is inside a document `compact`
# encodes: documents are built whole, never spliced from strings by hand.
Fragment = orjson.Fragment


def compact(doc: Any) -> str:
    """`doc` as compact JSON text: no spaces, keys in insertion order, UTF-8 unescaped."""
    return orjson.dumps(doc).decode("utf-8")


def parse(text: str | bytes) -> Any:
    """A JSON text the service wrote itself (a stored record or answer) read back."""
    return orjson.loads(text)

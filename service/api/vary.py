"""The Vary header: what an answer was chosen by, for caches."""

from __future__ import annotations

from flask import Response


def add_vary(resp: Response, name: str) -> None:
    """Add the request header `name` to resp's Vary, unless it is named there already (any case).

    werkzeug's `resp.vary` parses the header into a set and writes it back
    at every change; this is run on every answer (CORS, compression,
    languages), where that cost more than the rest of the hooks.
    """
    current = resp.headers.get("Vary")
    if not current:
        resp.headers["Vary"] = name
    elif name.lower() not in (part.strip().lower() for part in current.split(",")):
        resp.headers["Vary"] = f"{current}, {name}"

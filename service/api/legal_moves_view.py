"""The legal-moves body, fast: each move's JSON is encoded once per process.

The start position alone has about a thousand legal buys; encoding each as a
dict on every request would dominate the endpoint. Legal moves come from a
finite set (the engine's canonical placements, 81 leather cells, advance), so
the encoded fragment of each is cached for the life of the process.
"""

from __future__ import annotations

from .jsontext import compact
from .schemas import move_body

_FRAGMENTS: dict = {}


def move_fragment(move) -> str:
    """The encoded request-body form of an engine move (canonical placement)."""
    text = _FRAGMENTS.get(move)
    if text is None:
        text = compact(move_body(move))
        _FRAGMENTS[move] = text
    return text


def legal_moves_text(version: int, turn: int | None, phase: str | None, moves) -> str:
    """GET /games/{id}/legal-moves body."""
    head = compact({"version": version, "turn": turn, "phase": phase})
    return f'{head[:-1]},"moves":[{",".join(move_fragment(m) for m in moves)}]}}'

"""Entity tags: the game version as a strong ETag, and the conditional headers.

Syntax is checked against the spec's header patterns before these run, so
parsing here can be simple; comparison follows RFC 9110 (strong for If-Match,
weak for If-None-Match).
"""

from __future__ import annotations

import re

_TAG = re.compile(r'\s*(W/)?"([^"]*)"\s*(?:,|$)')


def etag(version: int) -> str:
    """The strong entity tag of a game version."""
    return f'"{version}"'


def _tags(header: str) -> list[tuple[bool, str]]:
    """(is_weak, opaque) for each tag of a comma-separated list."""
    return [(bool(m.group(1)), m.group(2)) for m in _TAG.finditer(header)]


def if_match_holds(header: str, version: int) -> bool:
    """True when an If-Match header lets a move on this version proceed."""
    if header.strip() == "*":
        return True
    current = str(version)
    return any(not weak and opaque == current for weak, opaque in _tags(header))


def if_none_match_hits(header: str, version: int) -> bool:
    """True when If-None-Match names the current version (answer 304)."""
    if header.strip() == "*":
        return True
    current = str(version)
    return any(opaque == current for _weak, opaque in _tags(header))

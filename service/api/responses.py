"""Answers about one game: JSON from already-encoded text, its version as a strong ETag, and 304s.

Conditional headers are parsed by werkzeug (`request.if_match`,
`request.if_none_match`); their syntax has been checked against the spec's
header patterns first, so an unquoted or weak If-Match never gets here.
Comparison follows RFC 9110: strong for If-Match, weak for If-None-Match.
"""

from __future__ import annotations

from flask import Response, request

JSON_MIMETYPE = "application/json"


def etag(version: int) -> str:
    """The strong entity tag of a game version."""
    return f'"{version}"'


def if_match_versions() -> frozenset[str] | None:
    """The versions the request's If-Match (sent) names, as text; None for `*`, which names any.

    Only strong tags count: a move applies to exactly the version it names.
    """
    if_match = request.if_match
    if if_match.star_tag:
        return None
    return frozenset(if_match.as_set())


def json_body(text: str) -> str:
    """A JSON text as an answer's body: ended by a newline, as a text file's last line is.

    Every JSON and problem+json answer goes out through this, and only the
    answer: texts kept in Redis (a recorded answer included) stay as they
    were, so an answer recorded by an earlier version replays the same.
    A curl user's prompt starts on a line of its own.
    """
    return text + "\n"


def json_response(
    text: str, status: int = 200, *, version: int | None = None, location: str | None = None
) -> Response:
    """A JSON response; `version` sets the strong ETag."""
    resp = Response(json_body(text), status=status, mimetype=JSON_MIMETYPE)
    if version is not None:
        resp.headers["ETag"] = etag(version)
    if location is not None:
        resp.headers["Location"] = location
    return resp


def copy_is_current(tag: str, *, changed_in_place: bool = False) -> bool:
    """Whether the request's If-None-Match names `tag` (or is *) and a 304 may answer it.

    Never when the body `changed_in_place` at its version (a join, a seat's
    new name, a rematch offer: the version counts moves only), until the
    next move: the client's copy with this tag may be the body before, and a
    304 would keep it there (a host polling for its joiner, forever).
    """
    return not changed_in_place and request.if_none_match.contains_weak(tag)


def not_modified(version: int, *, changed_in_place: bool = False) -> Response | None:
    """A 304 when the client's copy of `version` is current (copy_is_current), else None."""
    if not copy_is_current(str(version), changed_in_place=changed_in_place):
        return None
    resp = Response(status=304)
    resp.headers["ETag"] = etag(version)
    return resp

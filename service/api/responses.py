"""Building JSON responses from already-encoded text, with the game's ETag."""

from __future__ import annotations

from flask import Response, request

from .conditions import etag, if_none_match_hits

JSON_MIMETYPE = "application/json"


def json_response(text: str, status: int = 200, *, version: int | None = None,
                  location: str | None = None) -> Response:
    """A JSON response; `version` sets the strong ETag."""
    resp = Response(text, status=status, mimetype=JSON_MIMETYPE)
    if version is not None:
        resp.headers["ETag"] = etag(version)
    if location is not None:
        resp.headers["Location"] = location
    return resp


def not_modified(version: int) -> Response | None:
    """A 304 when the request's If-None-Match names `version`, else None."""
    header = request.headers.get("If-None-Match")
    if header is None or not if_none_match_hits(header, version):
        return None
    resp = Response(status=304)
    resp.headers["ETag"] = etag(version)
    return resp

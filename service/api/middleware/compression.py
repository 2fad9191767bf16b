"""gzip for answers of 1 KiB or more, for clients that accept it.

The ETag is left as it is: a game's version names its state whatever the
encoding, so If-None-Match and If-Match work the same on compressed and
plain answers (which is why a proxy in front must not gzip: nginx weakens
the tags it compresses). Never an event stream (each event must reach the
client as it is written), a HEAD, a 304 or a file sent as it is stored.
How a body is gzipped, and the bodies that are gzipped once and kept
(StaticBody), are service/api/bodies.py.
"""

from __future__ import annotations

from flask import Flask, Response, request

from service.api.bodies import StaticResponse, gzip_bytes, level_for
from service.api.vary import add_vary

MIN_BYTES = 1024
_COMPRESSIBLE = ("application/json", "application/problem+json", "application/yaml", "image/svg+xml")


def _compressible(resp: Response) -> bool:
    mimetype = resp.mimetype or ""
    if mimetype == "text/event-stream" or resp.is_streamed or resp.direct_passthrough:
        return False
    return mimetype in _COMPRESSIBLE or mimetype.startswith("text/")


def _may_accept_gzip(accept_encoding: str | None) -> bool:
    """Whether the Accept-Encoding header takes gzip (by name or by `*`, with a q above 0)."""
    if not accept_encoding:
        return False
    lowered = accept_encoding.lower()
    if "gzip" not in lowered and "*" not in lowered:
        return False  # most clients of the API (scripts, curl) send none: no parsing for them
    return request.accept_encodings["gzip"] > 0


def install_compression(app: Flask) -> None:
    """Compress eligible answers in an after_request hook."""

    @app.after_request
    def _gzip(resp: Response) -> Response:
        if resp.status_code < 200 or resp.status_code in (204, 304) or "Content-Encoding" in resp.headers:
            return resp
        if not _compressible(resp) or (resp.content_length or 0) < MIN_BYTES:
            return resp
        # Whether or not this client gets gzip, a cache must key this answer on the header.
        add_vary(resp, "Accept-Encoding")
        if request.method == "HEAD" or not _may_accept_gzip(request.headers.get("Accept-Encoding")):
            return resp
        if isinstance(resp, StaticResponse):
            resp.set_data(resp.static_body.gzipped)
        else:
            resp.set_data(gzip_bytes(resp.get_data(), level_for(resp.mimetype or "")))
        resp.headers["Content-Encoding"] = "gzip"
        return resp

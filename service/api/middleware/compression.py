"""gzip for answers of 1 KiB or more, for clients that accept it.

The ETag is left as it is: a game's version names its state whatever the
encoding, so If-None-Match and If-Match work the same on compressed and
plain answers (which is why a proxy in front must not gzip: nginx weakens
the tags it compresses). Never an event stream (each event must reach the
client as it is written), a HEAD, a 304 or a file sent as it is stored.

A body that never changes (a page, script or stylesheet of the package, the
spec) is a StaticBody answered as a StaticResponse: its gzip form is made
once, at its first gzip answer, and kept with it. /docs' script bundle cost
45-50 ms of a worker's CPU to compress on every request.
"""

from __future__ import annotations

import zlib
from functools import cached_property

from flask import Flask, Response, request

from service.api.vary import add_vary

MIN_BYTES = 1024
# Level 1 for SVG: a board at level 6 cost 2.5x the CPU of level 1 for a few
# percent less; JSON is smaller and compresses well at level 6 cheaply.
_LEVELS = {"image/svg+xml": 1}
_DEFAULT_LEVEL = 6
_COMPRESSIBLE = ("application/json", "application/problem+json", "application/yaml", "image/svg+xml")
# 31: zlib's gzip wrapper, with a zero timestamp, so the same body gives the same bytes.
_GZIP_WBITS = 31


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


def gzip_bytes(data: bytes, level: int) -> bytes:
    """`data` as a gzip member with no timestamp or name."""
    compressor = zlib.compressobj(level, zlib.DEFLATED, _GZIP_WBITS)
    return compressor.compress(data) + compressor.flush()


def _level(mimetype: str) -> int:
    return _LEVELS.get(mimetype, _DEFAULT_LEVEL)


class StaticBody:
    """The bytes of a body that never changes, and their gzip form, made at first use and kept."""

    def __init__(self, data: bytes, content_type: str):
        self.data = data
        self.content_type = content_type

    @cached_property
    def gzipped(self) -> bytes:
        # Two greenlets may both get here first: each makes the same bytes, one is kept.
        return gzip_bytes(self.data, _level(self.content_type.split(";")[0].strip()))


class StaticResponse(Response):
    """An answer whose body is a StaticBody: compressed from its kept gzip form."""

    def __init__(self, body: StaticBody, status: int = 200):
        super().__init__(body.data, status=status, content_type=body.content_type)
        self.static_body = body


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
            resp.set_data(gzip_bytes(resp.get_data(), _level(resp.mimetype or "")))
        resp.headers["Content-Encoding"] = "gzip"
        return resp

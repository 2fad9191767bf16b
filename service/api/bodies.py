"""How the service gzips a body, and the bodies it gzips once: those that never change.

A body that never changes (a page, script or stylesheet of the package, the
spec) is a StaticBody answered as a StaticResponse: its gzip form is made
once, at its first gzip answer, and kept with it. /docs' script bundle cost
45-50 ms of a worker's CPU to compress on every request. Which answers are
gzipped at all, and for which clients, is the compression middleware's
choice (service/api/middleware/compression.py).
"""

from __future__ import annotations

import zlib
from functools import cached_property

from flask import Response

# Level 1 for SVG: a board at level 6 cost 2.5x the CPU of level 1 for a few
# percent less; JSON is smaller and compresses well at level 6 cheaply.
_LEVELS = {"image/svg+xml": 1}
_DEFAULT_LEVEL = 6
# 31: zlib's gzip wrapper, with a zero timestamp, so the same body gives the same bytes.
_GZIP_WBITS = 31


def level_for(mimetype: str) -> int:
    """The gzip level a body of `mimetype` is compressed at."""
    return _LEVELS.get(mimetype, _DEFAULT_LEVEL)


def gzip_bytes(data: bytes, level: int) -> bytes:
    """`data` as a gzip member with no timestamp or name."""
    compressor = zlib.compressobj(level, zlib.DEFLATED, _GZIP_WBITS)
    return compressor.compress(data) + compressor.flush()


class StaticBody:
    """The bytes of a body that never changes, and their gzip form, made at first use and kept."""

    def __init__(self, data: bytes, content_type: str):
        self.data = data
        self.content_type = content_type

    @cached_property
    def gzipped(self) -> bytes:
        # Two greenlets may both get here first: each makes the same bytes, one is kept.
        return gzip_bytes(self.data, level_for(self.content_type.split(";")[0].strip()))


class StaticResponse(Response):
    """An answer whose body is a StaticBody: compressed from its kept gzip form."""

    def __init__(self, body: StaticBody, status: int = 200):
        super().__init__(body.data, status=status, content_type=body.content_type)
        self.static_body = body

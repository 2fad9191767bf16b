"""Idempotency-Key: recording a move's answer and replaying it to retries.

A key belongs to one game and one seat token, so the store key is scoped by a
hash of the token (never the token itself). What is recorded is the whole
answer (status, body, headers), so a replay is byte-for-byte the first one.
"""

from __future__ import annotations

import hashlib
import json

from flask import Response

from service.games import token_hash
from service.games.jsontext import compact, parse

from .problems import PROBLEM_MIMETYPE
from .responses import JSON_MIMETYPE

# docs/api-guide.md#idempotency: 201, 409, 412 and 422 answers are recorded (moves.py does, at the commit
# and on a refusal); 400/401/404/413/415/5xx never are.


def scoped_key(token: str, key: str) -> str:
    """The store's name for `key` as used by the holder of `token`."""
    return f"{token_hash(token)[:32]}:{key}"


def fingerprint(body: dict) -> str:
    """A digest that is equal for equal JSON bodies, whatever their key order."""
    # The standard library's form, not jsontext's: fingerprints recorded by
    # an instance must match the ones the next version computes.
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def encode_answer(status: int, body: str, headers: dict[str, str]) -> str:
    """The recorded form of an answer."""
    return compact({"status": status, "body": body, "headers": headers})


def answer_response(answer: str) -> Response:
    """The response a recorded answer stands for."""
    doc = parse(answer)
    status = doc["status"]
    mimetype = JSON_MIMETYPE if status < 400 else PROBLEM_MIMETYPE
    resp = Response(doc["body"], status=status, mimetype=mimetype)
    for name, value in doc["headers"].items():
        resp.headers[name] = value
    return resp

"""What an Idempotency-Key records: the answer a retry of the same request gets again.

Recorded by the core, with no HTTP in it: the API turns each kind back into
its response (service/api/idempotency.py), so a replay is byte-for-byte the
first answer.
- An accepted move: its version and number, and the Game body after it
  (`{"version", "number", "body"}`), stored with the commit itself.
- A refusal of the move (`Refusal.recorded`): only what varies, `[status,
  code, detail, version]`, rebuilt from the catalogue. Any client can have
  one kept for 24 h with each fresh key, so it must stay small. The detail
  is in the language the first answer spoke, named as a fifth field when it
  is not English: the replay speaks it too, whatever the retry asks for.
- A join (lobby.py): the seat, the Game body after it and the seat's
  token (`{"seat", "sealed", "body"}`), stored with the take. A seat token
  is otherwise kept only hashed, so the record holds it sealed: XORed
  with a pad drawn from the request's own secrets (its Idempotency-Key, and
  the joiner's player token if any), which the store never sees in the
  clear (the record's name carries only a digest of the key). Only a
  retry that sends them again can read it back.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass

from service.languages import DEFAULT_LANGUAGE

from .jsontext import compact, parse
from .refusals import Refusal


@dataclass(frozen=True, slots=True)
class AcceptedAnswer:
    """The move was stored: the game reached `version` with it, move `number` of the history."""

    version: int
    number: int
    view: str  # the Game body after the move


@dataclass(frozen=True, slots=True)
class RefusedAnswer:
    """The move was refused on the game at `version`."""

    status: int
    code: str
    detail: str
    version: int
    language: str = DEFAULT_LANGUAGE


@dataclass(frozen=True, slots=True)
class JoinedAnswer:
    """A seat taken by a join: the seat, the Game body after it, and its token sealed (`token` opens it)."""

    seat: int
    view: str
    sealed: str

    def token(self, secret: str) -> str:
        """The seat token, opened with the secret it was sealed with (`seal`)."""
        return _xor(base64.urlsafe_b64decode(self.sealed), secret).decode("ascii")


# A move's answers; a join's (JoinedAnswer) are read by the join alone (decode_joined).
RecordedAnswer = AcceptedAnswer | RefusedAnswer


def _xor(data: bytes, secret: str) -> bytes:
    """`data` XORed with a pad as long, drawn from `secret`: sealing and opening are the same step.

    One pad seals one token (a key records one answer), so the pad is never
    used twice; the token is as safe in the store as the secret is hard to guess.
    """
    pad = hashlib.shake_256(b"patchwork joined seat token\0" + secret.encode("utf-8")).digest(len(data))
    return bytes(a ^ b for a, b in zip(data, pad))


def encode_joined(seat: int, view: str, token: str, secret: str) -> str:
    """The record of a join that took `seat`, its token sealed with `secret`."""
    sealed = base64.urlsafe_b64encode(_xor(token.encode("ascii"), secret)).decode("ascii")
    return compact({"seat": seat, "sealed": sealed, "body": view})


def encode_accepted(version: int, number: int, view: str) -> str:
    """The record of an accepted move."""
    return compact({"version": version, "number": number, "body": view})


def encode_refused(refusal: Refusal, language: str = DEFAULT_LANGUAGE) -> str:
    """The record of a refusal judged on a game (its `version` set), answered in `language`."""
    if refusal.version is None:
        raise ValueError("only a refusal judged on a game version is recorded")
    recorded = [refusal.entry.status, refusal.code, refusal.text.in_language(language), refusal.version]
    return compact(recorded if language == DEFAULT_LANGUAGE else recorded + [language])


def decode(text: str) -> RecordedAnswer:
    """The answer a record stands for."""
    doc = parse(text)
    if isinstance(doc, list):
        # Four fields for English, and for every refusal recorded before there were languages.
        status, code, detail, version, *language = doc
        return RefusedAnswer(status, code, detail, version, *language)
    return AcceptedAnswer(doc["version"], doc["number"], doc["body"])


def decode_joined(text: str) -> JoinedAnswer:
    """The join a record stands for."""
    doc = parse(text)
    return JoinedAnswer(doc["seat"], doc["body"], doc["sealed"])

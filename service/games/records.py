"""What the API stores for a game: the engine's state plus the game's metadata.

The engine owns its state format (`state_to_dict`); this module wraps it with
what only the service knows (id, player names, seat token hashes, times) and
is the single place that encodes and decodes the stored text.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import time
from dataclasses import dataclass

from service.engine import GameState, state_from_dict, state_to_dict

from .jsontext import compact, parse

RECORD_FORMAT = 1
DEFAULT_NAMES = ("Player 1", "Player 2")


GAME_ID_BYTES = 16
# The form of every id new_game_id gives: 16 bytes in unpadded base64url.
_GAME_ID = re.compile(r"[A-Za-z0-9_-]{22}\Z")


def new_game_id() -> str:
    """An unguessable game id: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(GAME_ID_BYTES)


def could_be_game_id(text: str) -> bool:
    """Whether `text` has the form of an id new_game_id gives; any other names no game."""
    return _GAME_ID.match(text) is not None


def new_seat_token() -> str:
    """A seat's bearer token: 256 random bits, shown once at creation."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """SHA-256 of a token: all that is ever stored of it."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def now_rfc3339() -> str:
    """The current UTC time, to the second, as RFC 3339."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game as stored: engine state and service metadata."""

    id: str
    names: tuple[str, str]
    token_hashes: tuple[str, str]
    created_at: str
    updated_at: str | None  # None only in a replayed past version whose move time is not stored
    state: GameState
    # What replaying the game needs beyond the state (GamePlay.view_at): the
    # starting circle of a game set up from a patch order (a seeded one
    # derives it from its seed), and when each move was accepted, oldest first.
    patch_order: tuple[int, ...] | None = None
    move_times: tuple[str | None, ...] = ()

    def seat_of(self, token: str) -> int | None:
        """The seat whose token this is, compared in constant time; None if neither."""
        digest = token_hash(token)
        seat = None
        for candidate, stored in enumerate(self.token_hashes):
            if hmac.compare_digest(digest, stored):
                seat = candidate
        return seat

    def advanced(self, state: GameState) -> "GameRecord":
        """The record after a move produced `state`."""
        # Built directly: dataclasses.replace costs more than the rest of this, on every move.
        now = now_rfc3339()
        # A game stored before move times were kept has none for its early moves.
        times = self.move_times + (None,) * (state.moves_played - 1 - len(self.move_times)) + (now,)
        return GameRecord(self.id, self.names, self.token_hashes, self.created_at, now, state,
                          self.patch_order, times)

    def encode(self) -> str:
        """The stored text."""
        return compact({
            "format": RECORD_FORMAT,
            "id": self.id,
            "names": list(self.names),
            "token_hashes": list(self.token_hashes),
            "created_at": self.created_at,
            "updated_at": self.updated_at,
            "patch_order": None if self.patch_order is None else list(self.patch_order),
            "move_times": list(self.move_times),
            "engine": state_to_dict(self.state),
        })

    @classmethod
    def decode(cls, text: str) -> "GameRecord":
        """Read the stored text back."""
        doc = parse(text)
        if doc.get("format") != RECORD_FORMAT:
            raise ValueError(f"unknown game record format {doc.get('format')!r}")
        return cls(
            id=doc["id"],
            names=tuple(doc["names"]),
            token_hashes=tuple(doc["token_hashes"]),
            created_at=doc["created_at"],
            updated_at=doc["updated_at"],
            state=state_from_dict(doc["engine"]),
            # Records written before these were kept have neither.
            patch_order=None if doc.get("patch_order") is None else tuple(doc["patch_order"]),
            move_times=tuple(doc.get("move_times", ())),
        )


def create_record(state: GameState, names: tuple[str, str]) -> tuple[GameRecord, list[str]]:
    """A fresh record for `state` and the two seat tokens (never stored)."""
    tokens = [new_seat_token(), new_seat_token()]
    created = now_rfc3339()
    record = GameRecord(
        id=new_game_id(),
        names=names,
        token_hashes=(token_hash(tokens[0]), token_hash(tokens[1])),
        created_at=created,
        updated_at=created,
        state=state,
        patch_order=None if state.seed is not None else state.circle,
    )
    return record, tokens

"""Copies of stored games shared by the worker processes of one instance, so the next move can skip loading them.

A worker keeps a copy of each game it commits (kept.py), but behind a load
balancer a game's two players are rarely served by the same worker: without
sharing, about half the moves found their worker's copy a move behind and
paid a read (or a refused commit) to learn it (`./dev bench http`, "store
calls per move under load"). The workers of one gunicorn are forked from
one arbiter, so the arbiter maps a region of anonymous shared memory before
it forks them (gunicorn_conf.py) and every worker sees what the others
wrote there.

The region is a table of fixed-size slots, one game each, chosen by a hash
of the game id: a game that lands in a slot another game holds evicts it.
A slot holds the game id, version, revision and stored text of the last
copy written to it, and a digest of all four. There are no locks, which a
worker killed while holding one would leave held for good: a writer
writes the text and then the header, and a reader takes the slot only
when the digest matches what it read, so a slot read in the middle of a
write, or written by two processes at once, is a miss, never a mix.

As with every kept copy, what is read here is only a guess at the stored
game: commits are compare-and-sets on version and revision (play.py).
News of other instances' moves never reaches this table; their commits
refuse the copy as before.
"""

from __future__ import annotations

import hashlib
import mmap
import struct
import zlib

# Game id (22 characters, records.new_game_id), revision length and text
# (storage: 16 hex characters; 32 allowed), version, length of the text,
# and the digest of them all with the text.
_ID_BYTES = 22
_REVISION_ROOM = 32
_DIGESTED = struct.Struct(f"<{_ID_BYTES}sB{_REVISION_ROOM}sQI")
_HEADER = struct.Struct(_DIGESTED.format + "16s")
# Room for a record's text: the longest seen in random whole games with
# long names is about 2.5 KB; a longer one is simply not shared.
SLOT_BYTES = 8192
_TEXT_ROOM = SLOT_BYTES - _HEADER.size


def _digest(fields: bytes, text: bytes | memoryview) -> bytes:
    digest = hashlib.blake2b(fields, digest_size=16)
    digest.update(text)
    return digest.digest()


class SharedCopies:
    """A table of the last copy of each game written by any process that shares it."""

    def __init__(self, slots: int):
        if slots <= 0:
            raise ValueError(f"slots must be positive, not {slots}")
        self.slots = slots
        # Anonymous and MAP_SHARED (mmap's default on Unix): inherited by forked children, shared with them.
        self._memory = mmap.mmap(-1, slots * SLOT_BYTES)

    def _offset(self, game_id: str) -> int:
        return zlib.crc32(game_id.encode()) % self.slots * SLOT_BYTES

    def get(self, game_id: str, newer_than: int = 0) -> tuple[int, str, str] | None:
        """(version, revision, stored text) of the game's copy if its version is above `newer_than`;
        None when there is none, or it is being written.

        A caller that holds a copy passes its version: when that copy is
        current (the usual case), only the header is read.
        """
        offset = self._offset(game_id)
        header = self._memory[offset : offset + _HEADER.size]
        held, revision_length, revision, version, length, digest = _HEADER.unpack(header)
        if held != game_id.encode() or version <= newer_than or not length or length > _TEXT_ROOM:
            return None
        start = offset + _HEADER.size
        text = self._memory[start : start + length]
        if _digest(header[: _DIGESTED.size], text) != digest:
            return None
        return version, revision[:revision_length].decode(), text.decode()

    def put(self, game_id: str, version: int, revision: str, text: str) -> None:
        """Share this copy, unless its slot holds a newer one of the same game (or it is too long)."""
        data = text.encode()
        key = game_id.encode()
        rev = revision.encode()
        if len(data) > _TEXT_ROOM or len(key) != _ID_BYTES or len(rev) > _REVISION_ROOM:
            return
        offset = self._offset(game_id)
        held, _, _, held_version, _, _ = _HEADER.unpack_from(self._memory, offset)
        if held == key and held_version > version:
            return
        fields = _DIGESTED.pack(key, len(rev), rev, version, len(data))
        start = offset + _HEADER.size
        self._memory[start : start + len(data)] = data
        self._memory[offset : offset + _HEADER.size] = fields + _digest(fields, data)


# The table the arbiter made for its workers (gunicorn_conf.py), None in any other process.
_FOR_WORKERS: SharedCopies | None = None


def share_with_workers(slots: int) -> None:
    """Make the table that the processes forked from this one will share (call before they fork)."""
    global _FOR_WORKERS
    _FOR_WORKERS = SharedCopies(slots) if slots > 0 else None


def for_this_worker() -> SharedCopies | None:
    """The table this process inherited from its arbiter, None when it was forked from none."""
    return _FOR_WORKERS

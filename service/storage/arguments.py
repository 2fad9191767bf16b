"""The arguments of the scripts that take many, named once for both languages.

A script with a layout here (LAYOUTS) reads its ARGV by these names: the
loader (scripts.py) declares the fields as Lua locals at the top of the
script, and the store (redis_store.py) builds the arguments from the same
classes by keyword. A field added, dropped or moved changes both sides at
once; no comment has to keep them in step.

A layout is a head, always given whole, then a clock part (a clocked
write's fields: ClockArgs, and what else the script adds) given whole or
as one '' in its place. Besides the fields, the script gets `clocked`
(whether the clock part was given); what may follow the named arguments
is read from the end (an idempotency record's TTL and text, always the
last two when KEYS holds the record's key).

One '' rather than a count or a flag: every argument costs some 2,500
instructions between the caller (hiredis formats it) and Redis (which makes
it a Lua string), and an unclocked move is the busiest call of all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .store import ClockCheck

# The clock part's place when there is none (the module docstring says why one '').
NOT_CLOCKED = ""


class CommitArgs(NamedTuple):
    """commit_move.lua's head: the compare-and-set, the texts, the move and its event."""

    expected_version: int
    expected_revision: str  # '*': any
    new_revision: str
    state: str
    view: str
    move: str  # the history entry to append
    ttl_ms: int  # the game's keys' TTL, renewed
    event: str  # '': none
    event_end: str  # '': the game goes on
    events_ttl_ms: int
    channel: str  # where the wake-up is published
    wakeup: str  # the wake-up message
    events_maxlen: int


class CreateArgs(NamedTuple):
    """create_game.lua's head."""

    state: str
    view: str
    ttl_ms: int
    revision: str


class ImportArgs(NamedTuple):
    """import_game.lua's arguments."""

    state: str
    view: str
    ttl_ms: int
    revision: str
    version: int
    moves: str  # the history's entries, oldest first, as a JSON array of their texts
    # A game rebuilt from its kept record (games/outlive.py), else '[]' and 0: each version's
    # clock entry (a JSON array, null for none), and the version its body last changed at in place.
    clocks: str
    changed: int


class SeatArgs(NamedTuple):
    """take_seat.lua's head: the compare-and-set, the texts with the seat taken, and the lobby's time."""

    expected_version: int
    expected_revision: str
    new_revision: str
    state: str
    view: str
    open_until_ms: int  # the store's clock must be before it


class ClockArgs(NamedTuple):
    """A clocked write's check of the store's clock (store.ClockCheck, lib/clock.lua) and its clock-log entry."""

    must_be: str  # 'before' the stored deadline (a move), 'after' (a timeout), '-' (none to meet)
    at_ms: int  # the caller's reckoning of the store's clock
    new_deadline: int | str  # the game's deadline after the write; '-': none
    clock_entry: str  # the clock of the version written, JSON (store.ClockLog)

    @classmethod
    def of(cls, check: ClockCheck, entry: str) -> ClockArgs:
        return cls(
            must_be=check.must_be or "-",
            at_ms=check.at_ms,
            new_deadline="-" if check.deadline_ms is None else check.deadline_ms,
            clock_entry=entry,
        )


class DeadlineHint(NamedTuple):
    """A clocked commit's lowering of the game's entry in the deadline index (deadlines.py), on a single Redis."""

    lowered: int | str  # the entry's new score; '': the store lowers it itself (a Cluster) or none
    game_id: str  # the entry's member


class SeekArgs(NamedTuple):
    """seek_post.lua's arguments: the new seek, and where its partner's keys are."""

    seek_id: str
    player_id: str
    seek_rating: int
    seek_range: int  # how far from it a partner's rating may be
    ttl_ms: int  # how long the seek waits
    game_id: str  # the paired game's, chosen beforehand
    keep_ms: int  # how long a seek's hash stays readable after that
    seek_prefix: str  # the seeks' hashes' key prefix
    spec: str  # the caller's text of the seek (its clock and rated), kept with it
    most_waiting: int  # the most seeks a player keeps waiting at once
    player_prefix: str  # the prefix of the players' sets of waiting seeks
    blocks_prefix: str  # the prefix of the players' sets of blocked players (challenges.Blocks)


class WebhookAttemptArgs(NamedTuple):
    """webhook_attempt.lua's arguments (the webhook's events follow them): one attempt logged, its state kept."""

    hook: str  # the webhook's id
    entry: str  # the attempt, as the delivery log keeps it (JSON)
    ok: str  # '1': delivered; '': failed
    now_ms: int  # the store's clock (the sender's reckoning)
    disable_after_ms: int  # failing this long disables the webhook
    log_most: int  # attempts its log keeps
    log_ttl_ms: int  # the log goes this long after its last attempt
    notice: str  # the `webhook_disabled` event's data, should it be disabled now
    events_maxlen: int  # the player's stream's, as player_notify.lua is given them
    channel: str
    wakeup: str
    events_ttl_ms: int


@dataclass(frozen=True, slots=True)
class Layout:
    """A script's named arguments: the head's fields, then the clock part's (none: a script without one)."""

    head: tuple[str, ...]
    clock: tuple[str, ...] = ()

    def lua(self) -> str:
        """The Lua that names the arguments, put before the script."""
        lines = ["-- ARGV, as storage/arguments.py names it", _locals(self.head, 1)]
        if self.clock:
            first = len(self.head) + 1
            lines += [
                f"local clocked = ARGV[{first}] ~= ''",
                _locals(self.clock, first),  # meaningful only when clocked
            ]
        return "\n".join(lines) + "\n"


def _locals(names: tuple[str, ...], first: int) -> str:
    values = ", ".join(f"ARGV[{index}]" for index in range(first, first + len(names)))
    return f"local {', '.join(names)} = {values}"


LAYOUTS = {
    "commit_move": Layout(CommitArgs._fields, ClockArgs._fields + DeadlineHint._fields),
    "create_game": Layout(CreateArgs._fields, ClockArgs._fields),
    "import_game": Layout(ImportArgs._fields),
    "seek_post": Layout(SeekArgs._fields),
    "take_seat": Layout(SeatArgs._fields, ClockArgs._fields),
    "webhook_attempt": Layout(WebhookAttemptArgs._fields),
}

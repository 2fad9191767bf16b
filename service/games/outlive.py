"""Finished player games that outlive the cache: kept as their record, rebuilt from it on read.

Every key of a game expires GAME_TTL_SECONDS after its last write. A
finished game with a player seat is kept longer, as its record
(docs/records.md, "The kept record"): the record's own tags and moves, and
tags for what only the stored game holds (its times, hashes, clock log,
settlement, ...), so that the game rebuilt from it is the GameRecord it was.

When: Redis has no "on expire" hook one can rely on (keyspace notifications
are fire-and-forget: a process down or reconnecting misses them). So the
record is kept when the game is written finished: right after each write
of such a game (its final commit, and the changes after it, a rematch's
next_game or an offer), in the game's own slot (`{id}:kept`), with no TTL,
and only while the game is still at the revision the record was made from
(the write after it keeps its own). A process that dies, or a store that
fails, between its write and the keeping leaves the record one write behind,
or none for a game it just finished (GamePlay logs it): the window is two
round trips, against a TTL of days.

A read that finds the game gone rebuilds it from the record: the moves are
replayed through the engine (record_games.replay_record), and the game is
stored whole again with the game's TTL (GameStore.restore_game), so the
reads after it, from any process, are the store's ordinary reads.
"""

from __future__ import annotations

import base64
import zlib
from typing import Any

from service.ratings import Settlement
from service.storage import GameStore, WholeGame

from .clock import ClockSettings, ClockState
from .jsontext import compact, parse
from .record_games import record_of, replay_record
from .record_text import NONE_VALUE, Tag, parse_record
from .records import GameRecord, Offer, Pause, Seat, TournamentTag
from .views import game_view

YES = "yes"
NO = "no"


def outlives(record: GameRecord) -> bool:
    """Whether the game is kept as its record when its keys expire: finished, with a player seat."""
    first, second = record.seats
    return record.state.finished and (first.player_id is not None or second.player_id is not None)


def keep(store: GameStore, game_id: str) -> bool:
    """Keep the record of the game as it is stored now, if it outlives the cache (False: it does not, or it is gone)."""
    whole = store.load_whole(game_id)
    if whole is None:
        return False
    record = GameRecord.decode(whole.state)
    if not outlives(record):
        return False
    return store.keep_record(game_id, whole.revision, packed(kept_record(record, whole)))


def restore(store: GameStore, game_id: str) -> bool:
    """Store the game rebuilt from its kept record again; False: none is kept."""
    kept = store.load_kept(game_id)
    if kept is None:
        return False
    record, whole = rebuilt(unpacked(kept))
    # False: another process stored it first, from the same record.
    store.restore_game(game_id, whole, compact(game_view(record, whole.version)))
    return True


def packed(text: str) -> str:
    """A kept record as stored: zlib-compressed, in base64 (the store reads text back).

    Its times and clock entries repeat themselves: a clocked game of 42
    moves is kept in about 1.9 KB, not its text's 4.3 (benchmarks/README.md).
    """
    return base64.b64encode(zlib.compress(text.encode("utf-8"), 9)).decode("ascii")


def unpacked(stored: str) -> str:
    """The text of a kept record as `packed` stored it."""
    return zlib.decompress(base64.b64decode(stored)).decode("utf-8")


def kept_record(record: GameRecord, whole: WholeGame) -> str:
    """The kept record of a finished game: its record, and the tags of what only the stored game holds."""
    return record_of(record, whole.moves, finished=True, more=_kept_tags(record, whole))


def _kept_tags(record: GameRecord, whole: WholeGame) -> list[Tag]:
    first, second = record.seats
    tags = [Tag("Updated", (record.updated_at,))]
    if record.move_times:
        tags.append(Tag("MoveTimes", record.move_times))
    # Secrets' hashes, as the game's hash holds them: the kept record is never served as it is.
    tags.append(Tag("TokenHashes", (first.token_hash or NONE_VALUE, second.token_hash or NONE_VALUE)))
    tags.append(Tag("PlayerHashes", (first.player_hash or NONE_VALUE, second.player_hash or NONE_VALUE)))
    if first.bot_account or second.bot_account:
        tags.append(Tag("BotAccounts", (_flag(first.bot_account), _flag(second.bot_account))))
    if record.open_until_ms:
        lobby = {"open": [first.open, second.open], "listed": record.listed, "until_ms": record.open_until_ms}
        tags.append(Tag("Lobby", (compact(lobby),)))
    if record.rated:
        tags.append(Tag("Rated", (YES,)))
    if record.settlement is not None:
        tags.append(Tag("Settlement", (compact(record.settlement.to_json()),)))
    if record.clock is not None:
        tags.append(Tag("ClockSettings", (compact(record.clock.to_json()),)))
    if record.clock_now is not None:
        tags.append(Tag("ClockNow", (compact(record.clock_now.log),)))
    if any(entry is not None for entry in whole.clocks):
        tags.append(Tag("ClockLog", tuple(entry or NONE_VALUE for entry in whole.clocks)))
    if record.next_game is not None:
        tags.append(Tag("NextGame", (record.next_game,)))
    if record.offer is not None:
        tags.append(Tag("Offer", (compact(record.offer.to_json()),)))
    if record.tournament is not None:
        tags.append(Tag("Tournament", (compact(record.tournament.to_json()),)))
    if record.first_move_forfeit:
        tags.append(Tag("FirstMoveForfeit", (YES,)))
    if any(record.low_time_told):
        tags.append(Tag("LowTimeTold", tuple(_flag(told) for told in record.low_time_told)))
    if record.pause is not None:
        tags.append(Tag("Pause", (compact(record.pause.to_json()),)))
    if whole.changed_in_place:
        tags.append(Tag("Changed", (YES,)))
    return tags


def rebuilt(text: str) -> tuple[GameRecord, WholeGame]:
    """The game a kept record describes, its moves replayed through the engine: its record and its stored form."""
    replayed = replay_record(text)
    tags = {tag.name: tag.values for tag in parse_record(text).tags}

    def one(name: str) -> str | None:
        values = tags.get(name)
        return None if values is None else values[0]

    def pair(name: str) -> tuple[str | None, str | None]:
        values = tags.get(name, (NONE_VALUE, NONE_VALUE))
        return _none(values[0]), _none(values[1])

    def doc(name: str) -> Any:
        value = one(name)
        return None if value is None else parse(value)

    names = replayed.names
    ids, bots = pair("PlayerIds"), pair("Bots")
    tokens, players = pair("TokenHashes"), pair("PlayerHashes")
    accounts = tags.get("BotAccounts", (NO, NO))
    lobby = doc("Lobby") or {"open": [False, False], "listed": True, "until_ms": 0}
    first, second = (
        Seat(
            name=names[seat],
            token_hash=tokens[seat],
            bot=bots[seat],
            player_id=ids[seat],
            player_hash=players[seat],
            open=bool(lobby["open"][seat]),
            bot_account=accounts[seat] == YES,
        )
        for seat in (0, 1)
    )
    order = replayed.setup.get("patch_order")
    settlement, settings, clock_now = doc("Settlement"), doc("ClockSettings"), doc("ClockNow")
    offer, tournament, pause = doc("Offer"), doc("Tournament"), doc("Pause")
    told = tags.get("LowTimeTold", (NO, NO))
    record = GameRecord(
        id=_required(one("Game")),
        seats=(first, second),
        created_at=_required(one("Date")),
        updated_at=_required(one("Updated")),
        state=replayed.state,
        patch_order=None if order is None else tuple(order),
        move_times=tags.get("MoveTimes", ()),
        clock=None if settings is None else ClockSettings.from_json(settings),
        clock_now=None if clock_now is None else ClockState.from_log(clock_now),
        listed=bool(lobby["listed"]),
        open_until_ms=int(lobby["until_ms"]),
        rated=one("Rated") == YES,
        settlement=None if settlement is None else Settlement.from_json(settlement),
        next_game=one("NextGame"),
        offer=None if offer is None else Offer.from_json(offer),
        tournament=None if tournament is None else TournamentTag.from_json(tournament),
        first_move_forfeit=one("FirstMoveForfeit") == YES,
        low_time_told=(told[0] == YES, told[1] == YES),
        pause=None if pause is None else Pause.from_json(pause),
    )
    version = len(replayed.entries) + 1
    clocks = tags.get("ClockLog", (NONE_VALUE,) * version)
    whole = WholeGame(
        version=version,
        state=record.encode(),
        moves=replayed.entries,
        clocks=tuple(_none(entry) for entry in clocks),
        changed_in_place=one("Changed") == YES,
    )
    return record, whole


def _flag(value: bool) -> str:
    return YES if value else NO


def _none(value: str) -> str | None:
    return None if value == NONE_VALUE else value


def _required(value: str | None) -> str:
    if value is None:
        raise ValueError("a kept record names its game and its times")
    return value

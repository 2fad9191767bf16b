"""The kept record of a finished player game and the game rebuilt from it (outlive.py), with no store."""

from __future__ import annotations

from dataclasses import replace

from service.engine import new_game
from service.games.clock import ClockSettings, ClockState
from service.games.outlive import kept_record, outlives, packed, rebuilt, unpacked
from service.games.record_games import record_of, replay_record
from service.games.record_text import parse_record
from service.games.records import GameRecord, Offer, Pause, Seat, TournamentTag, token_hash
from service.ratings import Rating, Settlement
from service.storage import WholeGame
from tests.support.anu import anu_games, anu_record

GAME_ID = "A" * 22


def _played():
    """A known game replayed: its history entries and final state."""
    return replay_record(anu_record(anu_games()[2]))


def _whole(record: GameRecord, entries: tuple[str, ...], changed: bool = False) -> WholeGame:
    version = len(entries) + 1
    clocks = tuple(
        None if v == 3 else f"[{1_700_000_000_000 + v},{300000 - v},{299000 + v},{v % 2},null]"
        for v in range(1, version + 1)
    )
    return WholeGame(version, record.encode(), entries, clocks, changed)


def _everything(replayed) -> GameRecord:
    """A finished game with every field a stored game may hold set, as no one game does at once."""
    entries = replayed.entries
    return GameRecord(
        id=GAME_ID,
        seats=(
            Seat('Ann "Q" Zoë', token_hash("t0"), player_id="P" * 22, player_hash=token_hash("p0")),
            Seat("Bob", token_hash("t1"), player_id="Q" * 22, player_hash=token_hash("p1"), bot_account=True),
        ),
        created_at="2026-12-04T17:00:00Z",
        updated_at="2026-12-04T17:42:13Z",
        state=replayed.state,
        patch_order=tuple(replayed.setup["patch_order"]) if "patch_order" in replayed.setup else None,
        move_times=tuple(
            f"2026-12-04T17:{number // 60:02d}:{number % 60:02d}Z" for number in range(len(entries))
        ),
        clock=ClockSettings(initial_s=300, increment_s=3),
        clock_now=ClockState((123456, 7890), None, 1_700_000_123_456, None),
        listed=False,
        open_until_ms=1_700_000_000_999,
        rated=True,
        settlement=Settlement(
            ("P" * 22, "Q" * 22),
            (
                Rating(1512.345678901234, 290.1234567, 0.0600001),
                Rating(1487.654321098766, 290.7654321, 0.0599999),
            ),
            (12.345678901234, -12.345678901234),
        ),
        next_game="N" * 22,
        offer=Offer("rematch", 1, len(entries) + 1, 1_700_000_200_000),
        tournament=TournamentTag("T" * 22, 3),
        first_move_forfeit=True,
        low_time_told=(False, True),
        pause=Pause(0, 1_700_000_000_000, 1_700_086_400_000, 3_600_000),
    )


def test_every_field_of_a_stored_game_comes_back_from_its_kept_record():
    replayed = _played()
    record = _everything(replayed)
    whole = _whole(record, replayed.entries, changed=True)
    back, back_whole = rebuilt(unpacked(packed(kept_record(record, whole))))
    # The stored text is the same byte for byte: the settlement's floats exact, every time and hash kept.
    assert back.encode() == record.encode()
    assert back.settlement == record.settlement
    assert back_whole == whole


def test_a_plain_finished_game_comes_back_with_no_optional_tags():
    replayed = _played()
    record = GameRecord(
        id=GAME_ID,
        seats=(
            Seat("Ann", token_hash("t0"), player_id="P" * 22, player_hash=token_hash("p0")),
            Seat("Bob", bot="3"),
        ),
        created_at="2026-12-04T17:00:00Z",
        updated_at="2026-12-04T17:00:00Z",
        state=replayed.state,
        patch_order=tuple(replayed.setup["patch_order"]),
        move_times=("2026-12-04T17:00:00Z",) * len(replayed.entries),
    )
    whole = WholeGame(
        len(replayed.entries) + 1, record.encode(), replayed.entries, (None,) * (len(replayed.entries) + 1)
    )
    text = kept_record(record, whole)
    names = [tag.name for tag in parse_record(text).tags]
    assert names[-4:] == ["Updated", "MoveTimes", "TokenHashes", "PlayerHashes"]
    back, back_whole = rebuilt(text)
    assert back.encode() == record.encode()
    assert back_whole == whole


def test_the_kept_tags_are_read_past_by_any_reader_and_never_reach_the_public_record():
    replayed = _played()
    record = _everything(replayed)
    text = kept_record(record, _whole(record, replayed.entries))
    public = record_of(record, replayed.entries, finished=True)
    # A reader that knows none of the kept tags replays the kept record as the public one.
    again = replay_record(text)
    assert again.entries == replayed.entries and again.state == replayed.state
    # The rebuilt game's own record is the game's: no hash, time or clock of the kept tags in it.
    back, _whole_back = rebuilt(text)
    assert record_of(back, replayed.entries, finished=True) == public
    assert token_hash("t0") not in public and "MoveTimes" not in public


def test_only_a_finished_game_with_a_player_seat_outlives_the_cache():
    replayed = _played()
    record = _everything(replayed)
    assert outlives(record)
    nobody = replace(record, seats=(Seat("Ann"), Seat("Bob")))
    assert not outlives(nobody)
    assert not outlives(replace(record, state=new_game(seed=7)))

"""A tournament's game in the core: its tag stored and shown, and its first move forfeit, not aborted.

On a real store (single node and cluster). The core knows of tournaments
only the tag (GameRecord.tournament) and the forfeit of a first move not
made in time (GameRecord.first_move_forfeit); the site starts such a game
through site/tournament_games.py, as the tournament module does. Clocks here
are a second long, shorter than the API allows, so a flag falls quickly.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from service.botworker.timekeeper import Timekeeper
from service.engine import Advance, apply_move, new_game
from service.games import GamePlay, GameRecord, InvalidToken, MissingToken
from service.games.clock import ClockSettings
from service.games.records import Seat, TournamentTag, create_record, new_game_id, token_hash
from service.games.values import Seating
from service.site.lobby import Players
from service.site.players import PlayerRecord
from service.site.tournament_games import start_game
from service.storage import Storage

SHORT = ClockSettings(initial_s=1, increment_s=0, first_move_s=1)
TAG = TournamentTag("t-7", 3)
OLD_RECORDS = Path(__file__).resolve().parent.parent / "data" / "old-records.json"


def _players(storage: Storage) -> tuple[tuple[PlayerRecord, str], tuple[PlayerRecord, str]]:
    players = Players(storage.players)
    return players.create("Ann"), players.create("Bob")


def _game(play: GamePlay, game_id: str) -> dict:
    return json.loads(play.view(game_id).view)


def _events(storage: Storage, player_id: str) -> list[tuple[str, dict]]:
    return [
        (event.kind, json.loads(event.data)) for event in storage.players.events_after(player_id, None, 50)
    ]


# --- the record -------------------------------------------------------------------


def test_a_tagged_record_reads_back_with_its_tag_and_forfeit_and_a_move_keeps_both():
    record, _tokens = create_record(
        new_game(seed=3), (Seat("Ann"), Seat("Bob")), tournament=TAG, first_move_forfeit=True
    )
    text = record.encode()
    assert json.loads(text)["tournament"] == {"id": "t-7", "round": 3}
    assert json.loads(text)["first_move_forfeit"] is True
    assert GameRecord.decode(text) == record
    moved = record.advanced(apply_move(record.state, Advance(), 0))
    assert (moved.tournament, moved.first_move_forfeit) == (TAG, True)
    assert GameRecord.decode(moved.encode()) == moved


def test_a_record_of_any_other_game_stores_neither_and_reads_back_without_them():
    record, _tokens = create_record(new_game(seed=3), (Seat("Ann"), Seat("Bob")))
    doc = json.loads(record.encode())
    assert "tournament" not in doc and "first_move_forfeit" not in doc
    assert (record.tournament, record.first_move_forfeit) == (None, False)


def test_every_record_stored_before_tournaments_reads_as_no_tournaments_and_writes_back_byte_for_byte():
    dump = json.loads(OLD_RECORDS.read_text(encoding="utf-8"))
    texts = [entry["value"]["state"] for key, entry in dump["keys"].items() if key.endswith(":game")]
    assert len(texts) == 9  # every game the dump holds (tools/old_records.py made nine)
    for text in texts:
        record = GameRecord.decode(text)
        assert (record.tournament, record.first_move_forfeit) == (None, False)
        assert record.encode() == text


# --- creating it ---------------------------------------------------------------------


def test_start_game_makes_the_game_once_with_the_tag_in_its_view_and_no_seat_tokens(
    play: GamePlay, storage: Storage
):
    (ann, ann_token), (bob, bob_token) = _players(storage)
    game_id = new_game_id()
    view = json.loads(start_game(play, game_id, (ann, bob), SHORT, rated=True, tournament=TAG))
    assert view["id"] == game_id and view["tournament"] == {"id": "t-7", "round": 3}
    assert [p["player_id"] for p in view["players"]] == [ann.id, bob.id] and view["rated"] is True
    assert view["first_player"] == 0 and view["turn"] == 0
    record = play.load(game_id).record
    # No seat token was made: each seat's player token alone acts for it.
    assert [seat.token_hash for seat in record.seats] == [None, None]
    assert [seat.player_hash for seat in record.seats] == [token_hash(ann_token), token_hash(bob_token)]
    assert (play.seat_of(game_id, ann_token), play.seat_of(game_id, bob_token)) == (0, 1)
    # Made once: a second call (another process after a crash) answers the stored game.
    play.play(game_id, Advance(), ann_token)
    again = json.loads(start_game(play, game_id, (ann, bob), SHORT, rated=True, tournament=TAG))
    assert again["version"] == 2 and again == _game(play, game_id)
    # Both players heard it start, once, with the tag.
    tag = {"id": "t-7", "round": 3}
    assert [e for e in _events(storage, ann.id) if e[0] == "game_start"] == [
        ("game_start", {"game": game_id, "seat": 0, "my_turn": True, "tournament": tag})
    ]
    assert [e for e in _events(storage, bob.id) if e[0] == "game_start"] == [
        ("game_start", {"game": game_id, "seat": 1, "my_turn": False, "tournament": tag})
    ]


def test_a_game_of_no_tournament_shows_no_tag_in_its_view_or_game_start(play: GamePlay, storage: Storage):
    (ann, _ann_token), (bob, _bob_token) = _players(storage)
    created = play.create(("x", "y"), clock=SHORT, seating=Seating((ann.holder(), bob.holder())))
    assert "tournament" not in json.loads(created.view)
    assert ("game_start", {"game": created.game_id, "seat": 0, "my_turn": True}) in _events(storage, ann.id)


def test_without_seat_tokens_a_seat_nobody_holds_still_gets_its_token(play: GamePlay):
    # seat_tokens=False spares only a player's seat: a seat of names alone would have nothing acting for it.
    created = play.create(("Ann", "Bob"), seating=Seating(seat_tokens=False), seed=3)
    first, second = created.tokens
    assert first is not None and second is not None
    assert (play.seat_of(created.game_id, first), play.seat_of(created.game_id, second)) == (0, 1)
    with pytest.raises(MissingToken):
        play.seat_of(created.game_id, None)
    with pytest.raises(InvalidToken):
        play.seat_of(created.game_id, "not-a-token")


# --- the first move forfeit --------------------------------------------------------------


def test_a_first_move_not_made_in_time_loses_on_time_for_the_seat_to_move(play: GamePlay, storage: Storage):
    (ann, _ann_token), (bob, _bob_token) = _players(storage)
    game_id = new_game_id()
    start_game(play, game_id, (ann, bob), SHORT, rated=True, tournament=TAG)
    deadline = play.load(game_id).record.clock_now
    assert deadline is not None and deadline.deadline_ms is not None
    time.sleep(1.1)
    expiry = play.expire(game_id, deadline.deadline_ms)
    assert expiry.applied is not None and expiry.reason == "timeout"
    game = _game(play, game_id)
    # Seat 0 was to move and did not: seat 1 wins on time; nobody's bank ran, so both stay whole.
    assert game["result"]["winner"] == 1 and game["result"]["reason"] == "timeout"
    assert game["clock"]["remaining_ms"] == [1_000, 1_000] and game["clock"]["deadline"] is None
    # Rated, but neither seat moved: no rating changed (rated_games.py, as for any rated game).
    assert game["result"]["rated"] is False and "rating_diff" not in game["result"]
    _version, entries = play.history(game_id)
    assert [(json.loads(e)["action"], json.loads(e)["seat"]) for e in entries] == [("timeout", 0)]
    # Both hear the end.
    assert [e[1]["result"]["winner"] for e in _events(storage, bob.id) if e[0] == "game_end"] == [1]


def test_the_second_players_first_move_missed_is_an_ordinary_timeout(play: GamePlay, storage: Storage):
    (ann, ann_token), (bob, _bob_token) = _players(storage)
    game_id = new_game_id()
    start_game(play, game_id, (ann, bob), SHORT, rated=False, tournament=TAG)
    play.play(game_id, Advance(), ann_token)  # seat 1's bank of a second runs from here
    clock = play.load(game_id).record.clock_now
    assert clock is not None and clock.running == 1 and clock.deadline_ms is not None
    time.sleep(1.1)
    assert play.expire(game_id, clock.deadline_ms).reason == "timeout"
    game = _game(play, game_id)
    assert game["result"]["winner"] == 0 and game["result"]["reason"] == "timeout"
    assert game["clock"]["remaining_ms"][1] == 0


def test_the_timekeeper_ends_a_tagged_game_on_time_and_still_aborts_any_other(
    play: GamePlay, storage: Storage
):
    (ann, _ann_token), (bob, _bob_token) = _players(storage)
    game_id = new_game_id()
    start_game(play, game_id, (ann, bob), SHORT, rated=False, tournament=TAG)
    other = play.create(("Cy", "Di"), clock=SHORT, seating=Seating((ann.holder(), bob.holder())))
    time.sleep(1.2)
    assert Timekeeper(play, storage.deadlines).tick() == 2
    # Nothing moved: each seat still has its 5 buttons and 81 empty cells, 5 - 2 * 81 = -157.
    assert _game(play, game_id)["result"] == {"scores": [-157, -157], "winner": 1, "reason": "timeout"}
    assert _game(play, other.game_id)["result"] == {
        "scores": [-157, -157],
        "winner": None,
        "reason": "aborted",
    }

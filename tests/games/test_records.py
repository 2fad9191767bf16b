"""The stored record of a game: what it keeps of the seats' tokens, and its text read back."""

from __future__ import annotations

import pytest

from service.engine import Advance, apply_move, new_game
from service.games import NO_BOTS, GameRecord, token_hash
from service.games.records import could_be_game_id, create_record, new_game_id


def test_only_a_tokens_sha256_is_kept_and_it_names_its_seat():
    # SHA-256 of "abc" (FIPS 180-2, appendix B.1).
    assert token_hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    record, (first, second) = create_record(new_game(seed=3), ("Ada", "Bo"))
    assert first is not None and second is not None
    assert record.token_hashes == (token_hash(first), token_hash(second))
    assert [record.seat_of(first), record.seat_of(second)] == [0, 1]
    assert record.seat_of("not a seat token") is None
    assert first not in record.encode() and second not in record.encode()


def test_a_bots_seat_has_no_token_and_is_in_turn_when_its_seat_is():
    record, tokens = create_record(new_game(seed=3), ("Bot", "Ada"), ("random", None))
    assert tokens[0] is None and record.token_hashes[0] is None
    assert (record.bot_in_turn, record.has_person) == ("random", True)
    after = record.advanced(apply_move(record.state, Advance(), 0))  # seat 1, a person, is in turn
    assert after.bot_in_turn is None


def test_a_record_reads_back_from_its_text_with_every_field():
    record, _tokens = create_record(
        new_game(patch_order=list(range(2, 34)) + [1]), ("Ada", "Bo"), ("random", None)
    )
    moved = record.advanced(apply_move(record.state, Advance(), 0))
    assert GameRecord.decode(moved.encode()) == moved
    assert moved.move_times == (moved.updated_at,)
    assert moved.patch_order == tuple(range(2, 34)) + (1,)


def test_a_record_between_people_stores_no_bots_and_reads_back_without_them():
    record, _tokens = create_record(new_game(seed=3), ("Ada", "Bo"))
    assert '"bots"' not in record.encode()
    assert GameRecord.decode(record.encode()).bots == NO_BOTS


def test_a_record_of_an_unknown_format_is_refused():
    record, _tokens = create_record(new_game(seed=3), ("Ada", "Bo"))
    text = record.encode().replace('"format":1', '"format":2')
    with pytest.raises(ValueError, match="format"):
        GameRecord.decode(text)


def test_game_ids_are_22_url_safe_characters_and_nothing_else_could_be_one():
    assert could_be_game_id(new_game_id())
    assert len(new_game_id()) == 22
    for text in ("A" * 21, "A" * 23, "A" * 21 + "}", "A" * 21 + "=", "A" * 22 + "\n", ""):
        assert not could_be_game_id(text), text

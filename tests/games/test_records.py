"""The stored record of a game: what it keeps of the seats' tokens, and its text read back."""

from __future__ import annotations

import json

import pytest

from service.engine import Advance, apply_move, new_game
from service.games import GameRecord, token_hash
from service.games.records import Seat, could_be_game_id, create_record, new_game_id, seated


def test_only_a_tokens_sha256_is_kept_and_it_names_its_seat():
    # SHA-256 of "abc" (FIPS 180-2, appendix B.1).
    assert token_hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    record, (first, second) = create_record(new_game(seed=3), (Seat("Ada"), Seat("Bo")))
    assert first is not None and second is not None
    assert [seat.token_hash for seat in record.seats] == [token_hash(first), token_hash(second)]
    assert [record.seat_of(first), record.seat_of(second)] == [0, 1]
    assert record.seat_of("not a seat token") is None
    assert first not in record.encode() and second not in record.encode()


def test_a_bots_seat_has_no_token_and_is_in_turn_when_its_seat_is():
    record, tokens = create_record(new_game(seed=3), (Seat("Bot", bot="random"), Seat("Ada")))
    assert tokens[0] is None and record.seats[0].token_hash is None
    assert record.seats == (Seat("Bot", None, "random"), Seat("Ada", token_hash(tokens[1] or "")))
    assert (record.bot_in_turn, record.has_person) == ("random", True)
    after = record.advanced(apply_move(record.state, Advance(), 0))  # seat 1, a person, is in turn
    assert after.bot_in_turn is None


def test_a_record_reads_back_from_its_text_with_every_field():
    record, _tokens = create_record(
        new_game(patch_order=list(range(2, 34)) + [1]), (Seat("Ada", bot="random"), Seat("Bo"))
    )
    moved = record.advanced(apply_move(record.state, Advance(), 0))
    assert GameRecord.decode(moved.encode()) == moved
    assert moved.move_times == (moved.updated_at,)
    assert moved.patch_order == tuple(range(2, 34)) + (1,)


def test_a_record_between_people_stores_no_bots_and_reads_back_without_them():
    record, _tokens = create_record(new_game(seed=3), (Seat("Ada"), Seat("Bo")))
    assert '"bots"' not in record.encode()
    assert [seat.bot for seat in GameRecord.decode(record.encode()).seats] == [None, None]


def test_a_record_of_an_unknown_format_is_refused():
    record, _tokens = create_record(new_game(seed=3), (Seat("Ada"), Seat("Bo")))
    text = record.encode().replace('"format":1', '"format":2')
    with pytest.raises(ValueError, match="format"):
        GameRecord.decode(text)


def test_game_ids_are_22_url_safe_characters_and_nothing_else_could_be_one():
    assert could_be_game_id(new_game_id())
    assert len(new_game_id()) == 22
    for text in ("A" * 21, "A" * 23, "A" * 21 + "}", "A" * 21 + "=", "A" * 22 + "\n", ""):
        assert not could_be_game_id(text), text


# Records as the service stored them before seats were values (`Seat`): each
# seat's fields in lists of both seats'. The store still holds such texts, and
# the service still writes them (a store shared with an older process reads them).
LOBBY_GAME = (
    '{"format":1,"id":"LobbyGameAAAAAAAAAAAAA","names":["Ada","Player 2"]'
    ',"token_hashes":["1111111111111111111111111111111111111111111111111111111111111111",null]'
    ',"created_at":"2026-12-04T01:24:52Z","updated_at":"2026-12-04T01:24:52Z","patch_order":null'
    ',"move_times":[],"engine":{"format":1'
    ',"circle":[30,11,21,12,31,7,9,24,2,16,10,17,25,26,23,15,27,29,8,18,28,20,13,5,19,4,3,33,14,6,32,22,1]'
    ',"time_board":"revised","first_player":0,"seed":7,"on_top":0,"leather_spaces":[26,32,38,44,50]'
    ',"bonus_owner":null,"moves_played":0,"first_to_end":null,"resigned":null,"players":[{"buttons":5'
    ',"position":0,"income":0,"leather_to_place":0,"pieces":[]},{"buttons":5,"position":0,"income":0'
    ',"leather_to_place":0,"pieces":[]}]},"clock":{"initial_s":300,"increment_s":2,"first_move_s":60}'
    ',"clock_log":[[1764800000000,300000,300000,null,1764800600000]],"player_ids":["p_ada",null]'
    ',"player_hashes":["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",null]'
    ',"open_seats":[false,true],"listed":false,"open_until_ms":1764800600000}'
)
BOT_GAME = (
    '{"format":1,"id":"BotGameAAAAAAAAAAAAAAA","names":["Bot","Ada"],"token_hashes":[null'
    ',"2222222222222222222222222222222222222222222222222222222222222222"]'
    ',"created_at":"2026-12-04T01:24:52Z","updated_at":"2026-12-04T01:24:52Z"'
    ',"patch_order":[2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,1]'
    ',"move_times":["2026-12-04T01:24:52Z","2026-12-04T01:24:52Z"],"engine":{"format":1'
    ',"circle":[2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,1]'
    ',"time_board":"revised","first_player":0,"seed":null,"on_top":1'
    ',"leather_spaces":[26,32,38,44,50],"bonus_owner":null,"moves_played":2,"first_to_end":null'
    ',"resigned":null,"players":[{"buttons":6,"position":1,"income":0,"leather_to_place":0'
    ',"pieces":[]},{"buttons":7,"position":2,"income":0,"leather_to_place":0,"pieces":[]}]}'
    ',"bots":["random",null]}'
)
RATED_GAME = (
    '{"format":1,"id":"RatedGameAAAAAAAAAAAAA","names":["Ada","Bo"]'
    ',"token_hashes":["3333333333333333333333333333333333333333333333333333333333333333"'
    ',"4444444444444444444444444444444444444444444444444444444444444444"]'
    ',"created_at":"2026-12-04T01:24:52Z","updated_at":"2026-12-04T01:24:52Z","patch_order":null'
    ',"move_times":["2026-12-04T01:24:52Z","2026-12-04T01:24:52Z","2026-12-04T01:24:52Z"]'
    ',"engine":{"format":1'
    ',"circle":[31,21,22,15,6,14,25,9,24,2,12,13,10,3,4,11,27,5,23,17,33,7,8,20,18,28,16,26,32,19,29,30,1]'
    ',"time_board":"original","first_player":0,"seed":11,"on_top":1,"leather_spaces":[20,26,32,44,50]'
    ',"bonus_owner":null,"moves_played":3,"first_to_end":null,"resigned":0,"players":[{"buttons":6'
    ',"position":1,"income":0,"leather_to_place":0,"pieces":[]},{"buttons":7,"position":2,"income":0'
    ',"leather_to_place":0,"pieces":[]}]},"clock":{"initial_s":180,"increment_s":0,"first_move_s":60}'
    ',"clock_log":[[1764800011000,178000,171000,null,null]],"player_ids":["p_ada","p_bo"]'
    ',"player_hashes":["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"'
    ',"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"],"rated":true'
    ',"settlement":{"players":["p_ada","p_bo"],"after":[{"rating":1450.5,"rd":300.25'
    ',"volatility":0.06},{"rating":1549.5,"rd":300.25,"volatility":0.06}],"diff":[-49.5,49.5]}'
    ',"next_game":"NextGameAAAAAAAAAAAAAA"}'
)


@pytest.mark.parametrize("text", [LOBBY_GAME, BOT_GAME, RATED_GAME], ids=["lobby", "bot", "rated"])
def test_a_record_stored_before_seats_were_values_is_written_back_as_it_was(text):
    assert GameRecord.decode(text).encode() == text


def test_each_seat_of_a_record_stored_before_seats_were_values_is_read_from_its_lists():
    lobby, bot, rated = (GameRecord.decode(text) for text in (LOBBY_GAME, BOT_GAME, RATED_GAME))
    assert lobby.seats == (
        Seat("Ada", "1" * 64, None, "p_ada", "a" * 64, False),
        Seat("Player 2", None, None, None, None, True),
    )
    assert (lobby.open_seat, lobby.bot_in_turn, lobby.has_person) == (1, None, True)
    assert bot.seats == (Seat("Bot", None, "random"), Seat("Ada", "2" * 64))
    assert (bot.open_seat, bot.bot_in_turn, bot.has_person) == (None, "random", True)
    assert rated.seats == (
        Seat("Ada", "3" * 64, None, "p_ada", "a" * 64),
        Seat("Bo", "4" * 64, None, "p_bo", "b" * 64),
    )
    assert (rated.open_seat, rated.bot_in_turn, rated.rated) == (None, None, True)


def test_a_seat_taken_is_written_in_each_seat_list_as_before():
    record, token = seated(GameRecord.decode(LOBBY_GAME), 1, "Bo", "p_bo", "b" * 64)
    expected = json.loads(LOBBY_GAME)
    expected["names"][1] = "Bo"
    expected["token_hashes"][1] = token_hash(token)
    expected["player_ids"][1], expected["player_hashes"][1] = "p_bo", "b" * 64
    expected["open_seats"][1] = False
    assert json.loads(record.encode()) == expected
    assert list(json.loads(record.encode())) == list(expected)  # the members in their order
    assert (record.seat_of(token), record.open_seat) == (1, None)

"""Records replayed through the engine and stored games written as records (record_games.py), with no store.

Known answers: the 14 ANU games (tests/data/anu-games.json) with their final
scores, each written as a record by the test itself (its tags, and its ANU
move string split into tokens on one line without seats, as docs/records.md
allows), so the reader is checked against text it did not write.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from service.engine import (
    Advance,
    apply_move,
    canonical_move,
    format_move,
    legal_moves,
    new_game,
    parse_move,
)
from service.games.record_games import record_of, replay_record
from service.games.record_text import RecordError, RecordNotFinished, parse_record
from service.games.records import GameRecord, Seat
from service.games.takebacks import in_force, moves_of
from tests.support.anu import anu_games, anu_record, tokens


def canonical_string(moves: str) -> str:
    """An ANU move string as the service writes it: each buy in its canonical orientation."""
    return "".join(format_move(canonical_move(parse_move(token))) for token in tokens(moves))


def stored(replayed, game_id: str = "A" * 22) -> GameRecord:
    """A stored game as an import makes it, for record_of."""
    setup = replayed.setup
    return GameRecord(
        id=game_id,
        seats=(Seat(replayed.names[0]), Seat(replayed.names[1])),
        created_at="2026-12-04T17:00:00Z",
        updated_at="2026-12-04T17:00:00Z",
        state=replayed.state,
        patch_order=setup.get("patch_order"),
    )


@pytest.mark.parametrize("index", range(14))
def test_every_anu_game_replays_to_its_final_scores_and_writes_back_its_moves(index):
    game = anu_games()[index]
    replayed = replay_record(anu_record(game))
    outcome = replayed.state.result
    assert outcome is not None and list(outcome.scores) == game["final_scores"]
    assert outcome.reason == "completed"
    written = record_of(stored(replayed), replayed.entries, finished=True)
    moves = "".join(entry.token for entry in parse_record(written).entries)
    assert moves == canonical_string(game["moves"])
    # Written, then read again: the same history and the same end.
    again = replay_record(written)
    assert again.entries == replayed.entries
    assert again.state == replayed.state
    assert record_of(stored(again), again.entries, finished=True) == written


def test_a_written_record_names_its_setup_players_and_result():
    game = anu_games()[0]
    replayed = replay_record(anu_record(game).replace("[TimeBoard", '[Players "Ann" "Bob"]\n[TimeBoard'))
    written = record_of(stored(replayed), replayed.entries, finished=True)
    tags = {tag.name: tag.values for tag in parse_record(written).tags}
    assert tags == {
        "Event": ("Casual game",),
        "Game": ("A" * 22,),
        "Date": ("2026-12-04T17:00:00Z",),
        "Players": ("Ann", "Bob"),
        "Clock": ("-",),
        "TimeBoard": ("original",),
        "Circle": (" ".join(str(patch) for patch in game["circle"]),),
        "FirstPlayer": ("0",),
        "Result": ("1-0",),
        "Scores": tuple(str(score) for score in game["final_scores"]),
    }
    # A version before the end: the game was running then.
    running = record_of(stored(replayed), replayed.entries[:5], finished=False)
    assert '[Result "*"]' in running and "Scores" not in running
    assert len(parse_record(running).entries) == 5


def _seeded(*lines: str) -> str:
    return '[TimeBoard "revised"]\n[Seed "7"]\n[FirstPlayer "0"]\n\n' + "\n".join(lines) + "\n"


def test_a_resignation_by_the_seat_not_in_turn_ends_the_game_for_the_other():
    replayed = replay_record(_seeded("1. 0 .", "2. 0 resign"))  # seat 1 is in turn after seat 0's advance
    outcome = replayed.state.result
    assert outcome is not None and (outcome.winner, outcome.reason) == (1, "resigned")
    assert replayed.setup == {"seed": 7, "first_player": 0, "time_board": "revised"}


def test_a_timeout_and_an_abort_end_the_game_for_the_seat_in_turn():
    timed_out = replay_record(_seeded("1. 0 .", "2. 1 timeout")).state.result
    assert timed_out is not None and (timed_out.winner, timed_out.reason) == (0, "timeout")
    aborted = replay_record(_seeded("1. 0 abort")).state.result
    assert aborted is not None and (aborted.winner, aborted.reason) == (None, "aborted")
    with pytest.raises(RecordError) as raised:
        replay_record(_seeded("1. 0 .", "2. 0 timeout"))
    assert (raised.value.line, raised.value.token) == (6, "timeout")
    assert "it is seat 1's turn" in str(raised.value)


def test_a_takeback_undoes_the_last_turn_and_its_moves_stay_in_the_history():
    state = new_game(seed=7)
    buy = next(move for move in legal_moves(state) if move != Advance())
    replayed = replay_record(
        _seeded(f"1. 0 {format_move(buy)}", "2. 0 takeback", "3. 0 .", "4. 1 .", "5. 1 resign")
    )
    assert [entry.count('"takeback"') for entry in replayed.entries] == [0, 1, 0, 0, 0]
    assert moves_of(in_force(list(replayed.entries)))[0] == Advance()
    # The takeback's entry goes back to version 1, before the buy.
    assert '"to_version":1' in replayed.entries[1]
    after_advances = apply_move(apply_move(new_game(seed=7), Advance()), Advance())
    assert replace(replayed.state, resigned=None, moves_played=2) == after_advances


@pytest.mark.parametrize(
    "lines, line, token, words",
    [
        (("1. 1 .",), 5, ".", "seat 1 cannot advance: it is seat 0's turn"),
        (("1. 0 AAAA",), 5, "AAAA", "cannot be played: patch 1 is not in the market [30, 11, 21]"),
        (("1. 0 takeback",), 5, "takeback", "there is no turn of seat 0 to take back"),
        (("1. 0 .", "2. 1 takeback"), 6, "takeback", "there is no turn of seat 1 to take back"),
        (("1. 0 resign", "2. 1 ."), 6, ".", "the game is finished"),
        (("1. 0 .", "2. 1 ."), 6, ".", "the game still running"),
        ((), 4, "", "the game still running"),
    ],
)
def test_a_record_the_rules_refuse_names_the_line_the_token_and_the_engines_reason(lines, line, token, words):
    with pytest.raises(RecordError) as raised:
        replay_record(_seeded(*lines))
    assert (raised.value.line, raised.value.token) == (line, token)
    assert words in str(raised.value)


def test_an_unfinished_record_is_its_own_error():
    with pytest.raises(RecordNotFinished) as raised:
        replay_record(_seeded("1. 0 ."))
    assert raised.value.code == "record_not_finished"


@pytest.mark.parametrize(
    "tags, line, token, words",
    [
        ('[Seed "7"]\n[FirstPlayer "0"]', 3, "TimeBoard", "is missing"),
        ('[TimeBoard "revised"]\n[Seed "7"]', 3, "FirstPlayer", "is missing"),
        ('[TimeBoard "revised"]\n[FirstPlayer "0"]', 3, "Circle", "is missing"),
        ('[TimeBoard "revised"]\n[Seed "7"]\n[FirstPlayer "one"]', 3, "FirstPlayer", "not a whole number"),
        ('[TimeBoard "revised"]\n[Seed "7"]\n[FirstPlayer "2"]', 3, "FirstPlayer", "is not 0 or 1"),
        ('[TimeBoard "newest"]\n[Seed "7"]\n[FirstPlayer "0"]', 1, "TimeBoard", "is not one of"),
        ('[TimeBoard "revised"]\n[Circle "1 2 3"]\n[FirstPlayer "0"]', 2, "Circle", "not a permutation"),
        ('[TimeBoard "revised"]\n[Circle "a b"]\n[FirstPlayer "0"]', 2, "Circle", "must list patch ids"),
        (
            '[TimeBoard "revised"]\n[Seed "7"]\n[Circle "'
            + " ".join(str(patch) for patch in range(2, 34))
            + ' 1"]\n[FirstPlayer "0"]',
            3,
            "Circle",
            "is not the circle that seed 7 lays out",
        ),
    ],
)
def test_tags_that_set_no_game_up_are_refused_at_their_line(tags, line, token, words):
    with pytest.raises(RecordError) as raised:
        replay_record(tags + "\n\n1. 0 abort\n")
    assert (raised.value.line, raised.value.token) == (line, token)
    assert words in str(raised.value)


def test_a_result_or_scores_the_moves_do_not_come_to_are_refused():
    game = anu_games()[0]
    text = anu_record(game)
    wrong_result = text.replace('[Result "1-0"]', '[Result "0-1"]')
    with pytest.raises(RecordError) as raised:
        replay_record(wrong_result)
    assert (raised.value.line, raised.value.token) == (4, "Result")
    assert "says 0-1, but the moves come to 1-0" in str(raised.value)
    with pytest.raises(RecordError) as raised:
        replay_record(text.replace('[Scores "28" "7"]', '[Scores "28" "8"]'))
    assert (raised.value.line, raised.value.token) == (5, "Scores")


def test_a_long_record_of_takebacks_goes_back_to_the_versions_it_names():
    # 64 KiB of `.` and `takeback` is about 3,000 of each: each takeback returns to a kept state.
    lines = []
    for turn in range(3000):
        lines += [f"{2 * turn + 1}. 0 .", f"{2 * turn + 2}. 0 takeback"]
    replayed = replay_record(_seeded(*lines, "6001. 0 resign"))
    assert len(replayed.entries) == 6001
    assert replayed.state.moves_played == 1 and replayed.state.resigned == 0
    # Each takes back the advance just made, to the version that advance was made on.
    assert all(f'"to_version":{number}' in replayed.entries[number] for number in range(1, 6000, 2))

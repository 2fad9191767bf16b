"""The text of a game record (docs/records.md), read and written with no store: tags, move lines, words, errors."""

from __future__ import annotations

import pytest

from service.engine import Abort, Advance, Buy, PlaceLeather, Placement, Resign, Timeout
from service.games.record_text import (
    Entry,
    RecordError,
    Tag,
    Takeback,
    format_record,
    parse_record,
)

TAGS = (
    Tag("Players", ("Ann", "Bob")),
    Tag("TimeBoard", ("revised",)),
    Tag("FirstPlayer", ("0",)),
)
ENTRIES = (
    Entry(1, 0, Buy(12, Placement(0, 7, 0, False))),
    Entry(2, 1, Advance()),
    Entry(3, 1, PlaceLeather(2, 1)),
    Entry(4, 1, Takeback()),
    Entry(5, 1, Advance()),
    Entry(6, 0, Resign()),
)


def _read(entries: tuple[Entry, ...]) -> list[tuple[int, int | None, object]]:
    return [(entry.number, entry.seat, entry.action) for entry in entries]


def test_a_record_is_written_with_tags_a_blank_line_and_numbered_moves_a_seats_run_to_a_line():
    text = format_record(TAGS, ENTRIES)
    assert text == (
        '[Players "Ann" "Bob"]\n'
        '[TimeBoard "revised"]\n'
        '[FirstPlayer "0"]\n'
        "\n"
        "1. 0 LHAA\n"
        "2. 1 . hBCA\n"
        "4. 1 takeback\n"
        "5. 1 .\n"
        "6. 0 resign\n"
    )


def test_what_is_written_reads_back_the_same():
    read = parse_record(format_record(TAGS, ENTRIES))
    assert [(tag.name, tag.values) for tag in read.tags] == [(tag.name, tag.values) for tag in TAGS]
    assert _read(read.entries) == _read(ENTRIES)
    # Each entry knows its line: the errors of a replay name it.
    assert [entry.line for entry in read.entries] == [5, 6, 6, 7, 8, 9]


@pytest.mark.parametrize(
    "name",
    ['Bob "the Quilter"', "back\\slash", "two\nlines", "tab\there", "Zoë 🧵", "[x]", "-"],
)
def test_names_holding_quotes_escapes_line_breaks_and_any_letter_fit_on_their_line(name):
    text = format_record([Tag("Players", (name, "Ann"))], [])
    assert text.count("\n") == 2  # the tag line and the blank line
    assert parse_record(text).tag("Players") == Tag("Players", (name, "Ann"), 1)


def test_each_word_has_its_line_and_reads_back_as_its_action():
    entries = (Entry(1, 0, Advance()), Entry(2, 0, Timeout()), Entry(3, 1, Abort()))
    text = format_record([], entries)
    assert text == "\n1. 0 .\n2. 0 timeout\n3. 1 abort\n"
    assert _read(parse_record(text).entries) == _read(entries)


def test_a_reader_takes_lines_without_the_seat_any_split_crlf_a_bom_and_blank_lines():
    text = '\ufeff[TimeBoard "original"]\r\n\r\n  1. LHAA OAAA\r\n\r\n3.\t1 HADA  .\r\n'
    read = parse_record(text)
    assert read.tag("TimeBoard") == Tag("TimeBoard", ("original",), 1)
    assert [(entry.number, entry.seat, entry.token, entry.line) for entry in read.entries] == [
        (1, None, "LHAA", 3),
        (2, None, "OAAA", 3),
        (3, 1, "HADA", 5),
        (4, 1, ".", 5),
    ]


def test_unknown_tags_are_read_and_kept_with_any_number_of_values():
    read = parse_record('[Annotator "me" "and you" "and them"]\n')
    assert read.tag("Annotator") == Tag("Annotator", ("me", "and you", "and them"), 1)


@pytest.mark.parametrize(
    "text, line, token, words",
    [
        ("[Players Ann Bob]", 1, "Players", "each value is a quoted string"),
        ('[Players "Ann" "Bob"', 1, "Players", "each value is a quoted string"),
        ('[Players "Ann" "Bob]', 1, "Players", "do not close"),
        ('[Players "Ann\\q" "Bob"]', 1, "Players", "do not close"),
        ('[Players "Ann"]', 1, "Players", "has 1 values, not 2"),
        ('[TimeBoard "revised" "original"]', 1, "TimeBoard", "has 2 values, not 1"),
        ('[Event "a"]\n[Event "b"]', 2, "Event", "given twice"),
        ("[]", 1, "[]", "is not a tag"),
        ('1. 0 .\n[Event "late"]', 2, '[Event "late"]', "after the moves"),
        ("\n\nhello", 3, "hello", "is not a move line"),
        ("1 0 LHAA", 1, "1 0 LHAA", "is not a move line"),
        ("1. 0", 1, "1. 0", "names no move"),
        ("2. 0 LHAA", 1, "2.", "the next move is number 1"),
        ("1. 0 LHAA\n3. 1 .", 2, "3.", "the next move is number 2"),
        ("1. 0 LHAX", 1, "LHAX", "is not a letter A..H"),
        ("1. 0 LHA", 1, "LHA", "neither '.' nor four characters"),
        ("1. 0 . resigns", 1, "resigns", "is not a move"),
        ("1. 2 LHAA", 1, "2", "is not a move"),
    ],
)
def test_a_line_that_cannot_be_read_is_refused_naming_the_line_and_the_token(text, line, token, words):
    with pytest.raises(RecordError) as raised:
        parse_record(text)
    assert (raised.value.line, raised.value.token) == (line, token)
    assert str(raised.value).startswith(f"line {line}: ")
    assert words in str(raised.value)
    assert repr(token) in str(raised.value)

"""A bot account's name carries a bot mark in every picture; a person's and a level's seat carry none."""

from __future__ import annotations

from service.engine import new_game
from service.games.records import Seat
from service.pictures import board_svg, board_text
from tests.support.pictures import SVG, by_class, parse, view_of

PERSON = Seat("Ada", "0" * 64, player_id="ada")
BOT_ACCOUNT = Seat("Stitcher", player_id="stitcher", player_hash="1" * 64, bot_account=True)
LEVEL = Seat("Computer (deep)", bot="deep")


def game(first: Seat, second: Seat) -> dict:
    """A game at its start, seat 0 (the first player of seed 1's setup) in turn."""
    return view_of(new_game(seed=1), seats=(first, second))


def name_texts(svg: str) -> list[str]:
    """Each seat's name row as drawn, its mark's tspan included."""
    return ["".join(element.itertext()) for element in by_class(parse(svg), "name")]


def test_the_game_view_says_which_seat_a_bot_account_holds():
    players = game(PERSON, BOT_ACCOUNT)["players"]
    assert [player["bot"] for player in players] == [None, True]


def test_the_board_marks_a_bot_accounts_name_and_only_its():
    view = game(PERSON, BOT_ACCOUNT)
    svg = board_svg(view)
    assert name_texts(svg) == ["Ada", "Stitcher [BOT]"]
    marks = [element for element in parse(svg).iter(f"{SVG}tspan") if "bot-mark" in element.get("class", "")]
    assert [mark.text for mark in marks] == [" [BOT]"]
    assert parse(svg).find(f"{SVG}title").text == "Patchwork: Ada against Stitcher [BOT], move 0"


def test_the_turn_line_marks_a_bot_account_in_turn():
    status = by_class(parse(board_svg(game(BOT_ACCOUNT, PERSON))), "status")
    assert [element.text for element in status] == ["Stitcher [BOT] to play, move 1"]
    status = by_class(parse(board_svg(game(PERSON, BOT_ACCOUNT))), "status")
    assert [element.text for element in status] == ["Ada to play, move 1"]


def test_a_levels_seat_keeps_the_name_it_was_given():
    svg = board_svg(game(PERSON, LEVEL))
    assert name_texts(svg) == ["Ada", "Computer (deep)"]
    assert "[BOT]" not in svg and "bot-mark" not in svg
    assert "[BOT]" not in board_text(game(PERSON, LEVEL))


def test_the_mark_is_in_the_pictures_language():
    svg = board_svg(game(BOT_ACCOUNT, PERSON), "es")
    assert [element.text for element in by_class(parse(svg), "status")] == [
        "Le toca a Stitcher [BOT], jugada 1"
    ]
    assert "Stitcher [BOT]" in board_text(game(BOT_ACCOUNT, PERSON), "fr")


def test_a_long_name_is_cut_before_its_mark_never_the_mark():
    long = Seat("W" * 60, player_id="w", player_hash="2" * 64, bot_account=True)
    view = game(long, PERSON)
    shown = name_texts(board_svg(view))[0]
    assert shown.endswith("\u2026 [BOT]") and len(shown) < 60
    status = by_class(parse(board_svg(view)), "status")[0].text
    assert "\u2026 [BOT] to play" in status
    header = board_text(view).splitlines()[2]
    assert header.startswith("A  WWW") and "\u2026 [BOT]  buttons 5" in header


def test_the_text_board_marks_a_bot_account_in_its_lines():
    text = board_text(game(BOT_ACCOUNT, PERSON))
    lines = text.splitlines()
    assert lines[0] == "Patchwork: Stitcher [BOT] to play, move 1"
    assert lines[2].startswith("A  Stitcher [BOT] ") and lines[3].startswith("B  Ada ")
    assert lines[5].startswith("A  Stitcher [BOT] ") and lines[5].endswith("B  Ada")
    assert "[BOT]" not in board_text(game(PERSON, Seat("Grace", "1" * 64)))

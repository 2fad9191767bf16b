"""The host's commands as values (service/engine_protocol/commands.py) and positions replayed (positions.py)."""

from __future__ import annotations

import pytest

from service.engine import new_game, seeded_patch_order
from service.engine_protocol import Go, IllegalMove, Position, ProtocolError, game_state, parse_command
from service.engine_protocol.commands import Word, split_tokens

CIRCLE = seeded_patch_order(1)
IDS = ",".join(map(str, CIRCLE))


@pytest.mark.parametrize(
    "command",
    [
        *Word,
        Position(CIRCLE, 0, "revised"),
        Position(CIRCLE, 1, "original", (".", "LHAA", "hBBA")),
        Go(),
        Go(movetime_ms=250),
        Go(time_ms=(60_000, 0)),
        Go(time_ms=(1, 2), increment_ms=(3, 4), movetime_ms=5),
        Go(increment_ms=(0, 0)),
    ],
)
def test_every_command_round_trips_through_its_line(command):
    assert parse_command(command.line()) == command


def test_the_lines_read_as_the_protocol_writes_them():
    assert Position(CIRCLE, 1, "original", (".", "LHAA")).line() == (
        f"position circle {IDS} first 1 board original moves . LHAA"
    )
    assert Go(time_ms=(1, 2), increment_ms=(3, 4), movetime_ms=5).line() == (
        "go time0 1 time1 2 inc0 3 inc1 4 movetime 5"
    )
    # Keys in any order, and runs of whitespace.
    assert parse_command("  go\tmovetime 5  inc1 4 time1 2 inc0 3   time0 1 ") == Go((1, 2), (3, 4), 5)


def test_moves_written_together_are_the_same_moves():
    together = parse_command(f"position circle {IDS} first 0 board revised moves .LHAA. hBBAOAAA")
    assert together == Position(CIRCLE, 0, "revised", (".", "LHAA", ".", "hBBA", "OAAA"))
    assert split_tokens("..LHAA.") == [".", ".", "LHAA", "."]
    assert split_tokens("LHAAOA") == ["LHAA", "OA"]  # the tail is kept whole, for the error to name
    assert parse_command(f"position circle {IDS} first 0 board revised moves") == Position(
        CIRCLE, 0, "revised"
    )


def test_empty_lines_are_no_command():
    assert parse_command("") is None
    assert parse_command(" \t \n") is None


@pytest.mark.parametrize(
    ("line", "bad"),
    [
        ("patchworks", "patchworks"),
        ("isready 1", "isready 1"),
        ("position", "position"),
        (f"position circle {IDS} first 0", f"position circle {IDS} first 0"),
        (f"position circle {IDS} first x board revised", "x"),
        (f"position circle {IDS} first 0 board Revised", "Revised"),
        (f"position circle {IDS} first 0 board revised with .", "with"),
        (f"position circle {IDS},1 first 0 board revised", f"{IDS},1"),
        ("position circle " + IDS.replace("1", "١") + " first 0 board revised", IDS.replace("1", "١")),
        (f"position circle {IDS} first 0 board revised moves . LHA", "LHA"),
        (f"position circle {IDS} first 0 board revised moves LHAA.hJAA", "hJAA"),
        ("go 5", "go 5"),
        ("go movetime 5 x", "go movetime 5 x"),
        ("go nodes 5", "nodes"),
        ("go movetime ²", "²"),
        ("go movetime 1.5", "1.5"),
        ("go inc0 1 inc0 1", "inc0"),
        ("go time1 1", "go time1 1"),
    ],
)
def test_a_malformed_line_raises_protocol_error_carrying_the_bad_input(line, bad):
    with pytest.raises(ProtocolError) as raised:
        parse_command(line)
    assert raised.value.text == bad


def test_a_position_replays_to_its_game_and_an_illegal_move_is_named():
    assert game_state(Position(CIRCLE, 1, "original")) == new_game(
        patch_order=CIRCLE, first_player=1, time_board="original"
    )
    after = game_state(Position(CIRCLE, 0, "revised", (".",)))
    assert after.players[0].position > 0 and after.turn == 1
    # The second seat cannot afford patch 26 (not even in the market).
    with pytest.raises(IllegalMove) as raised:
        game_state(Position(CIRCLE, 0, "revised", (".", "ZAAA")))
    assert (raised.value.number, raised.value.text) == (2, "ZAAA")
    assert str(raised.value).startswith("position: move 2 'ZAAA' is illegal")
    # A position built by hand is not parsed: the replay judges its tokens too.
    with pytest.raises(IllegalMove, match="move 1 'bad!'"):
        game_state(Position(CIRCLE, 0, "revised", ("bad!",)))
    with pytest.raises(ProtocolError, match="must end with the 1x2"):
        game_state(Position(tuple(sorted(CIRCLE)), 0, "revised"))

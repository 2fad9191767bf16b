"""board_text: both quilts cell by cell, the track, the market, and names that cannot steer a terminal."""

from __future__ import annotations

import re

from service.engine import PATCHES
from service.pictures import board_text
from tests.support.pictures import sample_states, view_of

STATES = sample_states(games=4)
# A quilt row: " r " and nine 3-column cells, six spaces, the same for the other quilt.
CELLS = r"((?:  \.| ##| {1,2}\d{1,2}){9})"
ROW = re.compile(rf"^ (\d) {CELLS} {{6}} \1 {CELLS}$")


def cells_of(text: str) -> list[int | None]:
    assert len(text) == 27, text
    return [
        None if cell == "." else 0 if cell == "##" else int(cell)
        for cell in (text[i : i + 3].strip() for i in range(0, 27, 3))
    ]


def test_both_quilts_are_nine_rows_side_by_side_cell_for_cell():
    for state in STATES:
        view = view_of(state)
        rows = [ROW.match(line) for line in board_text(view).splitlines()]
        rows = [found for found in rows if found]
        assert [int(found[1]) for found in rows] == list(range(9))
        for seat, group in ((0, 2), (1, 3)):
            # The engine's own grid: the view's rows are what is drawn, not the truth.
            assert [cells_of(found[group]) for found in rows] == state.quilt_grid(seat)


def test_the_track_and_the_tokens_are_on_the_right_columns():
    for state in STATES:
        view = view_of(state)
        lines = board_text(view).splitlines()
        track = lines[lines.index(next(line for line in lines if line.startswith("time track"))) + 2]
        assert len(track) == 54
        assert [i for i, ch in enumerate(track) if ch == "$"] == view["income_spaces"]
        assert [i for i, ch in enumerate(track) if ch == "L"] == view["leather_spaces"]
        for seat, letter in enumerate("AB"):
            (token,) = [line for line in lines if re.fullmatch(rf" *{letter}  space \d+", line)]
            assert token.index(letter) == view["players"][seat]["position"]


def test_the_market_and_the_circle_are_listed():
    for state in STATES:
        view = view_of(state)
        text = board_text(view)
        for patch_id in view["market"]:
            patch = PATCHES[patch_id]
            assert f"#{patch_id} cost {patch.cost} time {patch.time} +{patch.income}" in text
        for patch_id in view["circle"][3:]:
            assert f"#{patch_id} {PATCHES[patch_id].cost}/{PATCHES[patch_id].time}" in text


def test_the_result_heads_a_finished_game():
    view = view_of(STATES[-1])
    assert view["result"] is not None
    winner = view["result"]["winner"]
    assert board_text(view).startswith(f"Patchwork: {view['players'][winner]['name']} wins ")


def test_a_name_cannot_send_escape_sequences_or_turn_the_line_around():
    view = view_of(STATES[2], names=("\x1b[2J\x1b]0;pwned\x07", "\u202eevil\u2066"))
    text = board_text(view)
    assert not any(ch in text for ch in "\x1b\x07\u202e\u2066")
    assert "\ufffd[2J\ufffd]0;pwned\ufffd" in text and "\ufffdevil\ufffd" in text


def test_wide_names_are_cut_to_their_column_so_the_quilts_stay_aligned():
    view = view_of(STATES[2], names=("全" * 40, "x" * 40))
    lines = board_text(view).splitlines()
    assert sum(1 for line in lines if ROW.match(line)) == 9
    assert "全" * 11 + "\u2026" in board_text(view)

"""board_svg: well-formed, self-contained SVG that shows the view it was given."""

from __future__ import annotations

import copy
import dataclasses
import re

import pytest

from service.engine import LEATHER_PATCH_ID, Buy, Placement, apply_move, new_game
from service.pictures import board_svg
from service.pictures.board import CELL
from tests.support.pictures import (
    SVG,
    by_class,
    covered_cells,
    parse,
    placed_outlines,
    polygon_area,
    sample_states,
    view_of,
)

STATES = sample_states()
HOSTILE_NAMES = ("<script>alert(1)</script>", "]]>", "\"&'", "<![CDATA[x]]>", "a\x00b\x1b[2J\u202eevil")


@pytest.fixture(scope="module")
def boards() -> list[tuple[dict, str]]:
    views = [view_of(state) for state in STATES]
    return [(view, board_svg(view)) for view in views]


def test_the_sample_holds_finished_games_and_leather_to_place():
    assert sum(state.finished for state in STATES) >= 8
    assert any(state.phase == "place_leather" for state in STATES)


def test_every_board_is_well_formed_svg_with_nothing_to_run_or_fetch(boards):
    for _view, svg in boards:
        root = parse(svg)
        assert root.tag == f"{SVG}svg"
        assert "<script" not in svg.lower() and "url(" not in svg and "@import" not in svg
        for element in root.iter():
            assert element.tag.split("}")[-1] not in {"script", "foreignObject", "image", "a", "style"}
            for name, value in element.attrib.items():
                assert not name.startswith("on"), name
                if name.endswith("href"):
                    assert value.startswith("#pw-"), value
        # The one URI is the SVG namespace itself.
        assert re.findall(r"https?://[^\"]*", svg) == ["http://www.w3.org/2000/svg"]


def test_each_placed_patch_is_one_outline_covering_exactly_its_cells(boards):
    for view, svg in boards:
        root = parse(svg)
        for quilt in by_class(root, "quilt"):
            grid = view["players"][int(quilt.get("data-seat"))]["quilt"]
            ids = [pid for row in grid for pid in row if pid is not None]
            outlines = by_class(quilt, "piece")
            assert len(outlines) == len(set(ids) - {LEATHER_PATCH_ID}) + ids.count(LEATHER_PATCH_ID)
            drawn = {}
            placed = placed_outlines(quilt)
            assert len(placed) == len(outlines)
            for outline, dx, dy in placed:
                cells = covered_cells(outline.get("d"), CELL, dx, dy)
                assert polygon_area(outline.get("d")) == len(cells) * CELL * CELL
                for cell in cells:
                    assert drawn.setdefault(cell, int(outline.get("data-patch-id"))) is not None
            assert drawn == {
                (r, c): pid for r, row in enumerate(grid) for c, pid in enumerate(row) if pid is not None
            }


def test_a_quilt_shows_as_many_printed_buttons_as_its_income(boards):
    for view, svg in boards:
        for quilt in by_class(parse(svg), "quilt"):
            buttons = [el for el in quilt.iter(f"{SVG}use") if el.get("href") == "#pw-button"]
            assert len(buttons) == view["players"][int(quilt.get("data-seat"))]["income"]


def test_tokens_stand_on_the_players_spaces(boards):
    for view, svg in boards:
        root = parse(svg)
        spaces = {int(el.get("data-space")): el for el in by_class(root, "space")}
        assert sorted(spaces) == list(range(54))
        tokens = by_class(root, "token")
        assert sorted(int(t.get("data-seat")) for t in tokens) == [0, 1]
        for token in tokens:
            position = view["players"][int(token.get("data-seat"))]["position"]
            assert int(token.get("data-position")) == position
            tile = spaces[position]
            x, y = float(tile.get("x")), float(tile.get("y"))
            assert x < float(token.get("cx")) < x + float(tile.get("width"))
            assert y < float(token.get("cy")) < y + float(tile.get("height"))


def test_leather_patches_still_on_the_track_are_drawn_on_their_spaces(boards):
    for view, svg in boards:
        drawn = sorted(int(el.get("data-space")) for el in by_class(parse(svg), "leather"))
        assert drawn == view["leather_spaces"]


def test_the_market_and_the_rest_of_the_circle_are_shown_in_order(boards):
    for view, svg in boards:
        root = parse(svg)
        market = [int(el.get("data-patch-id")) for el in by_class(root, "market-patch")]
        rest = [int(el.get("data-patch-id")) for el in by_class(root, "circle-patch")]
        assert market == view["market"]
        assert market + rest == view["circle"]


def test_the_result_is_shown_once_the_game_is_finished(boards):
    for view, svg in boards:
        results = by_class(parse(svg), "result")
        if view["result"] is None:
            assert results == []
            continue
        (shown,) = results
        winner = view["result"]["winner"]
        assert int(shown.get("data-winner")) == winner
        assert shown.text.startswith(f"{view['players'][winner]['name']} wins ")


def test_a_resignation_and_a_tie_are_told_apart():
    view = view_of(STATES[-1])
    resigned = copy.deepcopy(view)
    resigned["result"] = {"scores": [3, 9], "winner": 1, "reason": "resigned"}
    (shown,) = by_class(parse(board_svg(resigned)), "result")
    assert shown.text == "Ada resigned: Grace wins"
    tie = copy.deepcopy(view)
    tie["result"] = {"scores": [-4, -4], "winner": 0, "reason": "completed"}
    (shown,) = by_class(parse(board_svg(tie)), "result")
    assert shown.text == "Ada wins \u22124 to \u22124 (a tie: reached space 53 first)"


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_a_name_from_a_request_is_text_never_markup(name):
    svg = board_svg(view_of(STATES[3], names=(name, "Grace")))
    root = parse(svg)
    assert "<script" not in svg and "<![CDATA[" not in svg
    shown = by_class(root, "name")[0].text
    expected = name.replace("\x00", "\ufffd").replace("\x1b", "\ufffd").replace("\u202e", "\ufffd")
    assert shown == expected
    assert all(ch not in shown for ch in "\x00\x1b\u202e")


def test_a_hand_placed_patch_covers_the_cells_api_md_gives():
    # Patch 11 is .X / XX / .X; turned 90 degrees clockwise it is .X. / XXX,
    # so with its box's corner on (2, 3) it covers (2, 4), (3, 3), (3, 4), (3, 5).
    state = new_game(patch_order=(11, *[p for p in range(2, 34) if p != 11], 1))
    state = apply_move(state, Buy(11, Placement(2, 3, 90, False, None)))
    root = parse(board_svg(view_of(state)))
    quilt = next(q for q in by_class(root, "quilt") if q.get("data-seat") == "0")
    ((outline, dx, dy),) = placed_outlines(quilt)
    assert outline.get("data-patch-id") == "11"
    assert covered_cells(outline.get("d"), CELL, dx, dy) == {(2, 4), (3, 3), (3, 4), (3, 5)}


def test_the_bonus_tile_is_shown_with_its_holder_or_as_still_to_win(boards):
    views = [view for view, _svg in boards]
    views += [view_of(dataclasses.replace(STATES[5], bonus_owner=seat)) for seat in (0, 1)]
    for view in views:
        holders = [el.get("data-holder") for el in by_class(parse(board_svg(view)), "bonus")]
        assert holders == ["none" if view["bonus_owner"] is None else str(view["bonus_owner"])]


def test_long_names_are_made_smaller_and_cut_to_their_places():
    # A resignation names both players in the title bar.
    short, long = view_of(STATES[-1]), view_of(STATES[-1], names=("W" * 40, "\u5168" * 40))
    for view in short, long:
        view["result"] = {"scores": [3, 9], "winner": 1, "reason": "resigned"}
    short, long = parse(board_svg(short)), parse(board_svg(long))
    assert [name.text for name in by_class(long, "name")] == ["W" * 26 + "\u2026", "\u5168" * 21 + "\u2026"]
    assert all(12 <= float(name.get("font-size")) < 13 for name in by_class(long, "name"))
    assert float(by_class(long, "result")[0].get("font-size")) < float(
        by_class(short, "result")[0].get("font-size")
    )


def _finished_on_a_clock(winner: int) -> dict:
    view = view_of(STATES[-1])
    view["result"] = {"scores": [3, 9], "winner": winner, "reason": "resigned"}
    view["clock"] = {"remaining_ms": [61_000, 4_200], "running": None}
    return view


@pytest.mark.parametrize("language", ["en", "es", "pt", "fr"])
def test_the_winner_wears_a_badge_in_every_language(language):
    for winner in (0, 1):
        root = parse(board_svg(_finished_on_a_clock(winner), language))
        badges = by_class(root, "badge")
        assert [badge.get("data-kind") for badge in badges] == ["winner"]
        # Seat 1's quilt is on the right half of the 900 px board.
        (rect,) = badges[0].iter(f"{SVG}rect")
        assert (float(rect.get("x")) > 450) == (winner == 1)


def test_a_badge_leaves_the_clock_and_the_name_uncovered():
    long_names = ("W" * 40, "\u5168" * 40)
    finished = _finished_on_a_clock(1)
    active = view_of(STATES[3], names=long_names)
    active["clock"] = {"remaining_ms": [61_000, 4_200], "running": active["turn"]}
    for view in finished, {**finished, "players": active["players"]}, active:
        root = parse(board_svg(view))
        ((badge,),) = [list(b.iter(f"{SVG}rect")) for b in by_class(root, "badge")]
        left, top = float(badge.get("x")), float(badge.get("y"))
        bottom = top + float(badge.get("height"))
        # A clock's digits (15 px, baseline y) rise at most 15 px above it.
        for clock in by_class(root, "clock"):
            assert bottom <= float(clock.get("y")) - 15
        # The name in the same row ends before the badge begins.
        same_side = [n for n in by_class(root, "name") if (float(n.get("x")) > 450) == (left > 450)]
        (name,) = same_side
        room = float(name.get("textLength") or 0) or float(name.get("font-size")) * len(name.text) * 0.8
        assert float(name.get("x")) + room <= left

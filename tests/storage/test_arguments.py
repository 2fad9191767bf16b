"""The scripts' named arguments (storage/arguments.py) agree with the scripts that read them."""

from __future__ import annotations

import re

import pytest

from service.storage import scripts
from service.storage.arguments import LAYOUTS, Layout


def _names(layout: Layout) -> tuple[str, ...]:
    return layout.head + layout.clock


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_every_named_argument_is_read_by_its_script(name: str) -> None:
    # A field the script no longer reads is an argument every call pays for.
    body = scripts.load(name).split(LAYOUTS[name].lua(), 1)[1]
    unread = [field for field in _names(LAYOUTS[name]) if not re.search(rf"\b{field}\b", body)]
    assert unread == []


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_no_script_declares_a_named_argument_again(name: str) -> None:
    # `local state = ...` in the script would hide the argument of that name from the lines after it.
    layout = LAYOUTS[name]
    body = scripts.load(name).split(layout.lua(), 1)[1]
    declared = set(re.findall(r"\blocal\s+(?:function\s+)?([\w\s,]+?)\s*(?:=|\(|\n)", body))
    names = {part.strip() for group in declared for part in group.split(",")}
    assert names & set(_names(layout)) == set()


def test_a_layout_names_the_arguments_in_order_and_marks_the_clock_part() -> None:
    lua = Layout(("a", "b"), ("c", "d", "e")).lua()
    assert lua.splitlines()[1:] == [
        "local a, b = ARGV[1], ARGV[2]",
        "local clocked = ARGV[3] ~= ''",
        "local c, d, e = ARGV[3], ARGV[4], ARGV[5]",
    ]
    assert Layout(("a",)).lua().splitlines()[1:] == ["local a = ARGV[1]"]

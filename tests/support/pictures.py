"""Game views for picture tests: positions of seeded random games, and reading SVG back.

Views come from the API's own `game_view`, so the pictures are tested on
exactly the dict GET /games/{id} serves.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

from service.engine import GameState, apply_move, legal_moves, new_game
from service.games.records import GameRecord, Seat
from service.games.views import game_view

SVG = "{http://www.w3.org/2000/svg}"
NAMES = ("Ada", "Grace")


def view_of(state: GameState, names=NAMES, seats: tuple[Seat, Seat] | None = None) -> dict:
    """The Game view of `state`, its seats two people named `names` unless `seats` are given."""
    record = GameRecord(
        id="pictures",
        seats=seats or (Seat(names[0], "0" * 64), Seat(names[1], "1" * 64)),
        created_at="2024-01-01T00:00:00Z",
        updated_at="2024-01-01T00:00:00Z",
        state=state,
    )
    return game_view(record, state.moves_played + 1)


def random_game(seed: int) -> list[GameState]:
    """Every state of a game played with uniformly random legal moves, from setup to the end."""
    rng = random.Random(seed)
    state = new_game(seed=seed, time_board=rng.choice(("revised", "original")))
    states = [state]
    while not state.finished:
        state = apply_move(state, rng.choice(legal_moves(state)))
        states.append(state)
    return states


def sample_states(games: int = 8, every: int = 7) -> list[GameState]:
    """Every `every`-th state of `games` random games, plus each game's final state."""
    states = []
    for seed in range(games):
        played = random_game(seed)
        states += played[::every]
        states.append(played[-1])
    return states


def parse(svg: str) -> ET.Element:
    """The SVG parsed as XML (raises if it is not well-formed)."""
    return ET.fromstring(svg)


def by_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [el for el in root.iter() if name in el.get("class", "").split()]


def placed_outlines(container: ET.Element) -> list[tuple[ET.Element, float, float]]:
    """Each piece outline under `container` with the translate of the group that places it."""
    found = []
    for group in container.iter(f"{SVG}g"):
        for child in group:
            if "piece" in child.get("class", "").split():
                found.append((child, *translate(group)))
    return found


def translate(element: ET.Element) -> tuple[float, float]:
    found = re.fullmatch(r"translate\(([-\d.]+) ([-\d.]+)\)", element.get("transform", "translate(0 0)"))
    assert found, element.get("transform")
    return float(found[1]), float(found[2])


def outline_polygons(d: str) -> list[list[tuple[float, float]]]:
    """The closed loops of a path written with M, H, V and Z only (as piece outlines are)."""
    loops, loop, x, y = [], [], 0.0, 0.0
    for command, numbers in re.findall(r"([MHVZ])([^MHVZ]*)", d):
        values = [float(v) for v in numbers.split()]
        if command == "M":
            x, y = values
            loop = [(x, y)]
        elif command == "H":
            x = values[0]
            loop.append((x, y))
        elif command == "V":
            y = values[0]
            loop.append((x, y))
        else:
            loops.append(loop)
    return loops


def covered_cells(d: str, size: float, dx: float = 0, dy: float = 0) -> set[tuple[int, int]]:
    """The (row, col) cells of `size` px whose centres lie inside the outline (even-odd), offset by dx, dy."""
    loops = outline_polygons(d)
    xs = [x for loop in loops for x, _ in loop]
    ys = [y for loop in loops for _, y in loop]
    cells = set()
    for row in range(int(min(ys) // size), int(max(ys) // size) + 1):
        for col in range(int(min(xs) // size), int(max(xs) // size) + 1):
            px, py = (col + 0.5) * size, (row + 0.5) * size
            inside = False
            for loop in loops:
                for (x1, y1), (x2, y2) in zip(loop, loop[1:] + loop[:1]):
                    if (y1 > py) != (y2 > py) and px < x1 + (py - y1) * (x2 - x1) / (y2 - y1):
                        inside = not inside
            if inside:
                cells.add((row + round(dy / size), col + round(dx / size)))
    return cells


def polygon_area(d: str) -> float:
    """Area enclosed by the outline's loops (shoelace; holes wind the other way)."""
    total = 0.0
    for loop in outline_polygons(d):
        total += sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(loop, loop[1:] + loop[:1])) / 2
    return abs(total)

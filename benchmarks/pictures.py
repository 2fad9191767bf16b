"""Speed of the pictures on one core, next to building the Game view for the same positions.

Run: ./dev bench pictures   (or .venv/bin/python benchmarks/pictures.py)
Issue 12: a board may cost at most 4x a GET /games/{id}. A GET serves the
stored view text; what it costs the app beyond that is measured by
`./dev bench http`. Here: the median time of each picture over positions of
random games, and of the two view steps a board route would stand on:
building the view (`game_view` + JSON text, what every move does) and
parsing the stored view text back (what a board route adds to a GET).
"""

import gzip
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# As benchmarks/http.py does: run as a script, this directory would come first
# on sys.path, and benchmarks/http.py would shadow the standard library's http.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "benchmarks"]
sys.path.insert(0, str(ROOT))

from benchmarks.engine import pin_to_one_core, random_game
from service.engine.patches import ORIENTATION_ORDER
from service.games.jsontext import compact, parse
from service.games.records import GameRecord, Seat
from service.games.views import game_view
from service.pictures import board_svg, board_text, patch_svg

GAMES = 12
NAMES = ("Ada Lovelace", "Grace <Hopper> & co")


def record_of(state) -> GameRecord:
    return GameRecord(
        id="bench",
        seats=(Seat(NAMES[0], "0" * 64), Seat(NAMES[1], "1" * 64)),
        created_at="2024-01-01T00:00:00Z",
        updated_at="2024-01-01T00:00:00Z",
        state=state,
    )


def per_call_us(function, inputs, repeat: int = 5) -> float:
    """Median CPU time of one call of `function` over `inputs` (each `repeat` times), in microseconds.

    CPU time of this thread, not wall time: on a machine shared with other
    work, preemption would otherwise land in some calls and not others.
    """
    times = []
    for item in inputs:
        for _ in range(repeat):
            start = time.thread_time_ns()
            function(item)
            times.append(time.thread_time_ns() - start)
    return statistics.median(times) / 1000


FIRST_BOARD = """
import sys, time
from service.games.jsontext import parse
from service.pictures import board_svg
view = parse(sys.stdin.read())
start = time.thread_time_ns()
board_svg(view)
print((time.thread_time_ns() - start) / 1000)
"""


def first_render_us(texts) -> float:
    """The first board a fresh process draws (every fragment cache empty): the median of a few."""
    times = [
        float(
            subprocess.run(
                [sys.executable, "-c", FIRST_BOARD],
                input=text,
                cwd=ROOT,
                text=True,
                capture_output=True,
                check=True,
            ).stdout
        )
        for text in texts[:7]
    ]
    return statistics.median(times)


def main() -> None:
    print(f"pictures benchmark, {pin_to_one_core()}")
    rng = random.Random(12)
    records = [record_of(state) for _ in range(GAMES) for state in random_game(rng)]
    rng.shuffle(records)
    records = records[:300]
    views = [game_view(record, 1) for record in records]
    texts = [compact(view) for view in views]
    finished = sum(view["result"] is not None for view in views)
    print(
        f"median CPU time of one call; {len(views)} positions from {GAMES} random games ({finished} finished)"
    )

    build = per_call_us(lambda record: compact(game_view(record, 1)), records)
    reparse = per_call_us(parse, texts)
    board_us = per_call_us(board_svg, views)
    text = per_call_us(board_text, views)
    route = per_call_us(lambda stored: board_svg(parse(stored)), texts)
    sizes = sorted(len(board_svg(view).encode()) for view in views)

    orientations = [
        (pid, rotation, flipped) for pid in range(1, 34) for rotation, flipped in ORIENTATION_ORDER
    ]
    patch_us = per_call_us(lambda args: patch_svg(*args), orientations)

    print(f"Game view built (game_view + JSON text):   {build:7.1f} us median")
    print(f"stored view text parsed (orjson):          {reparse:7.1f} us median")
    print(
        f"board_svg(view):                           {board_us:7.1f} us median  "
        f"({board_us / build:.1f}x the view build; SVG {sizes[len(sizes) // 2] / 1024:.0f} KiB median, "
        f"{sizes[-1] / 1024:.0f} KiB largest)"
    )
    print(
        f"board_svg(parse(stored view text)):        {route:7.1f} us median  "
        f"(what a board route adds to a GET's work)"
    )
    print(
        f"board_svg, fragment caches empty:          {first_render_us(texts):7.1f} us median  "
        f"(a worker's first boards)"
    )
    svgs = [board_svg(view).encode() for view in views[:60]]
    for level in (1, 6):
        squeeze = per_call_us(lambda body: gzip.compress(body, level), svgs, repeat=2)
        print(
            f"gzip level {level} of a board:                {squeeze:7.1f} us median  "
            f"(an answer >= 1 KiB is compressed for clients that accept gzip)"
        )
    print(
        f"board_text(view):                          {text:7.1f} us median  ({text / build:.1f}x the view build)"
    )
    print(f"patch_svg, 264 orientations:               {patch_us:7.1f} us median  (kept once drawn)")


if __name__ == "__main__":
    main()

"""Python bytecodes per request, by function: where a move's (or /healthz's) Python work goes.

Time per function (cProfile) is distorted by the profiler's own cost and
blurred by a shared machine; the bytecodes a request executes are not. The
HTTP benchmark's scripted game (`httpbench/plans.py`) is played through the
Flask test client against a throwaway Redis, one game to warm up, then
`--games` more (made first) whose moves are traced with `sys.settrace`'s
opcode events. Each function's
count is its own bytecodes ("self") and those of everything it called
("inclusive"), per request. C code (orjson, hiredis, werkzeug's parsers
written in C) counts nothing here: `./dev bench clockcost` counts machine
instructions of the whole service instead. The test client and gunicorn
are not the same server: compare a move with `/healthz` under the same one.

    ./dev bench bytecodes [--clock] [--healthz] [--games 2] [--top 40] [--match service/]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from dataclasses import replace
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "benchmarks"]
sys.path.insert(0, str(ROOT))

from benchmarks.httpbench.plans import CLOCKED_CREATE_BODY, CREATE_BODY, move_script
from service.api import create_app
from service.config import Settings
from tests.support.redis_servers import ThrowawayRedis


class BytecodeCounter:
    """Counts, per function, the bytecodes run in it and in what it called, while installed."""

    def __init__(self) -> None:
        self.own: Counter[str] = Counter()
        self.inclusive: Counter[str] = Counter()
        self.calls: Counter[str] = Counter()
        # Bytecodes so far of each frame still running (its callees' included), by frame id.
        self._running: dict[int, list[int]] = {}

    def _name(self, frame: FrameType) -> str:
        code = frame.f_code
        path = code.co_filename
        for prefix in (f"{ROOT}/", "site-packages/"):
            path = path.split(prefix, 1)[-1]
        return f"{path}:{code.co_firstlineno} {code.co_name}"

    def __call__(self, frame: FrameType, _event: str, _arg: Any):
        frame.f_trace_opcodes = True
        name = self._name(frame)
        self.calls[name] += 1
        count = self._running[id(frame)] = [0]

        def local(frame: FrameType, event: str, _arg: Any):
            if event == "opcode":
                count[0] += 1
                self.own[name] += 1
            elif event == "return":
                self._running.pop(id(frame), None)
                self.inclusive[name] += count[0]
                caller = self._running.get(id(frame.f_back)) if frame.f_back is not None else None
                if caller is not None:
                    caller[0] += count[0]
            return local

        return local


def new_games(client, clocked: bool, games: int) -> list[tuple[str, list[str]]]:
    """Games made through the API (not traced): each one's id and seat tokens."""
    body = CLOCKED_CREATE_BODY if clocked else CREATE_BODY
    made = []
    for _ in range(games):
        created = client.post("/games", data=body, content_type="application/json").get_json()
        made.append((created["game"]["id"], created["tokens"]))
    return made


def play(client, games: list[tuple[str, list[str]]], script: list, healthz: bool) -> int:
    """The scripted game's moves in each game (or as many GET /healthz); the requests made."""
    requests = 0
    for game_id, tokens in games:
        for step in script:
            if healthz:
                answer = client.get("/healthz")
                assert answer.status_code == 200, answer.status_code
            else:
                answer = client.post(
                    f"/games/{game_id}/moves",
                    data=step.body,
                    content_type="application/json",
                    headers={"Authorization": f"Bearer {tokens[step.seat]}"},
                )
                assert answer.status_code == 201, answer.get_data(as_text=True)
            requests += 1
    return requests


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clock", action="store_true", help="games with a real-time clock")
    parser.add_argument("--healthz", action="store_true", help="count GET /healthz instead of moves")
    parser.add_argument("--games", type=int, default=2, help="games traced (2)")
    parser.add_argument("--top", type=int, default=40, help="functions shown, most inclusive first (40)")
    parser.add_argument("--match", default="", help="only functions whose file:line name contains this")
    args = parser.parse_args()
    counter = BytecodeCounter()
    with tempfile.TemporaryDirectory() as work, ThrowawayRedis(Path(work) / "redis") as redis:
        client = create_app(replace(Settings.from_env(), redis_url=redis.url)).test_client()
        script = move_script()
        play(client, new_games(client, args.clock, 1), script, args.healthz)
        games = new_games(client, args.clock, args.games)
        sys.settrace(counter)
        try:
            requests = play(client, games, script, args.healthz)
        finally:
            sys.settrace(None)
    # The script's own bytecodes (its loop, the test client) are in the total; a request's are under
    # flask/app.py's __call__.
    total = sum(counter.own.values())
    what = "GET /healthz" if args.healthz else "moves" + (" with a clock" if args.clock else "")
    print(f"{what}: {requests} requests, {total / requests:,.0f} bytecodes per request, test client included")
    print(f"{'inclusive':>10} {'self':>8} {'calls':>6}  function (per request)")
    shown = [(name, count) for name, count in counter.inclusive.items() if args.match in name]
    for name, count in sorted(shown, key=lambda item: -item[1])[: args.top]:
        print(
            f"{count / requests:10,.0f} {counter.own[name] / requests:8,.0f} "
            f"{counter.calls[name] / requests:6.1f}  {name}"
        )


if __name__ == "__main__":
    main()

"""What the benchmark asks the service: one plan of requests per endpoint.

A plan is plain data (picklable, and writable for wrk's Lua script): either a
round-robin list of ready-made GET requests, or the games and the scripted
moves of the move benchmark. Every game of the move benchmark is created
from the same patch order, so one engine-made script of legal moves (buys,
advances and leather patches) plays every one of them: each request is the
next move of a game with no request in flight, by the seat in turn.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field

from service.engine import Buy, PlaceLeather, apply_move, legal_moves, new_game

# A fixed circle (the 1x2 patch last, as the rules want) and a fixed policy
# make one script that every benchmark game follows move for move.
PATCH_ORDER = tuple(range(2, 34)) + (1,)
SCRIPT_SEED = 2024
CREATE_BODY = json.dumps({"patch_order": list(PATCH_ORDER)})
# The same games with the longest real-time clock: its time never runs out in a run.
CLOCKED_CREATE_BODY = json.dumps(
    {"patch_order": list(PATCH_ORDER), "clock": {"initial_s": 10800, "increment_s": 180}}
)


@dataclass(frozen=True)
class ScriptedMove:
    seat: int
    action: str
    body: str  # the JSON request body


def move_script() -> list[ScriptedMove]:
    """A whole game's legal moves, the same for every game made from PATCH_ORDER.

    Buys are preferred (two in three turns when one is legal) so that quilts
    fill up and views and states grow as in real play.
    """
    rng = random.Random(SCRIPT_SEED)
    state = new_game(patch_order=PATCH_ORDER)
    script = []
    while not state.finished:
        moves = legal_moves(state)
        buys = [m for m in moves if isinstance(m, Buy)]
        move = rng.choice(buys) if buys and rng.random() < 2 / 3 else moves[0]
        assert state.turn is not None  # the game is not finished
        script.append(ScriptedMove(state.turn, move.action, json.dumps(_body(move))))
        state = apply_move(state, move)
    return script


def _body(move) -> dict:
    if isinstance(move, Buy):
        p = move.placement  # one form only: row/col/rotation/flipped
        return {
            "action": "buy",
            "patch_id": move.patch_id,
            "placement": {"row": p.row, "col": p.col, "rotation": p.rotation, "flipped": p.flipped},
        }
    if isinstance(move, PlaceLeather):
        return {"action": "place_leather", "row": move.row, "col": move.col}
    return {"action": "advance"}


def script_mix(script: list[ScriptedMove]) -> str:
    """'21 buy, 32 advance, 5 place_leather': what the move benchmark plays."""
    counts: dict[str, int] = {}
    for step in script:
        counts[step.action] = counts.get(step.action, 0) + 1
    return ", ".join(f"{n} {action}" for action, n in sorted(counts.items()))


@dataclass(frozen=True)
class Game:
    id: str
    tokens: tuple[str, str]


@dataclass
class GetPlan:
    """GET requests sent round-robin; every answer should have `expect` status."""

    name: str
    paths: list[str]
    expect: int
    headers: dict[str, str] = field(default_factory=dict)
    # Per path, overriding `headers` (If-None-Match carries each game's own tag).
    path_headers: list[dict[str, str]] | None = None

    def headers_for(self, index: int) -> dict[str, str]:
        extra = self.path_headers[index] if self.path_headers else {}
        return {**self.headers, **extra}


@dataclass
class MovePlan:
    """Scripted moves on fresh games; every answer should be 201."""

    name: str
    games: list[Game]
    script: list[ScriptedMove]
    expect: int = 201


# Headers every request of a run sends (http.py --gzip: Accept-Encoding).
COMMON_HEADERS: dict[str, str] = {}


def common_header_lines() -> list[str]:
    return [f"{name}: {value}" for name, value in COMMON_HEADERS.items()]


def request_text(method: str, path: str, host: str, headers: dict[str, str], body: str = "") -> bytes:
    """One HTTP/1.1 keep-alive request, ready to send."""
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}"]
    lines += common_header_lines()
    lines += [f"{name}: {value}" for name, value in headers.items()]
    payload = body.encode()
    if body:
        lines.append(f"Content-Length: {len(payload)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + payload

"""The ANU known-answer games (tests/data/anu-games.json) as HTTP request bodies.

The notation is read here independently of the engine's own parser, so the
HTTP test does not trust the code it checks (docs/rules.md#notation describes it).
"""

from __future__ import annotations

import json
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data" / "anu-games.json"
PATCH_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefg"  # ids 1..33
ORIENTATIONS = [
    (0, False),
    (90, False),
    (180, False),
    (270, False),
    (0, True),
    (90, True),
    (180, True),
    (270, True),
]


def anu_games() -> list[dict]:
    return json.loads(DATA.read_text())["games"]


def tokens(moves: str) -> list[str]:
    """Split an ANU move string: '.' alone, everything else 4 characters."""
    out, i = [], 0
    while i < len(moves):
        step = 1 if moves[i] == "." else 4
        out.append(moves[i : i + step])
        i += step
    return out


def request_body(token: str) -> dict:
    """The POST /games/{id}/moves body for one ANU token."""
    if token == ".":
        return {"action": "advance"}
    col, row = ord(token[1]) - ord("A"), ord(token[2]) - ord("A")
    if token[0] == "h":
        return {"action": "place_leather", "row": row, "col": col}
    rotation, flipped = ORIENTATIONS[ord(token[3]) - ord("A")]
    return {
        "action": "buy",
        "patch_id": PATCH_LETTERS.index(token[0]) + 1,
        "placement": {"row": row, "col": col, "rotation": rotation, "flipped": flipped},
    }


def create_body(game: dict) -> dict:
    return {
        "patch_order": game["circle"],
        "first_player": game["first_player"],
        "time_board": game["time_board"],
    }


def anu_record(game: dict) -> str:
    """A known-answer game as a game record (docs/records.md), written here, not by the service.

    Its setup tags, its final scores (and who won, when the scores differ:
    a tie goes to the first to reach the end, which the data does not
    say), then its moves on one line, without seats, as the record allows.
    """
    scores = game["final_scores"]
    lines = [
        f'[TimeBoard "{game["time_board"]}"]',
        f'[Circle "{" ".join(str(patch) for patch in game["circle"])}"]',
        f'[FirstPlayer "{game["first_player"]}"]',
    ]
    if scores[0] != scores[1]:
        lines.append(f'[Result "{"1-0" if scores[0] > scores[1] else "0-1"}"]')
    lines.append(f'[Scores "{scores[0]}" "{scores[1]}"]')
    return "\n".join(lines) + "\n\n1. " + " ".join(tokens(game["moves"])) + "\n"


def record_moves(text: str) -> list[str]:
    """The move tokens of a record's text, in order: each move line without its number and seat."""
    moves = []
    for line in text.splitlines():
        words = line.split()
        if not words or line.startswith("["):
            continue
        assert words[0].endswith("."), line
        moves += words[2:] if words[1] in ("0", "1") else words[1:]
    return moves

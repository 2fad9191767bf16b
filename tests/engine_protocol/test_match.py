"""The match tool (python -m service.engine_protocol.match): two quick games, and a forfeit."""

from __future__ import annotations

import shlex
import sys

from service.engine_protocol.match import main
from tests.support.protocol_engines import ENGINE, TEST_NODES_PER_MS


def command(level: str) -> str:
    return shlex.join([str(ENGINE), level, "--nodes-per-ms", TEST_NODES_PER_MS])


def test_random_against_greedy_on_one_circle_both_ways(capsys):
    assert (
        main([command("random"), command("greedy"), "--games", "2", "--movetime", "20", "--seed", "4"]) == 0
    )
    lines = capsys.readouterr().out.splitlines()
    assert lines[2].startswith("game 1: seed 4, A first: A ")
    assert lines[3].startswith("game 2: seed 4, B first: A ")
    assert lines[-1].startswith("A: ") and "losses, 0 draws in 2 games; mean margin " in lines[-1]


CHEAT = """\
import sys
for line in sys.stdin:
    word = (line.split() or [""])[0]
    if word == "patchwork":
        print("id name cheat")
        print("patchworkok", flush=True)
    elif word == "isready":
        print("readyok", flush=True)
    elif word == "go":
        print("bestmove AAAA", flush=True)  # patch 1 is last in every circle: never in the first market
    elif word == "quit":
        break
"""


def test_an_engine_playing_an_illegal_move_forfeits_and_is_started_again(tmp_path, capsys):
    cheat = tmp_path / "cheat.py"
    cheat.write_text(CHEAT)
    assert main([command("greedy"), shlex.join([sys.executable, str(cheat)]), "--games", "2"]) == 0
    games = [line for line in capsys.readouterr().out.splitlines() if line.startswith("game ")]
    assert "A first" in games[0] and "A wins in 1 moves" in games[0]
    assert "B first" in games[1] and "A wins in 0 moves" in games[1]
    for line in games:
        assert "forfeits: its move 'AAAA' is refused: patch 1 is not in the market" in line, line

"""The host's side (service/engine_protocol/engine_process.py): real engines, and small scripted ones that misbehave.

A whole game of `patchwork-engine random` against `patchwork-engine
greedy` is played through EngineProcess, every move checked by the rules
engine; the scripted engines show each way an engine can fail a host.
"""

from __future__ import annotations

import logging
import sys
import time

import pytest

from service.engine import apply_move, new_game, parse_move, seeded_patch_order
from service.engine_protocol import EngineError, EngineProcess, Go, Position
from tests.support.anu import PATCH_LETTERS
from tests.support.protocol_engines import ENGINE, TEST_NODES_PER_MS, among_legal_moves

CIRCLE = seeded_patch_order(3)
START = Position(CIRCLE, 0, "revised")
# A buy of a patch outside the market: illegal at the start.
ILLEGAL = PATCH_LETTERS[next(pid for pid in range(2, 27) if pid not in CIRCLE[:3]) - 1] + "AAA"


def engine(level: str) -> list[str]:
    return [str(ENGINE), level, "--nodes-per-ms", TEST_NODES_PER_MS]


def scripted(body: str) -> list[str]:
    """An engine written in a few lines of Python: greets, then runs body for each later line `line`."""
    script = (
        "import sys, time\n"
        "for line in sys.stdin:\n"
        "    line = line.strip()\n"
        "    if line == 'patchwork':\n"
        "        print('id name scripted'); print('patchworkok', flush=True); continue\n"
        "    if line == 'isready':\n"
        "        print('readyok', flush=True); continue\n"
        "    if line == 'quit':\n"
        "        break\n" + "".join(f"    {row}\n" for row in body.splitlines())
    )
    return [sys.executable, "-c", script]


def test_a_whole_game_of_random_against_greedy_every_move_legal():
    state = new_game(patch_order=CIRCLE)
    played: list[str] = []
    with EngineProcess(engine("random")) as first, EngineProcess(" ".join(engine("greedy"))) as second:
        assert (first.name, second.name) == ("patchwork-engine random", "patchwork-engine greedy")
        assert first.author == "the Patchwork game-state service"
        assert first.is_ready(5) and second.is_ready(5)
        while (turn := state.turn) is not None:
            token = (first, second)[turn].best_move(
                Position(CIRCLE, 0, "revised", tuple(played)), Go(), timeout_s=10
            )
            assert among_legal_moves(state, token), (len(played), token)
            state = apply_move(state, parse_move(token))
            played.append(token)
    outcome = state.result
    assert outcome is not None and outcome.reason == "completed"
    for seat in (0, 1):
        player = state.players[seat]
        bonus = 7 if state.bonus_owner == seat else 0
        assert outcome.scores[seat] == player.buttons + bonus - 2 * player.empty_cells
    assert outcome.winner == (0 if outcome.scores[0] > outcome.scores[1] else 1) or (
        outcome.scores[0] == outcome.scores[1] and outcome.winner == state.first_to_end
    )
    assert len(played) == state.moves_played > 30


def test_an_error_answer_raises_and_the_engine_plays_on_after_it():
    with EngineProcess(engine("greedy")) as host:
        with pytest.raises(EngineError, match=rf"move 2 '{ILLEGAL}' is illegal"):
            host.best_move(Position(CIRCLE, 0, "revised", (".", ILLEGAL)), Go(), timeout_s=10)
        # The `go` that followed the refused position answered an error too; it was read past.
        token = host.best_move(START, Go(), timeout_s=10)
        assert among_legal_moves(new_game(patch_order=CIRCLE), token)


def test_a_move_past_its_timeout_is_stopped_and_still_answered():
    with EngineProcess(engine("deep")) as host:
        started = time.monotonic()
        token = host.best_move(START, Go(movetime_ms=30_000), timeout_s=0.5)
        assert time.monotonic() - started < 1.5
        assert among_legal_moves(new_game(patch_order=CIRCLE), token)


def test_an_engine_that_never_answers_go_is_given_up_on_and_out_of_step():
    with EngineProcess(scripted("pass")) as host:
        started = time.monotonic()
        with pytest.raises(EngineError, match=r"no bestmove within 0\.2 s and 1\.0 s after stop"):
            host.best_move(START, Go(), timeout_s=0.2)
        assert time.monotonic() - started < 2.0
        with pytest.raises(EngineError, match="out of step"):
            host.best_move(START, Go(), timeout_s=0.2)


def test_an_engine_that_dies_raises():
    with EngineProcess(scripted("if line.startswith('go'): sys.exit(3)")) as host:
        with pytest.raises(EngineError, match=r"exited \(code 3\)"):
            host.best_move(START, Go(), timeout_s=5)
        with pytest.raises(EngineError):
            host.is_ready(1)


def test_info_and_unknown_lines_are_skipped_and_a_malformed_bestmove_raises():
    body = (
        "if line.startswith('go') and 'movetime 1' in line:\n"
        "    print('info depth 3 nodes 10'); print('info string hello'); print('novelty 7'); print('bestmove .', flush=True)\n"
        "elif line.startswith('go'):\n"
        "    print('bestmove', flush=True)"
    )
    with EngineProcess(scripted(body)) as host:
        assert host.name == "scripted" and host.author == ""
        assert host.best_move(START, Go(movetime_ms=1), timeout_s=5) == "."
        with pytest.raises(EngineError, match="malformed line: 'bestmove'"):
            host.best_move(START, Go(), timeout_s=5)


def test_a_silent_engine_fails_the_handshake_and_is_killed():
    started = time.monotonic()
    with pytest.raises(EngineError, match=r"did not answer patchworkok within 0\.3 s"):
        EngineProcess([sys.executable, "-c", "import time; time.sleep(30)"], handshake_timeout_s=0.3)
    assert time.monotonic() - started < 3
    with pytest.raises(EngineError, match="cannot start engine"):
        EngineProcess("/nonexistent/engine --flag")


def test_a_readyok_late_is_false_and_an_engine_that_ignores_quit_is_killed():
    slow = scripted("pass")
    slow[2] = slow[2].replace("print('readyok', flush=True)", "time.sleep(0.5); print('readyok', flush=True)")
    slow[2] = slow[2].replace("        break\n", "        continue\n")
    host = EngineProcess(slow)
    assert host.is_ready(0.1) is False
    started = time.monotonic()
    host.close()
    assert time.monotonic() - started < 3
    assert host._process.poll() is not None


def test_the_engines_stderr_goes_to_a_logger(caplog):
    body = "print('thinking hard', file=sys.stderr, flush=True); print('bestmove .', flush=True)"
    with caplog.at_level(logging.INFO, logger="test.engine"):
        with EngineProcess(scripted(body), stderr_log=logging.getLogger("test.engine")) as host:
            assert host.best_move(START, Go(), timeout_s=5) == "."
    assert "scripted: thinking hard" in caplog.text

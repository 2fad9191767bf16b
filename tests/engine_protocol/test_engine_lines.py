"""`patchwork-engine` spoken to in raw lines, as an outside tool would (docs/engine-protocol.md).

Every command, every error the protocol names, stop and quit while it
thinks, and moves in positions of the ANU games, each checked against the
rules engine's legal moves. The installed console script runs as a real
process (tests/support/protocol_engines.py); nothing of the project's own
host code is used.
"""

from __future__ import annotations

import subprocess
import time

import pytest

from service.engine import apply_move, new_game, parse_move, seeded_patch_order
from tests.support.anu import anu_games, tokens
from tests.support.protocol_engines import ENGINE, RawEngine, among_legal_moves

CIRCLE = ",".join(map(str, seeded_patch_order(1)))
START = f"position circle {CIRCLE} first 0 board revised"


def anu_position(game: dict, played: list[str], together: bool = False) -> str:
    """The position line of an ANU game after the moves played (written as one run when together)."""
    line = f"position circle {','.join(map(str, game['circle']))} first {game['first_player']} board {game['time_board']}"
    if not played:
        return line
    return f"{line} moves {''.join(played) if together else ' '.join(played)}"


def state_after(game: dict, played: list[str]):
    state = new_game(
        patch_order=game["circle"], first_player=game["first_player"], time_board=game["time_board"]
    )
    for token in played:
        state = apply_move(state, parse_move(token))
    return state


def test_the_handshake_names_the_level_and_may_come_again_at_any_time():
    with RawEngine("greedy") as engine:
        engine.send("patchwork")
        assert [engine.line() for _ in range(3)] == [
            "id name patchwork-engine greedy",
            "id author the Patchwork game-state service",
            "patchworkok",
        ]
        engine.send(START, "patchwork")
        assert engine.until("patchworkok")[1][0] == "id name patchwork-engine greedy"


def test_empty_lines_are_ignored_and_runs_of_whitespace_separate_words():
    with RawEngine("random") as engine:
        engine.send("", "   ", "\tisready  ")
        assert engine.line() == "readyok"
        spaced = START.replace(" ", "  \t ") + "   moves  .   .  "
        assert engine.ask(spaced) == ""
        engine.send("go")
        assert engine.until("bestmove")[0].split()[0] == "bestmove"


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("hello", "error unknown command 'hello'"),
        ("Isready", "error unknown command 'Isready'"),
        ("isready now", "error isready takes no arguments, got 'now'"),
        ("quit please", "error quit takes no arguments"),
        ("position", "error position must read"),
        ("position circle 1,2,3 first 0 board revised", "error position: circle must be 33 patch ids"),
        (f"position circle {CIRCLE} first 2 board revised", "error position: first must be 0 or 1, got '2'"),
        (
            f"position circle {CIRCLE} first 0 board new",
            "error position: board must be one of revised, original",
        ),
        (f"position circle {CIRCLE} first 0 board revised move .", "error position: expected 'moves'"),
        (f"position board revised first 0 circle {CIRCLE}", "error position must read"),
        (f"{START} moves . QQ", "error position: move 2 'QQ' is malformed"),
        (f"{START} moves ZJAA", "error position: move 1 'ZJAA' is malformed"),
        (
            "position circle " + ",".join(map(str, range(1, 34))) + " first 0 board revised",
            "error position: patch_order must end with the 1x2 patch (id 1)",
        ),
        (
            "position circle " + ",".join(["2"] * 32 + ["1"]) + " first 0 board revised",
            "error position: patch_order",
        ),
        ("go movetime", "error go: every key needs a value"),
        ("go depth 3", "error go: unknown key 'depth'"),
        ("go movetime -5", "error go: movetime must be a whole number of ms, got '-5'"),
        ("go movetime 5 movetime 6", "error go: movetime given twice"),
        ("go time0 1000", "error go: time0 and time1 go together"),
        ("go inc1 1000", "error go: inc0 and inc1 go together"),
    ],
)
def test_a_bad_line_is_answered_with_an_error_and_the_engine_reads_on(line, said):
    with RawEngine("random") as engine:
        answer = engine.ask(line)
        assert answer.startswith(said), answer
        assert "\n" not in answer  # one error line, nothing else
        assert engine.ask(START) == ""  # and it still works


def test_an_illegal_move_is_named_with_its_number_and_leaves_no_position():
    # Patch 26 ('Z') is not in the market of seed 1's circle after one advance.
    market = seeded_patch_order(1)[:3]
    assert 26 not in market
    with RawEngine("random") as engine:
        assert engine.ask(START) == ""
        answer = engine.ask(f"{START} moves . ZAAA")
        assert answer.startswith("error position: move 2 'ZAAA' is illegal: "), answer
        assert engine.ask("go") == "error go: no position (send position first)"


def test_go_without_a_position_and_after_newgame_is_an_error():
    with RawEngine("random") as engine:
        assert engine.ask("go") == "error go: no position (send position first)"
        assert engine.ask(START, "newgame") == ""
        assert engine.ask("go") == "error go: no position (send position first)"


def test_go_on_a_finished_game_is_an_error():
    game = anu_games()[0]
    with RawEngine("greedy") as engine:
        assert engine.ask(anu_position(game, tokens(game["moves"]), together=True)) == ""
        assert engine.ask("go") == "error go: the game of this position is finished"


def test_stop_during_a_long_go_answers_at_once_with_a_legal_move_and_isready_is_answered_while_thinking():
    game = anu_games()[1]
    played = tokens(game["moves"])[:7]  # 471 moves to choose from: no search ends there by itself
    with RawEngine("deep") as engine:
        engine.send(anu_position(game, played), "go movetime 30000")
        assert engine.line().startswith("info string deep thinks up to 30000 ms")
        time.sleep(0.3)
        asked = time.monotonic()
        engine.send("isready")
        assert engine.line(timeout=2) == "readyok"
        engine.send("go movetime 10")
        assert engine.line(timeout=2) == "error go: already thinking (send stop first)"
        stopped = time.monotonic()
        engine.send("stop")
        best, before = engine.until("bestmove", timeout=2)
        assert time.monotonic() - stopped < 1.0
        assert time.monotonic() - asked < 2.0
        assert "info string stopped: the best move found so far" in before
        assert among_legal_moves(state_after(game, played), best.split()[1])
        # Not thinking any more: a second stop says nothing, and a new go is welcome.
        engine.send("stop")
        assert engine.silent(0.3)
        engine.send("go movetime 20")
        assert among_legal_moves(state_after(game, played), engine.until("bestmove")[0].split()[1])


def test_stop_answers_with_what_the_search_found_not_its_first_idea():
    # Searched by deep at 30 nodes per ms, the start of seed 1's circle gives
    # a patch bought (MAAA) at 30 nodes, a 1 ms search, which is what a stop
    # used to play; from 64 nodes to 128,000 (4.5 s on the 2-core machine)
    # every stop of the search gives the advance (tests/bots/test_search.py).
    with RawEngine("deep", nodes_per_ms="30") as engine:
        engine.send(START, "go movetime 30000")
        engine.line()  # thinking
        time.sleep(0.3)
        stopped = time.monotonic()
        engine.send("stop")
        best, before = engine.until("bestmove", timeout=2)
        assert time.monotonic() - stopped < 1.0
        assert before[0] == "info string stopped: the best move found so far"
        assert among_legal_moves(new_game(seed=1), best.split()[1])
        assert best == "bestmove ."


def test_quit_exits_at_once_even_while_thinking_and_the_end_of_input_after_the_answer():
    engine = RawEngine("deep")
    engine.send(START, "go movetime 30000")
    engine.line()  # thinking
    started = time.monotonic()
    assert engine.close() == 0
    assert time.monotonic() - started < 2.0
    # The end of the input answers the search in progress, then exits.
    piped = RawEngine("search-quick")
    assert piped.process.stdin is not None
    piped.send(START, "go movetime 300")
    piped.process.stdin.close()
    assert piped.until("bestmove")[0].startswith("bestmove ")
    assert piped.process.wait(5) == 0
    piped.close()


@pytest.mark.parametrize("level", ["random", "greedy", "search-quick"])
def test_moves_in_the_anu_games_positions_are_legal(level):
    go = "go" if level != "search-quick" else "go movetime 30"
    with RawEngine(level) as engine:
        for number, game in enumerate(anu_games()[:4]):
            played_all = tokens(game["moves"])
            for count in (0, 1, len(played_all) // 2, len(played_all) - 1):
                played = played_all[:count]
                engine.send(anu_position(game, played, together=number % 2 == 1), go)
                best = engine.until("bestmove")[0]
                assert among_legal_moves(state_after(game, played), best.split()[1]), (level, count, best)


def test_a_position_at_a_leather_patch_asks_the_seat_that_won_it():
    # The side to move follows from the rules: the placement of a leather patch is its own move.
    game = next(g for g in anu_games() if "h" in g["moves"])
    played_all = tokens(game["moves"])
    played = played_all[: next(i for i, token in enumerate(played_all) if token.startswith("h"))]
    with RawEngine("greedy") as engine:
        engine.send(anu_position(game, played), "go")
        assert engine.until("bestmove")[0].split()[1].startswith("h")


def test_the_random_level_answers_the_same_position_the_same_way():
    game = anu_games()[2]
    answers = []
    for _ in range(2):
        with RawEngine("random") as engine:
            engine.send(anu_position(game, tokens(game["moves"])[:7]), "go")
            answers.append(engine.until("bestmove")[0])
    assert answers[0] == answers[1]


@pytest.mark.parametrize(
    ("go", "budget"),
    [
        ("go", 250),  # the level's own think_ms
        ("go movetime 40", 40),
        ("go time0 20000 time1 1000", 250),  # seat 0 moves: (20,000 - 1,500) / 20 = 925, capped at 250
        ("go time0 5500 time1 60000", 200),  # (5,500 - 1,500) / 20
        ("go time0 3500 time1 60000 inc0 200 inc1 0", 200),  # 2,000 / 20 + 200 / 2
        ("go time0 1000 time1 60000", 1),  # inside the reserve: at once
        ("go time0 1000 time1 60000 movetime 30", 30),  # movetime wins
    ],
)
def test_the_budget_of_a_go_follows_the_bot_workers_policy(go, budget):
    with RawEngine("search-quick") as engine:
        engine.send(START, go)
        assert engine.line() == f"info string search-quick thinks up to {budget} ms"
        engine.until("bestmove")


def test_help_lists_the_levels():
    shown = subprocess.run([str(ENGINE), "--help"], capture_output=True, text=True, timeout=30, check=True)
    assert "random,greedy,search-quick,search,deep" in shown.stdout
    refused = subprocess.run([str(ENGINE), "strongest"], capture_output=True, text=True, timeout=30)
    assert refused.returncode == 2 and "invalid choice: 'strongest'" in refused.stderr

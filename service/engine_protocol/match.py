"""`python -m service.engine_protocol.match "<engine A>" "<engine B>"`: two protocol engines play a match.

Game i is played on the circle of seed `--seed + i // 2`, and the engines
swap seats after each game: every circle is played once with each engine
first, so neither gains from a lucky circle. Every move is checked by
the rules (service.engine); an engine that errs, overruns its time by
more than a grace, or plays an illegal move loses that game, and is
started afresh for the next.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

from service.engine import GameState, RuleError, apply_move, new_game, parse_move, seeded_patch_order

from .commands import Go, Position
from .engine_process import EngineError, EngineProcess

# How much longer than its movetime an engine may take before the host stops it (start-up, pipes).
GRACE_S = 5.0


@dataclass(frozen=True, slots=True)
class GameResult:
    """One game's end: each engine's score (A's first) and the winning engine (0: A, 1: B)."""

    scores: tuple[int, int]
    winner: int
    moves: int
    # Why the game ended early: the forfeiting engine's fault, or "" for a game played out.
    forfeit: str = ""


class Seat:
    """One engine of the match, started again after it failed."""

    def __init__(self, command: str):
        self.command = command
        self.engine = self._start()

    def _start(self) -> EngineProcess:
        engine = EngineProcess(self.command)
        if not engine.is_ready(10.0):
            engine.close()
            raise EngineError(f"{self.command!r} did not answer isready")
        return engine

    def restart(self) -> None:
        self.engine.close()
        self.engine = self._start()


def play_game(seats: tuple[Seat, Seat], circle: tuple[int, ...], movetime_ms: int) -> GameResult:
    """One game, seats[0] moving first; the result with seats[0]'s score first."""
    state: GameState = new_game(patch_order=circle)
    go = Go(movetime_ms=movetime_ms)
    tokens: list[str] = []
    while (turn := state.turn) is not None:
        seat = seats[turn]
        position = Position(circle=circle, first_player=0, time_board=state.time_board, moves=tuple(tokens))
        fault = ""
        try:
            token = seat.engine.best_move(position, go, timeout_s=movetime_ms / 1000 + GRACE_S)
        except EngineError as err:
            fault = str(err)
        else:
            try:
                state = apply_move(state, parse_move(token))
            except (RuleError, ValueError) as err:  # ValueError: parse_move's, for no move at all
                fault = f"its move {token!r} is refused: {err}"
        if fault:
            seat.restart()
            scores = (state.score(0), state.score(1))
            return GameResult(scores, 1 - turn, len(tokens), f"{seat.command!r} forfeits: {fault}")
        tokens.append(token)
    outcome = state.result
    assert outcome is not None and outcome.winner is not None  # played out: a winner, whatever the scores
    return GameResult(outcome.scores, outcome.winner, len(tokens))


def play_match(commands: tuple[str, str], games: int, movetime_ms: int, seed: int) -> list[GameResult]:
    """The games between A and B, each result as A's (scores A first, winner 0 for A), printed as played."""
    seats = (Seat(commands[0]), Seat(commands[1]))
    results = []
    try:
        for number in range(games):
            swapped = number % 2 == 1
            circle = seeded_patch_order(seed + number // 2)
            result = play_game((seats[1], seats[0]) if swapped else seats, circle, movetime_ms)
            if swapped:
                result = GameResult(result.scores[::-1], 1 - result.winner, result.moves, result.forfeit)
            results.append(result)
            first = "B" if swapped else "A"
            print(
                f"game {number + 1}: seed {seed + number // 2}, {first} first: "
                f"A {result.scores[0]} - B {result.scores[1]}, {'AB'[result.winner]} wins"
                f" in {result.moves} moves {result.forfeit}".rstrip(),
                flush=True,
            )
    finally:
        for seat in seats:
            seat.engine.close()
    return results


def summary(results: list[GameResult]) -> str:
    """A's wins, losses and draws, and the mean margin of A's score over B's."""
    wins = sum(result.winner == 0 for result in results)
    margin = sum(result.scores[0] - result.scores[1] for result in results) / max(1, len(results))
    # Equal scores go to the first to reach 53 (docs/rules.md): Patchwork has no draws.
    return (
        f"A: {wins} wins, {len(results) - wins} losses, 0 draws in {len(results)} games; "
        f"mean margin {margin:+.1f} (A's score minus B's)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m service.engine_protocol.match",
        description="Play a match between two engines of the engine protocol (docs/engine-protocol.md).",
    )
    parser.add_argument("engine_a", help="engine A's command line, e.g. 'patchwork-engine deep'")
    parser.add_argument("engine_b", help="engine B's command line")
    parser.add_argument(
        "--games", type=int, default=2, help="games to play (default 2: one circle, both ways)"
    )
    parser.add_argument("--movetime", type=int, default=250, metavar="MS", help="ms per move (default 250)")
    parser.add_argument("--seed", type=int, default=1, help="the first circle's seed (default 1)")
    args = parser.parse_args(argv)
    print(f"A = {args.engine_a}\nB = {args.engine_b}", flush=True)
    try:
        results = play_match((args.engine_a, args.engine_b), args.games, args.movetime, args.seed)
    except EngineError as err:
        print(f"match stopped: {err}", file=sys.stderr)
        return 1
    print(summary(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())

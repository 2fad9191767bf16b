"""`patchwork-engine [LEVEL]`: one of the service's bot levels behind the engine protocol on stdin/stdout.

docs/engine-protocol.md is the protocol. The main thread reads the host's
lines and answers them; a `go` thinks on a thread of its own, so that
`isready`, `stop` and `quit` are answered while it thinks. Every line
written goes through one lock, whole and flushed, whichever thread writes
it. A bad line is answered with `error` and the engine reads on: an engine
that dies on a typo loses its game.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import threading
import time
from typing import TextIO

from service.bots import LEVELS, Level, level
from service.bots.calibration import measure_nodes_per_ms
from service.bots.levels import SEARCHING
from service.engine import GameState, format_move

from .commands import Go, Position, ProtocolError, Word, parse_command
from .positions import game_state
from .thinking import best_move, think_ms

AUTHOR = "the Patchwork game-state service"
# The bot workers' convention for a calibration the operator fixes (README, configuration).
NODES_PER_MS_VARIABLE = "BOT_NODES_PER_MS"


class ProtocolEngine:
    """The engine's side of one conversation: the position it holds, the search it runs, what it writes."""

    def __init__(self, chosen: Level, nodes_per_ms: float, out: TextIO):
        self.level = chosen
        self.nodes_per_ms = nodes_per_ms
        self._out = out
        self._write_lock = threading.Lock()
        self._position: Position | None = None
        self._state: GameState | None = None
        # The search running and the event that stops it; both set and cleared under _think_lock,
        # so a `go` right after a `bestmove` never finds the finished search still "thinking".
        self._think_lock = threading.Lock()
        self._thinking: threading.Thread | None = None
        self._stopped = threading.Event()

    def handle(self, line: str) -> bool:
        """Answer one of the host's lines; False once the host said quit."""
        try:
            command = parse_command(line)
        except ProtocolError as err:
            if line.split()[:1] == ["position"]:
                # A refused position leaves none: a `go` after it must not play the previous one.
                self._position = self._state = None
            self.write(f"error {err}")
            return True
        if command is Word.QUIT:
            self._stopped.set()
            return False
        if command is Word.HANDSHAKE:
            self.write(f"id name patchwork-engine {self.level.id}")
            self.write(f"id author {AUTHOR}")
            self.write("patchworkok")
        elif command is Word.IS_READY:
            self.write("readyok")
        elif command is Word.NEW_GAME:
            self._position = self._state = None
        elif isinstance(command, Position):
            self._set_position(command)
        elif isinstance(command, Go):
            self._go(command)
        elif command is Word.STOP:
            self.stop()
        return True

    def _set_position(self, position: Position) -> None:
        self._position = self._state = None
        try:
            state = game_state(position)
        except ProtocolError as err:
            self.write(f"error {err}")
            return
        self._position, self._state = position, state

    def _go(self, go: Go) -> None:
        position, state = self._position, self._state
        with self._think_lock:
            if self._thinking is not None:
                self.write("error go: already thinking (send stop first)")
                return
            if position is None or state is None:
                self.write("error go: no position (send position first)")
                return
            if state.turn is None:
                self.write("error go: the game of this position is finished")
                return
            budget = think_ms(go, self.level, state.turn)
            self._stopped = threading.Event()
            self._thinking = threading.Thread(
                target=self._think, args=(state, position, budget, self._stopped), daemon=True
            )
            self._thinking.start()

    def _think(self, state: GameState, position: Position, budget: int, stopped: threading.Event) -> None:
        started = time.perf_counter()
        self.write(f"info string {self.level.id} thinks up to {budget} ms")
        try:
            move, cut_short = best_move(state, position, self.level, budget, self.nodes_per_ms, stopped)
            answer = f"bestmove {format_move(move)}"
        except Exception as err:  # a bug of a level: the host hears of it rather than wait for ever
            answer, cut_short = f"error go: the {self.level.id} level failed: {err!r}", False
        spent_ms = round((time.perf_counter() - started) * 1000)
        with self._think_lock:
            self._thinking = None
            if cut_short:
                self.write("info string stopped: the best move found so far")
            self.write(f"info time {spent_ms}")
            self.write(answer)

    def stop(self) -> None:
        """End the search, if one runs, and wait for its `bestmove` (written at once)."""
        with self._think_lock:
            thinking = self._thinking
            self._stopped.set()
        if thinking is not None:
            thinking.join()

    def finish(self) -> None:
        """Wait for the search in progress, if any, to answer in its own time."""
        with self._think_lock:
            thinking = self._thinking
        if thinking is not None:
            thinking.join()

    def write(self, line: str) -> None:
        with self._write_lock:
            self._out.write(line + "\n")
            self._out.flush()


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="patchwork-engine",
        description="A Patchwork bot level speaking the engine protocol on stdin/stdout "
        "(docs/engine-protocol.md).",
    )
    parser.add_argument(
        "level",
        nargs="?",
        default="deep",
        choices=[known.id for known in LEVELS],
        help="the level that plays, as GET /bots lists them (default: deep)",
    )
    parser.add_argument(
        "--nodes-per-ms",
        type=int,
        metavar="N",
        help=f"search nodes per ms a searching level plans with (default: ${NODES_PER_MS_VARIABLE}, "
        "else measured at start-up in about half a second, as bot workers do)",
    )
    return parser


def _nodes_per_ms(chosen: Level, given: int | None) -> int:
    if given is not None:
        return max(1, given)
    from_env = os.environ.get(NODES_PER_MS_VARIABLE, "")
    if from_env.isascii() and from_env.isdigit() and int(from_env) > 0:
        return int(from_env)
    # Only a searching level's moves depend on it: the others start at once.
    return measure_nodes_per_ms() if chosen.kind in SEARCHING else 1


def main(argv: list[str] | None = None) -> int:
    """Run the engine until `quit` or the end of stdin."""
    args = _parser().parse_args(argv)
    chosen = level(args.level)
    out = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", newline="\n")
    lines = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
    engine = ProtocolEngine(chosen, _nodes_per_ms(chosen, args.nodes_per_ms), out)
    try:
        # readline, not iteration: each command is answered as soon as its line arrives.
        for line in iter(lines.readline, ""):
            if not engine.handle(line):
                # quit means at once: a search still running is a daemon thread, ended by the exit.
                return 0
        # The end of the input is no quit: the search in progress is answered, so that
        # `printf 'position ...\ngo\n' | patchwork-engine` prints its move.
        engine.finish()
    except BrokenPipeError:
        pass  # the host went away: nobody is left to answer
    return 0


if __name__ == "__main__":
    sys.exit(main())

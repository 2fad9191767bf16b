"""`patchwork-engine` as an outside tool sees it (a process spoken to in raw lines), and its moves judged.

The engine's tests talk to it through this, not through the project's own
host (service/engine_protocol/engine_process.py), so that the engine is
tested independently of the code that drives it in production. A reader
thread queues its stdout so every wait has a timeout.
"""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

from service.engine import GameState, canonical_move, legal_moves, parse_move

# The installed console script, beside the interpreter running the tests (the venv's bin/).
ENGINE = Path(sys.executable).parent / "patchwork-engine"
# A fixed calibration: no half second of measuring per start, the same moves on any machine.
TEST_NODES_PER_MS = "20"


def among_legal_moves(state: GameState, token: str) -> bool:
    """True when the token names one of the engine's legal moves in state (any orientation letter of the same cells)."""
    return canonical_move(parse_move(token)) in {canonical_move(move) for move in legal_moves(state)}


class RawEngine:
    """One `patchwork-engine LEVEL` process; send lines, read lines with timeouts."""

    def __init__(self, level: str = "greedy", *extra: str, nodes_per_ms: str = TEST_NODES_PER_MS):
        self.process = subprocess.Popen(
            [str(ENGINE), level, "--nodes-per-ms", nodes_per_ms, *extra],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            bufsize=1,
        )
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        with self.process.stdout:
            for line in iter(self.process.stdout.readline, ""):
                self._lines.put(line.rstrip("\n"))
        self._lines.put(None)

    def send(self, *lines: str) -> None:
        assert self.process.stdin is not None
        for line in lines:
            self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def line(self, timeout: float = 10.0) -> str:
        """The engine's next line (AssertionError when none comes in time or it exited)."""
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no line from the engine within {timeout} s") from None
        assert line is not None, "the engine closed its stdout"
        return line

    def until(self, prefix: str, timeout: float = 10.0) -> tuple[str, list[str]]:
        """The first line starting with prefix, and the lines before it."""
        deadline, before = time.monotonic() + timeout, []
        while not (line := self.line(max(0.0, deadline - time.monotonic()))).startswith(prefix):
            before.append(line)
        return line, before

    def silent(self, seconds: float) -> bool:
        """True when the engine writes nothing for this long."""
        try:
            line = self._lines.get(timeout=seconds)
        except queue.Empty:
            return True
        self._lines.put(line)  # keep it for whoever reads next
        return False

    def ask(self, *lines: str) -> str:
        """Send lines, then isready: every answer up to readyok (they come in order), as one string."""
        self.send(*lines, "isready")
        return "\n".join(self.until("readyok")[1])

    def close(self) -> int:
        """quit (if it still runs), the exit code."""
        if self.process.poll() is None:
            try:
                self.send("quit")
            except BrokenPipeError:
                pass
        try:
            code = self.process.wait(5)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
            assert self.process.stdin is not None
            try:
                self.process.stdin.close()
            except BrokenPipeError:
                pass
            self._reader.join(5)
        return code

    def __enter__(self) -> RawEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

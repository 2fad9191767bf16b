"""The host's side of the protocol: an engine process started, greeted, asked for moves and closed.

A reader thread turns the engine's stdout into a queue of lines, so that
every wait here has a timeout on every platform (a blocking readline has
none). The engine's stderr is its log: inherited by default, or read by a
thread of its own into a logger, and never left to fill its pipe and stall
the engine.

Nothing here knows the rules: `best_move` returns the token the engine
chose, and the caller checks it (service.engine).
"""

from __future__ import annotations

import logging
import queue
import shlex
import subprocess
import threading
import time
from collections.abc import Sequence
from types import TracebackType
from typing import IO

from .commands import Go, Position, Word

# How long after `stop` an engine may take to answer `bestmove` (the protocol says at once).
STOP_GRACE_S = 1.0
# How long close() waits for an engine to leave after `quit` before it kills it.
QUIT_GRACE_S = 1.0


class EngineError(Exception):
    """The engine failed the protocol: it died, answered `error`, or did not answer in time."""


class EngineProcess:
    """An engine speaking the protocol, started from its command line (a string split as a shell would, or a list)."""

    def __init__(
        self,
        command: str | Sequence[str],
        *,
        handshake_timeout_s: float = 10.0,
        stderr_log: logging.Logger | None = None,
    ):
        """Start the engine and greet it (EngineError when it does not answer `patchworkok` in time).

        stderr_log: where the engine's stderr lines go, at INFO (None: the host's own stderr).
        """
        self.command = shlex.split(command) if isinstance(command, str) else list(command)
        try:
            self._process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=None if stderr_log is None else subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
            )
        except OSError as err:
            raise EngineError(f"cannot start engine {self.command!r}: {err}") from err
        self._lines: queue.Queue[str | None] = queue.Queue()
        # Set when a move was given up on: a late `bestmove` may still come, and would be taken
        # for the next move's answer.
        self._out_of_step = False
        assert self._process.stdout is not None
        self._readers = [threading.Thread(target=self._read_lines, args=(self._process.stdout,), daemon=True)]
        if stderr_log is not None:
            assert self._process.stderr is not None
            self._readers.append(
                threading.Thread(target=self._log_lines, args=(self._process.stderr, stderr_log), daemon=True)
            )
        for reader in self._readers:
            reader.start()
        self.name = " ".join(self.command)
        self.author = ""
        try:
            self._handshake(handshake_timeout_s)
        except EngineError:
            self.close()
            raise

    # Each reader closes its own stream at the end: closing it from another thread while
    # it reads would make its readline fail.
    def _read_lines(self, stream: IO[str]) -> None:
        with stream:
            for line in iter(stream.readline, ""):
                self._lines.put(line.rstrip("\r\n"))
        self._lines.put(None)  # the end of the engine's output: it exited or closed stdout

    def _log_lines(self, stream: IO[str], log: logging.Logger) -> None:
        with stream:
            for line in iter(stream.readline, ""):
                log.info("%s: %s", self.name, line.rstrip("\r\n"))

    def _handshake(self, timeout_s: float) -> None:
        self._send(Word.HANDSHAKE.line())
        deadline = time.monotonic() + timeout_s
        while (words := self._next_words(deadline)) != ["patchworkok"]:
            if words is None:
                raise EngineError(f"engine {self.command!r} did not answer patchworkok within {timeout_s} s")
            if words[:2] == ["id", "name"] and len(words) > 2:
                self.name = " ".join(words[2:])
            elif words[:2] == ["id", "author"] and len(words) > 2:
                self.author = " ".join(words[2:])

    def is_ready(self, timeout_s: float = 10.0) -> bool:
        """True when the engine answers `readyok` within timeout_s, False when it does not (EngineError if it died)."""
        self._send(Word.IS_READY.line())
        deadline = time.monotonic() + timeout_s
        while (words := self._next_words(deadline)) != ["readyok"]:
            if words is None:
                return False
        return True

    def best_move(self, position: Position, go: Go, timeout_s: float) -> str:
        """The engine's `bestmove` token for the position, `stop` sent after timeout_s (checked by no rule).

        EngineError when it answers `error`, dies, or has no bestmove a
        second after the stop; after that the engine is out of step: close it.
        """
        if self._out_of_step:
            raise EngineError(f"engine {self.name!r} is out of step: an earlier move was given up on")
        self._send(position.line())
        self._send(go.line())
        move = self._await_bestmove(time.monotonic() + timeout_s)
        if move is None:
            self._send(Word.STOP.line())
            move = self._await_bestmove(time.monotonic() + STOP_GRACE_S)
        if move is None:
            self._out_of_step = True
            raise EngineError(
                f"engine {self.name!r} gave no bestmove within {timeout_s} s and {STOP_GRACE_S} s after stop"
            )
        return move

    def _await_bestmove(self, deadline: float) -> str | None:
        """The token of the next `bestmove`, skipping info (and stray answers); None at the deadline."""
        while (words := self._next_words(deadline)) is not None:
            if words[0] == "bestmove":
                if len(words) != 2:
                    self._out_of_step = True
                    raise EngineError(f"engine {self.name!r} wrote a malformed line: {' '.join(words)!r}")
                return words[1]
            if words[0] == "error":
                self._catch_up()
                raise EngineError(f"engine {self.name!r} answered: {' '.join(words)}")
        return None

    def _catch_up(self) -> None:
        """Read past what the engine still answers to the commands sent (a `go` after a refused position
        answers an error of its own): the next command's answers then start clean."""
        if not self.is_ready(STOP_GRACE_S):
            self._out_of_step = True

    def _next_words(self, deadline: float) -> list[str] | None:
        """The words of the engine's next non-empty line; None at the deadline; EngineError once it is gone."""
        while True:
            try:
                line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                return None
            if line is None:
                self._lines.put(None)  # every later read sees the end too
                raise EngineError(f"engine {self.name!r} exited (code {self._process.wait()})")
            if words := line.split():
                return words

    def _send(self, line: str) -> None:
        stdin = self._process.stdin
        assert stdin is not None
        try:
            stdin.write(line + "\n")
            stdin.flush()
        except OSError as err:  # BrokenPipeError: it exited
            raise EngineError(f"engine {self.name!r} is gone: {err}") from err

    def close(self) -> None:
        """Send `quit`, wait briefly, then kill the engine if it is still there."""
        if self._process.poll() is None:
            try:
                self._send(Word.QUIT.line())
            except EngineError:
                pass
            try:
                self._process.wait(QUIT_GRACE_S)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        if self._process.stdin is not None:
            try:
                self._process.stdin.close()
            except OSError:
                pass
        for reader in self._readers:
            # At the engine's exit its pipes end; a child it left behind may hold them open longer.
            reader.join(QUIT_GRACE_S)

    def __enter__(self) -> EngineProcess:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

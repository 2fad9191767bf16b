"""`patchwork-bot` as its users run it: the installed console script, a bot account's token in its environment.

The engine it drives is `patchwork-engine random` at a fixed calibration:
quick, and a real process speaking the protocol.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

from tests.support.live_service import spawn_logged

BRIDGE = Path(sys.executable).parent / "patchwork-bot"
ENGINE = Path(sys.executable).parent / "patchwork-engine"
QUICK_ENGINE = f"{ENGINE} random --nodes-per-ms 20"
PLAYED = re.compile(r"game (\S+) version (\d+): played (\S+) \(engine ([\d.]+) ms, bridge ([\d.]+) ms\)")


class Bridge:
    """One bridge process at a time for one bot account; `kill` and `start` again as often as a test likes."""

    def __init__(
        self, url: str, token: str, log_dir: Path, name: str, *flags: str, engine: str = QUICK_ENGINE
    ):
        self.argv = [str(BRIDGE), "--url", url, "--engine", engine, *flags]
        self.env = {**os.environ, "PATCHWORK_BOT_TOKEN": token}
        self.log_dir = log_dir
        self.name = name
        self.runs = 0
        self.process: subprocess.Popen | None = None

    def start(self) -> Bridge:
        self.runs += 1
        self.process = spawn_logged(self.argv, self.env, self.log_path(self.runs))
        return self

    def log_path(self, run: int) -> Path:
        return self.log_dir / f"{self.name}-{run}.log"

    def kill(self) -> None:
        """SIGKILL, as a crash would: no goodbye to the service or the engines (which see their input end)."""
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> int:
        """SIGTERM, as an operator would; the exit status."""
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(15)

    def log(self) -> str:
        return "".join(self.log_path(run).read_text(errors="replace") for run in range(1, self.runs + 1))

    def played(self) -> list[tuple[str, int, str]]:
        """(game, version, move) of every move a run of the bridge says the service took, in order."""
        return [(game, version, move) for game, version, move, *_ in self.played_timings()]

    def played_timings(self) -> list[tuple[str, int, str, float, float]]:
        """... with the engine's think and the bridge's own time for each, in ms, as the bridge logs them."""
        return [
            (game, int(version), move, float(engine), float(bridge))
            for game, version, move, engine, bridge in PLAYED.findall(self.log())
        ]

    def close(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.kill()

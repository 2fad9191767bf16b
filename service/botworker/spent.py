"""What a worker's levels spent thinking lately, and the report of it its beat publishes (GET /bots shows it).

The levels advertise a think time (`think_ms`); what they actually take
depends on the calibration and the load. The worker keeps the last
`KEPT_MOVES` think times of each level it played and reports, with its
calibration, their count, median and highest.
"""

from __future__ import annotations

import json
import statistics
from collections import deque

KEPT_MOVES = 64


class SpentTimes:
    """The last think times of each level, in milliseconds."""

    def __init__(self, nodes_per_ms: int, calibration: str):
        """calibration: "measured" (the worker's start-up run) or "configured" (BOT_NODES_PER_MS)."""
        self.nodes_per_ms = nodes_per_ms
        self.calibration = calibration
        self._times: dict[str, deque[float]] = {}

    def add(self, level_id: str, thought_ms: float) -> None:
        self._times.setdefault(level_id, deque(maxlen=KEPT_MOVES)).append(thought_ms)

    def report(self) -> str:
        """The JSON the beat publishes: GET /bots's `measured`."""
        levels = {
            level_id: {
                "moves": len(times),
                "median_ms": round(statistics.median(times)),
                "max_ms": round(max(times)),
            }
            for level_id, times in sorted(self._times.items())
        }
        return json.dumps(
            {"nodes_per_ms": self.nodes_per_ms, "calibration": self.calibration, "levels": levels},
            separators=(",", ":"),
        )

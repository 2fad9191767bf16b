"""Computing a finished game's analysis in a bot worker, when no bot move waits.

The worker's loop calls `analyse_next` only after a read of the bot queue
found no job, so an analysis never goes ahead of a bot's move; before each
move's searches (two or three at the `deep` level's budget) the worker
plays every bot job that came meanwhile (`between`); and inside them it
asks, every few milliseconds, whether a bot job waits (`pause`): if one
does, it is played there, and the searches go on where they were
(bots/search.py). So a bot move waits for no analysis, only for that
question's interval, and no analysis work is lost to it. The job is leased (storage/analyses.py): a worker
killed mid-analysis leaves it to another once the lease ends, and the
result is stored once whoever finishes. The lease is renewed before each
move's searches and, when a third of it has passed, inside them too: bot
moves played there (each up to a second at the `deep` level, as many as
wait) could otherwise outlast it, and a second worker would start the same
analysis while the first still computes it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from service.bots import level
from service.bots.analysis import BLUNDER, INACCURACY, MISTAKE, analyse_game, summary
from service.games import GameNotFound
from service.games.analysis import GameAnalyses
from service.games.jsontext import compact

log = logging.getLogger("patchwork.botworker")

# The level whose search judges the moves.
ANALYSIS_LEVEL = "deep"


def analysis_text(game_version: int, moves: list, node_budget: int) -> str:
    """The stored analysis body (GET /games/{id}/analysis)."""
    return compact(
        {
            "version": game_version,
            "level": ANALYSIS_LEVEL,
            "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER},
            "nodes": node_budget,
            "moves": [m.public() for m in moves],
            "summary": summary(moves),
        }
    )


def analyse_next(
    asked: GameAnalyses,
    nodes_per_ms: int,
    think_ms: int | None,
    between: Callable[[], None],
    pause: Callable[[], None] | None = None,
) -> bool:
    """Take one queued analysis, compute and store it; False when none waits.

    `between` runs before each move's searches, `pause` inside them.
    """
    analyses, play = asked.queue, asked.play
    game_id = analyses.take()
    if game_id is None:
        return False
    started = time.monotonic()
    # Each position gets the node budget of one `deep` move (BOT_THINK_MS overrides it, as for moves).
    node_budget = max(1, int((think_ms or level(ANALYSIS_LEVEL).think_ms) * nodes_per_ms))
    try:
        _record, version, start, moves = play.played(game_id)
    except GameNotFound:
        analyses.drop(game_id)
        log.info("game %s expired before its analysis", game_id)
        return True

    renewed_at = time.monotonic()

    def renew() -> None:
        nonlocal renewed_at
        analyses.renew(game_id)
        renewed_at = time.monotonic()

    def next_move() -> None:
        between()
        renew()  # just before the move's searches, after any bot moves

    def paused() -> None:
        if pause is not None:
            pause()
        if time.monotonic() - renewed_at >= analyses.lease_ms / 3000:
            renew()

    analysed = analyse_game(start, moves, node_budget, next_move, paused)
    stored = analyses.store(game_id, analysis_text(version, analysed, node_budget))
    log.info(
        "analysed game %s: %d moves in %.1f s%s",
        game_id,
        len(analysed),
        time.monotonic() - started,
        "" if stored else " (already stored by another worker)",
    )
    return True

"""A finished game's analysis as the API asks for and reads it: queued once per game, computed by the bot workers.

The queue and the results are the store's (storage/analyses.py); the bot
workers take the jobs (botworker/analyst.py). This is the game's side: only
a finished game is analysed, and no game means no analysis.
"""

from __future__ import annotations

from service.storage import Analyses

from .play import GamePlay
from .refusals import GameNotFinished, NoAnalysis


class GameAnalyses:
    """Asking for a finished game's analysis and reading it back."""

    def __init__(self, play: GamePlay, queue: Analyses):
        self.play = play
        self.queue = queue

    def request(self, game_id: str) -> str:
        """Queue the analysis of a finished game: DONE, PENDING or QUEUED (storage/analyses.py).

        GameNotFinished while it is played: its analysis would be out of date at the next move.
        """
        if not self.play.load(game_id).record.state.finished:
            raise GameNotFinished.for_analysis(game_id)
        return self.queue.request(game_id)

    def result(self, game_id: str) -> str | None:
        """The game's stored analysis (JSON); None while it is computed; GameNotFinished while the game is
        played (as `request` says: none can be asked for yet); NoAnalysis for a finished one nobody asked about.

        A game still played answers as its request would, not as an analysis
        missing: what leads from a new game to its analysis (a link of the
        spec, a client reading ahead) hears why there is none (issue 38).
        """
        self.play.check_id(game_id)
        found = self.queue.result(game_id)
        if found is not None:
            return found
        if self.queue.pending(game_id):
            return None
        # GameNotFound first: no game, no analysis.
        if not self.play.load(game_id).record.state.finished:
            raise GameNotFinished.for_analysis(game_id)
        raise NoAnalysis(game_id)

"""The bot's side of the service: its player stream followed, challenges answered, a runner per game.

Stream events are notices, not the truth (a notice can be lost), so each
time the stream (re)connects the bridge reads the truth again: the bot's
active games (every one gets a runner, which is how a restarted bridge
resumes its games) and its pending challenges.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

import requests

from .config import BridgeConfig
from .game_runner import GameRunner
from .policy import clock_reason, decline_reason
from .service_client import FIRST_BACKOFF_S, MAX_BACKOFF_S, ServiceClient, Stopped

log = logging.getLogger("patchwork.bot")


class Bridge:
    """Connects one engine command to one bot account on one service."""

    def __init__(self, config: BridgeConfig, stop: threading.Event | None = None):
        self.config = config
        self.stop = stop or threading.Event()
        self.client = ServiceClient(config.url, config.token, self.stop)
        self.runners: dict[str, GameRunner] = {}
        self.me: dict[str, Any] = {}

    def run(self) -> None:
        """Serve until stopped: SIGTERM or SIGINT set `stop` (main.py)."""
        try:
            self.me = self.client.json("GET", "/players/me")
            if not self.me.get("bot"):
                log.warning(
                    '%s is not a bot account: create one with POST /players {"bot": true}', self.me["name"]
                )
            log.info("connected to %s as %s (%s)", self.config.url, self.me["name"], self.me["id"])
            self._follow()
        except Stopped:
            pass
        finally:
            # The runners are daemon threads, gone with the process; their engines are told
            # to quit here. A move in flight is safe to cut: a restarted bridge sends it again
            # with the same Idempotency-Key, or finds it landed.
            self.stop.set()
            log.info("stopping: %d games in play", len(self.in_play()))
            for runner in self.runners.values():
                runner.close_engine()
            self.client.close()

    def _follow(self) -> None:
        last_id: str | None = None
        backoff = FIRST_BACKOFF_S
        while True:
            try:
                # Caught up once the stream is open, not before: a challenge or game started between
                # the reads and the connection would be in neither (a new stream starts at "now").
                for event in self.client.events("/players/me/events", last_id, opened=self.catch_up):
                    backoff = FIRST_BACKOFF_S
                    if event.id is not None:
                        last_id = event.id
                    self.on_event(event.event, event.data)
            except requests.RequestException as error:
                log.info("player stream dropped (%s); resuming", error)
            self.client.wait(backoff)
            backoff = min(2 * backoff, MAX_BACKOFF_S)

    def catch_up(self) -> None:
        """Runners for every active game, answers to every pending challenge: what lost notices would have said."""
        for entry in self.client.json("GET", "/players/me/games?status=active")["games"]:
            self.play(entry["game"]["id"], entry["seat"])
        for challenge in self.client.json("GET", "/players/me/challenges")["incoming"]:
            self.answer(challenge)

    def on_event(self, kind: str, data: dict[str, Any]) -> None:
        if kind == "challenge":
            self.answer(data["challenge"])
        elif kind in ("game_start", "your_turn"):
            self.play(data["game"], data["seat"])
        elif kind == "rematch_offer":
            self.answer_rematch(data["game"])
        elif kind == "challenge_declined":
            log.info(
                "challenge %s declined: %s", data["challenge"]["id"], data["challenge"]["decline_reason"]
            )

    def in_play(self) -> list[str]:
        return [game_id for game_id, runner in self.runners.items() if runner.is_alive()]

    def play(self, game_id: str, seat: int) -> None:
        """Start the game's runner unless one is playing it already."""
        runner = self.runners.get(game_id)
        if runner is not None and runner.is_alive():
            return
        runner = GameRunner(self.config, game_id, seat, self.stop)
        self.runners[game_id] = runner
        runner.start()

    def answer(self, challenge: dict[str, Any]) -> None:
        """Accept or decline a challenge made to the bot, as the configuration says."""
        if challenge["status"] != "pending" or (challenge.get("to") or {}).get("player_id") != self.me["id"]:
            return
        reason = decline_reason(challenge, self.config, len(self.in_play()))
        if reason is None:
            answer = self.client.call("POST", f"/challenges/{challenge['id']}/accept")
            if answer.status_code == 201:
                accepted = answer.json()
                log.info("accepted challenge %s from %s", challenge["id"], challenge["from"]["name"])
                self.play(accepted["game"]["id"], accepted["seat"])
                return
            if answer.status_code != 429:
                log.info(
                    "challenge %s not accepted: %d %s", challenge["id"], answer.status_code, answer.text[:200]
                )
                return
            reason = "later"  # a cap the service keeps (bot against bot games per day): not now
        log.info("declining challenge %s from %s: %s", challenge["id"], challenge["from"]["name"], reason)
        self.client.call("POST", f"/challenges/{challenge['id']}/decline", {"reason": reason})

    def answer_rematch(self, game_id: str) -> None:
        """Accept a rematch offer when the configuration takes rematches and the clock and a free game allow."""
        game = self.client.json("GET", f"/games/{game_id}")
        take = (
            self.config.rematch
            and len(self.in_play()) < self.config.games_at_once
            and clock_reason(game["clock"], self.config) is None
        )
        answer = self.client.call("POST" if take else "DELETE", f"/games/{game_id}/rematch")
        # An accepted rematch starts a game the bot hears of (game_start), as every game it plays.
        log.info("rematch of %s %s: %d", game_id, "accepted" if take else "declined", answer.status_code)

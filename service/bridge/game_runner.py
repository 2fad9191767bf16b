"""One game, played to its end: the game's stream read, the engine asked on each of the bot's turns, the move sent.

A turn is the game's version with the bot's seat in `turn`. Its move goes
with `If-Match` on that version and an Idempotency-Key made of it, so
whatever is retried or repeated (a lost answer, a dropped stream, a bridge
restarted mid-move) lands at most once: a second try of the same move gets
the first answer back, another move for that turn is refused as stale.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

import requests

from service.engine_protocol.commands import Go, Position
from service.engine_protocol.engine_process import EngineError, EngineProcess

from .config import BridgeConfig
from .positions import checked_move_body, position_of
from .service_client import FIRST_BACKOFF_S, MAX_BACKOFF_S, ServiceClient, ServiceRefused, Stopped

log = logging.getLogger("patchwork.bot")

# Kept in hand of the bank for the move's trip to the service, and given back
# to the engine's own budget through the time it is told it has.
NETWORK_RESERVE_MS = 1_000
# An engine that answers no legal move this many times in a turn resigns the game
# rather than let it run out of time.
ATTEMPTS_PER_TURN = 2


class GameRunner(threading.Thread):
    """Plays the bot's seat of one game until the game ends or the bridge stops."""

    def __init__(self, config: BridgeConfig, game_id: str, seat: int, stop: threading.Event):
        super().__init__(name=f"game-{game_id}", daemon=True)
        self.config = config
        self.game_id = game_id
        self.seat = seat
        self.stop = stop
        self.engine: EngineProcess | None = None
        self.handled_version = -1  # the last version whose turn was played (or found not ours)

    def run(self) -> None:
        client = ServiceClient(self.config.url, self.config.token, self.stop)
        backoff = FIRST_BACKOFF_S
        try:
            self.engine = self.start_engine()  # now, so that its start is not charged to the first move
            while True:
                try:
                    self._play(client)
                    return
                except ServiceRefused as error:
                    if error.status in (401, 403, 404):
                        log.error("game %s: %s; the bridge gives it up", self.game_id, error)
                        return
                    log.warning("game %s: %s; trying again", self.game_id, error)
                except Exception:
                    # A game given up would wait for the bot's move until its clock fell.
                    log.exception("game %s: unexpected failure; trying again", self.game_id)
                client.wait(backoff)
                backoff = min(2 * backoff, MAX_BACKOFF_S)
        except Stopped:
            pass
        finally:
            self.close_engine()
            client.close()

    def start_engine(self) -> EngineProcess | None:
        try:
            return EngineProcess(self.config.engine)
        except EngineError as error:
            log.error("game %s: the engine did not start (%s)", self.game_id, error)
            return None

    def close_engine(self) -> None:
        engine, self.engine = self.engine, None
        if engine is not None:
            engine.close()

    def _play(self, client: ServiceClient) -> None:
        start = client.json("GET", f"/games/{self.game_id}?version=1")
        last_id: str | None = None
        backoff = FIRST_BACKOFF_S
        while True:
            try:
                for event in client.events(f"/games/{self.game_id}/events", last_id):
                    backoff = FIRST_BACKOFF_S
                    if event.id is not None:
                        last_id = event.id
                    game = game_in(event.event, event.data)
                    if game is not None:
                        self.on_game(client, start, game, time.monotonic())
            except requests.RequestException as error:
                log.info("game %s: stream dropped (%s); resuming after %s", self.game_id, error, last_id)
                client.wait(backoff)
                backoff = min(2 * backoff, MAX_BACKOFF_S)
                continue
            # The stream ended: after the game's end, or refused (204 past the end, a 404).
            game = client.json("GET", f"/games/{self.game_id}")
            if game["status"] == "finished":
                log.info("game %s: finished, %s", self.game_id, game["result"])
                return
            self.on_game(client, start, game, time.monotonic())

    def on_game(
        self, client: ServiceClient, start: dict[str, Any], game: dict[str, Any], seen: float
    ) -> None:
        """Play every turn of the bot's that `game` (a Game body, received at `seen`) and its sequels hand it."""
        current: dict[str, Any] | None = game
        while current is not None and current["version"] > self.handled_version:
            self.handled_version = current["version"]
            if current["status"] != "active" or current["turn"] != self.seat:
                return
            if any(player.get("open") for player in current["players"]):
                return  # no move is made before every seat is held
            current = self.play_turn(client, start, current, seen)
            seen = time.monotonic()

    def play_turn(
        self, client: ServiceClient, start: dict[str, Any], game: dict[str, Any], seen: float
    ) -> dict[str, Any] | None:
        """The engine's move for this turn, sent; the Game after it, or None when it did not land."""
        version = game["version"]
        position = position_of(start, client.json("GET", f"/games/{self.game_id}/moves")["moves"])
        if len(position.moves) != game["moves_played"]:
            return None  # the history moved on between the two reads: the stream brings the newer game
        for _attempt in range(ATTEMPTS_PER_TURN):
            go, limit_s = self.go_for(game, seen)
            thought = time.monotonic()
            token = self.ask_engine(position, go, limit_s)
            engine_ms = (time.monotonic() - thought) * 1000
            body = None if token is None else checked_move_body(position, token)
            if body is not None:
                return self.send(client, version, body, token or "", engine_ms, seen)
            log.warning(
                "game %s version %d: the engine's move %r is not legal here", self.game_id, version, token
            )
        log.error("game %s: the engine found no legal move; resigning", self.game_id)
        answer = client.call("POST", f"/games/{self.game_id}/resign")
        return answer.json() if answer.status_code == 201 else None

    def send(
        self,
        client: ServiceClient,
        version: int,
        body: dict[str, Any],
        token: str,
        engine_ms: float,
        seen: float,
    ) -> dict[str, Any] | None:
        headers = {"If-Match": f'"{version}"', "Idempotency-Key": f"patchwork-bot-{self.game_id}-{version}"}
        answer = client.call("POST", f"/games/{self.game_id}/moves", body, headers)
        if answer.status_code == 201:
            total_ms = (time.monotonic() - seen) * 1000
            log.info(
                "game %s version %d: played %s (engine %.1f ms, bridge %.1f ms)",
                self.game_id,
                version,
                token,
                engine_ms,
                total_ms - engine_ms,
            )
            after: dict[str, Any] = answer.json()
            return after
        # Stale (412, 409: the game moved on or ended; 422 with the key: an earlier
        # bridge played this turn already): the stream brings what happened.
        log.info(
            "game %s version %d: move %s not taken: %d %s",
            self.game_id,
            version,
            token,
            answer.status_code,
            answer.text[:200],
        )
        return None

    def go_for(self, game: dict[str, Any], seen: float) -> tuple[Go, float]:
        """What the engine is told of the clocks, and how long the bridge waits for its answer."""
        clock = game.get("clock")
        if clock is None or "days_per_move" in clock:
            # No clock, or days per move: the engine's own pace, cut off at max_think_s.
            return Go(time_ms=None, increment_ms=None, movetime_ms=None), self.config.max_think_s
        elapsed_ms = int((time.monotonic() - seen) * 1000)
        left = list(clock["remaining_ms"])
        if clock["running"] is not None:
            left[clock["running"]] = max(0, left[clock["running"]] - elapsed_ms)
        else:
            # Before the first move the bank does not run, but the game is lost (or aborted) at first_move_s.
            left[self.seat] = min(left[self.seat], max(0, clock["first_move_s"] * 1000 - elapsed_ms))
        mine = left[self.seat]
        told = [max(0, ms - NETWORK_RESERVE_MS) for ms in left]
        increment_ms = clock.get("increment_s", 0) * 1000
        go = Go(time_ms=(told[0], told[1]), increment_ms=(increment_ms, increment_ms), movetime_ms=None)
        return go, max(0.1, (mine - NETWORK_RESERVE_MS / 2) / 1000)

    def ask_engine(self, position: Position, go: Go, limit_s: float) -> str | None:
        """The engine's move, or None when it failed (it is started afresh for the next question)."""
        if self.engine is None:
            self.engine = self.start_engine()
        if self.engine is None:
            return None
        try:
            return self.engine.best_move(position, go, timeout_s=limit_s)
        except EngineError as error:
            log.error("game %s: the engine failed (%s); starting it again", self.game_id, error)
            self.close_engine()
            return None


def game_in(kind: str, data: Any) -> dict[str, Any] | None:
    """The Game an event of a game's stream carries: the snapshot's, or a move's; None for the others."""
    game: dict[str, Any] | None = data if kind == "game" else data["game"] if kind == "move" else None
    return game

"""Which challenges a bridge accepts: a pure function of the challenge and the configuration.

The answer is a decline reason of the API (`POST /challenges/{id}/decline`),
or None to accept. Reasons tell the challenger what to change.
"""

from __future__ import annotations

from typing import Any

from .config import BridgeConfig


def decline_reason(challenge: dict[str, Any], config: BridgeConfig, games_in_play: int) -> str | None:
    """Why the bot declines `challenge` (a Challenge body), or None when it accepts."""
    if challenge.get("rated") and not config.rated:
        return "casual"  # the bot plays unrated games only
    if not challenge.get("rated") and not config.casual:
        return "rated"
    reason = clock_reason(challenge.get("clock"), config)
    if reason is not None:
        return reason
    if games_in_play >= config.games_at_once:
        return "later"
    return None


def clock_reason(clock: dict[str, Any] | None, config: BridgeConfig) -> str | None:
    """Why the bot declines a game on `clock` (a challenge's or a game's settings), or None."""
    if clock is None:
        return None if config.untimed else "generic"
    if "days_per_move" in clock:
        return None if config.correspondence else "too_slow"
    initial, increment = clock["initial_s"], clock.get("increment_s", 0)
    if initial < config.min_initial_s:
        return "too_fast"
    if initial > config.max_initial_s or increment > config.max_increment_s:
        return "too_slow"
    return None

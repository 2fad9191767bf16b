"""What the bridge connects, and which challenges it takes: a small TOML file, flags over it.

The token never needs to be on a command line (where `ps` shows it): it may
come from the file or the PATCHWORK_BOT_TOKEN environment variable.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

TOKEN_VARIABLE = "PATCHWORK_BOT_TOKEN"


class ConfigError(ValueError):
    """The configuration is incomplete or names an unknown setting."""


@dataclass(frozen=True, slots=True)
class BridgeConfig:
    """Every setting of a bridge, with its default."""

    url: str = "http://localhost:8000"
    token: str = ""
    # The engine's command line (split like a shell's); one engine process per game.
    engine: str = "patchwork-engine deep"
    games_at_once: int = 2
    rated: bool = True  # accept rated challenges
    casual: bool = True  # accept unrated ones
    # Real-time clocks accepted: each seat's bank and increment, in seconds.
    min_initial_s: int = 60
    max_initial_s: int = 3 * 3600
    max_increment_s: int = 180
    untimed: bool = False  # accept a game with no clock
    correspondence: bool = False  # accept a correspondence clock (days per move)
    rematch: bool = False  # accept rematch offers (within the same limits); else decline them
    # An engine's move on no clock is cut off after this long (it is told to stop).
    max_think_s: float = 30.0

    def check(self) -> BridgeConfig:
        if not self.token:
            raise ConfigError(f"no token: give --token, `token` in the file, or {TOKEN_VARIABLE}")
        if not self.url.startswith(("http://", "https://")):
            raise ConfigError(f"url {self.url!r} is not an http(s) URL")
        if self.games_at_once < 1:
            raise ConfigError("games_at_once must be at least 1")
        if not self.engine.strip():
            raise ConfigError("no engine command")
        return self


def load(path: Path | None, overrides: dict[str, Any], environ: dict[str, str]) -> BridgeConfig:
    """The file's settings (if any), then the environment's token, then the flags that were given."""
    known = {field.name for field in fields(BridgeConfig)}
    settings: dict[str, Any] = {}
    if path is not None:
        with path.open("rb") as file:
            try:
                settings = tomllib.load(file)
            except tomllib.TOMLDecodeError as error:
                raise ConfigError(f"{path}: {error}") from None
        unknown = sorted(set(settings) - known)
        if unknown:
            raise ConfigError(
                f"{path}: unknown settings {', '.join(unknown)}; known: {', '.join(sorted(known))}"
            )
    if environ.get(TOKEN_VARIABLE):
        settings.setdefault("token", environ[TOKEN_VARIABLE])
    settings.update({name: value for name, value in overrides.items() if value is not None})
    try:
        return replace(BridgeConfig(), **settings).check()
    except TypeError as error:
        raise ConfigError(str(error)) from None

"""The engine protocol (docs/engine-protocol.md): Patchwork engines as processes speaking lines on stdin/stdout.

Both halves live here, on the rules engine and the bots only (no web, no
storage): `commands` is the host's grammar, `positions` replays a
`position` through the rules, `protocol_engine` is `patchwork-engine` (a
bot level as an engine, `thinking` its moves), `engine_process` drives any
engine from a host, and `match` plays two engines against each other.
"""

from .commands import Command, Go, Position, ProtocolError, parse_command
from .engine_process import EngineError, EngineProcess
from .positions import IllegalMove, game_state

__all__ = [
    "Command",
    "EngineError",
    "EngineProcess",
    "Go",
    "IllegalMove",
    "Position",
    "ProtocolError",
    "game_state",
    "parse_command",
]

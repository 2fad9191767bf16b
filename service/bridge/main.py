"""`patchwork-bot`: the command line of the bridge (see docs/engine-protocol.md#seat-an-engine-on-a-service-patchwork-bot)."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import threading
from pathlib import Path

from .bridge import Bridge
from .config import TOKEN_VARIABLE, ConfigError, load
from .service_client import Stopped


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="patchwork-bot",
        description="Connect an engine that speaks the Patchwork engine protocol to a service as a bot account.",
        epilog=f"The token may also come from {TOKEN_VARIABLE} (better than --token, which `ps` shows).",
    )
    p.add_argument("--config", type=Path, help="a TOML file of settings (flags given override it)")
    p.add_argument("--url", help="the service's base URL (default http://localhost:8000)")
    p.add_argument("--token", help="the bot account's player token")
    p.add_argument("--engine", help="the engine's command line (default: patchwork-engine deep)")
    p.add_argument("--games-at-once", type=int, help="games played at once (default 2); more are declined")
    p.add_argument(
        "--rated", action=argparse.BooleanOptionalAction, default=None, help="accept rated challenges"
    )
    p.add_argument(
        "--casual", action=argparse.BooleanOptionalAction, default=None, help="accept unrated challenges"
    )
    p.add_argument("--min-initial-s", type=int, help="the shortest bank accepted, seconds (default 60)")
    p.add_argument("--max-initial-s", type=int, help="the longest bank accepted, seconds (default 10800)")
    p.add_argument(
        "--max-increment-s", type=int, help="the largest increment accepted, seconds (default 180)"
    )
    p.add_argument(
        "--untimed", action=argparse.BooleanOptionalAction, default=None, help="accept games with no clock"
    )
    p.add_argument(
        "--correspondence",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="accept days-per-move clocks",
    )
    p.add_argument(
        "--rematch", action=argparse.BooleanOptionalAction, default=None, help="accept rematch offers"
    )
    p.add_argument("--max-think-s", type=float, help="an engine's cut-off on no clock, seconds (default 30)")
    p.add_argument("--log-level", default="INFO", help="DEBUG, INFO (default), WARNING")
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    logging.basicConfig(
        level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(message)s", stream=sys.stderr
    )
    overrides = {
        name: value
        for name, value in vars(args).items()
        if name not in ("config", "log_level") and value is not None
    }
    try:
        config = load(args.config, overrides, dict(os.environ))
    except (ConfigError, OSError) as error:
        print(f"patchwork-bot: {error}", file=sys.stderr)
        return 2
    stop = threading.Event()

    def stopping(_signum: int, _frame: object) -> None:
        # Raised in the main thread, it also cuts short a read of the player stream
        # that would otherwise wait for the next event.
        stop.set()
        raise Stopped()

    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, stopping)
    Bridge(config, stop).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())

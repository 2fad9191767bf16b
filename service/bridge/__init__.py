"""`patchwork-bot`: an outside engine on a service, as a bot account.

The bridge follows the bot's player stream (challenges, games starting),
answers challenges by its configured policy (config.py), and plays each game
from the game's own stream (game_runner.py) with the moves of an engine that
speaks the engine protocol (docs/engine-protocol.md, service/engine_protocol).
It talks to the service only through its public HTTP API (service_client.py),
so it runs anywhere, against any instance of the service.
"""

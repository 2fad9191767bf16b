"""Watching: GET /games?status=active and ?status=finished&player=<id> (site/watching.py), beside the lobby's ?status=open."""

from __future__ import annotations

from typing import Any

from service.api.context import services
from service.api.problems import invalid_request
from service.api.responses import json_response
from service.games.jsontext import compact
from service.languages import Text


def list_watched(query: dict[str, Any]):
    """A page of games being played (`status=active`) or of a player's finished games (`status=finished`)."""
    watching = services().watching
    player_id, rated = query.get("player"), bool(query.get("rated", False))
    if query["status"] == "active":
        page = watching.active(query.get("cursor"), player_id, rated)
    else:
        if player_id is None:
            detail = Text("A list of finished games is a player's: name the player with ?player=<id>.")
            raise invalid_request(detail, [{"parameter": "player", "message": detail}])
        page = watching.finished(query.get("cursor"), player_id, rated)
    return json_response(compact({"games": page.games, "next": page.next}))


def refuse_lobby_filters(query: dict[str, Any]) -> None:
    """400 when the lobby (`status=open`) is asked for a filter only the lists of games played have."""
    for name in ("player", "rated"):
        if name in query:
            detail = Text(
                "The lobby (status=open) is not filtered by {parameter}: it applies to status=active and finished.",
                {"parameter": name},
            )
            raise invalid_request(detail, [{"parameter": name, "message": detail}])

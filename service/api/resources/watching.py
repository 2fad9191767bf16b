"""Watching: GET /games?status=active and ?status=finished (site/watching.py), beside the lobby's ?status=open."""

from __future__ import annotations

from typing import Any

from service.api.context import services
from service.api.responses import json_response
from service.games.jsontext import compact


def list_watched(query: dict[str, Any]):
    """A page of games being played (`status=active`) or finished (`status=finished`): all, or a player's."""
    watching = services().watching
    player_id, rated = query.get("player"), bool(query.get("rated", False))
    if query["status"] == "active":
        page = watching.active(query.get("cursor"), player_id, rated)
    else:
        page = watching.finished(query.get("cursor"), player_id, rated)
    return json_response(compact({"games": page.games, "next": page.next}))

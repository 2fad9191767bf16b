"""A player's webhooks: POST and GET /players/me/webhooks, DELETE /players/me/webhooks/{id}, its deliveries (site/webhooks.py)."""

from __future__ import annotations

from flask import Blueprint, Response

from service.api.context import services
from service.api.incoming import bearer_token, check_body, check_headers, read_json_object
from service.api.responses import json_response
from service.games.jsontext import compact

bp = Blueprint("webhooks", __name__)


@bp.post("/players/me/webhooks")
def create_webhook():
    """A new webhook of the bearer's player: the webhook and its secret, shown this once."""
    body = read_json_object(required=True)
    check_body("createWebhook", body)
    player = services().players.authenticate(bearer_token())
    webhook, secret = services().webhooks.create(player.id, body["url"], body["events"])
    return json_response(compact({"webhook": webhook, "secret": secret}), 201)


@bp.get("/players/me/webhooks")
def list_webhooks():
    """The bearer's player's webhooks, without their secrets."""
    check_headers("listWebhooks")
    player = services().players.authenticate(bearer_token())
    return json_response(compact({"webhooks": services().webhooks.of_player(player.id)}))


@bp.delete("/players/me/webhooks/<webhook_id>")
def delete_webhook(webhook_id: str):
    """Remove one of the player's webhooks."""
    check_headers("deleteWebhook")
    player = services().players.authenticate(bearer_token())
    services().webhooks.delete(player.id, webhook_id)
    return Response(status=204)


@bp.get("/players/me/webhooks/<webhook_id>/deliveries")
def list_webhook_deliveries(webhook_id: str):
    """A webhook's last 100 delivery attempts, newest first."""
    check_headers("listWebhookDeliveries")
    player = services().players.authenticate(bearer_token())
    return json_response(compact({"deliveries": services().webhooks.deliveries(player.id, webhook_id)}))

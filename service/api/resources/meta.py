"""The endpoints that are not about one game: patches, liveness and readiness, the spec, the metrics."""

from __future__ import annotations

from flask import Blueprint, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from service.api.bodies import StaticResponse
from service.api.context import services
from service.api.problems import storage_unavailable
from service.api.responses import json_response
from service.api.schemas import patches_view
from service.games.jsontext import compact
from service.storage import StorageError, StoreBusy

bp = Blueprint("meta", __name__)

_PATCHES_TEXT = compact(patches_view())


@bp.get("/patches")
def list_patches():
    """The 33 regular patches."""
    return json_response(_PATCHES_TEXT)


@bp.get("/healthz")
def healthz():
    """Liveness: 200 while the process runs."""
    # Liveness only: a store outage must not get healthy processes restarted.
    return json_response('{"status":"ok"}')


# What /readyz says of the bot workers: whether their heartbeat is in the store.
_READY = {True: '{"status":"ready","bots":"available"}', False: '{"status":"ready","bots":"unavailable"}'}


@bp.get("/readyz")
def readyz():
    """Readiness: 200 while the store answers, else 503; `bots` says whether a bot worker is alive.

    Ready without bot workers: every game without a bot seat is played as
    ever (issue 36), and bot seats are refused with 503 bots_unavailable.
    """
    try:
        services().store.ping()
        bots = services().play.bot_jobs.workers_seen()
    except StoreBusy:
        raise  # 503 overloaded (problems.py), as for any request the worker is too busy for
    except StorageError:
        return storage_unavailable().response()
    return json_response(_READY[bots])


@bp.get("/openapi.yaml")
def openapi_spec():
    """The contract, the openapi.yaml this service validates against."""
    return StaticResponse(services().spec_file)


@bp.get("/metrics")
def metrics():
    """Every worker's metrics, in the Prometheus text format: for the operator's network only."""
    return Response(generate_latest(services().metrics), content_type=CONTENT_TYPE_LATEST)

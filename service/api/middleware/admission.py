"""Admission: each worker works on at most MAX_IN_FLIGHT requests at once, and refuses more at once.

A gevent worker runs one request's Python at a time; every request it has
taken waits for the CPU behind the others. Under a burst beyond what it can
do, all of them got slow together: each held its Redis connection while it
waited for the CPU, the pool ran dry, and the answers were late (seconds
past the API's 2 s) and said the store had failed while Redis answered.
Here a request finds a place, or is answered `503 overloaded` with
Retry-After before it does any work: the requests in hand stay few enough
to be answered in time, and a refusal costs a worker little.

Not counted: event streams, which wait idle for moves for most of their
life (WORKER_CONNECTIONS bounds them), and the operator's probes (healthz,
readyz, metrics), which must tell how an instance is however busy it is.

The places are a list of tokens: taking one is a pop and giving it back an
append, each atomic in CPython without a lock, and together a few
microseconds a request.
"""

from __future__ import annotations

from flask import Flask, g, request

from service.api.problems import overloaded
from service.config import Settings
from service.languages import Plural
from service.telemetry.metrics import requests_shed

# Endpoints whose requests are not counted (see the module's doc).
NOT_COUNTED = frozenset({"events.stream_events", "meta.healthz", "meta.readyz", "meta.metrics"})


def install_admission(app: Flask, settings: Settings) -> None:
    """Refuse requests past settings.max_in_flight with 503 overloaded, before anything else runs."""
    places = [True] * settings.max_in_flight
    shed = requests_shed("in_flight")
    refusal = Plural(
        "This worker is already answering {count} request; try again in the Retry-After seconds.",
        "This worker is already answering {count} requests; try again in the Retry-After seconds.",
        "count",
        {"count": settings.max_in_flight},
    )

    @app.before_request
    def _admit():
        if request.endpoint in NOT_COUNTED:
            return
        try:
            g.admitted = places.pop()
        except IndexError:
            shed.inc()
            raise overloaded(refusal) from None

    @app.teardown_request
    def _leave(_error):
        # Every request that took a place gives it back, however it ended.
        if g.pop("admitted", False):
            places.append(True)

"""Spec drift fails here: the app's routes are exactly the spec's paths and methods."""

import re

from service.api.contract.spec import load_spec

IMPLICIT = {"HEAD", "OPTIONS"}


def test_routes_equal_spec_paths_and_methods(app):
    routes = set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        path = re.sub(r"<(?:[^:>]+:)?([^>]+)>", r"{\1}", rule.rule)
        for method in rule.methods - IMPLICIT:
            routes.add((path, method.lower()))
    spec = load_spec()
    declared = {
        (path, method)
        for path, item in spec["paths"].items()
        for method in item
        if method in {"get", "post", "put", "patch", "delete"}
    }
    assert routes == declared


def test_every_endpoint_the_middleware_names_is_a_route_of_the_app(app):
    # The rate limits, the store reserve and admission pick requests by endpoint name
    # ("<blueprint>.<view>"): a blueprint renamed or split must not leave a name that matches nothing.
    from service.api.middleware.admission import NOT_COUNTED
    from service.api.middleware.ratelimit import _ENDPOINT_FAMILIES
    from service.api.middleware.store_reserve import CREATING_ENDPOINTS

    endpoints = {rule.endpoint for rule in app.url_map.iter_rules()}
    named = set(NOT_COUNTED) | set(_ENDPOINT_FAMILIES) | set(CREATING_ENDPOINTS)
    assert named - endpoints == set()
    assert {"lobby.join_game", "rematch.rematch_game", "players.create_player"} <= named

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

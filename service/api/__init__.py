"""The HTTP API: a Flask app that validates requests against openapi.yaml."""

from .app import create_app

__all__ = ["create_app"]

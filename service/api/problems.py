"""Every failure becomes one shape: RFC 9457 problem+json with a stable `code`.

Views raise `ApiProblem`; the game-play core's refusals, engine rule errors,
storage outages and werkzeug's HTTP exceptions are translated here, so no other module builds error bodies
and no request, however malformed, ends in an HTML page or a 500.
"""

from __future__ import annotations

import json
import logging

from flask import Flask, Response, current_app, has_app_context, request
from werkzeug.exceptions import HTTPException
from werkzeug.routing import RequestRedirect

from service.engine import RuleError
from service.games import BotsUnavailable, GameBusy, InvalidToken, MissingToken, Refusal
from service.games.jsontext import compact
from service.storage import StorageError, StoreBusy
from service.telemetry.metrics import requests_shed

from .context import EXTENSION_KEY
from .responses import json_body

# Where the page explaining each problem type is served (service/api/resources/pages.py).
PROBLEM_PAGES_PATH = "/problems/"
PROBLEM_MIMETYPE = "application/problem+json"
RETRY_AFTER_SECONDS = "1"
# Bot workers beat every 2 s: one started or restarted now is seen within a few seconds.
BOTS_RETRY_AFTER_SECONDS = "5"

TITLES = {
    "invalid_json": "Body is not JSON",
    "invalid_request": "Request does not match the API",
    "missing_token": "Bearer token required",
    "invalid_token": "Token does not belong to this game",
    "game_not_found": "No such game",
    "not_found": "No such resource",
    "method_not_allowed": "Method not allowed",
    "game_finished": "Game is finished",
    "not_your_turn": "Not your turn",
    "wrong_phase": "Move not allowed in this phase",
    "idempotency_key_in_use": "Idempotency key in use",
    "version_mismatch": "Game has moved on",
    "payload_too_large": "Body too large",
    "unsupported_media_type": "Body must be JSON",
    "patch_not_available": "Patch not in the market",
    "cannot_afford": "Not enough buttons",
    "does_not_fit": "Patch does not fit there",
    "cell_occupied": "Cell already covered",
    "idempotency_key_reused": "Idempotency key reused with another body",
    "uri_too_long": "Request line too long",
    "headers_too_large": "Request headers too large",
    "expectation_failed": "Expectation not met",
    "unsupported_transfer_coding": "Transfer coding not supported",
    "request_timeout": "Request not received in time",
    "rate_limited": "Too many requests",
    "storage_unavailable": "Storage unavailable",
    "overloaded": "Service overloaded",
    "bots_unavailable": "No bot worker available",
    "internal_error": "Internal error",
}

# The game-play core's refusals by code. Rule errors are refusals of a
# well-formed move: 409 when the game's state forbids moving at all, 422 when
# the move itself is illegal.
REFUSAL_STATUS = {
    "game_not_found": 404,
    "not_found": 404,
    "missing_token": 401,
    "invalid_token": 401,
    "version_mismatch": 412,
    "storage_unavailable": 503,
    "bots_unavailable": 503,
    "game_finished": 409,
    "not_your_turn": 409,
    "wrong_phase": 409,
    "patch_not_available": 422,
    "cannot_afford": 422,
    "does_not_fit": 422,
    "cell_occupied": 422,
}

log = logging.getLogger(__name__)


class ApiProblem(Exception):
    """A failure the client should see, with its HTTP status and stable code."""

    def __init__(
        self,
        status: int,
        code: str,
        detail: str,
        *,
        errors: list[dict] | None = None,
        headers: dict[str, str] | None = None,
    ):
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.errors = errors
        self.headers = headers or {}

    def body(self, public_url: str = "") -> dict:
        """The problem+json document; its `type` is absolute under `public_url` when given, else relative."""
        doc = {
            "type": problem_type_url(self.code, public_url),
            "title": TITLES.get(self.code, self.code),
            "status": self.status,
            "detail": self.detail,
            "code": self.code,
        }
        if self.errors is not None:
            doc["errors"] = self.errors
        return doc

    def text(self, public_url: str = "") -> str:
        """The problem+json document, encoded."""
        doc = self.body(public_url)
        try:
            return compact(doc)
        except TypeError:
            # Request text quoted in a message can hold what UTF-8 cannot (a lone
            # surrogate): escaped as \uXXXX the refusal still goes out, not a 500.
            return json.dumps(doc, separators=(",", ":"))

    def response(self) -> Response:
        """A Flask response carrying this problem."""
        return problem_response(self.status, self.text(_public_url()), self.headers)


def problem_slug(code: str) -> str:
    """The last segment of a problem type URL: the code with dashes (`not-your-turn`)."""
    return code.replace("_", "-")


def problem_type_url(code: str, public_url: str = "") -> str:
    """The URL of the page explaining `code`: relative (RFC 9457 allows it) unless the public address is known."""
    return f"{public_url}{PROBLEM_PAGES_PATH}{problem_slug(code)}"


def _public_url() -> str:
    # Outside a request of the app (gunicorn's own refusals) the type URL stays relative.
    found = current_app.extensions.get(EXTENSION_KEY) if has_app_context() else None
    return found.settings.public_url if found is not None else ""


def problem_response(status: int, body: str, headers: dict[str, str] | None = None) -> Response:
    """Wrap an encoded problem document in a response."""
    resp = Response(json_body(body), status=status, mimetype=PROBLEM_MIMETYPE)
    for name, value in (headers or {}).items():
        resp.headers[name] = value
    return resp


def invalid_request(detail: str, errors: list[dict]) -> ApiProblem:
    """400 for a request that breaks the spec, `errors` saying where."""
    return ApiProblem(400, "invalid_request", detail, errors=errors)


def from_refusal(refusal: Refusal | RuleError) -> ApiProblem:
    """The API's answer to a request the game-play core (or the engine) refused."""
    problem = ApiProblem(REFUSAL_STATUS[refusal.code], refusal.code, str(refusal))
    if isinstance(refusal, MissingToken):
        problem.headers["WWW-Authenticate"] = "Bearer"
    elif isinstance(refusal, InvalidToken):
        problem.headers["WWW-Authenticate"] = 'Bearer error="invalid_token"'
    elif isinstance(refusal, GameBusy):
        problem.headers["Retry-After"] = RETRY_AFTER_SECONDS
    elif isinstance(refusal, BotsUnavailable):
        problem.headers["Retry-After"] = BOTS_RETRY_AFTER_SECONDS
    return problem


def storage_unavailable() -> ApiProblem:
    """503 with Retry-After: the store did not answer in time."""
    return ApiProblem(
        503,
        "storage_unavailable",
        "The game store did not answer; try again shortly.",
        headers={"Retry-After": RETRY_AFTER_SECONDS},
    )


def overloaded(detail: str) -> ApiProblem:
    """503 with Retry-After: this worker has more work than it can do (the store is fine)."""
    return ApiProblem(503, "overloaded", detail, headers={"Retry-After": RETRY_AFTER_SECONDS})


def from_storage_error(error: StorageError) -> ApiProblem:
    """The answer to a store call that failed: overloaded when only this process's load kept it from Redis."""
    if isinstance(error, StoreBusy):
        return overloaded("Every store connection is in use: the service is busy; try again shortly.")
    return storage_unavailable()


def no_such_resource() -> ApiProblem:
    return ApiProblem(404, "not_found", "No resource at this URL. See GET /openapi.yaml.")


def _from_http_exception(exc: HTTPException) -> ApiProblem:
    status = exc.code or 500
    if status == 404:
        return no_such_resource()
    if status == 405:
        allowed = sorted(set(getattr(exc, "valid_methods", None) or []))
        return ApiProblem(
            405,
            "method_not_allowed",
            f"Allowed methods: {', '.join(allowed)}.",
            headers={"Allow": ", ".join(allowed)},
        )
    if status == 413:
        return ApiProblem(413, "payload_too_large", "The request body is over 64 KiB.")
    if status == 415:
        return ApiProblem(415, "unsupported_media_type", "Send the body as application/json.")
    if status == 400:
        return ApiProblem(400, "invalid_request", exc.description or "Bad request.", errors=[])
    if status < 500:
        return ApiProblem(status, "invalid_request", exc.description or "Bad request.", errors=[])
    return ApiProblem(500, "internal_error", "The server failed; the error was logged.")


def register_error_handlers(app: Flask) -> None:
    """Route every exception through problem+json."""

    @app.before_request
    def _no_redirects():
        # werkzeug routes "//" to the rule "/" with an HTML 308 that error
        # handlers never see (Flask returns routing redirects as they are):
        # like every other path no rule matches as sent, it is a 404.
        if isinstance(request.routing_exception, RequestRedirect):
            raise no_such_resource()

    @app.errorhandler(ApiProblem)
    def _api_problem(exc: ApiProblem):
        return exc.response()

    @app.errorhandler(Refusal)
    @app.errorhandler(RuleError)
    def _refusal(exc: Refusal | RuleError):
        return from_refusal(exc).response()

    @app.errorhandler(StorageError)
    def _storage_error(exc: StorageError):
        problem = from_storage_error(exc)
        if problem.code == "overloaded":
            requests_shed("store_connections").inc()
            log.warning("overloaded: %s", exc)
        else:
            log.warning("store unavailable: %s", exc)
        return problem.response()

    @app.errorhandler(HTTPException)
    def _http_exception(exc: HTTPException):
        return _from_http_exception(exc).response()

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):
        log.exception("unhandled error")
        return ApiProblem(500, "internal_error", "The server failed; the error was logged.").response()

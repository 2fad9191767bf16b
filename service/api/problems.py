"""Every failure becomes one shape: RFC 9457 problem+json with a stable `code`.

Views raise `ApiProblem`; the game-play core's refusals, engine rule errors,
storage outages and werkzeug's HTTP exceptions are translated here, so no other module builds error bodies
and no request, however malformed, ends in an HTML page or a 500. What each
code's answers carry (status, title, headers) is its entry in the catalogue
(service/problems/catalogue.py).

`title` and `detail` are written for people, so they come in the language
the request's Accept-Language negotiated (service/languages), with
`Content-Language` and `Vary: Accept-Language`; `code` and the field names
stay English. A detail given as plain text (not a `Text` of the
catalogues) stays English.
"""

from __future__ import annotations

import json
import logging

from flask import Flask, Response, current_app, has_app_context, has_request_context, request
from werkzeug.exceptions import HTTPException
from werkzeug.routing import RequestRedirect

from service.engine import RuleError
from service.games import CATALOGUE, Refusal, entry_of
from service.games.jsontext import compact
from service.games.refusals import explained
from service.languages import DEFAULT_LANGUAGE, Text
from service.storage import StorageError, StoreBusy
from service.telemetry.metrics import requests_shed

from .languages import request_language, speaks
from .responses import json_body

# Where the page explaining each problem type is served (service/api/resources/pages.py).
PROBLEM_PAGES_PATH = "/problems/"
# The app's config key for PUBLIC_URL (create_app sets it): the problems read the one setting
# they need from the app, not from its services, which would import them back.
PUBLIC_URL_CONFIG = "PATCHWORK_PUBLIC_URL"
PROBLEM_MIMETYPE = "application/problem+json"
log = logging.getLogger(__name__)


class ApiProblem(Exception):
    """A failure the client should see, with its HTTP status and stable code.

    It carries its code's catalogue headers (Retry-After, WWW-Authenticate)
    before those given, which add the ones whose value is this answer's own.
    `detail` is English text, or a `Text` to be shown in the request's language.
    """

    def __init__(
        self,
        status: int,
        code: str,
        detail: str | Text,
        *,
        errors: list[dict] | None = None,
        headers: dict[str, str] | None = None,
    ):
        super().__init__(str(detail))
        self.status = status
        self.code = code
        self.text_of_detail = detail if isinstance(detail, Text) else Text(detail)
        self.detail = str(detail)
        self.errors = errors
        entry = CATALOGUE.get(code)
        self.title = Text(entry.title) if entry is not None else Text(code)
        # The language the answer speaks, when not the request's: a replayed refusal speaks its first answer's.
        self.language: str | None = None
        self.headers = {**(entry.headers if entry is not None else {}), **(headers or {})}

    @classmethod
    def of(
        cls,
        code: str,
        detail: str | Text,
        *,
        errors: list[dict] | None = None,
        headers: dict[str, str] | None = None,
    ) -> ApiProblem:
        """The problem of `code` with its catalogue status."""
        return cls(CATALOGUE[code].status, code, detail, errors=errors, headers=headers)

    def body(self, public_url: str = "", language: str = DEFAULT_LANGUAGE) -> dict:
        """The problem+json document in `language`; its `type` is absolute under `public_url` when given, else relative."""
        doc = {
            "type": problem_type_url(self.code, public_url),
            "title": self.title.in_language(language),
            "status": self.status,
            "detail": self.text_of_detail.in_language(language),
            "code": self.code,
        }
        if self.errors is not None:
            doc["errors"] = [_error_in(error, language) for error in self.errors]
        return doc

    def text(self, public_url: str = "", language: str = DEFAULT_LANGUAGE) -> str:
        """The problem+json document, encoded."""
        doc = self.body(public_url, language)
        try:
            return compact(doc)
        except TypeError:
            # Request text quoted in a message can hold what UTF-8 cannot (a lone
            # surrogate): escaped as \uXXXX the refusal still goes out, not a 500.
            return json.dumps(doc, separators=(",", ":"))

    def response(self) -> Response:
        """A Flask response carrying this problem, in the language the request asked for."""
        language = self.language or (request_language() if has_request_context() else DEFAULT_LANGUAGE)
        resp = problem_response(self.status, self.text(_public_url(), language), self.headers)
        speaks(resp, language)
        return resp


def _error_in(error: dict, language: str) -> dict:
    """One `errors` item in `language`: its message a catalogue `Text` (plain text stays as it is)."""
    return {
        key: value.in_language(language) if isinstance(value, Text) else value for key, value in error.items()
    }


def problem_slug(code: str) -> str:
    """The last segment of a problem type URL: the code with dashes (`not-your-turn`)."""
    return code.replace("_", "-")


def problem_type_url(code: str, public_url: str = "") -> str:
    """The URL of the page explaining `code`: relative (RFC 9457 allows it) unless the public address is known."""
    return f"{public_url}{PROBLEM_PAGES_PATH}{problem_slug(code)}"


def _public_url() -> str:
    # Outside a request of the app (gunicorn's own refusals) the type URL stays relative.
    return current_app.config.get(PUBLIC_URL_CONFIG, "") if has_app_context() else ""


def problem_response(status: int, body: str, headers: dict[str, str] | None = None) -> Response:
    """Wrap an encoded problem document in a response."""
    resp = Response(json_body(body), status=status, mimetype=PROBLEM_MIMETYPE)
    for name, value in (headers or {}).items():
        resp.headers[name] = value
    return resp


def invalid_request(detail: str | Text, errors: list[dict]) -> ApiProblem:
    """400 for a request that breaks the spec, `errors` saying where."""
    return ApiProblem.of("invalid_request", detail, errors=errors)


def from_refusal(refusal: Refusal | RuleError) -> ApiProblem:
    """The API's answer to a request the game-play core (or the engine) refused."""
    entry = entry_of(refusal)
    if isinstance(refusal, Refusal):
        return ApiProblem(entry.status, entry.code, refusal.text, headers=refusal.headers)
    return ApiProblem(entry.status, entry.code, explained(refusal))


def storage_unavailable() -> ApiProblem:
    """503 with Retry-After: the store did not answer in time."""
    return ApiProblem.of("storage_unavailable", Text("The game store did not answer; try again shortly."))


def overloaded(detail: str | Text) -> ApiProblem:
    """503 with Retry-After: this worker has more work than it can do (the store is fine)."""
    return ApiProblem.of("overloaded", detail)


def from_storage_error(error: StorageError) -> ApiProblem:
    """The answer to a store call that failed: overloaded when only this process's load kept it from Redis."""
    if isinstance(error, StoreBusy):
        return overloaded(Text("Every store connection is in use: the service is busy; try again shortly."))
    return storage_unavailable()


def server_failed() -> ApiProblem:
    """500: what no request should ever meet; the error is in the log."""
    return ApiProblem.of("internal_error", Text("The server failed; the error was logged."))


def no_such_resource() -> ApiProblem:
    return ApiProblem.of("not_found", Text("No resource at this URL. See GET /openapi.yaml."))


def _from_http_exception(exc: HTTPException) -> ApiProblem:
    status = exc.code or 500
    if status == 404:
        return no_such_resource()
    if status == 405:
        allowed = sorted(set(getattr(exc, "valid_methods", None) or []))
        return ApiProblem.of(
            "method_not_allowed",
            Text("Allowed methods: {methods}.", {"methods": ", ".join(allowed)}),
            headers={"Allow": ", ".join(allowed)},
        )
    if status == 413:
        return ApiProblem.of("payload_too_large", Text("The request body is over 64 KiB."))
    if status == 415:
        return ApiProblem.of("unsupported_media_type", Text("Send the body as application/json."))
    if status < 500:
        # Any other client error werkzeug raises keeps its own status.
        return ApiProblem(status, "invalid_request", exc.description or "Bad request.", errors=[])
    return server_failed()


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
        return server_failed().response()

"""A gthread worker whose own refusals are problem+json, like every other error.

gunicorn answers requests it cannot even parse (a request line or headers
over its limits, a malformed request line) itself, before the app sees them,
with an HTML page. Clients of this API parse problem+json, so those answers
get the same shape and a stable code here. Anything else is left to gunicorn.
"""

from __future__ import annotations

from gunicorn.http import errors
from gunicorn.util import write_nonblock
from gunicorn.workers.gthread import ThreadWorker

from service.games.jsontext import compact
from service.api.problems import PROBLEM_MIMETYPE, ApiProblem

# Parse errors that are the app's or the server's fault, or have a status of
# their own in gunicorn: not answered here.
_NOT_CLIENT_FORM_ERRORS = (
    errors.InvalidResponseHeader,
    errors.InvalidResponseHeaderName,
    errors.ConfigurationProblem,
    errors.UnsupportedTransferCoding,
    errors.ExpectationFailed,
    errors.ForbiddenProxyRequest,
)

_REASONS = {400: "Bad Request", 414: "URI Too Long", 431: "Request Header Fields Too Large"}


def problem_for_parse_error(exc: Exception) -> ApiProblem | None:
    """The problem that answers a request gunicorn could not parse; None: not ours to answer."""
    if isinstance(exc, errors.LimitRequestLine):
        return ApiProblem(414, "uri_too_long", f"The request line is too long: {exc}.")
    if isinstance(exc, errors.LimitRequestHeaders):
        return ApiProblem(431, "headers_too_large", f"The request headers are too large: {exc}.")
    if isinstance(exc, errors.ParseException) and not isinstance(exc, _NOT_CLIENT_FORM_ERRORS):
        return ApiProblem(400, "invalid_request", f"The request is not valid HTTP: {exc}.", errors=[])
    return None


def encode_problem_response(problem: ApiProblem) -> bytes:
    """A whole HTTP/1.1 response carrying `problem`, closing the connection."""
    body = compact(problem.body()).encode("utf-8")
    head = (f"HTTP/1.1 {problem.status} {_REASONS[problem.status]}\r\n"
            f"Connection: close\r\n"
            f"Content-Type: {PROBLEM_MIMETYPE}\r\n"
            f"Content-Length: {len(body)}\r\n\r\n")
    return head.encode("latin-1") + body


class ProblemJsonThreadWorker(ThreadWorker):
    """gunicorn's gthread worker, answering unparsable requests with problem+json."""

    def handle_error(self, req, client, addr, exc):
        problem = problem_for_parse_error(exc)
        if problem is None:
            return super().handle_error(req, client, addr, exc)
        peer = addr[0] if addr else ""
        self.log.warning("Invalid request from ip=%s: %s", peer, exc)
        try:
            write_nonblock(client, encode_problem_response(problem))
        except OSError:
            self.log.debug("Failed to send error message.")
        return None

"""Log lines: plain text by default, one JSON object per line with LOG_FORMAT=json.

Every line written while a request is served names it by its request id
(service/api/middleware/request_ids.py sets `current_request_id` when a request
arrives): the app's own lines, gunicorn's access line and its refusals.
A context variable, not Flask's request context, because gunicorn writes
the access line after the app has returned, and an event stream's body is
produced after that too; under gevent each connection's greenlet has
contexts of its own.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Mapping
from contextvars import ContextVar
from typing import Any
from urllib.parse import unquote_plus

from gunicorn import glogging

from service.config import Settings

current_request_id: ContextVar[str | None] = ContextVar("current_request_id", default=None)

_TEXT_FORMAT = "%(asctime)s [%(process)d] [%(levelname)s] %(message)s"
_TEXT_DATE = "[%Y-%m-%d %H:%M:%S %z]"


# A query parameter or header whose name holds one of these carries a secret
# (a stream ticket, a token, an API key, ...): its value never reaches a log.
_SECRET_NAME_PARTS = (
    "ticket",
    "token",
    "secret",
    "password",
    "passwd",
    "key",
    "auth",
    "session",
    "signature",
)
# One `name=value` of a query, wherever it sits in a logged text: the query string alone
# (gunicorn's %(q)s), a request line (%(r)s) or a URL (a Referer).
_QUERY_PAIR = re.compile(r"(?:^|(?<=[?&;]))([^=&;?#\s\"]+)=([^&;#\s\"]*)")
REDACTED = "[redacted]"


def is_secret_name(name: str) -> bool:
    """Whether a query parameter or header of this name (percent-encoded or not) carries a secret."""
    plain = unquote_plus(name).lower()
    return any(part in plain for part in _SECRET_NAME_PARTS)


def redact_secrets(text: str) -> str:
    """`text` with the value of every secret-named query parameter replaced by REDACTED."""

    def pair(match: re.Match[str]) -> str:
        name = match.group(1)
        return f"{name}={REDACTED}" if is_secret_name(name) else match.group(0)

    return _QUERY_PAIR.sub(pair, text) if "=" in text else text


def _redacted_atoms(atoms: Mapping[str, Any]) -> dict[str, Any]:
    """gunicorn's access-log atoms with no secret: in the URL's query (request line, query, Referer, the
    environ's copies of them) and in the values of secret-named headers (`{authorization}i`)."""
    redacted: dict[str, Any] = {}
    for name, value in atoms.items():
        if isinstance(value, str):
            header = name.startswith("{") and name[-2:] in ("}i", "}o")
            value = REDACTED if header and is_secret_name(name[1:-2]) else redact_secrets(value)
        redacted[name] = value
    return redacted


def _request_id(record: logging.LogRecord) -> str | None:
    return getattr(record, "request_id", None) or current_request_id.get()


class TextFormatter(logging.Formatter):
    """gunicorn's own line format, with `request_id=...` at the end of lines about a request."""

    def __init__(self) -> None:
        super().__init__(_TEXT_FORMAT, _TEXT_DATE)

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        request_id = _request_id(record)
        if request_id is None:
            return line
        first, newline, rest = line.partition("\n")
        # Before a traceback, so the id stays on the line that says what happened.
        return f"{first} request_id={request_id}{newline}{rest}"


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, pid, message, request_id, and a traceback when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        doc: dict[str, object] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "pid": record.process,
            "message": record.getMessage(),
        }
        request_id = _request_id(record)
        if request_id is not None:
            doc["request_id"] = request_id
        access = getattr(record, "access", None)
        if access is not None:
            doc.update(access)
        if record.exc_info:
            doc["exception"] = self.formatException(record.exc_info)
        # ensure_ascii: a line is one line and plain ASCII whatever a message quotes.
        return json.dumps(doc, ensure_ascii=True, default=str)


def formatter_for(log_format: str) -> logging.Formatter:
    """The formatter LOG_FORMAT names."""
    return JsonFormatter() if log_format == "json" else TextFormatter()


class GunicornLogger(glogging.Logger):
    """gunicorn's logger with the service's line format on its error and access logs.

    gunicorn_conf's `logger_class`: the arbiter's lines, the workers' and the
    access log all come out in the one format LOG_FORMAT picks.
    """

    def setup(self, cfg) -> None:
        super().setup(cfg)
        formatter = formatter_for(Settings.from_env().log_format)
        for log in (self.error_log, self.access_log):
            for handler in log.handlers:
                handler.setFormatter(formatter)

    def access(self, resp, req, environ, request_time) -> None:
        """The access line; in JSON its fields are also keys of their own."""
        if not self.access_log_enabled:
            return
        # Issue 36: a stream ticket in a logged URL opened the player's stream to whoever read the log.
        atoms = _redacted_atoms(self.atoms(resp, req, environ, request_time))
        fields = {
            "method": atoms["m"],
            "path": atoms["U"],
            "status": int(atoms["s"]),
            "bytes": atoms["B"],
            "duration_ms": round(atoms["D"] / 1000, 3),
            "remote_addr": atoms["h"],
        }
        self.access_log.info(
            self.cfg.access_log_format, self.atoms_wrapper_class(dict(atoms)), extra={"access": fields}
        )

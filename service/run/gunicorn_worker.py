"""The gunicorn worker: gevent, with deadlines on what clients send, and problem+json refusals.

Why gevent: every open connection is a greenlet (a few KB) instead of a
thread, so hundreds of slow or idle clients, and later thousands of idle
event streams, cost memory and file descriptors, not the request threads
honest clients need. gunicorn's gthread worker read request heads inside
its threads with no deadline: 16 clients that never finished their headers
made every other request wait.

What a client sends is read under deadlines here, so no connection holds a
greenlet for long without a complete request:
- a request's head must arrive within `read_timeout` of connecting, and
  within `keepalive` of the previous answer on a kept-alive connection;
  past that the connection is closed (nothing was asked, nothing to answer);
- its body (at most the API's 64 KiB, plus one byte to tell a longer one)
  is read before the app runs, within `read_timeout` again; past that the
  client gets 408 and the connection is closed.
The app then reads the body from memory and never waits on a client.

Told to stop (SIGTERM), a worker stops taking connections (gunicorn) and
winds down what it holds, so it exits in a second or two rather than after
graceful_timeout, and loses no request it has read:
- requests in flight are served to their end; their connections then close
  (`Connection: close` when the answer has not started yet);
- open event streams end at once, each a complete response: their clients
  reconnect, to another instance, with Last-Event-ID;
- a connection waiting for its next request with none of it arrived is
  closed: at once if it was kept alive after an answer (its client retries
  on a new connection, as HTTP clients do with a kept-alive connection the
  server closed), after FIRST_REQUEST_GRACE if it is new (its client is
  likely sending its first request right now); one whose request has begun
  to arrive is served.

gunicorn answers requests it cannot parse itself, with an HTML page that
repeats the offending text (a header line may hold a bearer token). Here
they get problem+json with a fixed message per kind of error, and the log
names the kind, never the request's text. The message speaks the language
the request's Accept-Language asks for when gunicorn read the whole head
before the fault (a malformed chunked body, a body too slow); a request
refused while its head was read is answered in English, its headers unknown.
"""

from __future__ import annotations

import contextlib
import io
import queue
import signal
import time
import warnings
import weakref
from http import HTTPStatus

import gevent
from gevent.monkey import MonkeyPatchWarning, get_original
from gunicorn.http import errors
from gunicorn.http.body import LengthReader
from gunicorn.util import write_nonblock
from gunicorn.workers.ggevent import GeventWorker

from service.api.incoming import MAX_BODY_BYTES
from service.api.middleware.request_ids import HEADER as REQUEST_ID_HEADER
from service.api.middleware.request_ids import new_request_id
from service.api.problems import PROBLEM_MIMETYPE, ApiProblem
from service.api.responses import json_body
from service.config import Settings
from service.languages import DEFAULT_LANGUAGE, Text, negotiate
from service.storage.wakeups import close_all_wakeups
from service.telemetry.logs import current_request_id

_LINE = Text("The request line is malformed.")
_HEADER = Text("A header line is malformed.")
_CHUNKS = Text("The chunked body is malformed.")
# First match wins: (error class, code, detail); the status is the code's
# (service/problems/catalogue.py). The detail is fixed: the exception's text quotes the request.
_REFUSALS: tuple[tuple[type[Exception], str, Text], ...] = (
    (errors.LimitRequestLine, "uri_too_long", Text("The request line is over 4094 bytes.")),
    (
        errors.LimitRequestHeaders,
        "headers_too_large",
        Text("The request has over 50 headers, or a header line over 8190 bytes."),
    ),
    (
        errors.ExpectationFailed,
        "expectation_failed",
        Text("The only expectation this server meets is Expect: 100-continue."),
    ),
    (
        errors.UnsupportedTransferCoding,
        "unsupported_transfer_coding",
        Text("The only transfer coding this server reads is chunked."),
    ),
    (errors.InvalidRequestLine, "invalid_request", _LINE),
    (errors.InvalidRequestMethod, "invalid_request", _LINE),
    (errors.InvalidHTTPVersion, "invalid_request", Text("The HTTP version is not 1.0 or 1.1.")),
    (errors.InvalidHeaderName, "invalid_request", _HEADER),
    (errors.InvalidHeader, "invalid_request", _HEADER),
    (errors.ObsoleteFolding, "invalid_request", _HEADER),
    (errors.InvalidChunkSize, "invalid_request", _CHUNKS),
    (errors.ChunkMissingTerminator, "invalid_request", _CHUNKS),
    (errors.InvalidChunkExtension, "invalid_request", _CHUNKS),
)
_NOT_VALID_HTTP = ("invalid_request", Text("The request is not valid HTTP."))
_SERVER_FAULT = ("internal_error", Text("The server failed; the error was logged."))
_BODY_TOO_SLOW = ApiProblem.of("request_timeout", Text("The request body did not arrive in time."))

CONTINUE = b"HTTP/1.1 100 Continue\r\n\r\n"

# The system's select: it runs in gevent's hub, where nothing may wait.
_select = get_original("select", "select")
# When stopping: how long a new connection may wait for its first request
# before it is closed, and how often the waiting connections are looked at.
FIRST_REQUEST_GRACE = 1.0
WIND_DOWN_EVERY = 0.25
# The signals a worker acts on that may arrive before its handlers are in
# place (see init_signals): to stop, and to reopen its log files.
_EARLY_SIGNALS = frozenset({signal.SIGTERM, signal.SIGINT, signal.SIGQUIT, signal.SIGUSR1})


def problem_for_error(exc: BaseException) -> ApiProblem:
    """The problem that answers a request gunicorn could not read or serve."""
    for refusal in _REFUSALS:
        if isinstance(exc, refusal[0]):
            _kind, code, detail = refusal
            break
    else:
        # Response-header errors and configuration problems are the server's fault.
        # Ignored below: the gunicorn we pin (27) has these two; types-gunicorn (26.2) lacks them.
        server_faults = (
            errors.InvalidResponseHeader,  # type: ignore[attr-defined]
            errors.InvalidResponseHeaderName,  # type: ignore[attr-defined]
            errors.ConfigurationProblem,
        )
        client_fault = isinstance(exc, errors.ParseException) and not isinstance(exc, server_faults)
        code, detail = _NOT_VALID_HTTP if client_fault else _SERVER_FAULT
    return ApiProblem.of(code, detail, errors=[] if code == "invalid_request" else None)


def language_of(req) -> str:
    """The language to refuse `req` in: its Accept-Language's when gunicorn read its head, else English."""
    if req is None:
        return DEFAULT_LANGUAGE
    asked = next((value for name, value in req.headers if name == "ACCEPT-LANGUAGE"), None)
    return negotiate(asked)


def encode_problem_response(problem: ApiProblem, request_id: str, language: str = DEFAULT_LANGUAGE) -> bytes:
    """A whole HTTP/1.1 response carrying `problem` in `language`, closing the connection."""
    body = json_body(problem.text(language=language)).encode("utf-8")
    head = (
        f"HTTP/1.1 {problem.status} {HTTPStatus(problem.status).phrase}\r\n"
        f"Connection: close\r\n"
        f"{REQUEST_ID_HEADER}: {request_id}\r\n"
        f"Content-Type: {PROBLEM_MIMETYPE}\r\n"
        f"Content-Language: {language}\r\n"
        f"Vary: Accept-Language\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode("latin-1") + body


class ProblemJsonGeventWorker(GeventWorker):
    """gunicorn's gevent worker with read deadlines and problem+json refusals.

    `keepalive` and `worker_connections` come from the gunicorn config
    (service/run/gunicorn_conf.py), the read deadline from Settings.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The greenlets (one per connection) that have served a request: the
        # next head they wait for is on a kept-alive connection.
        self._kept_alive: weakref.WeakSet = weakref.WeakSet()
        # What a stopping worker winds down, by connection greenlet: its socket,
        # (since when, until what deadline) it waits for a request head, the request it serves.
        self._sockets: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._waiting: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._serving: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._winding_down = False
        self._read_timeout = Settings.from_env().read_timeout

    def patch(self):
        with warnings.catch_warnings():
            # gunicorn imported ssl in the arbiter before forking this worker,
            # but made no SSL object (the service does not terminate TLS), so
            # patching ssl now leaves nothing unpatched behind.
            warnings.filterwarnings("ignore", "Monkey-patching ssl", MonkeyPatchWarning)
            super().patch()

    def init_signals(self):
        """Install the worker's signal handlers, then act on the signals that came before them.

        From its fork until here a worker runs the handler it inherited from
        the arbiter, which only queues the signal in the worker's copy of
        the arbiter's queue. A SIGTERM in that window (an instance stopped
        while a worker boots, as at a quick restart) was lost there: the
        worker served on until the arbiter killed it at graceful_timeout,
        with whatever it had in flight. gunicorn_conf.post_fork hands the
        worker that queue; each stop (or log-reopen) signal in it is raised
        again now that the worker's own handler will take it.
        """
        super().init_signals()
        inherited = getattr(self, "inherited_signals", None)
        if inherited is None:
            return
        while True:
            try:
                sig = inherited.get_nowait()
            except queue.Empty:
                return
            if sig in _EARLY_SIGNALS:
                signal.raise_signal(sig)

    def handle_exit(self, sig, frame):
        """SIGTERM: stop taking connections (gunicorn), and wind down the ones held (see the module's doc)."""
        super().handle_exit(sig, frame)
        if not self._winding_down:
            self._winding_down = True
            # Out of the signal handler, as gunicorn's gevent worker does for SIGQUIT.
            gevent.spawn(self._wind_down)

    def _wind_down(self) -> None:
        # Streams would hold the worker for all of graceful_timeout.
        close_all_wakeups()
        for req in list(self._serving.values()):
            req.must_close = True  # gunicorn closes the connection after the answer
        # gunicorn's loop returns once no connection is left; the process then exits.
        while True:
            self._close_idle_connections()
            gevent.sleep(WIND_DOWN_EVERY)

    def _close_idle_connections(self) -> None:
        """End the waits for a request head that are over for a stopping worker (see the module's doc)."""
        now = time.monotonic()
        for greenlet, (since, deadline) in list(self._waiting.items()):
            if greenlet in self._kept_alive or now - since >= FIRST_REQUEST_GRACE:
                # In the hub, between greenlets: nothing reads the socket between
                # the look at it and the end of the wait.
                gevent.get_hub().loop.run_callback(self._end_wait, greenlet, deadline)

    def _end_wait(self, greenlet, deadline: gevent.Timeout) -> None:
        """End this wait for a request head as if its deadline had passed, unless a request has begun to arrive.

        The connection is then closed without a word, and a request arriving
        after this is never read: never applied, safe to send again.
        """
        waiting = self._waiting.get(greenlet)
        if waiting is None or waiting[1] is not deadline:
            return  # the head came meanwhile; gunicorn closes the connection after its answer
        sock = self._sockets.get(greenlet)
        if sock is not None and _select([sock], [], [], 0)[0]:
            return  # a request (served, the connection then closed) or the client's own close
        greenlet.throw(deadline)

    def handle(self, listener, client, addr):
        self._sockets[gevent.getcurrent()] = client
        super().handle(listener, client, addr)

    def timeout_ctx(self):
        """The deadline for the next request head on this connection (gunicorn's hook)."""
        current = gevent.getcurrent()
        seconds = self.cfg.keepalive if current in self._kept_alive else self._read_timeout
        return self._waiting_for_head(current, seconds)

    @contextlib.contextmanager
    def _waiting_for_head(self, greenlet, seconds: float):
        # Ignored below: exception=False (a silent timeout) is gevent's documented form; types-gevent omits it.
        deadline = gevent.Timeout(seconds, False)  # type: ignore[arg-type]
        self._waiting[greenlet] = (time.monotonic(), deadline)
        try:
            with deadline:
                yield
        finally:
            self._waiting.pop(greenlet, None)

    def handle_request(self, listener_name, req, sock, addr):
        current = gevent.getcurrent()
        self._kept_alive.add(current)
        self._serving[current] = req
        try:
            if not self._read_body(req, sock):
                write_nonblock(
                    sock, encode_problem_response(_BODY_TOO_SLOW, self._new_request_id(), language_of(req))
                )
                raise StopIteration()  # gunicorn closes the connection
            return super().handle_request(listener_name, req, sock, addr)
        finally:
            del self._serving[current]

    def _read_body(self, req, sock) -> bool:
        """Read the body into memory before the app runs; False: not in time."""
        reader = req.body.reader
        if isinstance(reader, LengthReader):
            if reader.length == 0:
                return True
            if reader.length > MAX_BODY_BYTES:
                # The app answers 413 from Content-Length alone; the unread
                # body makes the connection unusable for another request.
                req.must_close = True
                return True
        if req._expected_100_continue:
            # gunicorn would send this when the app starts; the body is read before.
            sock.sendall(CONTINUE)
            req._expected_100_continue = False
        body = None
        with gevent.Timeout(self._read_timeout, False):  # type: ignore[arg-type]  # (see _waiting_for_head)
            body = req.body.read(MAX_BODY_BYTES + 1)
        if body is None:
            return False
        if len(body) > MAX_BODY_BYTES:
            req.must_close = True  # the rest of a chunked body is left unread
        req.body = io.BytesIO(body)
        return True

    @staticmethod
    def _new_request_id() -> str:
        """An id for a request refused before the app saw it (what it sent is not trusted), for its log line too."""
        request_id = new_request_id()
        current_request_id.set(request_id)
        return request_id

    def handle_error(self, req, client, addr, exc):
        problem = problem_for_error(exc)
        request_id = self._new_request_id()
        peer = addr[0] if addr else ""
        if problem.status >= 500:
            self.log.exception("Error handling request from ip=%s", peer)
        else:
            # The kind of error, never its text: that quotes the request.
            self.log.warning("Invalid request from ip=%s: %s (%s)", peer, problem.detail, type(exc).__name__)
        try:
            write_nonblock(client, encode_problem_response(problem, request_id, language_of(req)))
        except OSError:
            self.log.debug("Failed to send error message.")

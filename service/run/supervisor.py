"""Run child processes, restart the ones that die, stop them in order.

`patchwork-service` is the parent of everything it starts. Each child is
described by a `ChildSpec`; the list's order is the start order and its
reverse the stop order (so the store starts first and stops last, after
everything that uses it). Adding a kind of child is adding a spec.

- A child that dies is restarted after a delay that doubles with each short
  run in a row (`RestartPolicy`), up to `max_delay`, and goes back to the
  first delay once a run lasted `stable_after` seconds.
- An essential child (the store, the web) that keeps dying right after its
  start (a configuration error, a port taken) makes the supervisor stop
  everything and exit 1 instead of looping forever. Any other child (bot
  workers, timekeepers) never does: the service goes on without it, which
  is better than no service (issue 36: a crash-looping bot worker took
  person-against-person play down). It is restarted every `max_delay` at
  worst, and reported: an error line when it starts crash-looping (and a
  line when a run lasts again), and the `Report` hooks (the runner's record
  metrics).
- A child that fails its first start (exits, or is not ready in time) stops
  everything at once: nothing has worked yet, so there is nothing to keep.
- SIGTERM or SIGINT stops the children in reverse order, each with SIGTERM,
  then SIGKILL after its `stop_timeout`; then the supervisor exits 0.
  The signals a spec lists in `forward` (SIGHUP for gunicorn: reload) are
  passed on.
- Each child runs in a session of its own, so a Ctrl-C in the terminal reaches
  only the supervisor, which then stops the children in order; what is left of
  a child's process group when it exits (gunicorn workers of a killed arbiter)
  is killed before the child is started again. On Linux a child also gets
  SIGTERM if the supervisor itself dies (even by kill -9), so nothing outlives it.
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

log = logging.getLogger("patchwork.supervisor")

_STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


@dataclass(frozen=True)
class RestartPolicy:
    first_delay: float = 0.5  # seconds before the first restart
    max_delay: float = 30.0  # the doubling stops here
    stable_after: float = 10.0  # a run this long resets the delay and the count of short runs
    # This many short runs in a row: an essential child stops everything (exit 1),
    # another is reported as crash-looping.
    give_up_after: int = 5

    def delay(self, short_runs: int) -> float:
        """Seconds before the restart after `short_runs` short runs in a row (at least 1)."""
        # The exponent is capped: a child that crashed for days must not overflow the float.
        return min(self.max_delay, self.first_delay * 2 ** min(max(0, short_runs - 1), 64))


@dataclass(frozen=True)
class ChildSpec:
    name: str
    argv: Sequence[str]
    env: Mapping[str, str] | None = None  # None: the supervisor's environment
    output: Path | None = None  # appended to this file; None: the supervisor's stdout and stderr
    ready: Callable[[], bool] | None = None  # polled after each start until true
    ready_timeout: float = 30.0
    stop_timeout: float = 10.0  # after SIGTERM, before SIGKILL
    forward: tuple[signal.Signals, ...] = ()
    restart: RestartPolicy = field(default_factory=RestartPolicy)
    after_exit: Callable[[], None] | None = None  # called once the child has exited and been reaped
    # False: its crash loop never stops the service (see the module's docstring).
    essential: bool = True
    # What reports and metrics call it: children of one kind (bot workers) share it.
    kind: str = ""


class Report:
    """What the supervisor tells about its children beyond its log; these do nothing (the runner's record metrics)."""

    def exited(self, spec: ChildSpec) -> None:
        """The child exited without being asked to."""

    def crash_looping(self, spec: ChildSpec, looping: bool) -> None:
        """The (non-essential) child began crash-looping (True), or ran `stable_after` seconds again (False)."""


class _Stopping(Exception):
    """SIGTERM or SIGINT arrived while the supervisor was waiting for a child."""


class _Child:
    """One spec's process across its restarts."""

    def __init__(self, spec: ChildSpec):
        self.spec = spec
        self.process: subprocess.Popen[bytes] | None = None
        self.started_at = 0.0
        self.short_runs = 0  # runs in a row shorter than stable_after
        self.restart_at: float | None = None
        self.crash_looping = False  # reported so, until a run lasts stable_after

    def start(self) -> subprocess.Popen[bytes]:
        """Start the process; it is also self.process until the next start."""
        # The child keeps its own copy of the descriptor: ours closes on leaving.
        with contextlib.ExitStack() as stack:
            output = (
                stack.enter_context(open(self.spec.output, "ab")) if self.spec.output is not None else None
            )
            self.process = subprocess.Popen(
                list(self.spec.argv),
                env=None if self.spec.env is None else dict(self.spec.env),
                stdin=subprocess.DEVNULL,
                stdout=output,
                stderr=subprocess.STDOUT if output is not None else None,
                start_new_session=True,
                preexec_fn=_die_with_parent(os.getpid()),
            )
        self.started_at = time.monotonic()
        self.restart_at = None
        log.info("started %s (pid %d)", self.spec.name, self.process.pid)
        return self.process

    def sweep(self) -> None:
        """Kill what is left of the exited child's process group (orphaned workers)."""
        if self.process is not None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass  # nothing left

    def exited(self) -> None:
        """Clean up after the exited child: what is left of its group, then its spec's after_exit."""
        self.sweep()
        if self.spec.after_exit is not None:
            try:
                self.spec.after_exit()
            except Exception:  # tidying up must not take the supervisor down
                log.exception("after the exit of %s", self.spec.name)

    def output_tail(self, lines: int = 20) -> str:
        if self.spec.output is None:
            return ""
        try:
            text = self.spec.output.read_text(errors="replace")
        except OSError:
            return ""
        return "; its output ends:\n" + "\n".join(text.splitlines()[-lines:])


def _die_with_parent(parent: int) -> Callable[[], None] | None:
    """A preexec_fn asking Linux to send the child SIGTERM when the supervisor dies."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)  # loaded here: the forked child only calls it

    def arrange() -> None:
        libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
        if os.getppid() != parent:  # the supervisor died before the request took effect
            os._exit(1)

    return arrange


def _describe(returncode: int) -> str:
    if returncode < 0:
        return f"signal {signal.Signals(-returncode).name}"
    return f"status {returncode}"


class Supervisor:
    """Starts the children in order, keeps them running, stops them in reverse order."""

    def __init__(self, specs: Sequence[ChildSpec], report: Report | None = None):
        names = [spec.name for spec in specs]
        if len(set(names)) != len(names):
            raise ValueError(f"child names must differ: {names}")
        self.children = [_Child(spec) for spec in specs]
        self.report = report if report is not None else Report()
        self._wakeup_r, self._wakeup_w = os.pipe()
        for fd in (self._wakeup_r, self._wakeup_w):
            os.set_blocking(fd, False)
        self._pending: list[int] = []

    def run(self) -> int:
        """Supervise until told to stop (0) or until a child cannot be kept running (1)."""
        handled = [*_STOP_SIGNALS, signal.SIGCHLD, *{s for c in self.children for s in c.spec.forward}]
        previous_handlers = {sig: signal.signal(sig, lambda *_: None) for sig in handled}
        previous_wakeup = signal.set_wakeup_fd(self._wakeup_w)
        try:
            try:
                for child in self.children:
                    if not self._start(child, first=True):
                        return self._stop_all(1)
                while True:
                    # Looked at before waiting: a child that died while another was
                    # starting woke a wait that has already passed.
                    for child in self.children:
                        if not self._keep_running(child):
                            return self._stop_all(1)
                    self._wait_for_event()
                    self._handle_signals()
            except _Stopping:
                return self._stop_all(0)
        finally:
            signal.set_wakeup_fd(previous_wakeup)
            for sig, handler in previous_handlers.items():
                signal.signal(sig, handler)
            os.close(self._wakeup_r)
            os.close(self._wakeup_w)

    # -- events ---------------------------------------------------------

    def _wait_for_event(self, timeout: float | None = None) -> None:
        """Sleep until a signal arrives, the next restart is due, or `timeout` passes."""
        due = [c.restart_at for c in self.children if c.restart_at is not None]
        # A crash-looping child that now runs is reported well once it ran stable_after.
        due += [
            c.started_at + c.spec.restart.stable_after
            for c in self.children
            if c.crash_looping and c.process is not None
        ]
        if due:
            until_due = max(0.0, min(due) - time.monotonic())
            timeout = until_due if timeout is None else min(timeout, until_due)
        readable, _, _ = select.select([self._wakeup_r], [], [], timeout)
        if readable:
            try:
                self._pending.extend(os.read(self._wakeup_r, 256))
            except BlockingIOError:
                pass

    def _handle_signals(self) -> None:
        """Raise _Stopping on SIGTERM/SIGINT; pass on forwarded signals (SIGCHLD only wakes us)."""
        pending, self._pending = self._pending, []
        for number in pending:
            if number in _STOP_SIGNALS:
                log.info("received %s: stopping", signal.Signals(number).name)
                raise _Stopping
            for child in self.children:
                if (
                    number in child.spec.forward
                    and child.process is not None
                    and child.process.poll() is None
                ):
                    log.info("passing %s on to %s", signal.Signals(number).name, child.spec.name)
                    child.process.send_signal(number)

    # -- one child ------------------------------------------------------

    def _start(self, child: _Child, first: bool) -> bool:
        """Start the child and wait until it is ready; False when it could not be."""
        process = child.start()
        if child.spec.ready is None:
            return True
        deadline = time.monotonic() + child.spec.ready_timeout
        while not child.spec.ready():
            returncode = process.poll()
            if returncode is not None:
                problem = f"{child.spec.name} exited with {_describe(returncode)} before it was ready"
                break
            if time.monotonic() > deadline:
                problem = f"{child.spec.name} was not ready within {child.spec.ready_timeout:g} s"
                self._stop(child)
                break
            self._wait_for_event(timeout=0.05)
            self._handle_signals()
        else:
            return True
        if first:
            log.error("%s%s", problem, child.output_tail())
            return False
        log.warning("%s", problem)
        return self._schedule_restart(child)

    def _keep_running(self, child: _Child) -> bool:
        """Notice an exit and schedule the restart; start a restart that is due. False: give up."""
        if child.process is not None:
            returncode = child.process.poll()
            if returncode is None:
                self._note_lasting(child)
                return True
            self.report.exited(child.spec)
            log.warning(
                "%s (pid %d) exited with %s after %.1f s",
                child.spec.name,
                child.process.pid,
                _describe(returncode),
                time.monotonic() - child.started_at,
            )
            return self._schedule_restart(child)
        if child.restart_at is not None and time.monotonic() >= child.restart_at:
            return self._start(child, first=False)
        return True

    def _schedule_restart(self, child: _Child) -> bool:
        policy = child.spec.restart
        self._note_lasting(child)
        child.exited()
        if time.monotonic() - child.started_at >= policy.stable_after:
            child.short_runs = 0
        else:
            child.short_runs += 1
        child.process = None
        if child.short_runs >= policy.give_up_after:
            if child.spec.essential:
                log.error(
                    "%s exited %d times in a row within %g s of its start: giving up%s",
                    child.spec.name,
                    child.short_runs,
                    policy.stable_after,
                    child.output_tail(),
                )
                return False
            if not child.crash_looping:
                child.crash_looping = True
                self.report.crash_looping(child.spec, True)
                log.error(
                    "%s is crash-looping: it exited %d times in a row within %g s of its start; "
                    "restarting it every %g s at most, the service goes on without it%s",
                    child.spec.name,
                    child.short_runs,
                    policy.stable_after,
                    policy.max_delay,
                    child.output_tail(),
                )
        delay = policy.delay(child.short_runs)
        child.restart_at = time.monotonic() + delay
        log.info("restarting %s in %g s", child.spec.name, delay)
        return True

    def _note_lasting(self, child: _Child) -> None:
        """A crash-looping child whose run has lasted stable_after is reported well again."""
        if child.crash_looping and time.monotonic() - child.started_at >= child.spec.restart.stable_after:
            child.crash_looping = False
            self.report.crash_looping(child.spec, False)
            log.info(
                "%s has run %g s: no longer crash-looping", child.spec.name, child.spec.restart.stable_after
            )

    # -- stopping -------------------------------------------------------

    def _stop_all(self, code: int) -> int:
        for child in reversed(self.children):
            self._stop(child)
        log.info("stopped everything")
        return code

    def _stop(self, child: _Child) -> None:
        """SIGTERM, wait up to stop_timeout, SIGKILL its whole group; then reap it."""
        process = child.process
        child.restart_at = None
        if process is None:
            return
        if process.poll() is None:
            log.info("stopping %s (pid %d)", child.spec.name, process.pid)
            process.terminate()
            try:
                process.wait(child.spec.stop_timeout)
            except subprocess.TimeoutExpired:
                log.warning(
                    "%s did not stop within %g s: killing it", child.spec.name, child.spec.stop_timeout
                )
                child.sweep()
                process.wait()
        log.info("%s stopped (%s)", child.spec.name, _describe(process.returncode))
        child.exited()
        child.process = None

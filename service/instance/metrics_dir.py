"""The directory where every process of one instance writes its metrics (prometheus_client's multiprocess mode).

An instance is one `patchwork-service`, or one gunicorn started alone (the
Procfile's `web:`). Its gunicorn workers and the bot workers it starts each
write their counters, histograms and gauges to files of their own in one
directory (PROMETHEUS_MULTIPROC_DIR), which `GET /metrics` adds up. The
directory is a fresh private temporary one per instance, removed when the
instance exits: two instances on one host never share one, and a new one
starts from zero. An instance killed without its exit (kill -9, the OOM
killer) cannot remove its own: the next instance on the host does
(`sweep_abandoned`).

prometheus_client chooses its multiprocess mode when it is first imported,
from the environment: the directory must be in PROMETHEUS_MULTIPROC_DIR
before any process that records metrics imports it. So `patchwork-service`
makes it before starting anything and hands it down through the
environment; gunicorn's settings module (service/run/gunicorn_conf.py) makes
one of its own only when none was handed down. This module imports
prometheus_client only in the functions that fold files, never at import.

Files do not pile up as processes come and go: when a process has exited,
`retire` folds its counters and histograms into one accumulated file per
type (`counter_retired.db`, `histogram_retired.db`: the totals stay
monotonic) and deletes its files, its gauges of the `live*` modes with them
(what prometheus_client's mark_process_dead does). gunicorn's arbiter does
it in its `child_exit` hook, the supervisor when a bot worker or gunicorn
exits. Folding takes an exclusive lock on the directory and a scrape a shared
one, so a scrape never sees a dead process's counts twice or not at all.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator, MutableMapping
from pathlib import Path

ENV = "PROMETHEUS_MULTIPROC_DIR"
# The pid of the process that made the directory (and removes it at exit):
# its children inherit the variable but never remove what is not theirs.
OWNER_ENV = "PATCHWORK_METRICS_DIR_OWNER"
_PREFIX = "patchwork-metrics-"
_LOCK_NAME = "fold.lock"
# Holds the pid of the process that made the directory.
_OWNER_NAME = "owner"
# A directory is abandoned only once nothing has changed in it for this long
# (besides its owner and every process with files in it being gone): the
# processes of an instance whose owner was killed may still be winding down.
QUIET_SECONDS = 60.0
# The accumulated file of each type: a name prometheus_client reads like any
# process's file (it takes the type from what comes before the first "_").
RETIRED = "retired"
_FOLDED_TYPES = ("counter", "histogram")


def instance_dir(environ: MutableMapping[str, str] = os.environ) -> Path:
    """The instance's directory: the one `environ` names, or a fresh private one made now and put there."""
    given = environ.get(ENV)
    if given:
        return Path(given)
    sweep_abandoned()
    path = Path(tempfile.mkdtemp(prefix=_PREFIX))
    (path / _OWNER_NAME).write_text(str(os.getpid()))
    environ[ENV] = str(path)
    environ[OWNER_ENV] = str(os.getpid())
    return path


def check_in_time() -> None:
    """Fail loudly if prometheus_client was imported before the directory was set: it would not use it."""
    values = sys.modules.get("prometheus_client.values")
    if values is not None and not getattr(values.ValueClass, "_multiprocess", False):
        raise RuntimeError(
            f"prometheus_client was imported before {ENV} was set: metrics would stay in each process"
        )


def remove_if_owned(environ: MutableMapping[str, str] = os.environ) -> None:
    """Remove the instance's directory if this very process made it (children share the environment)."""
    given = environ.get(ENV)
    if given and environ.get(OWNER_ENV) == str(os.getpid()):
        shutil.rmtree(given, ignore_errors=True)


def sweep_abandoned(parent: Path | None = None, *, quiet_seconds: float = QUIET_SECONDS) -> list[Path]:
    """Remove the directories that instances killed without their exit (kill -9, OOM) left behind.

    Each instance removes its own directory when it exits, and one that is
    killed cannot: each new instance removes, in `parent` (the temporary
    directory), those whose owner and every process with files in them have
    exited and that have been left untouched for `quiet_seconds`. A
    directory without an owner file (being made, or left by an older
    release) is left alone. Returns the directories removed.
    """
    removed = []
    for path in Path(parent or tempfile.gettempdir()).glob(f"{_PREFIX}*"):
        try:
            if _abandoned(path, quiet_seconds):
                shutil.rmtree(path)
                removed.append(path)
        except (OSError, ValueError):
            continue  # another user's, or gone meanwhile: not this instance's to judge
    return removed


def _abandoned(path: Path, quiet_seconds: float) -> bool:
    if time.time() - path.stat().st_mtime < quiet_seconds:
        return False
    owner = int((path / _OWNER_NAME).read_text())
    pids = {owner} | {pid for child in path.iterdir() if (pid := _pid_of(child.name)) is not None}
    return not any(_running(pid) for pid in pids)


@contextlib.contextmanager
def _locked(directory: Path, how: int) -> Iterator[None]:
    with open(directory / _LOCK_NAME, "a+b") as lock:
        fcntl.flock(lock, how)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def reading(directory: Path) -> contextlib.AbstractContextManager[None]:
    """Hold while collecting: no process's files are folded meanwhile."""
    return _locked(directory, fcntl.LOCK_SH)


def _pid_of(name: str) -> int | None:
    """The pid a metrics file belongs to (`counter_123.db`, `gauge_livesum_123.db`); None for others."""
    if not name.endswith(".db"):
        return None
    tail = name[: -len(".db")].rpartition("_")[2]
    return int(tail) if tail.isdigit() else None


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process: not ours to fold
    return True


def retire(directory: Path, pid: int) -> None:
    """Fold the files of process `pid`, which has exited, into the accumulated ones, and delete them."""
    with _locked(directory, fcntl.LOCK_EX):
        _retire(directory, pid)


def retire_dead(directory: Path) -> list[int]:
    """Retire every process that has files in `directory` and runs no more; the pids retired."""
    with _locked(directory, fcntl.LOCK_EX):
        dead = sorted(
            {pid for path in directory.iterdir() if (pid := _pid_of(path.name)) is not None} - {os.getpid()}
        )
        dead = [pid for pid in dead if not _running(pid)]
        for pid in dead:
            _retire(directory, pid)
    return dead


def _retire(directory: Path, pid: int) -> None:
    from prometheus_client.mmap_dict import MmapedDict

    for kind in _FOLDED_TYPES:
        source = directory / f"{kind}_{pid}.db"
        if not source.exists():
            continue
        totals = MmapedDict(str(directory / f"{kind}_{RETIRED}.db"))
        try:
            for key, value, _timestamp, _position in MmapedDict.read_all_values_from_file(str(source)):
                held, _ = totals.read_value(key)
                totals.write_value(key, held + value, 0.0)
        finally:
            totals.close()
    for path in directory.glob(f"*_{pid}.db"):
        path.unlink(missing_ok=True)

"""Metrics directories that killed instances leave behind are removed by the next instance, and only those.

Real directories and real processes (a dead pid is one of a child that has
exited); see service/instance/metrics_dir.py.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from service.instance import metrics_dir


def dead_pid() -> int:
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


def instance_left(parent: Path, owner: int, writers: list[int], *, age: float = 3600.0) -> Path:
    """A directory as an instance leaves it: its owner's pid, files of its processes, untouched for `age` s."""
    path = Path(tempfile.mkdtemp(prefix="patchwork-metrics-", dir=parent))
    (path / "owner").write_text(str(owner))
    for pid in writers:
        (path / f"counter_{pid}.db").write_bytes(b"\0" * 16)
    (path / "counter_retired.db").write_bytes(b"\0" * 16)
    then = time.time() - age
    os.utime(path, (then, then))
    return path


def test_a_killed_instances_directory_is_removed(tmp_path):
    gone = dead_pid()
    left = instance_left(tmp_path, gone, [gone, dead_pid()])

    assert metrics_dir.sweep_abandoned(tmp_path) == [left]
    assert not left.exists()


@pytest.mark.parametrize(
    "owner_alive, writer_alive", [(True, False), (False, True)], ids=["owner-running", "a-writer-running"]
)
def test_a_directory_a_running_process_owns_or_writes_stays(tmp_path, owner_alive, writer_alive):
    owner = os.getpid() if owner_alive else dead_pid()
    writer = os.getpid() if writer_alive else dead_pid()
    kept = instance_left(tmp_path, owner, [writer])

    assert metrics_dir.sweep_abandoned(tmp_path) == []
    assert (kept / f"counter_{writer}.db").exists()


def test_a_directory_touched_within_the_quiet_time_stays(tmp_path):
    # Its processes may still be winding down (the owner was killed, its children were told to stop).
    recent = instance_left(tmp_path, dead_pid(), [dead_pid()], age=5.0)

    assert metrics_dir.sweep_abandoned(tmp_path) == []
    assert metrics_dir.sweep_abandoned(tmp_path, quiet_seconds=1.0) == [recent]


def test_a_directory_without_an_owner_file_stays(tmp_path):
    # Being made right now, or left by a release that wrote no owner file.
    unowned = instance_left(tmp_path, dead_pid(), [dead_pid()])
    (unowned / "owner").unlink()
    other = tmp_path / "not-ours"
    other.mkdir()

    assert metrics_dir.sweep_abandoned(tmp_path) == []
    assert unowned.exists() and other.exists()


def test_a_new_instance_sweeps_then_makes_its_own(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    left = instance_left(tmp_path, dead_pid(), [dead_pid()])
    environ: dict[str, str] = {}

    made = metrics_dir.instance_dir(environ)

    assert not left.exists()
    assert made.parent == tmp_path
    assert (made / "owner").read_text() == str(os.getpid())
    assert environ[metrics_dir.ENV] == str(made)
    # Its own directory, owned by a running process, survives the next instance's sweep.
    assert metrics_dir.sweep_abandoned(tmp_path, quiet_seconds=0) == []

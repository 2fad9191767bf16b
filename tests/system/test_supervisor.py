"""The supervisor with small real child processes: give up on an essential child that keeps dying, keep
restarting any other (reported, with capped backoff), stop in reverse order."""

from __future__ import annotations

import logging
import sys

from service.run.supervisor import ChildSpec, Report, RestartPolicy, Supervisor


def _python(code: str) -> list[str]:
    return [sys.executable, "-c", code]


def test_a_child_that_keeps_dying_at_start_makes_it_give_up_with_status_1(tmp_path):
    runs = tmp_path / "runs"
    crashing = ChildSpec(
        name="crashing",
        argv=_python(f"open({str(runs)!r}, 'a').write('run\\n'); raise SystemExit(3)"),
        restart=RestartPolicy(first_delay=0.01, give_up_after=3),
    )
    assert Supervisor([crashing]).run() == 1
    assert runs.read_text().count("run") == 3


def test_sigterm_stops_children_in_reverse_order_and_exits_0(tmp_path):
    stops = tmp_path / "stops"

    def stopping_child(name: str) -> ChildSpec:
        # Notes its stop, so the order can be read back.
        code = (
            "import signal, sys, time\n"
            "def stop(*_):\n"
            f"    open({str(stops)!r}, 'a').write({name!r} + '\\n'); sys.exit(0)\n"
            "signal.signal(signal.SIGTERM, stop)\n"
            f"open({str(tmp_path / name)!r}, 'w').close()\n"
            "time.sleep(60)\n"
        )
        # Ready once its handler is in place: the next child starts only then.
        return ChildSpec(name=name, argv=_python(code), ready=(tmp_path / name).exists)

    # The last child, started once the others are ready, asks its parent to stop.
    trigger = ChildSpec(
        name="trigger",
        argv=_python("import os, signal, time; os.kill(os.getppid(), signal.SIGTERM); time.sleep(60)"),
    )
    assert Supervisor([stopping_child("store"), stopping_child("web"), trigger]).run() == 0
    assert stops.read_text().split() == ["web", "store"]


def test_a_child_that_is_not_essential_is_restarted_however_often_it_dies_and_reported(tmp_path, caplog):
    runs = tmp_path / "runs"
    crashing = ChildSpec(
        name="crashing",
        argv=_python(f"open({str(runs)!r}, 'a').write('run\\n'); raise SystemExit(3)"),
        restart=RestartPolicy(first_delay=0.01, max_delay=0.04, give_up_after=3),
        essential=False,
        kind="crashing-kind",
    )
    # Asks its parent to stop once the crashing child has run twice as often as an essential one could.
    code = (
        "import os, pathlib, signal, time\n"
        f"runs = pathlib.Path({str(runs)!r})\n"
        "while not runs.exists() or runs.read_text().count('run') < 6:\n"
        "    time.sleep(0.01)\n"
        "os.kill(os.getppid(), signal.SIGTERM)\n"
        "time.sleep(60)\n"
    )
    web = ChildSpec(name="web", argv=_python(code))
    reported: list[tuple[str, str, bool | None]] = []

    class Recorded(Report):
        def exited(self, spec: ChildSpec) -> None:
            reported.append(("exited", spec.kind, None))

        def crash_looping(self, spec: ChildSpec, looping: bool) -> None:
            reported.append(("crash_looping", spec.kind, looping))

    with caplog.at_level(logging.INFO, logger="patchwork.supervisor"):
        assert Supervisor([crashing, web], Recorded()).run() == 0
    assert runs.read_text().count("run") >= 6
    # The sixth run may be stopped rather than exit. Reported crash-looping once, at its third short
    # run in a row (where an essential child stops everything).
    exits = [entry for entry in reported if entry[0] == "exited"]
    assert len(exits) >= 5 and {kind for _, kind, _ in exits} == {"crashing-kind"}
    assert [entry for entry in reported if entry[0] == "crash_looping"] == [
        ("crash_looping", "crashing-kind", True)
    ]
    assert reported.index(("crash_looping", "crashing-kind", True)) == 3  # after the third exit
    errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert errors == [
        "crashing is crash-looping: it exited 3 times in a row within 10 s of its start; "
        "restarting it every 0.04 s at most, the service goes on without it"
    ]
    # The delays double from first_delay and stop at max_delay.
    delays = [
        r.getMessage().removeprefix("restarting crashing in ").removesuffix(" s")
        for r in caplog.records
        if r.getMessage().startswith("restarting crashing in ")
    ]
    assert delays[:5] == ["0.01", "0.02", "0.04", "0.04", "0.04"]


def test_restart_delays_double_up_to_the_cap_even_after_days_of_crashes():
    policy = RestartPolicy(first_delay=0.5, max_delay=30.0)
    assert [policy.delay(n) for n in range(1, 9)] == [0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0]
    assert policy.delay(100_000) == 30.0  # 2 ** 99_999 would overflow a float


def test_a_child_that_dies_while_another_starts_is_restarted(tmp_path):
    runs = tmp_path / "runs"
    quick = ChildSpec(
        name="quick",
        argv=_python(f"open({str(runs)!r}, 'a').write('run\\n'); raise SystemExit(3)"),
        restart=RestartPolicy(first_delay=0.01),
        essential=False,
    )
    # Ready only well after `quick` has died: its death is signalled while the supervisor waits for this one.
    ready_file = tmp_path / "slow-ready"
    slow = ChildSpec(
        name="slow",
        argv=_python(f"import time; time.sleep(0.5); open({str(ready_file)!r}, 'w').close(); time.sleep(60)"),
        ready=ready_file.exists,
    )
    # Stops the supervisor once `quick` has run again, or after 10 s (the old supervisor never restarted it).
    code = (
        "import os, pathlib, signal, time\n"
        f"runs = pathlib.Path({str(runs)!r})\n"
        "until = time.monotonic() + 10\n"
        "while runs.read_text().count('run') < 2 and time.monotonic() < until:\n"
        "    time.sleep(0.01)\n"
        "os.kill(os.getppid(), signal.SIGTERM)\n"
        "time.sleep(60)\n"
    )
    trigger = ChildSpec(name="trigger", argv=_python(code))
    assert Supervisor([quick, slow, trigger]).run() == 0
    assert runs.read_text().count("run") >= 2

"""The supervisor with small real child processes: give up on a child that keeps dying, stop in reverse order."""

from __future__ import annotations

import sys

from service.run.supervisor import ChildSpec, RestartPolicy, Supervisor


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

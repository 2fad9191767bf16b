"""Real nginx running deploy/nginx.conf, in front of instances of the test's choosing.

The file is used as operators get it, with only what must differ here
swapped: the upstream servers, the listen address, the paths of the pid
file, logs and temporary files (in the test's directory), one worker
process. Every swap must match exactly once, so a change to the file that
would make the test run something else fails here instead.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path

from tests.support.redis_servers import Throwaway, free_port

TEMPLATE = Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf"
_UPSTREAM = re.compile(r"^(\s*server )web\d+:\d+( .*;)$", re.MULTILINE)


def _swap(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, f"deploy/nginx.conf should hold {old!r} once"
    return text.replace(old, new)


def render_config(upstreams: Sequence[str], port: int, work_dir: Path) -> str:
    """deploy/nginx.conf for nginx on 127.0.0.1:`port` in front of `upstreams` ("host:port")."""
    text = TEMPLATE.read_text()
    servers = _UPSTREAM.findall(text)
    assert len(servers) == len(upstreams), f"deploy/nginx.conf names {len(servers)} upstream servers"
    replacements = iter(upstreams)
    text = _UPSTREAM.sub(lambda m: f"{m.group(1)}{next(replacements)}{m.group(2)}", text)
    text = _swap(text, "listen 80;", f"listen 127.0.0.1:{port};")
    text = _swap(text, "worker_processes auto;", "worker_processes 1;")
    text = _swap(text, "pid /run/nginx.pid;", f"pid {work_dir}/nginx.pid;")
    text = _swap(text, "error_log /dev/stderr warn;", f"error_log {work_dir}/error.log info;")
    text = _swap(text, "access_log /dev/stdout patchwork;", f"access_log {work_dir}/access.log patchwork;")
    temp_paths = "".join(
        f"    {kind}_temp_path {work_dir}/{kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    text = _swap(text, "http {\n", "http {\n" + temp_paths)
    if os.geteuid() == 0:
        # Workers would run as nobody, who cannot enter the test's private directory.
        text = "user root;\n" + text
    return text


class ThrowawayNginx(Throwaway):
    """nginx (Debian's package) with deploy/nginx.conf on a free loopback port."""

    def __init__(self, work_dir: Path, upstreams: Sequence[str]):
        self.work_dir = Path(work_dir)
        self.work_dir.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.conf = self.work_dir / "nginx.conf"
        self.conf.write_text(render_config(upstreams, self.port, self.work_dir))
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        binary = shutil.which("nginx") or "/usr/sbin/nginx"
        command = [binary, "-p", str(self.work_dir), "-c", str(self.conf), "-g", "daemon off;"]
        checked = subprocess.run([*command[:-2], "-t"], capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr
        with open(self.work_dir / "nginx.out", "ab") as out:
            self.process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + 10
        while True:
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=1):
                    return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            assert self.process.poll() is None, (self.work_dir / "nginx.out").read_text()
            assert time.monotonic() < deadline, "nginx did not answer within 10 s"
            time.sleep(0.05)

    def access_log(self) -> str:
        return (self.work_dir / "access.log").read_text()

    def close(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()  # nginx's fast shutdown; its workers go with it
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, 9)
            self.process.wait(10)

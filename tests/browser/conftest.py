"""Fixtures of the browser tests: the live service (with a bot worker for /play), a page on another origin, a headless Chromium.

Every test here is marked `browser`. When a test fails, a screenshot of the
page and the service's log go to test-artifacts/<test name>/.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests

from tests.support.bot_workers import BotWorkerProcess, wait_for
from tests.support.live_service import LiveService
from tests.support.redis_servers import ThrowawayRedis

from .browser import console_errors, remove_profile, start_chromium
from .servers import CountedService, PageServer

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.browser)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call):
    report = yield
    if report.when == "call":
        item.stash[_OUTCOME] = report
    return report


_OUTCOME = pytest.StashKey()


@pytest.fixture
def service(tmp_path: Path) -> Iterator[CountedService]:
    with (
        ThrowawayRedis(tmp_path / "redis") as redis,
        CountedService(redis.url, tmp_path / "service.log") as live,
    ):
        yield live


@pytest.fixture(scope="session")
def pages() -> Iterator[PageServer]:
    with PageServer() as server:
        yield server


@pytest.fixture
def chromium(request: pytest.FixtureRequest, tmp_path: Path, service: CountedService, pages: PageServer):
    """A headless Chromium on the test page; on failure, a screenshot and the logs are kept."""
    with _chromium_kept_on_failure(request, tmp_path, service.log) as driver:
        driver.get(f"{pages.url}/index.html")
        yield driver


@dataclass
class PlayBackend:
    """The service (gunicorn) with one bot worker, on a Redis of their own."""

    redis: ThrowawayRedis
    web: LiveService
    worker: BotWorkerProcess
    log_dir: Path

    @property
    def redis_url(self) -> str:
        return self.redis.url

    def log(self) -> str:
        return f"{self.web.log()}\n--- bot worker ---\n{self.worker.log()}"


@pytest.fixture
def play_backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[PlayBackend]:
    """What /play needs: the web and a bot worker (bots think 20 ms), the worker seen alive.

    Parametrized indirectly, its parameter is more of the web's environment (a rate limit, say).
    """
    web_env = {"BOT_THINK_MS": "20", **getattr(request, "param", {})}
    with (
        ThrowawayRedis(tmp_path / "redis") as redis,
        LiveService(redis.url, tmp_path / "web.log", env=web_env) as web,
        BotWorkerProcess(redis.url, tmp_path / "worker.log", think_ms="20") as worker,
    ):
        backend = PlayBackend(redis, web, worker, tmp_path)
        wait_for(lambda: _bots_available(web.url), 20, f"no bot worker seen alive:\n{backend.log()}")
        yield backend


def _bots_available(base: str) -> bool:
    # A game with a bot seat is refused (503 bots_unavailable) until a worker has beaten its heart.
    answer = requests.post(
        f"{base}/games", json={"players": [{"name": "a"}, {"name": "b", "bot": "random"}]}, timeout=5
    )
    return answer.status_code == 201


@pytest.fixture
def browser(request: pytest.FixtureRequest, tmp_path: Path, play_backend: PlayBackend):
    """A headless Chromium with no page open yet; on failure, a screenshot of each tab and the logs are kept."""
    with _chromium_kept_on_failure(request, tmp_path, play_backend.log) as driver:
        yield driver


@pytest.fixture
def second_browser(request: pytest.FixtureRequest, tmp_path: Path, play_backend: PlayBackend):
    """Another headless Chromium, a profile of its own (its own localStorage: another player)."""
    with _chromium_kept_on_failure(request, tmp_path, play_backend.log, name="second") as driver:
        yield driver


@contextmanager
def _chromium_kept_on_failure(request: pytest.FixtureRequest, tmp_path: Path, service_log, name: str = ""):
    profile = tmp_path / f"profile{'-' + name if name else ''}"
    driver = start_chromium(profile)
    driver.set_script_timeout(60)
    try:
        yield driver
    finally:
        report = request.node.stash.get(_OUTCOME, None)
        if report is not None and report.failed:
            keep = ARTIFACTS / re.sub(r"[^\w.-]+", "_", request.node.nodeid) / name
            keep.mkdir(parents=True, exist_ok=True)
            for number, handle in enumerate(driver.window_handles):
                driver.switch_to.window(handle)
                driver.save_screenshot(str(keep / f"page-{number}.png"))
            (keep / "console.txt").write_text("\n".join(console_errors(driver)))
            (keep / "service.log").write_text(service_log())
        driver.quit()
        remove_profile(profile)


def call(driver, function: str, *args):
    """Run `function(...args)` of client.js in the page and return what its promise resolves to."""
    script = (
        f"const done = arguments[arguments.length - 1];"
        f"{function}(...Array.from(arguments).slice(0, -1))"
        f".then(done, (e) => done({{error: String(e)}}));"
    )
    result = driver.execute_async_script(script, *args)
    if isinstance(result, dict) and "error" in result:
        raise AssertionError(f"{function} failed in the page: {result['error']}")
    return result

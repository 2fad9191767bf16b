"""Fixtures of the browser tests: the live service, a page on another origin, a headless Chromium.

Every test here is marked `browser`. When a test fails, a screenshot of the
page and the service's log go to test-artifacts/<test name>/.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.redis_servers import ThrowawayRedis

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
    with ThrowawayRedis(tmp_path / "redis") as redis, \
            CountedService(redis.url, tmp_path / "service.log") as live:
        yield live


@pytest.fixture(scope="session")
def pages() -> Iterator[PageServer]:
    with PageServer() as server:
        yield server


@pytest.fixture
def chromium(request: pytest.FixtureRequest, tmp_path: Path, service: CountedService, pages: PageServer):
    """A headless Chromium on the test page; on failure, a screenshot and the logs are kept."""
    driver = start_chromium(tmp_path / "profile")
    driver.set_script_timeout(60)
    try:
        driver.get(f"{pages.url}/index.html")
        yield driver
    finally:
        report = request.node.stash.get(_OUTCOME, None)
        if report is not None and report.failed:
            keep = ARTIFACTS / re.sub(r"[^\w.-]+", "_", request.node.nodeid)
            keep.mkdir(parents=True, exist_ok=True)
            driver.save_screenshot(str(keep / "page.png"))
            (keep / "console.txt").write_text("\n".join(console_errors(driver)))
            (keep / "service.log").write_text(service.log())
        driver.quit()
        remove_profile(tmp_path / "profile")


def call(driver, function: str, *args):
    """Run `function(...args)` of client.js in the page and return what its promise resolves to."""
    script = (f"const done = arguments[arguments.length - 1];"
              f"{function}(...Array.from(arguments).slice(0, -1))"
              f".then(done, (e) => done({{error: String(e)}}));")
    result = driver.execute_async_script(script, *args)
    if isinstance(result, dict) and "error" in result:
        raise AssertionError(f"{function} failed in the page: {result['error']}")
    return result

"""A headless Chromium driven through Selenium: Debian's chromium and its chromedriver, nothing downloaded.

Selenium rather than Playwright: Debian ships chromedriver built from the
same source as its chromium, so driver and browser are always the same
version, and the pip package is pure Python. Playwright's client pins one
Chromium build of its own and supports others only loosely.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"

# What the suite needs installed, and how .ci/run and ./dev install it.
MISSING_MESSAGE = (
    "the browser tests need Debian's chromium and chromium-driver "
    "(apt-get install chromium chromium-driver): {} not found"
)

FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-extensions",
)


def require_chromium() -> None:
    """Fail (never skip) naming what is missing."""
    missing = [path for path in (CHROMIUM, CHROMEDRIVER) if not os.access(path, os.X_OK)]
    if missing:
        raise RuntimeError(MISSING_MESSAGE.format(", ".join(missing)))


def start_chromium(profile_dir: Path) -> webdriver.Chrome:
    """A headless Chromium with a fresh profile, logging the console for the tests to read."""
    require_chromium()
    # Selenium Manager runs only when the driver or browser path is missing:
    # both are given. SE_OFFLINE forbids it any download should it ever run.
    os.environ["SE_OFFLINE"] = "true"
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile_dir}")
    # The performance log holds the DevTools network events: what the page requested, and where.
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    service = Service(executable_path=CHROMEDRIVER, log_output=str(profile_dir.parent / "chromedriver.log"))
    return webdriver.Chrome(options=options, service=service)


def console_errors(driver: webdriver.Chrome) -> list[str]:
    """The console's SEVERE entries since the last call (network errors included)."""
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def requested_urls(driver: webdriver.Chrome) -> list[str]:
    """The URLs of the requests the browser sent since the last call (from the performance log)."""
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls


def remove_profile(profile_dir: Path) -> None:
    shutil.rmtree(profile_dir, ignore_errors=True)

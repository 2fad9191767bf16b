"""/play's vacation control (issue 41) on the player's own profile: the bank shown, a vacation started and
ended early, the days given back; never on another player's profile.

A real headless Chromium against the service under gunicorn (tests/browser/conftest.py).
"""

from __future__ import annotations

import requests
from selenium.webdriver.common.by import By

from .browser import console_errors
from .player import become_player, wait


def _status(driver) -> str:
    return driver.find_element(By.ID, "vacation-status").text


def test_a_player_pauses_its_correspondence_clocks_from_its_profile_and_ends_early(browser, play_backend):
    base = play_backend.web.url
    ann = become_player(browser, base, "Ann")
    browser.get(f"{base}/play#player={ann['id']}")
    wait(browser, lambda d: "14 vacation days left" in _status(d), "no vacation bank on Ann's own profile")
    days = browser.find_element(By.ID, "vacation-days")
    days.clear()
    days.send_keys("3")
    browser.find_element(By.ID, "vacation-start").click()
    wait(browser, lambda d: "paused until" in _status(d), "the vacation was not started")
    me = requests.get(f"{base}/players/me", headers={"Authorization": f"Bearer {ann['token']}"}, timeout=10)
    assert me.json()["vacation_days_left"] == 11 and me.json()["vacation_until"] is not None
    browser.find_element(By.ID, "vacation-end").click()
    # Ended at once: the day begun is used, the two not begun come back.
    wait(browser, lambda d: "13 vacation days left" in _status(d), "the vacation was not ended")
    # Another player's profile has no vacation control.
    other = requests.post(f"{base}/players", json={"name": "Bob"}, timeout=10).json()["player"]
    browser.get(f"{base}/play#player={other['id']}")
    wait(browser, lambda d: d.find_element(By.ID, "profile-name").text == "Bob", "no profile of Bob")
    assert not browser.find_element(By.ID, "vacation").is_displayed()
    assert console_errors(browser) == []

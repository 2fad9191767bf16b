"""/play's webhooks (issue 41) on the player's own profile: one added (its secret shown once, a sentence on
verifying signatures beside it), listed, its delivery log opened, deleted; never on another player's profile.

A real headless Chromium against the service under gunicorn (tests/browser/conftest.py), which takes a
loopback http URL only with WEBHOOK_ALLOW_PRIVATE and WEBHOOK_ALLOW_HTTP (a test setting).
"""

from __future__ import annotations

import pytest
import requests
from selenium.webdriver.common.by import By

from .browser import console_errors
from .player import become_player, wait

LOOPBACK = {"WEBHOOK_ALLOW_PRIVATE": "1", "WEBHOOK_ALLOW_HTTP": "1"}
URL = "http://127.0.0.1:9/patchwork"


def _hooks(base: str, token: str) -> list[dict]:
    answer = requests.get(
        f"{base}/players/me/webhooks", headers={"Authorization": f"Bearer {token}"}, timeout=10
    )
    return answer.json()["webhooks"]


@pytest.mark.parametrize("play_backend", [LOOPBACK], indirect=True)
def test_a_player_adds_a_webhook_sees_its_secret_once_and_deletes_it(browser, play_backend):
    base = play_backend.web.url
    ann = become_player(browser, base, "Ann")
    browser.get(f"{base}/play#player={ann['id']}")
    wait(
        browser,
        lambda d: d.find_element(By.ID, "webhooks").is_displayed(),
        "no webhooks on Ann's own profile",
    )
    wait(browser, lambda d: "No webhooks yet." in d.find_element(By.ID, "webhook-list").text, "no empty list")
    assert not browser.find_element(By.ID, "webhook-secret-box").is_displayed()
    browser.find_element(By.ID, "webhook-url").send_keys(URL)
    browser.find_element(By.CSS_SELECTOR, "input[name=webhook-event][value=challenge]").click()
    browser.find_element(By.ID, "webhook-add").click()
    wait(browser, lambda d: d.find_element(By.ID, "webhook-secret-box").is_displayed(), "no secret shown")
    secret = browser.find_element(By.ID, "webhook-secret").get_attribute("value")
    assert secret.startswith("whsec_")
    assert "Standard Webhooks" in browser.find_element(By.ID, "webhook-secret-box").text
    wait(browser, lambda d: URL in d.find_element(By.ID, "webhook-list").text, "the webhook is not listed")
    listed = browser.find_element(By.CSS_SELECTOR, "#webhook-list li.webhook").text
    assert "your_turn, challenge" in listed and "working" in listed
    [hook] = _hooks(base, ann["token"])
    assert hook["url"] == URL and hook["events"] == ["your_turn", "challenge"]
    # Its delivery log, empty: nothing has happened to Ann yet.
    browser.find_element(By.CSS_SELECTOR, "#webhook-list li.webhook button:not(.webhook-delete)").click()
    wait(
        browser,
        lambda d: "No deliveries yet." in d.find_element(By.ID, "webhook-list").text,
        "no delivery log",
    )
    # The secret is shown once: the profile opened again has none.
    browser.refresh()
    wait(
        browser,
        lambda d: URL in d.find_element(By.ID, "webhook-list").text,
        "the webhook is not listed again",
    )
    assert not browser.find_element(By.ID, "webhook-secret-box").is_displayed()
    assert secret not in browser.page_source
    browser.find_element(By.CSS_SELECTOR, "#webhook-list .webhook-delete").click()
    wait(browser, lambda d: "No webhooks yet." in d.find_element(By.ID, "webhook-list").text, "not deleted")
    assert _hooks(base, ann["token"]) == []
    # Another player's profile has no webhooks section.
    other = requests.post(f"{base}/players", json={"name": "Bob"}, timeout=10).json()["player"]
    browser.get(f"{base}/play#player={other['id']}")
    wait(browser, lambda d: d.find_element(By.ID, "profile-name").text == "Bob", "no profile of Bob")
    assert not browser.find_element(By.ID, "webhooks").is_displayed()
    assert console_errors(browser) == []

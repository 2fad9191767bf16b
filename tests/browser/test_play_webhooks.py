"""/play's webhooks (issue 41) on the player's own profile: one added (its secret shown once, a sentence on
verifying signatures beside it), listed, its delivery log opened, deleted; never on another player's profile.
And a real delivery (a sender process, a receiver on loopback) shown in the page's delivery log.

A real headless Chromium against the service under gunicorn (tests/browser/conftest.py), which takes a
loopback http URL only with WEBHOOK_ALLOW_PRIVATE and WEBHOOK_ALLOW_HTTP (a test setting).
"""

from __future__ import annotations

import pytest
import requests
from selenium.webdriver.common.by import By

from tests.support.bot_workers import BotWorkerProcess
from tests.support.webhook_receiver import WebhookReceiver

from .browser import console_errors
from .player import become_player, wait

LOOPBACK = {"WEBHOOK_ALLOW_PRIVATE": "1", "WEBHOOK_ALLOW_HTTP": "1"}
URL = "http://127.0.0.1:9/patchwork"


class _WebhookSender(BotWorkerProcess):
    """One `patchwork-webhooks` (the deliveries' sender) on the backend's Redis."""

    module = "service.botworker.webhooks_main"


def _hooks(base: str, token: str) -> list[dict]:
    answer = requests.get(
        f"{base}/players/me/webhooks", headers={"Authorization": f"Bearer {token}"}, timeout=10
    )
    return answer.json()["webhooks"]


def _deliveries(base: str, token: str, hook_id: str) -> list[dict]:
    answer = requests.get(
        f"{base}/players/me/webhooks/{hook_id}/deliveries",
        headers={"Authorization": f"Bearer {token}"},
        timeout=10,
    )
    return answer.json()["deliveries"]


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


@pytest.mark.parametrize("play_backend", [LOOPBACK], indirect=True)
def test_a_webhooks_delivery_log_shows_an_event_delivered(browser, play_backend, tmp_path):
    base = play_backend.web.url
    with (
        WebhookReceiver() as receiver,
        _WebhookSender(play_backend.redis_url, tmp_path / "sender.log", env=LOOPBACK) as sender,
    ):
        ann = become_player(browser, base, "Ann")
        browser.get(f"{base}/play#player={ann['id']}")
        wait(browser, lambda d: d.find_element(By.ID, "webhooks").is_displayed(), "no webhooks section")
        browser.find_element(By.ID, "webhook-url").send_keys(receiver.url("/ok"))
        browser.find_element(By.CSS_SELECTOR, "input[name=webhook-event][value=challenge]").click()
        browser.find_element(By.ID, "webhook-add").click()
        wait(
            browser,
            lambda d: "/ok" in d.find_element(By.ID, "webhook-list").text,
            "the webhook is not listed",
        )
        bob = requests.post(f"{base}/players", json={"name": "Bob"}, timeout=10).json()
        challenged = requests.post(
            f"{base}/challenges",
            json={"to": ann["id"], "clock": None, "rated": False, "seat": None},
            headers={"Authorization": f"Bearer {bob['token']}"},
            timeout=10,
        )
        assert challenged.status_code == 201, challenged.text
        try:
            receiver.wait_for(1, "/ok", timeout=20)
        except AssertionError as missed:
            raise AssertionError(f"no delivery:\n{sender.log()}") from missed
        # The receiver may answer before the sender has logged the attempt: the log is read once it has.
        [hook] = _hooks(base, ann["token"])
        wait(browser, lambda _d: _deliveries(base, ann["token"], hook["id"]), "the attempt was not logged")
        browser.find_element(By.CSS_SELECTOR, "#webhook-list li.webhook button:not(.webhook-delete)").click()
        wait(
            browser,
            lambda d: "challenge, attempt 1" in d.find_element(By.CSS_SELECTOR, ".webhook-log").text,
            "the delivery is not in the log",
        )
        logged = browser.find_element(By.CSS_SELECTOR, ".webhook-log").text
        assert "delivered · 200" in logged, logged

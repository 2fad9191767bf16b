"""Driving the /play page as a person would: click a patch, a highlighted cell, Advance.

The page tells the tests where it is through data attributes on <body>:
`data-version` (the version shown), `data-state` (`mine`, `theirs` or
`over`) and `data-phase`.
"""

from __future__ import annotations

import random

import requests
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

# Generous: a busy 2-core machine, a bot's move within its think_ms plus a second.
STEP_BOUND = 30
# Where /play keeps the player token (service/static/play/lobby.js).
TOKEN_KEY = "patchwork.playerToken"


def body(driver, name: str) -> str | None:
    return driver.find_element(By.TAG_NAME, "body").get_attribute(f"data-{name}")


def version(driver) -> int:
    return int(body(driver, "version") or 0)


def wait(driver, condition, message: str, bound: float = STEP_BOUND):
    return WebDriverWait(
        driver, bound, poll_frequency=0.05, ignored_exceptions=(StaleElementReferenceException,)
    ).until(lambda d: condition(d), message)


def wait_for_version(driver, at_least: int) -> int:
    wait(driver, lambda d: version(d) >= at_least, f"the page never showed version {at_least}")
    return version(driver)


def wait_for_turn_or_end(driver) -> str:
    return wait(
        driver,
        lambda d: body(d, "state") in ("mine", "over") and body(d, "state"),
        "neither our turn nor the end came",
    )


def play_one_move(driver, rng: random.Random) -> None:
    """Make one move through the page's controls: leather if asked, else a legal patch or Advance."""
    before = version(driver)
    if body(driver, "phase") == "place_leather":
        cells = wait(
            driver,
            lambda d: d.find_elements(By.CSS_SELECTOR, ".quilt .cell.legal"),
            "no legal cell offered for the leather patch",
        )
        rng.choice(cells).click()
    else:
        placed = False
        buyable = driver.find_elements(By.CSS_SELECTOR, "#market .patch.buyable")
        if buyable and rng.random() < 0.8:
            rng.choice(buyable).click()
            wait(
                driver,
                lambda d: (
                    d.find_elements(By.CSS_SELECTOR, ".quilt .cell.anchor")
                    or d.find_element(By.ID, "message").is_displayed()
                ),
                "choosing a patch showed nothing",
            )
            anchors = driver.find_elements(By.CSS_SELECTOR, ".quilt .cell.anchor")
            if anchors:
                if rng.random() < 0.3:
                    driver.find_element(By.ID, "rotate").click()
                    anchors = driver.find_elements(By.CSS_SELECTOR, ".quilt .cell.anchor")
                anchor = rng.choice(anchors)
                # Hovering previews the cells the patch would cover.
                ActionChains(driver).move_to_element(anchor).perform()
                assert driver.find_elements(By.CSS_SELECTOR, ".quilt .cell.preview"), "no preview on hover"
                anchor.click()
                placed = True
        if not placed:
            driver.find_element(By.ID, "advance").click()
    wait_for_version(driver, before + 1)


def setup_form(driver):
    """The opponent list, once the page has filled it from GET /bots and shown the form."""
    wait(driver, lambda d: d.find_element(By.ID, "setup").is_displayed(), "no setup form")
    return driver.find_element(By.ID, "opponent")


def become_player(driver, base: str, name: str) -> dict:
    """Become a player in the lobby of `driver`'s /play, as a person does: the player's profile and token."""
    driver.get(f"{base}/play#lobby")
    wait(driver, lambda d: d.find_element(By.ID, "become").is_displayed(), "no lobby")
    field = driver.find_element(By.ID, "player-name")
    field.clear()
    field.send_keys(name)
    driver.find_element(By.CSS_SELECTOR, "#become button").click()
    wait(driver, lambda d: f"You play as {name}" in d.find_element(By.ID, "who").text, "not a player")
    token = driver.execute_script(f"return localStorage.getItem('{TOKEN_KEY}')")
    me = requests.get(f"{base}/players/me", headers={"Authorization": f"Bearer {token}"}, timeout=10)
    assert me.status_code == 200, me.text
    return {**me.json(), "token": token}

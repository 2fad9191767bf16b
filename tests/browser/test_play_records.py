"""/play's game records (issue 41, docs/records.md): a game's Export link names its record, and the new-game
page's Import form brings a record back, from a file or pasted text: the imported game opens; a broken record
is answered with the problem and each fault's line and token.

A real headless Chromium against the service under gunicorn (tests/browser/conftest.py).
"""

from __future__ import annotations

import requests
from selenium.webdriver.common.by import By

from .browser import console_errors
from .player import wait


def _resigned_game(base: str) -> str:
    """A finished game: a few moves, then the seat in turn resigns."""
    created = requests.post(f"{base}/games", json={}, timeout=10).json()
    game_id, tokens = created["game"]["id"], created["tokens"]
    game = created["game"]
    for _ in range(3):
        moved = requests.post(
            f"{base}/games/{game_id}/moves",
            json={"action": "advance"},
            headers={"Authorization": f"Bearer {tokens[game['turn']]}"},
            timeout=10,
        )
        assert moved.status_code == 201, moved.text
        game = moved.json()
    resigned = requests.post(
        f"{base}/games/{game_id}/resign",
        headers={"Authorization": f"Bearer {tokens[game['turn']]}"},
        timeout=10,
    )
    assert resigned.status_code == 201, resigned.text
    return game_id


def _shown_game_id(driver) -> str:
    return driver.current_url.split("#game=")[1].split("&")[0] if "#game=" in driver.current_url else ""


def test_a_finished_game_is_exported_and_imported_back_through_the_page(browser, play_backend, tmp_path):
    base = play_backend.web.url
    game_id = _resigned_game(base)
    browser.get(f"{base}/play#game={game_id}")
    wait(
        browser,
        lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-state") == "over",
        "not over",
    )
    export = browser.find_element(By.ID, "export")
    assert export.is_displayed() and export.get_attribute("download") == f"patchwork-{game_id}.pwr"
    # What the link downloads (a browser saves it; the test reads the same URL).
    record = requests.get(export.get_attribute("href"), timeout=10)
    assert record.status_code == 200 and record.headers["Content-Type"].startswith("text/x-patchwork-record")
    saved = tmp_path / "game.pwr"
    saved.write_bytes(record.content)

    # A broken record first, pasted: the problem, its line and token.
    browser.get(f"{base}/play")
    wait(
        browser,
        lambda d: d.find_element(By.ID, "import").is_displayed(),
        "no import form on the new-game page",
    )
    broken = record.text.replace("2. 1 .", "2. 1 levitate", 1)
    assert broken != record.text
    browser.find_element(By.ID, "import-text").send_keys(broken)
    browser.find_element(By.ID, "import-send").click()
    wait(browser, lambda d: d.find_element(By.ID, "import-problem").is_displayed(), "no problem shown")
    errors = browser.find_element(By.ID, "import-errors").text
    assert "Line " in errors and "levitate" in errors, errors
    assert browser.find_element(By.ID, "import-detail").text
    # The refused import is the console's only error (Chromium logs every 4xx answer).
    [refused] = console_errors(browser)
    assert "/games/import" in refused and "422" in refused

    # Then the file: the imported game opens, finished, with the same scores.
    browser.find_element(By.ID, "import-text").clear()
    browser.find_element(By.ID, "import-file").send_keys(str(saved))
    browser.find_element(By.ID, "import-send").click()
    wait(browser, lambda d: _shown_game_id(d) not in ("", game_id), "the imported game was not opened")
    imported_id = _shown_game_id(browser)
    wait(
        browser,
        lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-state") == "over",
        "not shown",
    )
    original = requests.get(f"{base}/games/{game_id}", timeout=10).json()
    imported = requests.get(f"{base}/games/{imported_id}", timeout=10).json()
    assert imported["result"]["scores"] == original["result"]["scores"]
    assert imported["result"]["winner"] == original["result"]["winner"]
    assert not browser.find_element(By.ID, "import").is_displayed()
    assert console_errors(browser) == []

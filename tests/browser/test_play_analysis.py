"""/play's post-game analysis in a real headless Chromium: asked for, computed by a real bot worker, shown and stepped through.

The finished games are played over HTTP first (random legal moves, as the
system tests' clients pick them); the page is then opened on one, as a
player coming back to it would. The service runs under gunicorn on real
Redis with a real bot worker (tests/browser/conftest.py), which computes
the analysis with the bots' 20 ms budget.
"""

from __future__ import annotations

import pytest
import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

from .browser import console_errors
from .finished_games import ANALYSIS_BOUND, finished_game
from .player import body, wait


def errors_but(driver, *expected: str) -> list[str]:
    """The console's errors, less the refusals the test expects ("analysis - ... 404": a network error each)."""
    return [
        error
        for error in console_errors(driver)
        if not any(
            f"/analysis - Failed to load resource: the server responded with a status of {status}" in error
            for status in expected
        )
    ]


def open_finished(driver, base: str, game_id: str, token: str) -> None:
    driver.get(f"{base}/play#game={game_id}&token={token}")
    wait(driver, lambda d: body(d, "state") == "over", "the page did not show the game over")


def shown_moves(driver) -> list:
    return driver.find_elements(By.CSS_SELECTOR, "#analysis-moves button")


def drawn(driver, kind: str) -> set[tuple[int, int]]:
    """The cells drawn as `kind` (played, best) over the analysis board's quilt."""
    return {
        (int(rect.get_attribute("data-row")), int(rect.get_attribute("data-col")))
        for rect in driver.find_elements(By.CSS_SELECTOR, f"#analysis-board .{kind} rect")
    }


def cells(move: dict) -> set[tuple[int, int]]:
    if move["action"] == "buy":
        return {(r, c) for r, c in move["placement"]["cells"]}
    if move["action"] == "place_leather":
        return {(move["row"], move["col"])}
    return set()


def board_at(driver, number: int) -> None:
    wait(
        driver,
        lambda d: d.find_element(By.ID, "analysis-board").get_attribute("data-number") == str(number),
        f"the analysis board never showed move {number}",
    )


def test_a_finished_games_analysis_is_asked_for_shown_and_stepped_through(browser, play_backend):
    base = play_backend.web.url
    game_id, tokens = finished_game(base, seed=21)
    open_finished(browser, base, game_id, tokens[0])
    analyse = wait(browser, lambda d: d.find_element(By.ID, "analyse"), "no analysis button")
    wait(browser, lambda d: analyse.is_displayed(), "the analysis was not offered for the finished game")
    analyse.click()
    analysis = wait(
        browser,
        lambda d: (
            (resp := requests.get(f"{base}/games/{game_id}/analysis", timeout=10)).status_code == 200
            and resp.json()
        ),
        "the bot worker never stored the analysis",
        bound=ANALYSIS_BOUND,
    )
    moves = analysis["moves"]
    history = requests.get(f"{base}/games/{game_id}/moves", timeout=10).json()["moves"]
    assert moves and len(moves) == len(history)
    # The page found it by itself (its 202s polled), and lists every move with its class and loss.
    wait(browser, lambda d: len(shown_moves(d)) == len(moves), "the page never listed the analysed moves")
    listed = shown_moves(browser)
    assert [b.get_attribute("data-class") for b in listed] == [m["class"] or "" for m in moves]
    for button, move in zip(listed, moves, strict=True):
        assert f"{move['loss']:.1f} points lost" in button.text
        if move["class"]:
            assert button.find_element(By.CSS_SELECTOR, ".move-class").text == move["class"]
    summary = [item.text for item in browser.find_elements(By.CSS_SELECTOR, "#analysis-summary li")]
    assert [line.split(":")[0] for line in summary] == ["Ann", "Bob"]
    for line, seat in zip(summary, analysis["summary"], strict=True):
        assert f"accuracy {seat['accuracy']}%" in line and f"blunders: {seat['blunders']}" in line
    # The chart is the service's, inline, in the page's language.
    title = wait(
        browser,
        lambda d: d.find_elements(By.CSS_SELECTOR, "#analysis-chart svg > title"),
        "no chart shown",
    )[0]
    assert title.get_attribute("textContent") == "Analysis: Ann against Bob"

    # Stepping: the arrow keys go to a move whose best alternative was another buy, drawn beside the move played.
    board_at(browser, moves[0]["number"])
    target = next(
        i
        for i, m in enumerate(moves)
        if m["best"]["action"] == "buy" and cells(m["best"]) != cells(history[i])
    )
    page = browser.find_element(By.TAG_NAME, "body")
    for _ in range(target):
        page.send_keys(Keys.ARROW_RIGHT)
    move = moves[target]
    board_at(browser, move["number"])
    assert drawn(browser, "played") == cells(history[target])
    assert drawn(browser, "best") == cells(move["best"])
    assert browser.find_element(By.CSS_SELECTOR, "#analysis-moves button.current").get_attribute(
        "data-number"
    ) == str(move["number"])
    caption = browser.find_element(By.ID, "analysis-caption").text
    assert f"Best: buy patch {move['best']['patch_id']} (outlined)." in caption
    # Back a move with the key, forward again with the button; a click on a listed move goes to it.
    if target > 0:
        page.send_keys(Keys.ARROW_LEFT)
        board_at(browser, moves[target - 1]["number"])
        browser.find_element(By.ID, "analysis-next").click()
        board_at(browser, move["number"])
    listed = shown_moves(browser)
    listed[-1].click()
    board_at(browser, moves[-1]["number"])
    # The chart marks the move shown, and only it.
    assert [
        line.get_attribute("data-number")
        for line in browser.find_elements(By.CSS_SELECTOR, "#analysis-chart line.move-at.current")
    ] == [str(moves[-1]["number"])]
    assert browser.find_element(By.ID, "analysis-next").get_attribute("disabled") == "true"

    # Another language: the list, the captions and the chart follow.
    Select(browser.find_element(By.ID, "language")).select_by_value("fr")
    wait(
        browser,
        lambda d: (
            d.find_element(By.CSS_SELECTOR, "#analysis-chart svg > title").get_attribute("textContent")
            == "Analyse : Ann contre Bob"
        ),
        "the chart was not drawn again in French",
    )
    assert browser.find_element(By.CSS_SELECTOR, "#analysis h2").text == "Analyse"
    assert "points perdus" in shown_moves(browser)[0].text
    # No refusal: the page offers the analysis without a read that would be a 404 before it is asked for.
    assert console_errors(browser) == []


@pytest.mark.parametrize(
    "play_backend", [{"RATE_LIMIT_ANALYSES": "1", "RATE_LIMIT_BOT_WINDOW_SECONDS": "4"}], indirect=True
)
def test_a_refused_request_says_why_and_when_to_ask_again(browser, play_backend):
    base = play_backend.web.url
    other, _ = finished_game(base, seed=22, moves=0)
    game_id, tokens = finished_game(base, seed=23, moves=4)
    # This client's one request of the window goes to another game: the page's is refused.
    assert requests.post(f"{base}/games/{other}/analysis", timeout=10).status_code == 202
    open_finished(browser, base, game_id, tokens[0])
    analyse = browser.find_element(By.ID, "analyse")
    wait(browser, lambda d: analyse.is_displayed(), "the analysis was not offered")
    analyse.click()
    status = browser.find_element(By.ID, "analysis-status")
    wait(browser, lambda d: "You can ask again in" in status.text, "the refusal was not shown")
    assert "More than 1 analysis request in 4 s" in status.text
    assert analyse.get_attribute("disabled") == "true"
    # Once the window has passed the button works again, and the analysis comes.
    wait(browser, lambda d: analyse.is_enabled(), "the button never came back", bound=15)
    analyse.click()
    wait(
        browser,
        lambda d: len(shown_moves(d)) == 4,
        "the analysis asked for again was never shown",
        bound=ANALYSIS_BOUND,
    )
    assert errors_but(browser, "429") == []

"""Play now in a real headless Chromium (issue 36 §2): a person clicks Play now, is told who
will take the seat and when (a countdown), gets the stated bot after the wait, and the game
starts at the table page; two browsers asking for the same rules are seated together."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By

from spitemalice.server import quickplay
from tests.server.test_browser import browsers, status, wait  # noqa: F401
from tests.serving import LiveServer

WAIT = 3.0


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    with LiveServer(tmp_path / "records", bot_delay=0.1) as server:
        quickplay.configure(server.hub, wait=WAIT)
        yield server


def play_now(driver: Any, live: LiveServer, name: str) -> None:
    driver.get(live.url + "/")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#qp-ruleset option"))
    driver.find_element(By.ID, "qp-ruleset").send_keys("blackwood-frey")
    driver.find_element(By.ID, "qp-name").send_keys(name)
    driver.find_element(By.ID, "qp-go").click()


def qp_status(driver: Any) -> str:
    return str(driver.find_element(By.ID, "qp-status").text)


def test_a_person_clicks_play_now_waits_gets_a_bot_and_the_game_starts(
        live: LiveServer, browsers: Any) -> None:  # noqa: F811
    driver = browsers()
    play_now(driver, live, "Ann")
    said = wait(driver, lambda d: "if nobody comes" in (s := qp_status(d)) and s)
    assert f"a {quickplay.BOT} bot takes the seat in" in said
    assert "another player" in said
    first = int(driver.find_element(By.ID, "qp-countdown").text)
    assert 1 <= first <= WAIT
    wait(driver, lambda d: int(d.find_element(By.ID, "qp-countdown").text or 99) < first)
    assert driver.find_element(By.ID, "qp-cancel").is_displayed()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#picture .board-table"),
         WAIT + 15)
    assert "/table/" in driver.current_url
    table = next(iter(live.hub.tables.values()))
    assert [s.player for s in table.entry.seats] == ["human", quickplay.BOT]
    wait(driver, lambda d: table.clients[0])
    # the game is on: this person's turn, or the bot's, which it plays
    wait(driver, lambda d: status(d).startswith("Your turn") or table.session.history, 20)
    assert not table.session.is_over


def test_two_browsers_asking_for_the_same_rules_are_seated_together_and_cancel_works(
        live: LiveServer, browsers: Any) -> None:  # noqa: F811
    ann, bob = browsers("ann"), browsers("bob")
    play_now(ann, live, "Ann")
    wait(ann, lambda d: "if nobody comes" in qp_status(d))
    ann.find_element(By.ID, "qp-cancel").click()
    wait(ann, lambda d: "left the queue" in qp_status(d))
    assert not quickplay.desk(live.hub).waiting
    ann.find_element(By.ID, "qp-go").click()
    wait(ann, lambda d: "if nobody comes" in qp_status(d))
    play_now(bob, live, "Bob")
    for driver in (ann, bob):
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#picture .board-table"))
    table = next(iter(live.hub.tables.values()))
    assert [(s.name, s.player) for s in table.entry.seats] == [("Ann", "human"),
                                                                 ("Bob", "human")]
    wait(ann, lambda d: table.clients[0] and table.clients[1])

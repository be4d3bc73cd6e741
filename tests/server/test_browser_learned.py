"""A person plays the ``learned`` bot in a real headless Chromium (issue 39 §4), driven as
tests/server/test_browser.py drives it: the lobby offers ``learned`` among the bots, a table of
blackwood-frey opens with it in seat 1, and the person plays a whole game by clicking only
while the bot answers from its seat's view.  A table the bot was not trained for is refused in
the lobby, naming what it plays, before any table opens.

A screenshot of the table mid-game goes to ``$SPITEMALICE_SCREENSHOTS`` when set (docs/learning.md
shows it from docs/images), else a temporary folder."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("numpy")  # the learned bot needs the rl extra

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from spitemalice.cli import main
from tests.server.test_browser import (  # noqa: F401
    _checked,
    browsers,
    downloaded,
    log_length,
    move_by_clicking,
    ready,
    shots,
    status,
    wait,
)
from tests.serving import DEAL_SEED, LiveServer, deal_again


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("records"), bot_delay=0.05) as server:
        yield server


def _open_table(driver: Any, server: LiveServer, house_rule: str | None = None) -> None:
    """Fill the lobby's form for blackwood-frey (pay-off piles of 5), Ann against the learned
    bot, with ``house_rule`` ticked if given, and press Open."""
    driver.get(server.url + "/")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#ruleset option"))
    Select(driver.find_element(By.ID, "ruleset")).select_by_value("blackwood-frey")
    if house_rule is not None:
        driver.find_element(By.CSS_SELECTOR, f"input[value='{house_rule}']").click()
    driver.find_element(By.ID, "params").send_keys("payoff_size=5")
    name = driver.find_element(By.NAME, "name-0")
    name.clear()
    name.send_keys("Ann")
    Select(driver.find_element(By.NAME, "player-1")).select_by_value("learned")
    driver.find_element(By.ID, "open").click()


def test_a_person_plays_a_whole_game_against_the_learned_bot_in_the_browser(
        live: LiveServer, browsers: Any) -> None:  # noqa: F811
    driver = browsers()
    before = set(live.hub.tables)
    _open_table(driver, live)
    offered = [option.get_attribute("value") for option in
               driver.find_elements(By.CSS_SELECTOR, "select[name='player-1'] option")]
    assert "learned" in offered, offered
    wait(driver, lambda d: d.find_element(By.ID, "created").is_displayed())
    (table,) = set(live.hub.tables) - before
    assert live.hub.tables[table].session.kinds[1] == "learned"
    deal_again(live, table, DEAL_SEED)  # the same game on every run
    driver.find_element(By.ID, "sit-0").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#picture .board-table"))
    moves = 0
    while ready(driver).startswith("Your turn"):
        move_by_clicking(driver, shots() / "learned-table.png" if moves == 6 else None)
        moves += 1
    assert status(driver).startswith("Game over") and moves >= 5
    record = live.hub.tables[table].session
    bot_moves = sum(1 for played in record.history if played.seat == 1)
    assert bot_moves >= 5  # the learned bot moved at the table, from its seat's view
    driver.find_element(By.ID, "record").click()
    downloads = driver.downloads
    path = wait(driver, lambda d: downloaded(downloads), 20)
    assert main(["check", str(path)]) == 0
    assert f"{log_length(driver)} move(s)" in _checked(path)


def test_the_lobby_refuses_the_learned_bot_at_a_table_it_was_not_trained_for(
        live: LiveServer, browsers: Any) -> None:  # noqa: F811
    driver = browsers()
    before = set(live.hub.tables)
    _open_table(driver, live, house_rule="mandatory-aces")
    shown = wait(driver, lambda d: status(d))
    assert "create.seats[1].player" in shown and "trained for blackwood-frey" in shown, shown
    assert "mandatory-aces" in shown
    assert set(live.hub.tables) == before  # no table was opened

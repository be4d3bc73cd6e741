"""Spit played live in a real headless Chromium (issue 37 §4), driven as
tests/server/test_browser.py drives it: a person follows the lobby's link to ``/spit`` and
opens a Spit table against a bot with the page's own form; then, at a table dealt from a
fixed seed against a bot with a slow reaction time (4 s), finishes a round by clicking only:
says spit, lays cards on the spit piles, fills an empty stock pile, says spit again when
nobody can move, and slaps a pile when the round is over.  The record the server wrote
passes ``spitemalice check``.

Screenshots of the table at 390x844 (a phone) and 1280x800 go to
``$SPITEMALICE_SCREENSHOTS`` when set, else a temporary folder."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

import spitemalice as sm
from spitemalice.cli import main
from spitemalice.formats.commitment import commit
from spitemalice.server.spit_live import live_tables
from tests.server.test_browser import browsers, shots, status, wait  # noqa: F401
from tests.serving import LiveServer

SEED = 11
"""The deal of the round the person plays (any seed does; this one keeps the run the same)."""

SLOW = {"type": "create", "ruleset": "spit", "reaction_ms": 4000,
        "seats": [{"name": "Ann", "player": "human"}, {"name": "Slow", "player": "greedy"}]}


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("records")) as server:
        yield server


def shot(driver: Any, folder: Path, name: str) -> None:
    """Screenshots of the page at 1280x800 and 390x844 (a phone: the viewport exactly)."""
    for width, height, mobile in ((1280, 800, False), (390, 844, True)):
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
        time.sleep(0.4)
        driver.save_screenshot(str(folder / f"{name}-{width}x{height}.png"))
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def fits_on_screen(driver: Any) -> bool:
    """Whether every pile and the status line lie inside the viewport's width."""
    return bool(driver.execute_script(
        "const w = document.documentElement.clientWidth;"
        "return [...document.querySelectorAll('.pile, #status')]"
        ".every((n) => { const r = n.getBoundingClientRect();"
        " return r.left >= 0 && r.right <= w; });"))


def click_first(driver: Any, selector: str) -> bool:
    """Click the first element ``selector`` finds (``False`` when there is none)."""
    found = driver.find_elements(By.CSS_SELECTOR, selector)
    if not found:
        return False
    found[0].click()
    return True


def act(driver: Any) -> str:
    """One thing a person does at the table, by clicking: say spit, slap, or play a card (a
    card with one move goes at once; else it is picked and a highlighted target is
    clicked: a spit pile, or an empty stock pile to fill).  Returns what was done."""
    if click_first(driver, "#spit:not([hidden])"):
        return "spit"
    if click_first(driver, "#centre .pile.target"):
        return "slap or lay"
    if click_first(driver, "#my-stock .pile.playable:not(.selected)"):
        picked = driver.find_elements(By.CSS_SELECTOR, "#my-stock .pile.selected")
        if picked and not click_first(driver, "#centre .pile.target"):
            click_first(driver, "#my-stock .pile.empty")
        return "card"
    return ""


def test_a_person_finishes_a_round_of_spit_against_a_slow_bot_by_clicking(
        live: LiveServer, browsers: Any) -> None:  # noqa: F811
    folder = shots()
    driver = browsers()
    # From the lobby's link, the page's own form opens a table against a bot and sits the
    # person down.
    driver.get(f"{live.url}/")
    wait(driver, lambda d: d.find_element(By.ID, "spit-link").is_displayed())
    driver.find_element(By.ID, "spit-link").click()
    wait(driver, lambda d: d.find_element(By.ID, "open").is_displayed())
    driver.find_element(By.ID, "name").clear()
    driver.find_element(By.ID, "name").send_keys("Ann")
    Select(driver.find_element(By.ID, "reaction")).select_by_value("4000")
    driver.find_element(By.ID, "deal").click()
    wait(driver, lambda d: "/spit/" in d.current_url and d.find_element(By.ID, "board")
         .is_displayed())
    wait(driver, lambda d: "Say spit" in status(d))
    assert driver.find_element(By.ID, "my-name").text == "Ann"
    opened = driver.current_url.split("/spit/")[1].split("#")[0]
    assert live_tables(live.hub)[opened].reaction_ms == 4000

    # The round itself, at a table dealt from SEED (before anyone sat down).
    with live.client() as lobby:
        created = lobby.ask(SLOW)
    table = live_tables(live.hub)[created["table"]]
    table.state, table.seed = sm.deal(table.rules, SEED), SEED
    table.commitment = commit(table.rules, SEED, None)  # the deal changed: commit anew
    table.write()
    driver.get(f"{live.url}{created['seats'][0]['link']}")
    wait(driver, lambda d: "Say spit" in status(d))
    done: list[str] = []
    deadline = time.monotonic() + 150
    while table.state.round == 0 and table.state.outcome is None:
        assert time.monotonic() < deadline, f"the round did not end: {status(driver)}"
        try:
            did = act(driver)
        except StaleElementReferenceException:  # the page redrew under the click
            continue
        if did:
            done.append(did)
            if len(done) == 8:
                assert fits_on_screen(driver)
                shot(driver, folder, "spit-table")
        time.sleep(0.05)
    assert {"spit", "card"} <= set(done)
    record_path = table.record_path(1)
    record = sm.load_record(record_path)
    seats = {sm.load("spit").simultaneous.parse_move(m).seat for m in record.moves}
    assert seats == {0, 1}  # both played: the person's clicks and the bot's timer
    assert record.seats[0].kind == "human" and record.seats[1].kind == "greedy"
    assert main(["check", str(record_path)]) == 0


def _centre(driver: Any) -> list[str]:
    """The spit piles' cards as drawn (top card and count per pile)."""
    return [str(text) for text in driver.execute_script(
        "return [...document.querySelectorAll('#centre .pile')].map((n) => n.textContent)")]


def test_a_person_watches_a_table_of_bots_through_its_watch_link_and_sees_cards_move(
        live: LiveServer, browsers: Any) -> None:  # noqa: F811
    """Issue 36 §2: a Spit table of bots alone, opened over the protocol, is watched in the
    browser through its watch link (``/spit/ID``): the cards move on the spit piles by
    themselves, the page shows the commitment to the deal, no card can be clicked, and
    nothing face down is drawn (a pile shows its top card or nothing)."""
    with live.client() as lobby:
        created = lobby.ask({"type": "create", "ruleset": "spit", "reaction_ms": 300,
                             "seats": [{"name": "Ada", "player": "greedy"},
                                       {"name": "Bo", "player": "random"}]})
    driver = browsers()
    driver.get(f"{live.url}{created['watch']}")
    wait(driver, lambda d: d.find_element(By.ID, "board").is_displayed())
    wait(driver, lambda d: "watching table" in d.find_element(By.ID, "title").text)
    assert driver.find_element(By.ID, "my-name").text.startswith("Ada")
    assert driver.find_element(By.ID, "their-name").text.startswith("Bo")
    assert not driver.find_element(By.ID, "you").is_displayed()
    wait(driver, lambda d: "SHA-256" in d.find_element(By.ID, "commitment").text)
    wait(driver, lambda d: len(_centre(d)) == 2)
    first = _centre(driver)
    wait(driver, lambda d: _centre(d) != first, timeout=30)  # cards moved by themselves
    assert driver.find_elements(By.CSS_SELECTOR, "#board button.pile") == []
    assert "1 person watches" in driver.find_element(By.ID, "watchers").text
    assert driver.find_element(By.ID, "watch-link").get_attribute("value").endswith(
        created["watch"])
    table = live_tables(live.hub)[created["table"]]
    assert len(table.watchers) == 1 and table.log
    # the turn-based tables' watch page sends a Spit table's spectator to the Spit page
    driver.get(f"{live.url}/watch/{created['table']}")
    wait(driver, lambda d: d.current_url.endswith(created["watch"]))
    wait(driver, lambda d: "watching table" in d.find_element(By.ID, "title").text)


def test_the_spit_page_opens_a_table_of_two_bots_to_watch(
        live: LiveServer, browsers: Any) -> None:  # noqa: F811
    driver = browsers()
    driver.get(f"{live.url}/spit")
    wait(driver, lambda d: d.find_element(By.ID, "open").is_displayed())
    Select(driver.find_element(By.ID, "opponent")).select_by_value("watch")
    Select(driver.find_element(By.ID, "reaction")).select_by_value("500")
    driver.find_element(By.ID, "deal").click()
    wait(driver, lambda d: "/spit/" in d.current_url and "#" not in d.current_url)
    wait(driver, lambda d: "watching table" in d.find_element(By.ID, "title").text)
    opened = driver.current_url.split("/spit/")[1]
    table = live_tables(live.hub)[opened]
    assert table.kinds == ("greedy", "random") and table.reaction_ms == 500
    wait(driver, lambda d: table.log, timeout=30)

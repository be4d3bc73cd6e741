"""Leavers and reactions in a real headless Chromium (issue 36 §2): a person sees the move
clock count down and sends a reaction that a spectator sees; a person who does not move
and a person who leaves are taken over by the heuristic bot, which finishes the game, and
the page, the spectator's page and the record say so.

The clock is shortened (:data:`spitemalice.server.leavers.SECOND`): a clock of 5 s lasts
2.5 s, a grace of 5 s lasts 2.5 s."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By

from spitemalice.formats.records.reading import load_record
from spitemalice.server import leavers
from tests.server.test_browser import browsers, shots, status, wait  # noqa: F401
from tests.serving import LiveServer, create

ANN_AND_BO = {"type": "create", "ruleset": "blackwood-frey", "params": {"payoff_size": 4},
              "seats": [{"name": "Ann", "player": "human"}, {"name": "Bo", "player": "greedy"}]}


@pytest.fixture
def live(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveServer]:
    monkeypatch.setattr(leavers, "SECOND", 0.5)
    with LiveServer(tmp_path / "records", bot_delay=0.05) as server:
        yield server


def text(driver: Any, selector: str) -> str:
    return " ".join(node.text for node in driver.find_elements(By.CSS_SELECTOR, selector))


def spoken(driver: Any) -> str:
    return str(driver.execute_script("return document.getElementById('spoken').textContent"))


def test_a_person_sees_the_clock_reacts_and_runs_out_of_time_and_a_bot_finishes(
        live: LiveServer, browsers: Any) -> None:  # noqa: F811
    created = create(live, {**ANN_AND_BO, "clock": 5})
    ann, spy = browsers("ann"), browsers("spy")
    spy.get(live.url + created["watch"])
    ann.get(live.url + created["seats"][0]["link"])
    wait(ann, lambda d: "Ann has" in d.find_element(By.ID, "clock").text, 30)
    left = int(ann.find_element(By.ID, "clock").get_attribute("data-left") or "0")
    assert 0 < left <= 5
    wait(spy, lambda d: "Move clock" in d.find_element(By.ID, "clock").text, 30)
    ann.find_element(By.CSS_SELECTOR, "#reactions button[data-reaction='nice']").click()
    wait(ann, lambda d: "Ann: Nice move!" in text(d, "#bubbles .bubble"))
    wait(spy, lambda d: "Ann: Nice move!" in text(d, "#bubbles .bubble"))
    assert "Ann: Nice move!" in spoken(spy)  # the live region reads it out
    shot = shots()
    ann.save_screenshot(str(shot / "leavers-clock-reaction.png"))
    # Ann does not move: the clock runs out, the heuristic bot plays her seat to the end
    wait(ann, lambda d: d.find_elements(By.CSS_SELECTOR, "#log li.takeover"), 30)
    said = text(ann, "#log li.takeover")
    assert "Ann ran out of time on the move clock: seat 0 is played by the heuristic bot" in said
    assert "bot: heuristic" in text(ann, "#seats .kind")
    wait(spy, lambda d: "Ann ran out of time" in text(d, "#log li.takeover"), 30)
    wait(ann, lambda d: status(d).startswith("Game over"), 90)
    wait(spy, lambda d: status(d).startswith("Game over"), 30)
    ann.save_screenshot(str(shot / "leavers-taken-over.png"))
    record = load_record(live.hub.store.record_path(created["table"], 1))
    assert record.outcome is not None
    assert [(t.seat, t.why, t.player) for t in record.takeovers] == [
        (0, "out of time", "heuristic")]


def test_a_person_leaves_and_a_bot_finishes_the_game_for_them(
        live: LiveServer, browsers: Any) -> None:  # noqa: F811
    created = create(live, {**ANN_AND_BO, "grace": 5})
    ann, spy = browsers("ann"), browsers("spy")
    spy.get(live.url + created["watch"])
    ann.get(live.url + created["seats"][0]["link"])
    table = created["table"]
    wait(ann, lambda d: live.hub.tables[table].clients[0])
    assert ann.find_element(By.ID, "clock").text == "" or \
        not ann.find_element(By.ID, "clock").is_displayed()  # no move clock at this table
    ann.get("about:blank")  # Ann closes the page
    wait(spy, lambda d: "Ann was away longer than the table's grace" in text(
        d, "#log li.takeover"), 30)
    assert "bot: heuristic (since move" in text(spy, "#seats .kind")
    wait(spy, lambda d: status(d).startswith("Game over"), 90)
    record = load_record(live.hub.store.record_path(table, 1))
    assert record.outcome is not None and [t.why for t in record.takeovers] == ["left"]
    # Ann comes back: her seat shows the bot that played it
    ann.get(live.url + created["seats"][0]["link"])
    wait(ann, lambda d: "you; bot: heuristic" in text(d, "#seats .kind"), 30)

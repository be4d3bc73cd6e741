"""Deals anyone can check (issue 36 §2) in a real headless Chromium: the seat's table page
and the watch page show the commitment to the deal's seed from the deal on (its first 12
hex digits, the whole value on request), never the seed; once the game is over both show
the seed, and the line that recomputes the commitment gives the value shown."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any

import pytest
from selenium.webdriver.common.by import By

from spitemalice.formats.records.reading import load_record
from tests.server.test_browser import browsers, move_by_clicking, ready, wait  # noqa: F401
from tests.serving import LiveServer, create


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("records"), bot_delay=0.02) as server:
        yield server


def deal_text(driver: Any) -> str:
    return str(driver.execute_script(
        "const d = document.getElementById('deal'); return d.hidden ? '' : d.textContent"))


def test_a_seat_and_a_spectator_see_the_commitment_and_at_the_end_the_seed(
        live: LiveServer, browsers: Any) -> None:  # noqa: F811
    created = create(live)
    table = live.hub.tables[created["table"]]
    promised = table.session.commitment
    assert promised is not None
    seat, spectator = browsers("seat"), browsers("spectator")
    seat.get(live.url + created["seats"][0]["link"])
    ready(seat)
    spectator.get(live.url + created["watch"])
    short = f"Deal committed: SHA-256 {promised.sha256[:12]}…"
    for driver in (seat, spectator):
        wait(driver, lambda d: short in deal_text(d))
        summary = driver.find_element(By.CSS_SELECTOR, "#deal summary")
        assert summary.is_displayed() and summary.text == short
        code = driver.find_element(By.CSS_SELECTOR, "#deal code.commitment")
        assert not code.is_displayed()  # the whole value on request
        summary.click()
        assert code.is_displayed() and code.text == promised.sha256
        assert "Seed revealed" not in deal_text(driver)  # (seed 2: too short to look for)
        assert promised.salt not in driver.page_source
    while ready(seat).startswith("Your turn"):
        move_by_clicking(seat)
    record = load_record(live.hub.store.record_path(created["table"], 1))
    assert record.outcome is not None and record.commitment == promised
    for driver in (seat, spectator):
        wait(driver, lambda d: "Seed revealed" in deal_text(d), 60)
        text = deal_text(driver)
        assert f"Seed revealed: {record.seed} " in text and promised.salt in text
        line = driver.find_elements(By.CSS_SELECTOR, "#deal code.commitment")[-1].text
        assert line.startswith("printf '%s' 'spitemalice-deal-v1:") and "sha256sum" in line
        hashed = line.split("'")[3]
        assert hashlib.sha256(hashed.encode("ascii")).hexdigest() == promised.sha256

"""A designer's rule-set file in the lobby of a real headless Chromium (issue 34 §4): pasted
with a mistake, the reader's message with its line and column is shown under the text and no
table opens; corrected, it opens a table whose rule sheet shows its forbid and require
clauses.  Screenshots of the lobby with the file pasted, at a phone's size (390x844) and a
desktop's (1280x800), go to a temporary folder or ``$SPITEMALICE_SCREENSHOTS``.

Chromium is driven as ``tests/server/test_browser.py`` drives it (its fixtures and helpers).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.server.test_browser import (  # skips this module without a Chromium
    browsers,
    shots,
    status,
    wait,
)

pytest.importorskip("simpleeval")

from selenium.webdriver.common.by import By

from tests.serving import LiveServer

__all__ = ["browsers"]  # a fixture of this module's tests

FILE = '''\
# My table's house rules, written from docs/variants.md: one forbid rule, one require rule.
title = "Twos first, keep the low cards"
version = "1.0"
base = "blackwood-frey"

[[rule]]
clause = "TF-1"
text = "A card below 5 may not be discarded while the hand holds a card of 9 or higher."
source = "HOUSE (our kitchen table)"
forbid = "discard"
when = "move.rank < 5 and highest(hand.ranks) >= 9"
reason = "keep-low-cards"
message = "discard a high card first: a card below 5 stays while the hand holds one of 9 or more"
expects = ["stuck-seat"]

[[rule]]
clause = "TF-2"
text = "While a two can be played onto a build pile, only such plays are legal."
source = "HOUSE (our kitchen table)"
require = "move.kind == 'play' and move.rank == 2"
reason = "twos-first"
message = "a two can be played, so it must be played first"
'''
"""The file of the report's designer (one forbid rule, one require rule)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    with LiveServer(tmp_path_factory.mktemp("records"), bot_delay=0.05) as live:
        yield live


def paste(driver: Any, text: str) -> None:
    """Type ``text`` into the lobby's rule-set file box, as a paste fills it."""
    area = driver.find_element(By.ID, "ruleset-file")
    area.clear()
    driver.execute_script("arguments[0].value = arguments[1];"
                          "arguments[0].dispatchEvent(new Event('input'));", area, text)


def file_error(driver: Any) -> str:
    return str(driver.execute_script(
        "const e = document.getElementById('file-error'); return e.hidden ? '' : e.textContent"))


def test_a_pasted_file_with_a_forbid_and_a_require_rule_opens_a_table_showing_its_clauses(
        server: LiveServer, browsers: Any, tmp_path: Path) -> None:
    folder = shots()
    driver = browsers()
    driver.get(server.url + "/")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#ruleset option"))
    driver.find_element(By.CSS_SELECTOR, "#file-box summary").click()
    # an upload fills the text box with the file's text
    uploaded = tmp_path / "twos-first.toml"
    uploaded.write_text(FILE, encoding="utf-8")
    driver.find_element(By.ID, "ruleset-upload").send_keys(str(uploaded))
    wait(driver, lambda d: d.find_element(By.ID, "ruleset-file").get_attribute("value") == FILE)
    assert driver.find_element(By.ID, "file-size").text == f"{len(FILE.encode()):,} of 16,384 bytes"
    # a typo first: the reader's message, with its line, under the text; no table opens
    paste(driver, FILE.replace("highest(hand.ranks)", "highest(hand.rank)"))
    driver.find_element(By.ID, "open").click()
    said = wait(driver, file_error)
    assert said.startswith("create.ruleset_file: table.toml:11:"), said
    assert "unknown name hand.rank (did you mean hand.ranks?)" in said
    assert server.hub.tables == {}
    selected = driver.execute_script(
        "const a = document.getElementById('ruleset-file');"
        "return a.value.slice(a.selectionStart, a.selectionEnd)")
    assert selected.startswith("when = ") and "hand.rank)" in selected  # line 11 selected
    top = driver.execute_script("return document.getElementById('ruleset-file').scrollTop")
    assert top > 0  # the text box scrolled to the line
    driver.save_screenshot(str(Path(folder) / "lobby-file-error.png"))
    # corrected: the rule set follows the file's base, and the screenshots are taken
    paste(driver, FILE)
    assert file_error(driver) == ""
    assert driver.find_element(By.ID, "ruleset").get_attribute("disabled") is not None
    assert "From the file: blackwood-frey" in driver.find_element(By.ID, "ruleset-about").text
    for name, (width, height) in {"lobby-file-desktop": (1280, 800),
                                  "lobby-file-phone": (390, 844)}.items():
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1,
            "mobile": width < 600})
        driver.execute_script("window.scrollTo(0, 0)")
        overflow = driver.execute_script(
            "return document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{name}: the page is {overflow} px wider than the window"
        driver.save_screenshot(str(Path(folder) / f"{name}.png"))
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    driver.find_element(By.ID, "open").click()
    wait(driver, lambda d: d.find_element(By.ID, "created").is_displayed())
    assert "bad" not in driver.find_element(By.ID, "status").get_attribute("class")
    (table,) = server.hub.tables.values()
    assert table.session.rules.plugins[:3] == ("blackwood-frey", "table.toml:TF-1",
                                               "table.toml:TF-2")
    driver.find_element(By.ID, "sit-0").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#picture .board-table"))
    wait(driver, lambda d: d.find_element(By.ID, "rules").is_enabled())
    driver.find_element(By.ID, "rules").click()
    sheet = wait(driver, lambda d: (s := d.find_element(By.ID, "sheet")).is_displayed()
                 and s.text)
    assert "Twos first, keep the low cards" in sheet
    assert "TF-1  A card below 5 may not be discarded while the hand holds a card of 9" in sheet
    assert "TF-2  While a two can be played onto a build pile, only such plays are legal." \
        in sheet
    shown = driver.execute_script("""
        // scroll the sheet to the file's first clause, and say whether it is in view
        const sheet = document.getElementById('sheet');
        const text = sheet.firstChild, at = text.textContent.indexOf('TF-1  ');
        const range = document.createRange();
        range.setStart(text, at);
        range.setEnd(text, at + 4);
        const box = [sheet, sheet.parentElement].find((b) => b.scrollHeight > b.clientHeight);
        box.scrollTop += range.getBoundingClientRect().top - box.getBoundingClientRect().top - 60;
        const rect = range.getBoundingClientRect(), frame = box.getBoundingClientRect();
        return rect.top >= frame.top && rect.bottom <= frame.bottom;""")
    assert shown
    driver.save_screenshot(str(Path(folder) / "table-file-sheet.png"))
    assert status(driver)

"""The play server's pages in a real headless Chromium (issue 18 §4), driven by Selenium with
Debian's chromium and chromedriver: a person opens a table in the lobby, plays a whole game
against a greedy bot by clicking only (meeting one refusal with its clause on the way, and
taking one move back), downloads the record, and ``spitemalice check`` calls it valid (and a
practice game, for the undo); two browsers at one table
play each other to the end.

The tests save screenshots of the lobby and of a table mid-game (into a temporary folder, or
``$SPITEMALICE_SCREENSHOTS`` when set: ``docs/playing.md`` shows the ones in
``docs/images``).  Without a Chromium they are skipped, saying how to install one.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
if not (os.access(CHROMIUM, os.X_OK) and os.access(DRIVER, os.X_OK)):
    if os.environ.get("CI"):  # .ci/run installs them: CI always runs these tests
        raise RuntimeError("CI without chromium and chromedriver: .ci/run installs them")
    pytest.skip("no Chromium: install one with `apt-get install chromium chromium-driver` "
                "(Debian) to run the browser tests", allow_module_level=True)
pytest.importorskip("selenium")

from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import (  # noqa: E402
    StaleElementReferenceException,
    TimeoutException,
)
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.remote.webelement import WebElement  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

from spitemalice.cli import main  # noqa: E402
from tests.serving import DEAL_SEED, SHORT_GAME, LiveServer, create, deal_again  # noqa: E402

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1280,1040", "--lang=en-GB"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("records"), bot_delay=0.05) as live:
        yield live


@pytest.fixture
def browsers(tmp_path: Path) -> Iterator[Any]:
    """Makes headless Chromium browsers, each with a fresh profile and a download folder."""
    made: list[webdriver.Chrome] = []

    def make(name: str = "a") -> webdriver.Chrome:
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={tempfile.mkdtemp(dir=tmp_path)}")
        downloads = tmp_path / f"downloads-{name}"
        downloads.mkdir()
        options.add_experimental_option("prefs", {
            "download.default_directory": str(downloads), "download.prompt_for_download": False})
        driver = webdriver.Chrome(options=options, service=Service(DRIVER))
        driver.downloads = downloads  # type: ignore[attr-defined]
        made.append(driver)
        return driver

    yield make
    for driver in made:
        driver.quit()


def shots() -> Path:
    folder = Path(os.environ.get("SPITEMALICE_SCREENSHOTS") or tempfile.mkdtemp())
    folder.mkdir(parents=True, exist_ok=True)
    return folder


# -- a person at the page ------------------------------------------------------------------

def wait(driver: Any, condition: Any, timeout: float = 20) -> Any:
    """``condition(driver)`` once it is true (the page redraws its picture on every move, so
    an element found a moment ago may be gone: that counts as not yet)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            result = condition(driver)
        except StaleElementReferenceException:
            result = None
        if result:
            return result
        if time.monotonic() > deadline:
            raise TimeoutException(f"waited {timeout} s for the page")
        time.sleep(0.02)


def status(driver: Any) -> str:
    return str(driver.execute_script("return document.getElementById('status').textContent"))


def log_length(driver: Any) -> int:
    return int(driver.execute_script("return document.querySelectorAll('#log li').length"))


def my_seat(driver: Any) -> int:
    return int(driver.execute_script(
        "return new URLSearchParams(location.hash.slice(1)).get('seat')"))


def ready(driver: Any) -> str:
    """Wait until this seat is on turn or the game is over; returns the status line."""
    return str(wait(driver, lambda d: (s := status(d)).startswith(("Your turn", "Game over"))
                    and s, 60))


def cards(driver: Any, zone: str) -> list[WebElement]:
    return list(driver.find_elements(By.CSS_SELECTOR, f"#picture .card[data-zone='{zone}']"))


def targets(driver: Any) -> list[str]:
    """The piles the page highlights for the selected card."""
    return list(driver.execute_script(
        "return [...document.querySelectorAll('#picture .pile.target')]"
        ".map((g) => g.dataset.zone)"))


def pile(driver: Any, zone: str) -> WebElement:
    """What a person clicks to choose a pile: its top card, or its empty slot (the last
    button of the pile)."""
    found = driver.find_element(By.CSS_SELECTOR, f"#picture .pile[data-zone='{zone}']")
    return found.find_elements(By.CSS_SELECTOR, "button.card, button.slot")[-1]


def candidates(driver: Any) -> list[tuple[str, int]]:
    """The cards the page marks as movable, as (zone, index among the zone's cards), best
    first: pay-off tops, then the hand, then discard-pile tops."""
    found = driver.execute_script("""
        return [...document.querySelectorAll('#picture .card')].map((node) => {
          const zone = node.dataset.zone;
          const all = [...document.querySelectorAll(`#picture .card[data-zone='${zone}']`)];
          return node.classList.contains('movable') ? [zone, all.indexOf(node)] : null;
        }).filter(Boolean);""")
    rank = {"payoff": 0, "hand": 1, "discard": 2}
    return sorted(((z, i) for z, i in found),
                  key=lambda c: rank[next(k for k in rank if k in c[0])])


def move_by_clicking(driver: Any, shot: Path | None = None) -> None:
    """Make one move with clicks only: try each movable card until the page highlights a
    build pile for it, then click that pile; else discard the first card that may be
    discarded; pass when no card may move.  ``shot``: save a screenshot with the card
    selected and its targets highlighted, before the pile is clicked."""
    before = log_length(driver)
    discard: tuple[str, int, str] | None = None
    chosen: tuple[str, int, str] | None = None
    for zone, index in candidates(driver):
        if discard is not None and "-discard" in zone:
            # a hand card is selected, and a discard pile takes it: put it back first
            ActionChains(driver).send_keys(Keys.ESCAPE).perform()
        cards(driver, zone)[index].click()
        found = targets(driver)
        builds = [t for t in found if t.startswith("build")]
        if builds:
            chosen = (zone, index, builds[0])
            break
        if found and discard is None:
            discard = (zone, index, found[0])
    if chosen is None and discard is not None:
        ActionChains(driver).send_keys(Keys.ESCAPE).perform()
        cards(driver, discard[0])[discard[1]].click()
        chosen = discard
    if chosen is None:
        driver.find_element(By.ID, "pass").click()
    else:
        if shot is not None:
            driver.save_screenshot(str(shot))
        pile(driver, chosen[2]).click()
    wait(driver, lambda d: log_length(d) > before or status(d).startswith("Game over"))


def meet_a_refusal(driver: Any) -> str:
    """Select a hand card and click a pile the page does not highlight for it; returns the
    refusal the page shows."""
    seat = my_seat(driver)
    for index in range(len(cards(driver, f"seat{seat}-hand"))):
        cards(driver, f"seat{seat}-hand")[index].click()
        found = targets(driver)
        wrong = next((z for z in ("build-new", "build1", f"seat{seat}-discard1")
                      if z not in found and driver.find_elements(
                          By.CSS_SELECTOR, f"#picture .pile[data-zone='{z}']")), None)
        if wrong is not None:
            pile(driver, wrong).click()
            return str(wait(driver, lambda d: (m := d.find_element(By.ID, "message")).is_displayed()
                            and m.text))
    raise AssertionError("every pile was a legal target for every card")


def picture_top(driver: Any) -> float:
    return float(driver.execute_script(
        "return document.getElementById('picture').getBoundingClientRect().top"
        " + window.scrollY"))


def whole_table_in_view(driver: Any) -> bool:
    """Whether the table fits the window without scrolling (every seat in view) and runs
    past it on no side."""
    return bool(driver.execute_script("""
        const table = document.querySelector('#picture .board-table').getBoundingClientRect();
        return table.bottom + window.scrollY <= window.innerHeight + 1 && table.left >= 0
               && table.right <= document.documentElement.clientWidth;"""))


def open_table_in_the_lobby(driver: Any, server: LiveServer, folder: Path) -> None:
    driver.get(server.url + "/")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#ruleset option"))
    Select(driver.find_element(By.ID, "ruleset")).select_by_value("blackwood-frey")
    driver.find_element(By.CSS_SELECTOR, "input[value='mandatory-aces']").click()
    driver.find_element(By.ID, "params").send_keys("payoff_size=5")
    name = driver.find_element(By.NAME, "name-0")
    name.clear()
    name.send_keys("Ann")
    Select(driver.find_element(By.NAME, "player-1")).select_by_value("greedy")
    before = set(server.hub.tables)
    driver.find_element(By.ID, "open").click()
    wait(driver, lambda d: d.find_element(By.ID, "created").is_displayed())
    (table,) = set(server.hub.tables) - before
    deal_again(server, table, DEAL_SEED)  # the same game on every run
    driver.save_screenshot(str(folder / "play-lobby.png"))
    driver.find_element(By.ID, "sit-0").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#picture .board-table"))


def test_a_person_plays_a_whole_game_against_a_bot_by_clicking(
        server: LiveServer, browsers: Any) -> None:
    folder = shots()
    driver = browsers()
    open_table_in_the_lobby(driver, server, folder)
    ready(driver)
    top = picture_top(driver)
    refusal = meet_a_refusal(driver)
    assert refusal.startswith("Refused:")
    assert picture_top(driver) == top  # the refusal does not move the table under the pointer
    clause = driver.find_element(By.CSS_SELECTOR, "#message .clause").text
    assert clause.startswith(("BF-", "MA-")) and len(clause) > 20, clause
    driver.save_screenshot(str(folder / "play-refusal.png"))
    moves = 0
    while ready(driver).startswith("Your turn"):
        assert whole_table_in_view(driver), f"after {moves} moves"
        if moves == 3:  # one undo: the page says what it means, the record will say it too
            before = log_length(driver)
            driver.find_element(By.ID, "undo").click()
            wait(driver, lambda d: "practice" in d.find_element(By.ID, "message").text)
            assert log_length(driver) < before
            ready(driver)
        move_by_clicking(driver, folder / "play-table.png" if moves == 8 else None)
        moves += 1
    assert status(driver).startswith("Game over")
    assert moves >= 5
    driver.find_element(By.ID, "record").click()
    downloads = driver.downloads
    record = wait(driver, lambda d: downloaded(downloads), 20)
    assert main(["check", str(record)]) == 0
    checked = _checked(record)
    assert f"{len(driver.find_elements(By.CSS_SELECTOR, '#log li'))} move(s)" in checked
    assert "practice game: " in checked  # the undo above is in the record


def downloaded(folder: Path) -> Path | None:
    """The record downloaded into ``folder`` once Chromium has finished writing it (no
    ``.crdownload`` left, and the file is whole JSON), else ``None``."""
    import json

    found = list(folder.glob("*.json"))
    if len(found) != 1 or list(folder.glob("*.crdownload")):
        return None
    try:
        json.loads(found[0].read_text(encoding="utf-8"))
    except ValueError:
        return None  # still being written
    return found[0]


def _checked(record: Path) -> str:
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["check", str(record)])
    return out.getvalue()


def test_two_browsers_at_one_table_play_each_other_to_the_end(
        server: LiveServer, browsers: Any) -> None:
    names = ["<img src=x onerror=alert(1)>", "bob & <b>co</b>"]
    created = create(server, {**SHORT_GAME, "seats": [{"name": names[0], "player": "human"},
                                                      {"name": names[1], "player": "human"}]})
    players = [browsers("ann"), browsers("bob")]
    for driver, seat in zip(players, created["seats"], strict=True):
        driver.get(server.url + seat["link"])
    for driver in players:
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#picture .board-table"))
        wait(driver, lambda d: "here" in (d.find_elements(By.CSS_SELECTOR, "#seats li")[1]
                                          .get_attribute("class") or ""))
    for driver in players:  # names typed by people are shown as the text they are
        assert [n.text for n in driver.find_elements(By.CSS_SELECTOR, "#seats .name")] == names
        assert not driver.find_elements(By.CSS_SELECTOR, "main img, main b, header img")
        labels = driver.find_elements(By.CSS_SELECTOR, "#picture .seat-label")
        assert any(names[1] in (label.text or "") for label in labels)
    def next_up(_: Any) -> Any:
        """The page whose seat is on turn, or True once both pages show the end (one page
        may show it before the other: neither is then on turn)."""
        texts = [status(p) for p in players]
        if all(t.startswith("Game over") for t in texts):
            return True
        return next((p for p, t in zip(players, texts, strict=True)
                     if t.startswith("Your turn")), None)

    for _ in range(2000):
        on_turn = wait(players[0], next_up, 60)
        if on_turn is True:
            break
        move_by_clicking(on_turn)
    texts = [status(d) for d in players]
    assert all(t.startswith("Game over") for t in texts), texts
    assert "You won" in texts[0] or "You won" in texts[1]
    logs = [[li.text for li in d.find_elements(By.CSS_SELECTOR, "#log li")] for d in players]
    assert logs[0] == logs[1] and len(logs[0]) > 10


# Every text of the picture that is not on a card, as (text, left, top, right, bottom) in the
# picture's own units, read from the browser's layout.
_TEXT_BOXES = """
const svg = document.querySelector('svg');
return [...svg.querySelectorAll('text')].filter((t) => !t.closest('g.card, g.card-back, g.count'))
  .map((t) => { const b = t.getBBox(); return [t.textContent, b.x, b.y, b.x + b.width,
                                                b.y + b.height]; });
"""


@pytest.mark.parametrize("name", ["W" * 40, "\u4e2d" * 40, "\U0001f0a1\U0001f0cf" * 20,
                                  "\u0645\u0631\u062d\u0628\u0627 " * 6 + "12", "M. Mmmm" * 5])
def test_no_text_of_the_picture_overlaps_another_or_leaves_it(
        browsers: Any, tmp_path: Path, name: str) -> None:
    """The picture's header, labels and counts, drawn by Chromium with the longest names a
    table allows in wide letters, scripts and emoji, and the longest build-pile labels: none
    runs into another or off the edge (the header once ran the status into the draw-pile
    count, and ``B1: 10 (wild)`` touched the next pile's label)."""
    import spitemalice as sm
    from spitemalice.formats import position_svg

    rules = sm.load("blackwood-frey", ["unlimited-build-piles"], {"players": 3})
    state = sm.deal(rules, 5)
    for _ in range(60):
        state = sm.apply_move(rules, state, sm.legal_moves(rules, state)[-1])
    # build piles side by side whose labels are the longest: a wild card standing for a 10
    # with cards recycled from under it, and a queen of a numbered count
    wild_ten = sm.parse_cards("8H 9H KH")
    state = attrs.evolve(state, builds=(wild_ten,) * 5, build_removed=(7,) * 5)
    picture = tmp_path / "picture.svg"
    picture.write_text(position_svg(
        sm.view_of(state, 1), caption=f"blackwood-frey, move 60: {name} played D4:10H>B+",
        names=[name, name[::-1], "greedy"], new_pile=True), encoding="utf-8")
    driver = browsers()
    driver.get(picture.as_uri())
    width = float(driver.execute_script("return document.querySelector('svg').viewBox"
                                        ".baseVal.width"))
    boxes = driver.execute_script(_TEXT_BOXES)
    assert len(boxes) > 15
    assert [b[0] for b in boxes if b[1] < 0 or b[3] > width] == []
    gap = 3  # texts side by side are at least this far apart, never touching
    overlapping = [(a[0], b[0]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
                   if a[1] < b[3] + gap and b[1] < a[3] + gap and a[2] < b[4] and b[2] < a[4]]
    assert overlapping == []


def test_a_lobby_left_past_the_join_timeout_still_opens_a_table_and_a_second_tab_is_told(
        browsers: Any, tmp_path: Path) -> None:
    """The server closes a connection that sits at no seat (issue 38, class 1): the lobby
    page opens a new one when the table is asked for.  A seat holds one connection (class
    2): the same link in a second browser takes the seat, and the first page says so."""
    with LiveServer(tmp_path, connections={"join_seconds": 1}) as server:
        first = browsers("ann")
        first.get(server.url + "/")
        wait(first, lambda d: d.find_elements(By.CSS_SELECTOR, "#ruleset option"))
        time.sleep(2)  # the lobby's connection is closed by now
        first.find_element(By.ID, "open").click()
        wait(first, lambda d: d.find_element(By.ID, "created").is_displayed())
        assert not first.find_element(By.ID, "status").text
        first.find_element(By.ID, "sit-0").click()
        wait(first, lambda d: d.find_elements(By.CSS_SELECTOR, "#picture .board-table"))
        link = first.current_url
        second = browsers("bob")
        second.get(link)
        wait(second, lambda d: d.find_elements(By.CSS_SELECTOR, "#picture .board-table"))
        assert "someone else has this seat's link" in second.find_element(
            By.ID, "message").text
        wait(first, lambda d: "taken by another connection" in status(d))
        assert "someone else has this seat's link" in first.find_element(By.ID, "message").text

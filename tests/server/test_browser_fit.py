"""The table fits every screen to the end of a long game (issue 36 §1), in a real headless
Chromium driven as tests/server/test_browser.py drives it.

A game of blackwood-frey (pay-off piles of 26) between a person's seat and a greedy bot is
played ahead in the server, before the page sits down, to the deal, to move 160 and to its
end (323 moves, a discard pile of 36 cards on the way): the page is then looked at in
windows of 1280x720, 1920x1080 and 390x844 (a phone, as a phone reports itself).  In each:
nothing lies outside the window across, no card covers another pile's card or any text, the
cards of a fanned discard pile each show their corner, the message box lies above the
table, text is at least 12 px, and on the phone every button is at least 44x44 px (WCAG
2.5.5).  The watch page and the lobby are looked at the same way.

Screenshots go to ``$SPITEMALICE_SCREENSHOTS`` when set (``docs/playing.md`` shows those in
``docs/images``), else a temporary folder.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from spitemalice.bots.base import move_from_view
from spitemalice.bots.players import make_player
from spitemalice.engine.legal import legal_moves
from spitemalice.engine.views import view_of
from spitemalice.play import Session
from tests.server.test_browser import browsers, shots, status, wait  # noqa: F401
from tests.serving import LiveServer, create

LONG_GAME = {"type": "create", "ruleset": "blackwood-frey",
             "seats": [{"name": "Ann", "player": "human"}, {"name": "Bo", "player": "greedy"}]}
LONG_SEED = 3
"""Dealt from this seed, the game between two greedy players lasts 323 moves, and a discard
pile grows to 36 cards: the longest of seeds 1 to 5."""
MIDDLE = 160
WINDOWS = ((1280, 720, False), (1920, 1080, False), (390, 844, True))


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    # The bots wait long: a page that sits down at a table played ahead sees it as it is.
    with LiveServer(tmp_path_factory.mktemp("records"), bot_delay=30) as server:
        yield server


def played_ahead(server: LiveServer, moves: int) -> dict[str, Any]:
    """A table of LONG_GAME dealt from LONG_SEED, both seats played by greedy to ``moves``
    moves (or the end) before anyone sits down; returns the ``created`` message."""
    created = create(server, LONG_GAME, seed=None)
    table = server.hub.tables[created["table"]]
    old = table.session
    session = Session(old.rules, old.kinds, names=[seat.name for seat in old.seats],
                      seed=LONG_SEED, overwrite=True,
                      record_path=server.hub.store.record_path(created["table"], table.game))
    greedy = make_player("greedy", 0)
    while not session.is_over and len(session.history) < moves:
        if session.bot_on_turn:
            session.play_bot()
        else:
            state = session.state
            session.play(state.seat, move_from_view(greedy, session.rules,
                                                    view_of(state, state.seat),
                                                    legal_moves(session.rules, state)))
    table.session = session
    return created


def window(driver: Any, width: int, height: int, mobile: bool) -> None:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
    time.sleep(0.15)  # one layout


# Every problem the page shows at this window size, as sentences (empty: it fits).
PROBLEMS = """
const phone = arguments[0];
const problems = [];
const width = window.innerWidth;
const box = (n) => n.getBoundingClientRect();
const shown = (n) => { const r = box(n); const s = getComputedStyle(n);
  return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none'
         && !n.closest('dialog:not([open]), [hidden], .spoken'); };
const name = (n) => `${n.tagName.toLowerCase()}${n.id ? '#' + n.id : ''}.${n.className}` +
                    ` "${(n.textContent || '').trim().slice(0, 30)}"`;
if (document.documentElement.scrollWidth > width) {
  problems.push(`the page is ${document.documentElement.scrollWidth} px wide in ${width}`);
}
for (const node of document.body.querySelectorAll('*')) {
  if (!shown(node)) continue;
  const r = box(node);
  if (r.left < -0.5 || r.right > width + 0.5) {
    problems.push(`${name(node)} spans x=${Math.round(r.left)}..${Math.round(r.right)}`);
  }
  const own = [...node.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim());
  if (own && parseFloat(getComputedStyle(node).fontSize) < 12) {
    problems.push(`${name(node)} has text of ${getComputedStyle(node).fontSize}`);
  }
}
const cards = [...document.querySelectorAll('#picture .card, #picture .slot')].filter(shown);
const hit = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 &&
                      a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
for (const [i, a] of cards.entries()) {
  for (const b of cards.slice(i + 1)) {
    if (a.closest('.pile') !== b.closest('.pile') && hit(box(a), box(b))) {
      problems.push(`${name(a)} ${a.dataset.zone} overlaps ${name(b)} ${b.dataset.zone}`);
    }
  }
}
for (const fan of document.querySelectorAll('#picture .fan')) {
  const tops = [...fan.children].map((c) => box(c).top);
  tops.slice(1).forEach((top, i) => { if (top - tops[i] < 16) {
    problems.push(`a card of ${fan.parentNode.dataset.zone} shows ${top - tops[i]} px`); } });
}
const texts = [...document.querySelectorAll(
  '#picture .pile-label, #picture .count-badge, #picture .note, #picture .folded, ' +
  '#picture .seat-label, #picture .counts span, #status, #message')].filter(shown);
for (const text of texts) {
  for (const card of cards) {
    if (hit(box(text), box(card))) problems.push(`${name(card)} covers ${name(text)}`);
  }
}
const message = document.getElementById('message');
const picture = document.getElementById('picture');
if (message && box(message).bottom > box(picture).top + 0.5) {
  problems.push('the message box lies over the table');
}
if (phone) {
  for (const node of document.querySelectorAll('button, a.button, select, #picture button')) {
    if (!shown(node)) continue;
    const r = box(node);
    if (r.width < 44 - 0.01 || r.height < 44 - 0.01) {
      problems.push(`${name(node)} is ${r.width.toFixed(1)}x${r.height.toFixed(1)} px`);
    }
  }
}
return problems;
"""


def fits(driver: Any, label: str, shot_name: str = "") -> list[str]:
    """The problems of the page in every window of WINDOWS (each said with where it was);
    ``shot_name`` saves a screenshot of each window."""
    found = []
    for width, height, mobile in WINDOWS:
        window(driver, width, height, mobile)
        found += [f"{label} at {width}x{height}: {problem}"
                  for problem in driver.execute_script(PROBLEMS, mobile)]
        if shot_name:
            driver.save_screenshot(str(shots() / f"{shot_name}-{width}x{height}.png"))
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    return found


def cards_drawn(driver: Any) -> int:
    return int(driver.execute_script("return document.querySelectorAll('#picture .card').length"))


def test_the_table_fits_every_window_at_the_start_middle_and_end_of_a_long_game(
        live: LiveServer, browsers: Any) -> None:  # noqa: F811
    driver = browsers()
    problems = []
    for label, moves in (("the deal", 0), ("move 160", MIDDLE), ("the end", 10_000)):
        created = played_ahead(live, moves)
        driver.get(live.url + created["seats"][0]["link"])
        wait(driver, lambda d: cards_drawn(d) >= 7)
        if label == "the end":
            assert status(driver).startswith("Game over"), status(driver)
            # the long discard pile folds: its top cards and a count of the others
            folded = driver.find_elements(By.CSS_SELECTOR, "#picture .folded")
            assert folded and all(f.text.startswith("+") for f in folded)
        shot = {"the deal": "fit-start", "the end": "fit-end"}.get(label, "")
        problems += fits(driver, label, shot)
    assert not problems, "\n".join(problems[:40])


def test_your_seat_is_at_the_bottom_and_the_hint_shows_the_move(
        live: LiveServer, browsers: Any) -> None:  # noqa: F811
    """Sitting at seat 1, that seat is drawn last, under the build piles; the hint outlines
    the card and its pile and says the move in words; the keyboard alone makes a move, and
    the live region says it; S reads the table."""
    game = {**LONG_GAME, "seats": [LONG_GAME["seats"][1], LONG_GAME["seats"][0]]}
    created = create(live, game, seed=4)
    driver = browsers()
    driver.get(live.url + created["seats"][1]["link"])
    wait(driver, lambda d: cards_drawn(d) >= 7)
    areas = driver.find_elements(By.CSS_SELECTOR, "#picture .seat-area")
    assert [a.get_attribute("data-seat") for a in areas] == ["0", "1"]
    builds = driver.find_element(By.CSS_SELECTOR, "#picture .centre").rect
    assert areas[1].rect["y"] > builds["y"] > areas[0].rect["y"]
    assert "(you)" in areas[1].find_element(By.CSS_SELECTOR, ".seat-label").text
    # the bot (seat 0) moves first after the page sits down, then it is seat 1's turn
    wait(driver, lambda d: status(d).startswith("Your turn"), 90)
    driver.find_element(By.ID, "hint").click()
    message = wait(driver, lambda d: (t := d.find_element(By.ID, "message").text)
                   .startswith("Hint") and "Thinking" not in t and t)
    assert re.match(r"Hint \(\w+\): (Play \S+ from your .+ on (build pile \d|a new build "
                    r"pile)|Discard \S+ on your discard pile \d) \(", message), message
    hinted = driver.find_elements(By.CSS_SELECTOR, "#picture button.card.hinted")
    assert len(hinted) == 1 and hinted[0].get_attribute("data-card") in message
    assert driver.find_elements(By.CSS_SELECTOR, "#picture .pile.hinted")
    outline = hinted[0].value_of_css_property("outline-style")
    assert outline == "dashed", outline
    # keyboard alone: focus a movable card, Enter, then its first target, Enter
    before = len(driver.find_elements(By.CSS_SELECTOR, "#log li"))
    movable = driver.find_element(By.CSS_SELECTOR, "#picture button.card.movable")
    driver.execute_script("arguments[0].focus()", movable)
    movable.send_keys(Keys.ENTER)
    target = wait(driver, lambda d: d.find_elements(
        By.CSS_SELECTOR, "#picture .pile.target button"))[-1]
    driver.execute_script("arguments[0].focus()", target)
    target.send_keys(Keys.ENTER)
    wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#log li")) > before)
    spoken = wait(driver, lambda d: d.find_element(By.ID, "spoken").get_attribute("textContent"))
    assert spoken.startswith(("You play", "You discard", "Your turn", "Ann ")), spoken
    driver.find_element(By.TAG_NAME, "body").send_keys("s")
    told = wait(driver, lambda d: "Build pile" in (t := d.find_element(
        By.ID, "spoken").get_attribute("textContent")) or "No build pile" in t)
    assert told
    driver.find_element(By.TAG_NAME, "body").send_keys("?")
    how = wait(driver, lambda d: d.find_element(By.ID, "how-dialog").is_displayed()
               and d.find_element(By.ID, "how-dialog"))
    assert "The goal" in how.text and "Rule sheet" in how.text and "A turn" in how.text


def test_the_watch_page_and_the_lobby_fit_and_the_watch_page_counts_spectators(
        live: LiveServer, browsers: Any) -> None:  # noqa: F811
    created = played_ahead(live, 10_000)
    driver = browsers()
    driver.get(live.url + created["watch"])
    wait(driver, lambda d: cards_drawn(d) >= 7)
    assert not driver.find_elements(By.CSS_SELECTOR, "#picture .card[data-zone$='-hand']")
    problems = fits(driver, "watching the end", "fit-watch-end")
    other = browsers("b")
    other.get(live.url + created["watch"])
    wait(driver, lambda d: d.find_element(By.ID, "watchers").text == "2 people are watching")
    other.get("about:blank")  # leaves the table
    wait(driver, lambda d: d.find_element(By.ID, "watchers").text == "1 person is watching")
    driver.get(live.url + "/")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, ".seat-row"))
    window(driver, 390, 844, True)
    problems += [f"the lobby at 390x844: {p}" for p in driver.execute_script(PROBLEMS, True)]
    assert not problems, "\n".join(problems[:40])

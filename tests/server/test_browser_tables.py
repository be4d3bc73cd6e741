"""Watching, finding, rejoining and replaying tables in a real headless Chromium (issue 36
§2), driven as tests/server/test_browser.py drives it: a person watches a table of bots
through its watch link, finds a public table in the lobby and sits down, closes the tab and
sits down again from the lobby's list of the seats this browser holds, and steps through a
finished game on the replay page.

Screenshots of the watch view and the replay page at 390x844 and 1280x800 go to
``$SPITEMALICE_SCREENSHOTS`` when set, else a temporary folder."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By

from spitemalice.formats.records.reading import load_record
from spitemalice.server import matches
from spitemalice.server.store import read_entry
from tests.server.test_browser import browsers, shots, status, wait  # noqa: F401
from tests.serving import LiveServer, create

BOTS = {"type": "create", "ruleset": "blackwood-frey", "params": {"payoff_size": 4},
        "seats": [{"name": "Ada", "player": "greedy"}, {"name": "Bo", "player": "heuristic"}]}


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("records"), bot_delay=0.12) as server:
        yield server


def shot(driver: Any, folder: Path, name: str) -> None:
    """Screenshots of the page at 1280x800 and 390x844 (a phone: the viewport exactly)."""
    for width, height, mobile in ((1280, 800, False), (390, 844, True)):
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
        time.sleep(0.4)
        driver.save_screenshot(str(folder / f"{name}-{width}x{height}.png"))
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def log_length(driver: Any) -> int:
    return int(driver.execute_script("return document.querySelectorAll('#log li').length"))


def test_a_person_watches_a_table_of_bots_through_its_watch_link_to_the_end_of_a_match(
        live: LiveServer, browsers: Any, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    """The watch page of a table of bots that plays a match (BF-19) to 8 points: no hand
    face up, the running score shown, and the match played to its end."""
    created = create(live, {**BOTS, "match": True,
                            "params": {**BOTS["params"], "match_target": 8}})
    driver = browsers()
    driver.get(live.url + created["watch"])
    wait(driver, lambda d: log_length(d) >= 6, 60)
    assert not driver.find_elements(By.CSS_SELECTOR,
                                    "#picture .card[data-zone$='-hand']")  # no hand face up
    assert len(driver.find_elements(By.CSS_SELECTOR, "#picture .card-back")) >= 2
    assert "as a spectator sees it" in (driver.find_element(By.ID, "picture")
                                        .get_attribute("aria-label") or "")
    names = [n.text for n in driver.find_elements(By.CSS_SELECTOR, "#seats .name")]
    assert names == ["Ada", "Bo"]
    score = driver.find_element(By.ID, "match")
    assert score.text.startswith("Match to 8 points, game 1: Ada 0 · Bo 0"), score.text
    shot(driver, shots(), "watch")
    monkeypatch.setattr(matches, "NEXT_GAME_SECONDS", 0.3)
    monkeypatch.setattr(live.hub, "bot_delay", 0.01)
    wait(driver, lambda d: "wins the match" in d.find_element(By.ID, "match").text, 120)
    assert status(driver).startswith("Game over")
    assert driver.find_element(By.ID, "replay").is_displayed()
    entry = read_entry(live.hub.store.directory / f"{created['table']}.table.json")
    record = load_record(live.hub.store.record_path(created["table"], entry.game))
    assert record.outcome is not None and log_length(driver) == len(record.moves)
    totals = [sum(game) for game in zip(*entry.scores, record.outcome.scores, strict=True)]
    assert max(totals) >= 8
    assert " · ".join(f"{n} {t}" for n, t in zip(names, totals, strict=True)) in score.text


def test_a_person_finds_a_public_table_in_the_lobby_and_sits_down_again_after_closing_the_tab(
        live: LiveServer, browsers: Any) -> None:  # noqa: F811
    created = create(live, {**BOTS, "public": True,
                            "seats": [{"name": "Ann", "player": "human"},
                                      {"name": "Bo", "player": "greedy"}]})
    table = created["table"]
    driver = browsers()
    driver.get(live.url + "/")
    sit = f"button.sit-free[data-table='{table}']"
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, sit))
    driver.find_element(By.CSS_SELECTOR, sit).click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#picture .board-table"))
    assert f"/table/{table}#seat=0&token=" in driver.current_url
    assert created["seats"][0]["token"] not in driver.current_url  # a token of its own
    wait(driver, lambda d: live.hub.tables[table].clients[0])
    # close the tab: the link is gone with it
    first = driver.current_window_handle
    driver.switch_to.new_window("tab")
    second = driver.current_window_handle
    driver.switch_to.window(first)
    driver.close()
    driver.switch_to.window(second)
    wait(driver, lambda d: not live.hub.tables[table].clients[0])
    driver.get(live.url + "/")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#held a.rejoin"))
    assert "Ann" in driver.find_element(By.ID, "held").text
    assert not driver.find_elements(By.CSS_SELECTOR, sit)  # no longer offered to others
    driver.find_element(By.CSS_SELECTOR, "#held a.rejoin").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#picture .board-table"))
    wait(driver, lambda d: live.hub.tables[table].clients[0])
    assert status(driver).startswith(("Your turn", "Bo to play"))


def finish_a_game(live: LiveServer, public: bool = True) -> str:
    """The id of a game bots played to its end at a new table (watched over the protocol,
    at full speed)."""
    created = create(live, {**BOTS, "public": public})
    pace, live.hub.bot_delay = live.hub.bot_delay, 0
    try:
        with live.client() as spy:
            spy.send({"type": "watch", "table": created["table"]})
            state = spy.until("public")
            while state["table"]["outcome"] is None:
                state = spy.until("public")
    finally:
        live.hub.bot_delay = pace
    return f"{created['table']}-1"


def replay_at(driver: Any) -> int:
    return int(driver.execute_script(
        "return Number(document.getElementById('picture').dataset.number ?? -1)"))


def test_a_person_replays_a_finished_game_in_the_browser(
        live: LiveServer, browsers: Any) -> None:  # noqa: F811
    game = finish_a_game(live)
    record = load_record(live.hub.store.record_path(game[:16], 1))
    driver = browsers()
    driver.get(live.url + "/replay")
    link = f"#games a[data-game='{game}']"
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, link))
    driver.find_element(By.CSS_SELECTOR, link).click()
    wait(driver, lambda d: replay_at(d) == 0)
    assert driver.find_element(By.ID, "described").text == "The deal."
    assert len(driver.find_elements(By.CSS_SELECTOR, "#log li")) == len(record.moves)
    # the deal anyone can check: the commitment, the revealed seed, how to check it
    assert record.commitment is not None
    assert "opens the commitment" in driver.find_element(By.ID, "deal-summary").text
    driver.find_element(By.ID, "deal-summary").click()  # open the details
    wait(driver, lambda d: d.find_element(By.ID, "deal-seed").text == str(record.seed))
    assert driver.find_element(By.ID, "deal-commitment").text == record.commitment.sha256
    assert "sha256sum" in driver.find_element(By.ID, "deal-how").text
    for number in (1, 2, 3):
        driver.find_element(By.ID, "forward").click()
        wait(driver, lambda d, n=number: replay_at(d) == n)
    described = driver.find_element(By.ID, "described").text
    assert described.startswith("3. ") and ("plays" in described or "discards" in described)
    driver.find_element(By.ID, "back").click()
    wait(driver, lambda d: replay_at(d) == 2)
    middle = len(record.moves) // 2
    driver.find_elements(By.CSS_SELECTOR, "#log li")[middle - 1].click()  # to a move
    wait(driver, lambda d: replay_at(d) == middle)
    assert f"move {middle} of {len(record.moves)}" in driver.find_element(By.ID, "where").text
    shot(driver, shots(), "replay")
    driver.find_element(By.ID, "last").click()
    wait(driver, lambda d: replay_at(d) == len(record.moves))
    assert record.outcome is not None
    assert record.outcome.describe() in driver.find_element(By.ID, "outcome").text
    hands = driver.find_elements(By.CSS_SELECTOR, "#picture .card[data-zone$='-hand']")
    assert hands  # a finished game shows every hand
    # a record file of the person's own, picked on the page: sent, replayed, stepped through
    path = live.hub.store.record_path(game[:16], 1)
    mine = Path(driver.downloads) / "mine.json"  # a folder of the browser's own
    mine.write_bytes(path.read_bytes())
    driver.find_element(By.ID, "record-file").send_keys(str(mine))
    wait(driver, lambda d: d.execute_script("return location.hash").startswith("#file-"))
    wait(driver, lambda d: replay_at(d) == 0)
    assert len(driver.find_elements(By.CSS_SELECTOR, "#log li")) == len(record.moves)
    driver.find_element(By.ID, "last").click()
    wait(driver, lambda d: replay_at(d) == len(record.moves))
    assert driver.find_elements(By.CSS_SELECTOR, "#picture .card[data-zone$='-hand']")


def test_a_person_plays_a_match_to_its_target_by_clicking(
        live: LiveServer, browsers: Any, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    """A person plays every game of a match (BF-19) against a bot by clicking, the page's
    running score agreeing with the games' records, until one seat reaches the target."""
    from tests.server.test_browser import move_by_clicking, ready

    monkeypatch.setattr(matches, "NEXT_GAME_SECONDS", 0.3)
    monkeypatch.setattr(live.hub, "bot_delay", 0.01)
    created = create(live, {**BOTS, "match": True,
                            "params": {"payoff_size": 2, "match_target": 9},
                            "seats": [{"name": "Ann", "player": "human"},
                                      {"name": "Bo", "player": "greedy"}]})
    table = created["table"]
    driver = browsers()
    driver.get(live.url + created["seats"][0]["link"])
    games_played = set()
    deadline = time.monotonic() + 240
    while "wins the match" not in driver.find_element(By.ID, "match").text:
        assert time.monotonic() < deadline, "the match did not end in 240 s"
        wait(driver, lambda d: status(d).startswith(("Your turn", "Game over", "Bo to play")),
             60)
        if status(driver).startswith("Your turn"):
            games_played.add(live.hub.tables[table].game)
            move_by_clicking(driver)
        else:
            time.sleep(0.05)
    entry = read_entry(live.hub.store.directory / f"{table}.table.json")
    record = load_record(live.hub.store.record_path(table, entry.game))
    assert record.outcome is not None
    totals = [sum(game) for game in zip(*entry.scores, record.outcome.scores, strict=True)]
    assert max(totals) >= 9 and entry.scores  # the target reached, after an earlier game
    assert len(games_played) >= 2  # the person moved in more than one game of it
    score = driver.find_element(By.ID, "match").text
    assert " · ".join(f"{n} {t}" for n, t in zip(("Ann", "Bo"), totals, strict=True)) in score
    assert ready(driver).startswith("Game over")

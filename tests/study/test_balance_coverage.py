"""balance reports rule coverage (issue 21 item 4, last bullet): which clauses its self-play
games exercised, what the verdict says of a house rule they never
exercised, the JSON key, and the atlas page's coverage column."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

import spitemalice as sm
from spitemalice.cli import main
from spitemalice.cli.ratings import format_balance
from spitemalice.rules.registry import load_plugin
from spitemalice.study.atlas import entries
from spitemalice.study.atlas_page import render
from spitemalice.study.balance import Balance, balance, verdicts

DATA = Path(__file__).resolve().parents[2] / "docs" / "atlas" / "atlas.json"
GAMES, DEALS = 4, 2  # coverage counts the 4 self-play games, not the 2 x 2 matrix games


class MatchClauses:
    """A house rule whose sheet adds a clause balance can never exercise (MC-2 defines the
    event of a won match; balance plays single games) and, with ``dealt``, one every game
    exercises (MC-1, the deal)."""

    NAME = "match-clauses"
    KIND = "house-rule"
    DESCRIPTION = "clauses about matches"

    def __init__(self, dealt: bool) -> None:
        self.dealt = dealt

    @sm.hookimpl
    def spitemalice_rule_sheet(self) -> list[sm.Clause]:
        match = sm.Clause("MC-2", "A match is won by the first side to reach the target.",
                          "HOUSE", events=("match-won",))
        if not self.dealt:
            return [match]
        return [sm.Clause("MC-1", "Each game is dealt afresh.", "HOUSE", events=("dealt",)),
                match]


def _report(dealt: bool, coverage: int = GAMES) -> Balance:
    book = sm.RuleBook.from_plugins(load_plugin("blackwood-frey"),
                                    [load_plugin("mandatory-aces"), MatchClauses(dealt)],
                                    {"payoff_size": 5})
    return balance(book, "blackwood-frey + mandatory-aces + match-clauses",
                   ("random", "greedy"), GAMES, DEALS, seed=0, coverage=coverage)


@pytest.fixture(scope="module")
def unexercised_rule() -> Balance:
    return _report(dealt=False)


def test_coverage_counts_every_game_and_names_what_they_exercised(
        unexercised_rule: Balance) -> None:
    coverage = unexercised_rule.coverage
    assert coverage is not None and coverage.games == GAMES
    rows = {row.clause: row for row in coverage.rows}
    # MA-1 (forced play of an ace from the hand) took moves away from greedy; MC-2's
    # event, a won match, cannot happen in a game that balance plays.
    assert rows["MA-1"].exercised and rows["MA-1"].refused.get("forced-play", 0) > 0
    assert not rows["MC-2"].exercised and rows["MC-2"].counted
    assert coverage.house_rules == {"mandatory-aces": ("MA-1", "MA-2", "MA-3", "MA-4"),
                                    "match-clauses": ("MC-2",)}
    assert coverage.exercised == sum(row.exercised for row in coverage.rows) < len(rows)


def test_a_house_rule_the_games_never_exercised_leads_the_verdict(
        unexercised_rule: Balance) -> None:
    lines = verdicts(unexercised_rule)
    assert lines[0] == (f"the {GAMES} self-play games never exercised house rule "
                        "match-clauses (clause MC-2): this report measured nothing about that "
                        "rule")
    assert lines[1].startswith("first seat wins")
    assert not any("mandatory-aces" in line for line in lines)  # MA-1 was exercised
    coverage = unexercised_rule.coverage
    assert coverage is not None
    text = format_balance(unexercised_rule)
    section = text[text.index("rule coverage:"):]
    assert section.startswith(f"rule coverage: {coverage.exercised} of {len(coverage.rows)} "
                              f"clauses exercised by the {GAMES} self-play games")
    # the coverage notes' wording, too few games to call it a warning
    assert f"MC-2 was never exercised: no match was played in {GAMES} games" in section


def test_one_clause_of_a_house_rule_never_exercised_is_named_with_its_rule() -> None:
    lines = verdicts(_report(dealt=True))
    assert lines[0] == (f"the {GAMES} self-play games never exercised clause MC-2 of house "
                        "rule match-clauses: this report says nothing about it")


def test_the_json_carries_coverage_unless_it_was_not_recorded(
        unexercised_rule: Balance) -> None:
    data = json.loads(json.dumps(unexercised_rule.as_dict()))
    clauses = data["coverage"]["clauses"]
    assert data["coverage"]["games"] == GAMES
    assert clauses["MA-1"]["exercised"] and not clauses["MC-2"]["exercised"]
    assert data["coverage"]["house_rules"]["match-clauses"] == ["MC-2"]
    assert data["verdicts"][0].startswith(f"the {GAMES} self-play games never exercised house")
    bare = _report(dealt=False, coverage=0)
    assert bare.coverage is None and "coverage" not in bare.as_dict()
    assert not any("never exercised" in line for line in verdicts(bare))
    # coverage is counted beside the games: it changes none of the figures
    assert bare.positions == unexercised_rule.positions
    assert bare.lengths == unexercised_rule.lengths


def test_only_the_first_self_play_games_are_counted_when_asked(
        unexercised_rule: Balance) -> None:
    first = _report(dealt=False, coverage=1)
    assert first.coverage is not None and first.coverage.games == 1
    assert first.games == GAMES and first.lengths == unexercised_rule.lengths
    assert first.coverage.of == GAMES
    text = format_balance(first)
    assert "clauses exercised by the first 1 self-play game\n" in text
    assert "* the first 1 self-play game never exercised house rule match-clauses" in text


def test_the_balance_command_prints_coverage_and_skips_it_when_asked(
        capsys: pytest.CaptureFixture[str]) -> None:
    # the default counts the first 500 self-play games: here all 4
    argv = ["balance", "blackwood-frey", "--house-rule", "mandatory-aces", "--set",
            "payoff_size=5", "--games", "4", "--deals", "2", "--bots", "random,greedy",
            "--jobs", "1", "--no-base", "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["coverage"]["games"] == 4 and data["coverage"]["clauses"]["MA-1"]["exercised"]
    assert main([*argv, "--coverage-games", "0"]) == 0
    assert "coverage" not in json.loads(capsys.readouterr().out)


def test_the_atlas_page_shows_coverage_where_measured_and_not_measured_elsewhere(
        unexercised_rule: Balance) -> None:
    data: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8"))
    for report in data["reports"].values():  # reports made before balance recorded coverage
        report.pop("coverage", None)
    planned = [entry.key for entry in entries()]
    assert "rule coverage" not in render(data, planned)  # old data renders as it did
    newer = copy.deepcopy(data)
    reports = list(newer["reports"].values())
    reports[0]["coverage"] = unexercised_rule.as_dict()["coverage"]
    page = render(newer, planned)
    rows = [line for line in page.splitlines() if line.startswith("| ")]
    assert "| rule coverage | length |" in rows[0]
    assert f"that its first {GAMES} self-play games exercised" in page
    coverage = unexercised_rule.coverage
    assert coverage is not None
    share = coverage.exercised / len(coverage.rows)
    cells = [cell.strip() for cell in rows[1].strip("|").split("|")]
    assert cells[-2] == (f"{share:.0%} ({coverage.exercised} of {len(coverage.rows)}); "
                         "never: MC-2")
    assert all(line.split("|")[-3].strip() == "not measured" for line in rows[2:])
    label = f"{reports[0]['label']} ({reports[0]['players']}: MC-2)"
    assert f"never exercised (the report says nothing about it) in: {label}." in page

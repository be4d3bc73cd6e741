"""Every failing section of validate whose failure is a game records it (found by a new
user: a rule-set file whose stacking order left a seat stuck failed without writing
``validate-failure.json``); a failed check with no game says so on the report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import spitemalice as sm
from spitemalice.cli import main
from spitemalice.validation import spread, validate
from spitemalice.validation.dynamic import step_problem
from spitemalice.validation.report import Check, Finding, Report, format_report

MINE = """\
title = "uspcc with forced plays"
version = "1.0"
base = "uspcc"
house_rules = ["pair-discards", "mandatory-aces"]

[[rule]]
clause = "MY-2"
text = "Play the pay-off card first."
source = "HOUSE"
require = "move.kind == 'play' and move.source == 'payoff'"
reason = "payoff-first"
message = "play the pay-off card first"
"""


@pytest.fixture
def mine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's file, its own games clean at two games, but stuck when no-wild-discards is
    stacked on it (the only house rule stacked, to keep the test short)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(spread, "house_rule_names", lambda: ["no-wild-discards"])
    path = tmp_path / "mine.toml"
    path.write_text(MINE, encoding="utf-8")
    return path


def test_a_failing_stacking_order_records_its_smallest_game(mine: Path) -> None:
    report = validate(str(mine), games=2)
    failed = [check.name for check in report.checks if not check.passed]
    assert failed == ["house rules stacked in both orders"], report.checks
    found = report.reproduction
    assert found is not None and found["check"] == "house rules stacked in both orders"
    assert found["where"].startswith("stacked as ") and "no-wild-discards" in found["where"]
    # the game replays under the stacked rules its record names, failing at its last move
    assert found["where"] == "stacked as no-wild-discards"
    assert "no-wild-discards" in found["record"]["ruleset"]["house_rules"]
    rules = sm.load(str(mine), ["no-wild-discards"])
    state, problem = sm.deal(rules, found["seed"]), None
    for text in found["moves"]:
        state, problem = step_problem(rules, state, sm.parse_move(text))
    assert problem is not None and "no legal move but a pass" in problem
    assert report.unrecorded == ()
    assert f"smallest failing game ({found['where']})" in format_report(report)


def test_the_command_writes_the_stacking_orders_game(mine: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(mine), "--games", "2", "--jobs", "1"]) == 1
    out = capsys.readouterr().out
    assert "house rules stacked in both orders  FAIL" in out
    record = json.loads(Path("validate-failure.json").read_text(encoding="utf-8"))
    assert record["finding"]["invariant"] == "stuck-seat"
    assert "is in validate-failure.json" in out


def test_a_failed_check_with_no_game_says_no_game_was_recorded() -> None:
    report = Report("x", (Check("build ceiling reachable", False, "ceiling 14", "too high"),
                          Check("deal every player count", True, "2-6")))
    assert report.unrecorded == ("build ceiling reachable",)
    assert "no failing game recorded for: build ceiling reachable" in format_report(report)
    assert report.as_dict()["unrecorded"] == ["build ceiling reachable"]


def test_a_warning_failing_under_strict_says_no_game_was_recorded() -> None:
    report = Report("x", (Check("deal every player count", True, "2-6"),),
                    findings=(Finding("warning", "balance", "the first seat wins too often"),))
    assert "no failing game recorded" not in format_report(report)
    assert "no failing game recorded: under --strict" in format_report(report, strict=True)

"""validate compares a configuration with its base rule set, and validates a house rule on
each rule set it stacks on (issue 19 items 4d, 4e)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import spitemalice as sm
from spitemalice.cli import main
from spitemalice.rules.registry import load_plugin
from spitemalice.validation import base as base_module
from spitemalice.validation import house_rule
from spitemalice.validation.base import base_of


def test_a_rule_set_names_its_base_with_based_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(load_plugin("g4a"), "BASED_ON", "blackwood-frey", raising=False)
    found = base_of("g4a", [], {}, 2)
    assert found.book is not None and found.name == "blackwood-frey"
    assert found.how == "named by g4a's BASED_ON"
    monkeypatch.setattr(load_plugin("g4a"), "BASED_ON", "g4a", raising=False)
    assert base_of("g4a", [], {}, 2).book is None  # itself: nothing to compare with
    monkeypatch.setattr(load_plugin("g4a"), "BASED_ON", "no-such-rules", raising=False)
    missing = base_of("g4a", [], {}, 2)
    assert missing.book is None and "the base rule set no-such-rules" in missing.how


def test_without_based_on_the_inherited_sheet_names_the_base(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(base_module, "_inherited_from", lambda name: ["uspcc"])
    found = base_of("g4a", [], {}, 2)
    assert found.name == "uspcc" and "inherits its sheet" in found.how


def test_with_no_base_known_validate_says_so_instead_of_calling_it_the_base() -> None:
    found = base_of("blackwood-frey", [], {"players": 3}, 3)
    assert found.book is None
    assert found.how.startswith("no base rule set is known for blackwood-frey")
    assert "BASED_ON" in found.how
    report = sm.validation.validate("blackwood-frey", games=6)
    duration = next(c for c in report.checks if c.name == "duration_moves")
    assert duration.skipped == found.how  # the same reason at any seat count
    assert report.base == found.how


def test_house_rules_or_settings_make_the_rule_set_alone_the_base() -> None:
    with_rule = base_of("blackwood-frey", ["mandatory-aces"], {}, 2)
    assert with_rule.name == "blackwood-frey" and with_rule.book is not None
    assert list(with_rule.book.plugins) == ["blackwood-frey"]
    assert base_of("blackwood-frey", [], {"payoff_size": 13}, 2).name == "blackwood-frey"


def test_validate_house_rule_runs_on_each_rule_set_and_lists_the_refusals(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(house_rule, "built_in_rulesets", lambda: ["blackwood-frey", "starturn"])
    status = main(["validate", "jokers-to-king", "--games", "6", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert status == 0 and data["passed"] is True
    assert list(data["reports"]) == ["blackwood-frey"]
    assert data["reports"]["blackwood-frey"]["target"].startswith(
        "blackwood-frey + jokers-to-king")
    assert "starturn plays with numbered cards" in data["refused"]["starturn"]


def test_validate_house_rule_on_one_rule_set(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "mandatory-aces", "--on", "blackwood-frey", "--games", "6"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("validate blackwood-frey + mandatory-aces, 2 players")
    assert out.rstrip().endswith("mandatory-aces: validated on 1 rule set, 1 passed")


def test_on_is_refused_for_a_rule_set_and_for_a_rule_set_that_refuses_the_house_rule(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["validate", "blackwood-frey", "--on", "g4a"]) == 2
    assert "--on applies to a house rule" in capsys.readouterr().err
    no_stars = ["--set", "jokers=0", "--set", "draw_pack=52", "--set", "wild_ranks=none"]
    assert main(["validate", "no-wild-discards", "--on", "starturn", *no_stars,
                 "--games", "3"]) == 2
    assert "starturn has no wild cards" in capsys.readouterr().err


def test_on_takes_a_rule_set_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # A rule-set file names its own record (by its stem), not a path inside a path.
    file = tmp_path / "g4a-aces.toml"
    file.write_text('title = "G4A"\nversion = "1.0"\nbase = "g4a"\n', encoding="utf-8")
    status = main(["validate", "mandatory-aces", "--on", str(file), "--games", "3", "--json",
                   "--record", str(tmp_path / "failure.json")])
    data = json.loads(capsys.readouterr().out)
    assert status in (0, 1) and list(data["reports"]) == [str(file)]

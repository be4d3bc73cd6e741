"""A clause in force only under other settings (skip-bo's SK-26, standard packs) is exercised
by validate: a few checked games under the settings its plugin names (``VALIDATE_SETTINGS``),
its coverage row made of their counts.  ``validate skip-bo`` said SK-26 was never exercised
(intended): its games never use standard packs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

import spitemalice as sm
from spitemalice.measures.coverage import ClauseCoverage
from spitemalice.validation import STEPS, Validation, format_report
from spitemalice.validation.spread import (
    SETTING_GAMES,
    SETTINGS_CHECK,
    check_clause_settings,
    clause_settings,
)

# Only the step under test and the judgement: the other seat counts and stacking orders are
# tested elsewhere and would make the test slow.
STEPS_HERE = tuple(step for step in STEPS if step.name in (SETTINGS_CHECK,
                                                           "the judgement of the games"))


@pytest.mark.clause("SK-26")
def test_validate_skip_bo_exercises_sk26_under_standard_packs() -> None:
    report = Validation(sm.load("skip-bo"), games=2, seed=3, steps=STEPS_HERE).run()
    rows = {row.clause: row for row in report.coverage}
    sk26 = rows["SK-26"]
    assert sk26.exercised and sk26.fired == {"dealt": SETTING_GAMES}
    assert sk26.under == f"packs=3, draw_pack=0 in {SETTING_GAMES} games"
    assert sk26.as_dict()["under"] == sk26.under and "under" not in rows["SK-1"].as_dict()
    check = next(check for check in report.checks if check.name == SETTINGS_CHECK)
    assert check.passed
    assert check.figure == f"{SETTING_GAMES} games: SK-26 under packs=3, draw_pack=0"
    assert not any("SK-26" in finding.message for finding in report.findings)
    text = format_report(report)
    assert (f"dealt {SETTING_GAMES}, under packs=3, draw_pack=0 in {SETTING_GAMES} games "
            "(not in force here)") in text


@pytest.mark.clause("SK-26")
def test_with_standard_packs_its_own_games_exercise_sk26_and_no_more_are_played() -> None:
    book = sm.load("skip-bo", packs=3, draw_pack=0)
    report = Validation(book, games=2, seed=3, steps=STEPS_HERE).run()
    sk26 = next(row for row in report.coverage if row.clause == "SK-26")
    assert sk26.exercised and sk26.under == "" and sk26.fired == {"dealt": 2}
    assert SETTINGS_CHECK not in [check.name for check in report.checks]


def test_a_rule_set_naming_no_settings_adds_no_check() -> None:
    report = Validation(sm.load("blackwood-frey", payoff_size=5), games=2, seed=3,
                        steps=STEPS_HERE).run()
    assert SETTINGS_CHECK not in [check.name for check in report.checks]


class _Named:
    NAME = "named"

    def __init__(self, settings: object) -> None:
        self.VALIDATE_SETTINGS = settings


@pytest.mark.parametrize("settings", [
    ["SK-26"], {"SK-26": {}}, {"SK-26": "packs=3"}, {26: {"packs": 3}}, {"SK-26": {3: 0}},
])
def test_bad_settings_are_refused_naming_the_plugin(settings: object) -> None:
    with pytest.raises(sm.RulesetError, match=r"^named: VALIDATE_SETTINGS maps a clause id to "
                       r"the parameters that put it in force, such as .*; not "):
        clause_settings([_Named(settings)], {"SK-26"})


def test_settings_that_do_not_load_are_skipped_saying_why() -> None:
    book = sm.load("skip-bo")
    rows = [ClauseCoverage("SK-26", 0, {}, {}, False, True)]

    def refuse(extra: Mapping[str, Any]) -> sm.RuleBook:
        raise sm.RulesetError("too few cards")

    check, after = check_clause_settings(refuse, book, [_Named({"SK-26": {"packs": 1}})], 0,
                                         rows)
    assert check is not None and check.passed
    assert check.skipped == "SK-26 not under packs=1, which does not load here (too few cards)"
    assert after == tuple(rows)  # nothing played: the row stays the configuration's own


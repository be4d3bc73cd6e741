"""A clause declares the findings it intends (issue 19 item 4c): ``Clause.expects``."""

from __future__ import annotations

from typing import ClassVar

import pytest

import spitemalice as sm
from spitemalice.rules.findings import EXPECTABLE, declared, how_to_declare
from spitemalice.rules.registry import load_plugin
from spitemalice.validation import Report, format_report, validate_book


def test_a_clause_keeps_the_findings_it_declares() -> None:
    clause = sm.Clause("SD-1", "A seat whose discard piles are full passes.", "HOUSE",
                       expects=("stuck-seat",))
    assert clause.expects == ("stuck-seat",)
    # one name given as a string is one name, not its characters
    assert sm.Clause("SD-1", "t", "HOUSE", expects="stuck-seat").expects == ("stuck-seat",)
    assert sm.Clause("SD-2", "t", "HOUSE").expects == ()


def test_an_unknown_finding_name_is_refused_naming_the_clause_and_the_names() -> None:
    with pytest.raises(sm.RulesetError, match=r"clause SD-1: expects names 'stuck'.*"
                                              r"stuck-seat, completion"):
        sm.Clause("SD-1", "t", "HOUSE", expects=("stuck",))


def test_declared_lists_the_declaring_clauses_in_sheet_order() -> None:
    clauses = [sm.Clause("A-1", "t", "s", expects=("stuck-seat", "balance")),
               sm.Clause("A-2", "t", "s"), sm.Clause("A-3", "t", "s", expects=("stuck-seat",))]
    assert declared(clauses, "stuck-seat") == ("A-1", "A-3")
    assert declared(clauses, "completion") == ()


def test_the_hint_names_the_field_and_the_finding() -> None:
    assert "expects=('stuck-seat',)" in how_to_declare("stuck-seat")
    assert set(EXPECTABLE) >= {"stuck-seat", "completion", "balance", "duration_moves",
                               "unexercised", "unusual combination"}


def test_every_warning_validate_judges_can_be_declared() -> None:
    from spitemalice.validation.judge import JUDGED

    assert set(JUDGED) <= set(EXPECTABLE)


class ThreeCardDiscards:
    """The issue's example house rule: a discard pile holds at most three cards (TD-2 says a
    seat whose piles are all full and that cannot play passes; ``intends`` toggles whether
    the clause declares it)."""

    NAME = "three-card-discards"
    KIND = "house-rule"
    DESCRIPTION = "a discard pile holds at most three cards"
    REASONS: ClassVar = {"discard-pile-full": "that discard pile holds three cards"}

    def __init__(self, intends: bool = True) -> None:
        self.intends = intends

    @sm.hookimpl
    def spitemalice_rule_sheet(self, ruleset: sm.Ruleset) -> list[sm.Clause]:
        return [sm.Clause("TD-1", "A discard pile holds at most three cards.", "HOUSE",
                          reasons=("discard-pile-full",)),
                sm.Clause("TD-2", "A seat whose discard piles are all full and that cannot "
                          "play passes.", "HOUSE", events=("passed",),
                          expects=("stuck-seat",) if self.intends else ())]

    @sm.hookimpl
    def spitemalice_filter_moves(self, ruleset, state, moves):  # type: ignore[no-untyped-def]
        piles = state.seats[state.seat].discards
        allowed = [m for m in moves if not (isinstance(m, sm.Discard) and m.owner is None
                                            and len(piles[m.pile]) + len(m.cards) > 3)]
        return None if len(allowed) == len(moves) else sm.MoveFilter(
            allowed, "discard-pile-full", "a discard pile holds at most three cards")


def _validate(intends: bool) -> Report:
    house = sm.RuleBook.from_plugins(load_plugin("blackwood-frey"), [ThreeCardDiscards(intends)])
    return validate_book(house, games=9, seed=0, stack=lambda order: house)


def test_a_stuck_seat_the_clause_intends_is_info_citing_it() -> None:
    report = _validate(intends=True)
    assert report.ok(strict=True), format_report(report)
    stuck = [f for f in report.findings if f.name == "stuck-seat"]
    assert len(stuck) == 1 and stuck[0].level == "info"
    assert stuck[0].message.endswith("(intended: clause TD-2)")
    assert report.stats is not None and report.stats.stuck_seats > 0  # it did happen


def test_an_undeclared_stuck_seat_fails_and_says_how_to_declare_it() -> None:
    report = _validate(intends=False)
    assert not report.passed
    assert report.reproduction is not None
    problem = str(report.reproduction["problem"])
    assert "is left with no legal move but a pass" in problem
    assert problem.endswith("declare it on the clause that says so: "
                            "expects = [\"stuck-seat\"] in a rule-set file's rule, or "
                            "Clause(..., expects=('stuck-seat',)) in Python")


def test_the_kit_counts_an_intended_stuck_seat_as_no_fault() -> None:
    from spitemalice.validation.dynamic import dynamic_checks

    for intends, clean in ((True, True), (False, False)):
        house = sm.RuleBook.from_plugins(load_plugin("blackwood-frey"),
                                         [ThreeCardDiscards(intends)])
        checks, _, _ = dynamic_checks(house, 6, 0)  # what VariantConformance runs
        assert all(c.passed for c in checks) is clean


def test_the_kit_asks_for_scenarios_of_the_house_rules_own_clauses_only() -> None:
    from spitemalice.testing.conformance import own_clauses

    house = sm.RuleBook.from_plugins(load_plugin("blackwood-frey"), [ThreeCardDiscards()])
    assert own_clauses(house) == {"TD-1", "TD-2"}  # blackwood-frey's are spitemalice's
    bf = sm.load("blackwood-frey", ["mandatory-aces"])  # all built in: spitemalice's own
    assert own_clauses(bf) == {c.id for c in bf.clauses}


def test_without_hypothesis_the_kit_says_what_to_install(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Item 4a: a missing hypothesis is named with the extra that brings it, not a
    ModuleNotFoundError (an import of hypothesis fails here as it does where it is missing)."""
    import os
    import subprocess
    import sys

    blocked = tmp_path / "blocked"
    blocked.mkdir()
    (blocked / "hypothesis.py").write_text("raise ImportError('No module named hypothesis')\n")
    tests = tmp_path / "test_kit.py"
    tests.write_text("from spitemalice.testing.conformance import VariantConformance\n\n\n"
                     "class TestBF(VariantConformance):\n    ruleset = 'blackwood-frey'\n")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p",
         "no:hypothesispytest", str(tests), "-k", "state_machine"],
        cwd=tmp_path, capture_output=True, text=True, check=False, timeout=300,
        env={**os.environ, "PYTHONPATH": str(blocked)})
    assert done.returncode == 1, done.stdout[-2000:]
    assert "needs hypothesis: pip install 'spitemalice[kit]'" in done.stdout
    assert "ModuleNotFoundError" not in done.stdout and "Traceback" not in done.stdout


@pytest.mark.parametrize(("stuck", "games", "message", "evidence"), [
    (0, 60, "no seat was ever left with no legal move but a pass while holding a card it may "
     "discard (intended: clause TD-2)", "in none of the 60 clean games"),
    (0, 1, "no seat was ever left", "not in the 1 clean game"),
    (3, 60, "a seat was left with no legal move but a pass while holding a card it may "
     "discard 3 times (intended: clause TD-2)", "in 2 of 60 clean games"),
])
def test_an_intended_stuck_seat_that_never_happened_says_so(
        stuck: int, games: int, message: str, evidence: str) -> None:
    """validate on a rule-set file listed "... never (intended: ...)" with the evidence
    "in 0 of 60 games", read as a finding seen in no game: it words what it measured."""
    from spitemalice.validation.report import GameStats
    from spitemalice.validation.steps import _stuck_seats

    stats = GameStats(games=games, mean_moves=10.0, drawn_share=0.0, first_seat_win_rate=0.5,
                      first_seat_ci=(0.0, 1.0), stuck_seats=stuck,
                      stuck_games=2 if stuck else 0)
    [finding] = _stuck_seats(stats, {"stuck-seat": ("TD-2",)})
    assert (finding.level, finding.evidence) == ("info", evidence)
    assert finding.message.startswith(message)
    assert " 0 of " not in finding.evidence

"""``validate`` of a rule set whose seats move at once (Spit) prints what the turn-based one
does: the static checks, the invariants, games won with an interval, and the rule coverage
table whose unexercised clauses are warnings (``--strict`` fails on them) unless declared."""

from __future__ import annotations

import functools
import json

import pytest

import spitemalice as sm
from spitemalice.cli import main
from spitemalice.measures import coverage
from spitemalice.validation import simultaneous
from spitemalice.validation.simultaneous import validate_simultaneous

SPIT = sm.load("spit")


def test_the_report_has_a_coverage_row_per_clause_adding_up_to_the_moves_played() -> None:
    report = validate_simultaneous(SPIT, 4, 11)
    assert not report.errors and report.games == 4 and report.won <= 4
    rows = {row.clause: row for row in report.coverage}
    assert set(rows) == {clause.id for clause in SPIT.clauses}
    assert rows["SP-1"].fired == {"dealt": 4}
    # SP-18 (no move once the game has ended) is passed by every move made.
    assert rows["SP-18"].played == report.positions - 4  # a position per move, and each end
    data = json.loads(json.dumps(report.as_dict()))  # JSON data through and through
    assert data["coverage"]["games"] == 4 and set(data["coverage"]["clauses"]) == set(rows)
    assert data["won"] == report.won


def test_the_text_shows_static_checks_games_won_and_the_table(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "spit", "--games", "4", "--seed", "11"]) == 0
    out = capsys.readouterr().out
    assert "static checks: every clause has a source" in out
    assert "\nwon: " in out and " of 4 = " in out
    assert "rule coverage over 4 games" in out and "\nSP-17 " in out


def test_an_unexercised_clause_is_a_warning_and_strict_fails_on_it(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # Judge after 1 game (50 are needed otherwise): a clause no game exercised warns.
    monkeypatch.setattr(simultaneous, "coverage_notes",
                        functools.partial(coverage.coverage_notes, enough=1))
    report = validate_simultaneous(SPIT, 2, 11)
    never = [row.clause for row in report.coverage if not row.exercised and not row.intended]
    assert never, "some clause names nothing coverage counts, or is rare"
    assert all(any(w.startswith(f"clause {c}:") for w in report.warnings) for c in never)
    assert report.ok() and not report.ok(strict=True)
    assert main(["validate", "spit", "--games", "2", "--seed", "11", "--strict"]) == 1
    assert "FAIL" in capsys.readouterr().out

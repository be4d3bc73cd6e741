"""A clause declares the findings it intends (issue 19 item 4c): ``Clause.expects``."""

from __future__ import annotations

import pytest

import spitemalice as sm
from spitemalice.rules.findings import EXPECTABLE, declared, how_to_declare


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
                               "unexercised"}

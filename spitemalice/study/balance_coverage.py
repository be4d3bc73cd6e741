"""Rule coverage of a balance report: which clauses of the configuration its games exercised.

:func:`spitemalice.study.balance.balance` counts the coverage of its first self-play games
(:data:`~spitemalice.study.balance.COVERAGE_GAMES` by default) with the engine's recorder
(:mod:`spitemalice.engine.coverage`); this module keeps the result (:class:`BalanceCoverage`)
and says what it means for the report: a clause those games never exercised is one the report
says nothing about, and a house rule none of whose clauses they exercised is a rule the study
measured nothing about (:func:`verdict_lines`).

**Why the first self-play games only.**  They are the report's model of the configuration as
it is played (the strongest tier in every seat), the games its fairness and length figures
come from; a rule they never reach is one those figures cannot speak to, whatever the weaker
tiers of the skill matrix happen to do.  A clause none of 500 games exercised comes up in
fewer than 3 games in 500 (95%, the rule of three), too rarely to move those figures.  And
the recorder's work per move is several times a random or greedy bot's: counting every game
of a report, the matrix's too, doubles its CPU time, while the first 500 self-play games add
a small share (``docs/studying.md`` gives the measurement).  The base configuration's games
are not counted.
"""

from __future__ import annotations

from typing import Any

import attrs

from spitemalice.engine.coverage import Tally
from spitemalice.guards import check_int, int_field
from spitemalice.measures.coverage import (
    ClauseCoverage,
    CoverageNote,
    clause_coverage,
    coverage_as_dict,
    coverage_notes,
)
from spitemalice.rules.book import RuleBook, check_book
from spitemalice.rules.registry import house_rule_clauses, own_clauses
from spitemalice.wording import count_of


@attrs.frozen
class BalanceCoverage:
    """The rule coverage of a balance report's games.

    Attributes:
        games: self-play games counted (the first ones).
        of: self-play games played.
        rows: one per clause of the rule sheet, in sheet order.
        notes: :func:`~spitemalice.measures.coverage.coverage_notes` of the clauses no game
            exercised.
        house_rules: each house rule of the configuration -> the ids of its own clauses.
        own: ids of the clauses of the rules under study
            (:func:`~spitemalice.rules.registry.own_clauses`).

    Raises:
        SpiteMaliceError: ``games`` or ``of`` a whole number outside 0 to
            :data:`~spitemalice.limits.MAX_INT`.
    """

    games: int = attrs.field(validator=int_field(0))
    of: int = attrs.field(validator=int_field(0))
    rows: tuple[ClauseCoverage, ...]
    notes: tuple[CoverageNote, ...]
    house_rules: dict[str, tuple[str, ...]]
    own: frozenset[str]

    @property
    def exercised(self) -> int:
        """Clauses that some game exercised."""
        return sum(row.exercised for row in self.rows)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: :func:`~spitemalice.measures.coverage.coverage_as_dict` (``games``,
        ``clauses``) with ``of`` (self-play games played), ``exercised`` (a count), the
        ``notes`` (``level``, ``clause``,
        ``message``) and ``house_rules`` (name -> clause ids)."""
        return {**coverage_as_dict(self.rows, self.games), "of": self.of,
                "exercised": self.exercised,
                "notes": [attrs.asdict(note) for note in self.notes],
                "house_rules": {name: list(ids) for name, ids in self.house_rules.items()}}


    @property
    def counted(self) -> str:
        """The games counted, as the report names them."""
        games = count_of(self.games, "self-play game")
        return f"the {games}" if self.games == self.of else f"the first {games}"


def measured(rules: RuleBook, tally: Tally, of: int) -> BalanceCoverage:
    """The coverage of ``tally``'s games of ``rules``, the first of ``of`` self-play games.

    Raises:
        TypeError: ``rules`` is not a rule book.
        SpiteMaliceError: ``of`` not a whole number from 0 to
            :data:`~spitemalice.limits.MAX_INT`.
    """
    check_book(rules, "measured")
    check_int(of, "measured's of (self-play games played)", 0)
    rows = tuple(clause_coverage(rules, tally))
    return BalanceCoverage(tally.games, of, rows,
                           tuple(coverage_notes(rules, rows, tally.games)),
                           house_rule_clauses(rules), frozenset(own_clauses(rules)))


def _missed(row: ClauseCoverage) -> bool:
    """No game exercised a clause that coverage can see and that does not declare it
    expects to go unexercised."""
    return not row.exercised and row.counted and not row.intended


def verdict_lines(coverage: BalanceCoverage) -> tuple[list[str], list[str]]:
    """The verdicts on coverage: (those about the house rules, to put first, since a house
    rule the games never exercised is one the study measured nothing about; the one about
    the other clauses of the rules under study, to put last).  Clauses that coverage cannot
    see or that declare ``expects=("unexercised",)`` are left to the coverage section."""
    by_id = {row.clause: row for row in coverage.rows}
    first = []
    for name, ids in coverage.house_rules.items():
        counted = [i for i in ids if by_id[i].counted and not by_id[i].intended]
        missed = [i for i in counted if _missed(by_id[i])]
        if missed and missed == counted:
            first.append(f"{coverage.counted} never exercised house rule {name} "
                         f"({_clauses(missed)}): this report measured nothing about that rule")
        elif missed:
            first.append(f"{coverage.counted} never exercised {_clauses(missed)} of house rule "
                         f"{name}: this report says nothing about {_it(missed)}")
    theirs = {i for ids in coverage.house_rules.values() for i in ids}
    missed = [row.clause for row in coverage.rows
              if _missed(row) and row.clause in coverage.own and row.clause not in theirs]
    last = [f"{coverage.counted} never exercised {_clauses(missed)}: this report says "
            f"nothing about {_it(missed)}"] if missed else []
    return first, last


def _clauses(ids: list[str]) -> str:
    return f"clause {ids[0]}" if len(ids) == 1 else f"clauses {', '.join(ids)}"


def _it(ids: list[str]) -> str:
    return "it" if len(ids) == 1 else "them"


def format_section(coverage: BalanceCoverage) -> list[str]:
    """The report's coverage section as lines: clauses exercised of those on the sheet, and
    each note on a clause no game exercised (``warning  ...``, ``info     ...``)."""
    lines = [f"rule coverage: {coverage.exercised} of {count_of(len(coverage.rows), 'clause')} "
             "exercised "
             f"by {coverage.counted}"]
    lines += [f"  {note.level:<7}  {note.message}" for note in coverage.notes]
    return lines

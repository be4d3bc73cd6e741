"""Rule coverage of a study: for each clause of the active rule sheet, what exercised it.

:class:`~spitemalice.engine.coverage.Recorder` counts, while games are played, the decisions
of the moves made, the candidate moves refused and the events that happened, each where the
engine decides.  This module turns those counts into one row per clause
(:func:`clause_coverage`), a table (:func:`format_coverage`), JSON (:func:`coverage_as_dict`)
and the warning for a clause no game exercised (:func:`unexercised`): "PD-1 was never
exercised: no seat made a pair discard ... in 200 games".

A clause is counted through the reason codes it names (``Clause.reasons``: the moves whose
checks it decides, the candidates it refuses) and the events it defines (``Clause.events``).
Every clause naming a code is credited with it, not only the one a refusal cites.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import attrs

from spitemalice.engine.coverage import Tally
from spitemalice.guards import check_int, check_list, int_field
from spitemalice.rules.book import RuleBook
from spitemalice.rules.findings import cite, declared, how_to_declare
from spitemalice.rules.policies import Clause
from spitemalice.rules.registry import own_clauses
from spitemalice.wording import count_of

UNEXERCISED = "unexercised"
"""The finding's name (:data:`spitemalice.rules.findings.EXPECTABLE`)."""

ENOUGH_GAMES = 50
"""Games below which a clause no game exercised is only info: in fewer games a rare event (a
drawn hand, a recycle) may simply not have come up."""

def _games(value: int, function: str, name: str = "games") -> int:
    """``value`` when it is a count of games a study played: 0 to
    :data:`~spitemalice.limits.MAX_INT`."""
    return check_int(value, f"{function}'s {name}", 0)

# What a played move whose check passed each code is: "no seat made <this>".
_PLAYED: dict[str, str] = {
    "game-over": "a move", "not-on-turn": "a move", "no-such-pile": "a move",
    "not-in-hand": "a move with a hand card", "pass-not-allowed": "a pass",
    "seat-prefix": "a move with another seat's pile",
    "not-own-pile": "a play from another seat's pile",
    "not-own-discard-pile": "a discard onto another seat's pile",
    "empty-pile@payoff": "a play from a pay-off pile", "buried-card@payoff":
        "a play from a pay-off pile", "empty-pile@discard": "a play from a discard pile",
    "buried-card@discard": "a play from a discard pile",
    "not-on-pile@discard": "a play from a discard pile",
    "build-pile-limit": "a play opening a build pile",
    "wild-cannot-start": "a wild card played on a new build pile",
    "wild-excluded": "a wild card played on a build pile",
    "wrong-rank": "a natural card played on a build pile",
    "forbidden-discard": "a discard", "discard-count": "a discard",
    "pair-unequal": "a pair discard",
}
# What did not happen when an event never fired: "<this> in 200 games".
_NOT_FIRED: dict[str, str] = {
    "dealt": "no game was dealt", "hand-emptied": "no seat emptied its hand mid-turn",
    "pile-completed": "no build pile was completed",
    "recycled": "no completed cards were shuffled into a new draw pile",
    "recycled-under-tops": "no cards under the build-pile tops were shuffled into a new draw "
                           "pile",
    "short-draw": "no draw came up short", "win": "no game was won",
    "drawn": "no game ended as a drawn hand", "blocked": "no game ended blocked",
    "turn-limit": "no game reached the turn limit",
    "ended-by-rule": "no game was ended by a plugin's rule", "match-won": "no match was played",
    "passed": "no seat passed",
    "turned-up": "no face-down card was turned up", "stale": "no intent arrived too late",
    "barrier-again": "no barrier came back within a round",
    "round-over": "no round ended", "laid-out-again": "no new round was laid out",
    "short-layout": "no seat laid out a round without a face-down reserve",
    "one-pile": "no round ended with one centre pile",
}


@attrs.frozen
class ClauseCoverage:
    """How a study exercised one clause.

    Attributes:
        clause: the clause id.
        played: moves made whose checks passed a code the clause names.
        refused: reason code -> candidate moves refused with it (codes the clause names).
        fired: event -> times it happened (events the clause defines).
        counted: ``False`` when the clause names no reason code and no event: coverage
            cannot see it.
        intended: the clause declares ``expects=("unexercised",)``.
        under: ``""`` when the counts are of the study's own games; else the other games
            they are of, the settings that put the clause in force and how many
            (``"packs=3, draw_pack=0 in 4 games"``: validate plays a few for a clause out of
            force in the configuration where its plugin names the settings,
            :func:`spitemalice.validation.spread.check_clause_settings`).

    Raises:
        SpiteMaliceError: ``played`` a whole number outside 0 to
            :data:`~spitemalice.limits.MAX_INT`.
    """

    clause: str
    played: int = attrs.field(validator=int_field(0))
    refused: dict[str, int]
    fired: dict[str, int]
    counted: bool
    intended: bool
    under: str = ""

    @property
    def exercised(self) -> bool:
        """Whether anything exercised the clause."""
        return bool(self.played or any(self.refused.values()) or any(self.fired.values()))

    def as_dict(self) -> dict[str, object]:
        """JSON-ready: ``played``, ``refused`` and ``fired`` counts, ``exercised``,
        ``counted``, ``intended``, and ``under`` where the counts are of other settings'
        games."""
        data: dict[str, object] = {
            "played": self.played, "refused": dict(self.refused), "fired": dict(self.fired),
            "exercised": self.exercised, "counted": self.counted, "intended": self.intended}
        if self.under:
            data["under"] = self.under
        return data


def _code(key: str) -> str:
    return key.partition("@")[0]


def _names(clause: Clause, key: str) -> bool:
    """Whether ``clause`` names the decision ``key`` (``code`` or ``code@pile``)."""
    return any(reason == key or reason == _code(key) for reason in clause.reasons)


def clause_coverage(rules: RuleBook, tally: Tally) -> list[ClauseCoverage]:
    """One row per clause of ``rules``' sheet, in sheet order."""
    intended = set(declared(rules.clauses, UNEXERCISED))
    rows = []
    for clause in rules.clauses:
        played = sum(count for keys, count in tally.played.items()
                     if any(_names(clause, key) for key in keys))
        codes = {_code(reason) for reason in clause.reasons}
        refused = {code: tally.refused[code] for code in sorted(codes) if tally.refused[code]}
        fired = {event: tally.fired[event] for event in clause.events}
        rows.append(ClauseCoverage(clause.id, played, refused, fired,
                                   bool(clause.reasons or clause.events),
                                   clause.id in intended))
    return rows


def never_exercised(rules: RuleBook, row: ClauseCoverage, games: int) -> str:
    """The sentence for a clause no game exercised: what no seat did and what never happened,
    in ``games`` games.

    Raises:
        SpiteMaliceError: ``games`` not a whole number from 0 to
            :data:`~spitemalice.limits.MAX_INT`.
    """
    _games(games, "never_exercised")
    clause = rules.clause(row.clause)
    span = f"in {count_of(games, 'game')}"
    if not row.counted:
        return (f"{row.clause} was never exercised: it names no reason code and no event, so "
                f"no game can show it {span}; name them (Clause reasons=, events=)")
    parts = []
    made = list(dict.fromkeys(_PLAYED.get(key, f"a move its rule ({_code(key)}) allowed")
                              for key in clause.reasons))
    if made:
        parts.append(f"no seat made {' or '.join(made)} and no move was refused under it")
    parts += [_NOT_FIRED[event] for event in clause.events]
    return f"{row.clause} was never exercised: {'; '.join(parts)} {span}"


@attrs.frozen
class CoverageNote:
    """What a study says about a clause it never exercised: a ``"warning"``, or ``"info"``
    when the clause declares ``expects=("unexercised",)``."""

    level: Literal["warning", "info"]
    clause: str
    message: str


def coverage_notes(rules: RuleBook, rows: Sequence[ClauseCoverage], games: int,
                   enough: int = ENOUGH_GAMES) -> list[CoverageNote]:
    """A note for each clause of ``rows`` no game exercised, in sheet order: a warning that
    ends saying how to declare it; info ending ``(intended: clause X)`` for a declared one;
    info too while fewer than ``enough`` games were played (a rare event may simply not have
    come up yet), and for a clause that is not the rules under study's own
    (:func:`~spitemalice.rules.registry.own_clauses`: a built-in rule set's clause under an
    outside house rule, a clause inherited with ``base_sheet``), which its own rule set's
    validation judges (issue 19, 4b).

    Raises:
        SpiteMaliceError: ``games`` or ``enough`` not a whole number from 0 to
            :data:`~spitemalice.limits.MAX_INT`.
    """
    _games(games, "coverage_notes")
    _games(enough, "coverage_notes", "enough")
    own = own_clauses(rules)
    notes = []
    for row in rows:
        if row.exercised:
            continue
        message = never_exercised(rules, row, games)
        if row.intended:
            notes.append(CoverageNote("info", row.clause, f"{message} {cite([row.clause])}"))
        elif games < enough:
            notes.append(CoverageNote("info", row.clause, f"{message} (too few games to "
                                      f"judge: {enough} or more are needed)"))
        elif row.clause not in own:
            notes.append(CoverageNote("info", row.clause,
                                      f"{message} ({_whose(rules.clause(row.clause))})"))
        else:
            notes.append(CoverageNote("warning", row.clause,
                                      f"{message}; {how_to_declare(UNEXERCISED)}"))
    return notes


def _whose(clause: Clause) -> str:
    """Who judges a clause that is not the study's own."""
    if clause.inherited_from:
        return f"inherited from {clause.inherited_from}, whose validation judges it"
    return "a clause of spitemalice's built-in rules, judged when those are validated"


def coverage_as_dict(rows: Sequence[ClauseCoverage], games: int) -> dict[str, object]:
    """JSON-ready: ``games`` and each clause's counts by id, in sheet order.

    Raises:
        SpiteMaliceError: ``games`` not a whole number from 0 to
            :data:`~spitemalice.limits.MAX_INT`.
    """
    _games(games, "coverage_as_dict")
    check_list(rows, "coverage_as_dict", "rows, a list of clause coverages,",
               'summary.coverage')
    return {"games": games, "clauses": {row.clause: row.as_dict() for row in rows}}


def format_coverage(rows: Sequence[ClauseCoverage], games: int) -> list[str]:
    """The coverage table as lines: clause, moves played, candidates refused, events fired,
    and what exercised it (or ``never`` / ``never (intended)``).

    Raises:
        SpiteMaliceError: ``games`` not a whole number from 0 to
            :data:`~spitemalice.limits.MAX_INT`.
    """
    _games(games, "format_coverage")
    check_list(rows, "format_coverage", "rows, a list of clause coverages,",
               'summary.coverage')
    lines = [f"rule coverage over {count_of(games, 'game')} (played: moves it decided; refused: "
             "candidate "
             "moves it refused; fired: events it defines)",
             f"{'clause':<8}{'played':>10}{'refused':>11}{'fired':>9}  by"]
    for row in rows:
        refused = sum(row.refused.values())
        fired = sum(row.fired.values())
        by = ", ".join([*(["played"] if row.played else []),
                        *(f"{code} {n:,}" for code, n in row.refused.items()),
                        *(f"{event} {n:,}" for event, n in row.fired.items() if n)])
        if not row.exercised:
            by = "never (intended)" if row.intended else "never"
            if not row.counted:
                by += ": names no reason code or event"
        if row.under:
            by += f", under {row.under} (not in force here)"
        lines.append(f"{row.clause:<8}{row.played:>10,}{refused:>11,}{fired:>9,}  {by}")
    return lines


def format_coverage_report(rows: Sequence[ClauseCoverage], notes: Sequence[CoverageNote],
                           games: int) -> str:
    """The table and then each note (``warning  ...``, ``info     ...``); ``""`` when
    coverage was not recorded (no rows).

    Raises:
        TypeError: ``rows`` or ``notes`` is not a list (a str, ``None`` or a number, say),
            naming the function and what a right value looks like.
        SpiteMaliceError: ``games`` not a whole number from 0 to
            :data:`~spitemalice.limits.MAX_INT`.
    """
    _games(games, "format_coverage_report")
    check_list(rows, "format_coverage_report", "rows, a list of clause coverages,",
               'summary.coverage')
    check_list(notes, "format_coverage_report", "notes, a list of coverage notes,",
               'summary.coverage_notes')
    if not rows:
        return ""
    lines = format_coverage(rows, games)
    lines += [f"{note.level:<7}  {note.message}" for note in notes]
    return "\n".join(lines)


def format_paired_coverage(a: Sequence[ClauseCoverage], b: Sequence[ClauseCoverage],
                           games: int) -> list[str]:
    """Two configurations' coverage side by side, one line per clause of either sheet (A's
    order, then B's own clauses): moves played, candidates refused and events fired under
    each, ``-`` where a sheet lacks the clause, ``never`` where no game exercised it.

    Raises:
        TypeError: ``a`` or ``b`` is not a list (a str, ``None`` or a number, say),
            naming the function and what a right value looks like.
        SpiteMaliceError: ``games`` not a whole number from 0 to
            :data:`~spitemalice.limits.MAX_INT`.
    """
    _games(games, "format_paired_coverage")
    check_list(a, "format_paired_coverage", "a, a list of clause coverages,",
               'summary.coverage')
    check_list(b, "format_paired_coverage", "b, a list of clause coverages,",
               'summary.coverage')
    by_a, by_b = {row.clause: row for row in a}, {row.clause: row for row in b}
    lines = [f"rule coverage over {count_of(games, 'paired game')} (played / refused / fired)",
             f"{'clause':<8}{'A':>30}  {'B':>30}"]
    for clause in dict.fromkeys([*by_a, *by_b]):
        cells = [_cell(by_a.get(clause)), _cell(by_b.get(clause))]
        lines.append(f"{clause:<8}{cells[0]:>30}  {cells[1]:>30}")
    return lines


def _cell(row: ClauseCoverage | None) -> str:
    if row is None:
        return "-"
    if not row.exercised:
        return "never (intended)" if row.intended else "never"
    return f"{row.played:,} / {sum(row.refused.values()):,} / {sum(row.fired.values()):,}"

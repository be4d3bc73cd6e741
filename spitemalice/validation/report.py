"""Validation results: one row per check, findings with levels, and the report as text or
JSON-able data."""

from __future__ import annotations

from typing import Literal

import attrs

from spitemalice.engine.coverage import Tally
from spitemalice.guards import int_field, real_field
from spitemalice.measures.coverage import ClauseCoverage, coverage_as_dict, format_coverage
from spitemalice.measures.interval import Interval
from spitemalice.runs.provenance import RunConfiguration
from spitemalice.wording import count_of

Level = Literal["error", "warning", "info"]

REQUIRED: tuple[str, ...] = ("completion",)
"""The judgements ``--strict`` requires to be decided: an undecided one fails it.  Whether a
rule set's games end with a winner is what makes it a game; balance and game length are
judged too, and a warning on them fails ``--strict``, but deciding them needs hundreds of won
games, so an undecided one is printed and fails nothing."""


OWN_GAMES: tuple[str, ...] = ("invariants after every move", "every game ends with an outcome")
"""The checks of the configuration's own games: a failing game of theirs is the one a report
records first (:data:`~spitemalice.validation.steps.STEPS`)."""


@attrs.frozen
class Check:
    """One check's result.

    Attributes:
        name: what was checked, short.
        passed: whether it held (a skipped check neither passed nor failed: ``passed`` is
            ``True`` so that it fails nothing, and ``skipped`` says why it did not run).
        figure: the number behind the verdict ("1000 games, 0 violations").
        detail: for a failure, what went wrong; empty otherwise.
        skipped: why the check did not run; empty when it ran.
        warned: the check ran and raised a warning (see the report's findings).
        undecided: for a judgement whose interval holds its threshold, why it is neither
            pass nor warning and about how many more games would likely decide it; empty
            otherwise (:mod:`spitemalice.measures.verdicts`).
    """

    name: str
    passed: bool
    figure: str
    detail: str = ""
    skipped: str = ""
    warned: bool = False
    undecided: str = ""

    @property
    def status(self) -> str:
        """``"skip"``, ``"pass"``, ``"warn"``, ``"undecided"`` or ``"FAIL"``: what the report
        prints."""
        if self.skipped:
            return "skip"
        if self.undecided:
            return "undecided"
        if not self.passed:
            return "FAIL"
        return "warn" if self.warned else "pass"


def skip(name: str, reason: str) -> Check:
    """A check that did not run, and why (printed as ``skip``, never as ``pass``)."""
    return Check(name, True, "", skipped=reason)


@attrs.frozen
class Finding:
    """A judgement of the rule set, with its evidence.

    Attributes:
        level: ``"error"`` (inconsistent: an invariant broken, a crash, a game that does not
            end), ``"warning"`` (degenerate play, see ``docs/variants.md`` "What validate
            judges" for each threshold) or ``"info"``.
        name: the finding's short name: for a judgement of the games, the name of the
            game-quality metric it rests on (:data:`spitemalice.measures.metrics.METRICS`:
            "completion", "balance", "duration_moves"); else "unusual combination" or
            "unusual value" (parameters), or the name of the failed check.
        message: what was found, one sentence.
        evidence: the counts behind it, a rate with its 95% Wilson interval where there is one.
        parameters: the parameters to look at, most likely first (may be empty).
        rate: the rate the finding rests on, with its interval, when it rests on one.
    """

    level: Level
    name: str
    message: str
    evidence: str = ""
    parameters: tuple[str, ...] = ()
    rate: Interval | None = None

    def text(self) -> str:
        """One line: level, name, message, evidence, parameters."""
        line = f"{self.level:<7}  {self.name}: {self.message}"
        if self.evidence:
            line += f" [{self.evidence}]"
        if self.parameters:
            line += f"; look at {', '.join(self.parameters)}"
        return line


@attrs.frozen
class GameStats:
    """A summary of the simulated games at the configured player count.

    Attributes:
        games: clean games (no fault found in them).
        mean_moves: mean moves per clean game, every line-up.
        drawn_share: share of clean games that ended without a winner, every line-up.
        first_seat_win_rate: share of won games that the seat moving first won (0 with no
            won game, measuring nothing: ``null`` in the JSON, not measured in the text).
        first_seat_ci: its 95% Wilson interval.
        outcomes: clean games per outcome kind (``{"win": 180, "drawn": 20}``).
        greedy_games: clean games in which every seat was a greedy player (the judgement of
            completion, balance and duration_moves rests on these: random players draw most games
            under any rules).
        greedy_outcomes: those games per outcome kind.
        greedy_mean_moves: their mean length in moves.
        wins_by_position: wins in those games by turn position (0 = the seat that moved
            first, 1 = the next, ...).
        greedy_lengths: the moves of each of those games (for ``duration_moves`` with its
            interval; empty when only the mean is known).
        stuck_seats: times a seat was left with only a pass although it held a card it may
            discard, where a clause intends it (``expects=("stuck-seat",)``; where none does,
            the first such seat fails its game instead), in every game.
        stuck_games: games in which that happened.
        played: games played, clean or not.
        interrupted: a stop (Ctrl-C, SIGTERM) ended the games before all were played; every
            figure covers the games played.
        coverage_tally: the rule coverage of every game, every line-up
            (:class:`~spitemalice.engine.coverage.Tally`; ``None`` when not recorded).

    Raises:
        SpiteMaliceError: a count a whole number past :data:`~spitemalice.limits.MAX_INT` in size, a
            share a number outside 0 to 1, or a mean one past :data:`~spitemalice.limits.MAX_REAL`
            in size.
    """

    games: int = attrs.field(validator=int_field())
    mean_moves: float = attrs.field(validator=real_field())
    drawn_share: float = attrs.field(validator=real_field(0.0, 1.0))
    first_seat_win_rate: float = attrs.field(validator=real_field(0.0, 1.0))
    first_seat_ci: tuple[float, float]
    outcomes: dict[str, int] = attrs.Factory(dict)
    greedy_games: int = attrs.field(default=0, validator=int_field())
    greedy_outcomes: dict[str, int] = attrs.Factory(dict)
    greedy_mean_moves: float = attrs.field(default=0.0, validator=real_field())
    wins_by_position: tuple[int, ...] = ()
    greedy_lengths: tuple[int, ...] = ()
    stuck_seats: int = attrs.field(default=0, validator=int_field())
    stuck_games: int = attrs.field(default=0, validator=int_field())
    played: int = attrs.field(default=0, validator=int_field())
    interrupted: bool = False
    coverage_tally: Tally | None = attrs.field(default=None, eq=False)


@attrs.frozen
class Report:
    """Everything ``spitemalice validate`` found.

    Attributes:
        target: the configuration checked (``"g4a + mandatory-aces, 2 players"``).
        checks: one row per check, static first.
        stats: the simulated games, or ``None`` when none were played.
        reproduction: for a failed check of games (the configuration's own, another seat
            count, a stacking order), the smallest failing game as a dict
            ``{"seed": int, "moves": [text, ...], "problem": str, "invariant": str,
            "record": dict, "check": str, "where": str}`` (``check``: the failed check it
            shows; ``where``: the configuration it was played under where that is not the
            one validated, ``"stacked as A + B"``, else ``""``); else ``None``.
        findings: the judgement; every failed check is also an ``error`` finding.
        configuration: the configuration validated, with the seed and versions
            (:mod:`spitemalice.runs.provenance`), or ``None``.
        command: the command that reruns this validation.
        base: the base rule set compared with and how it was found, or why there is none.
        interrupted: a stop (Ctrl-C, SIGTERM) cut the validation short: the checks and
            figures cover the games played (``stats.played``), and a failing game is given as
            it was found, not shrunk.
        not_run: what a validation cut short did not do, in order: the names of its
            steps (:data:`spitemalice.validation.STEPS`), after ``"the checked games"`` when
            it stopped before them.
        coverage: how the games exercised each clause of the rule sheet
            (:mod:`spitemalice.measures.coverage`); empty when no game was played.
    """

    target: str
    checks: tuple[Check, ...]
    stats: GameStats | None = None
    reproduction: dict[str, object] | None = None
    findings: tuple[Finding, ...] = ()
    configuration: RunConfiguration | None = None
    command: str = ""
    base: str = ""
    interrupted: bool = False
    not_run: tuple[str, ...] = ()
    coverage: tuple[ClauseCoverage, ...] = ()

    @property
    def failed_checks(self) -> tuple[Finding, ...]:
        """Every failed check as an ``error`` finding."""
        return tuple(Finding("error", c.name, c.detail or "failed", c.figure)
                     for c in self.checks if not c.passed)

    @property
    def unrecorded(self) -> tuple[str, ...]:
        """The failed checks whose failure :attr:`reproduction` does not record: those that
        fail with no game (static checks, two stacking orders listing different moves), and
        those whose game lost its place to the one recorded (a report records one)."""
        shown = () if self.reproduction is None else (
            OWN_GAMES if self.reproduction.get("check", OWN_GAMES[0]) in OWN_GAMES
            else (self.reproduction["check"],))
        return tuple(dict.fromkeys(c.name for c in self.checks
                                   if not c.passed and c.name not in shown))

    @property
    def errors(self) -> tuple[Finding, ...]:
        return self.failed_checks + tuple(f for f in self.findings if f.level == "error")

    @property
    def warnings(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.level == "warning")

    @property
    def passed(self) -> bool:
        """No check failed and no finding is an error (warnings do not count)."""
        return not self.errors

    @property
    def undecided(self) -> tuple[Check, ...]:
        """The judgements whose interval holds their threshold (neither pass nor warning)."""
        return tuple(c for c in self.checks if c.undecided)

    @property
    def open_required(self) -> tuple[Check, ...]:
        """The undecided judgements of :data:`REQUIRED`."""
        return tuple(c for c in self.undecided if c.name in REQUIRED)

    def ok(self, strict: bool = False) -> bool:
        """Whether the rule set passes: no error, and under ``strict`` no warning and no
        undecided judgement of :data:`REQUIRED` either."""
        return self.passed and not (strict and (self.warnings or self.open_required))

    def as_dict(self) -> dict[str, object]:
        data = attrs.asdict(self, recurse=True,
                            filter=lambda field, _: field.name != "coverage_tally")
        games = self.stats.coverage_tally.games if self.stats and self.stats.coverage_tally else 0
        data["coverage"] = coverage_as_dict(self.coverage, games) if self.coverage else None
        if self.stats and not self.stats.outcomes.get("win", 0):  # no won game: not 0
            data["stats"]["first_seat_win_rate"] = None
        data["checks"] = [attrs.asdict(c) | {"status": c.status} for c in self.checks]
        data["findings"] = [_finding_dict(f) for f in (*self.failed_checks, *self.findings)]
        data["configuration"] = (self.configuration.as_dict() if self.configuration
                                 else None)
        return data | {"passed": self.passed, "warnings": len(self.warnings),
                       "undecided": [c.name for c in self.undecided],
                       "unrecorded": list(self.unrecorded)}


def _finding_dict(finding: Finding) -> dict[str, object]:
    data = attrs.asdict(finding, recurse=False)
    data["parameters"] = list(finding.parameters)
    data["rate"] = finding.rate.as_dict() if finding.rate else None
    return data


def format_report(report: Report, strict: bool = False) -> str:
    """The report as a table of checks, the findings, the game summary and any
    reproduction; the last line is the verdict."""
    width = max(len(check.name) for check in report.checks)
    status = max(4, *(len(check.status) for check in report.checks))
    lines = [f"validate {report.target}", *_head(report), ""]
    for check in report.checks:
        figure = check.skipped if check.skipped else check.figure
        if check.undecided:
            figure = f"{figure}; {check.undecided}"
        lines.append(f"{check.name.ljust(width)}  {check.status:<{status}}  {figure}".rstrip())
        if check.detail:
            lines.append(f"{'':{width}}        {check.detail}")
    if report.findings:
        lines += ["", "findings:", *(f"  {f.text()}" for f in report.findings)]
    if report.stats is not None:
        s = report.stats
        low, high = s.first_seat_ci
        first = (f"{s.first_seat_win_rate:.1%} (95% CI {low:.1%}-{high:.1%})"
                 if s.outcomes.get("win", 0) else "- (no won games: not measured)")
        lines += ["", f"games {s.games}: mean {s.mean_moves:.1f} moves, "
                      f"{s.drawn_share:.1%} without a winner, first seat won {first}"]
    if report.coverage and report.stats is not None and report.stats.coverage_tally:
        lines += ["", *format_coverage(report.coverage, report.stats.coverage_tally.games)]
    if report.reproduction is not None:
        moves = " ".join(str(m) for m in report.reproduction["moves"])  # type: ignore[attr-defined]
        where = report.reproduction.get("where")
        lines += ["", f"smallest failing game{f' ({where})' if where else ''}: seed "
                      f"{report.reproduction['seed']}, moves: {moves or '(none)'}",
                  f"problem: {report.reproduction['problem']}"]
    if report.unrecorded:
        lines += ["", f"no failing game recorded for: {', '.join(report.unrecorded)} (a check "
                      "of no game fails without one; of the failing games one is recorded: "
                      "the configuration's own, else another seat count's, else a stacking "
                      "order's)"]
    if strict and report.passed and (report.warnings or report.open_required):
        lines += ["", "no failing game recorded: under --strict the warnings and undecided "
                      "judgements above fail, each a judgement of many games, not one game"]
    lines += ["", verdict(report, strict)]
    return "\n".join(lines)


def _head(report: Report) -> list[str]:
    """The configuration's rows below the title: changed parameters, seed, versions, base
    rule set and the rerun command."""
    rows = [row for row in (report.configuration.rows() if report.configuration else [])
            if row[0] != "rule set"]  # the title names it
    rows += [(label, value) for label, value in (("base rule set", report.base),
                                                 ("rerun", report.command)) if value]
    width = max((len(label) for label, _ in rows), default=0)
    return [f"{label.ljust(width)}  {value}" for label, value in rows]


def verdict(report: Report, strict: bool = False) -> str:
    """The last line: whether the checks passed, how many warnings there are and which
    judgements are undecided; for a validation cut short, how much it did first."""
    warnings = len(report.warnings)
    said = count_of(warnings, "warning")
    if report.interrupted:
        played = report.stats.played if report.stats else 0
        skipped = f"; not done: {', '.join(report.not_run)}" if report.not_run else ""
        found = "some checks FAILED" if not report.passed else "no check failed"
        return f"interrupted after {count_of(played, 'game')}: {found} so far{skipped}"
    if not report.passed:
        return f"some checks FAILED; {said}"
    open_ = [c.name for c in report.undecided]
    if open_:
        line = f"no check failed; undecided: {', '.join(open_)}"
        line += f"; {said}" if warnings else ""
        return line + (" (FAIL under --strict)" if strict and (warnings or report.open_required)
                       else "")
    if warnings and strict:
        return f"all checks passed; {said} (FAIL under --strict)"
    return f"all checks passed; {said}" if warnings else "all checks passed"

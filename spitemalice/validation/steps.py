"""What a validation does after its checked games, step by step: each step a function from
the report so far to the report with the step done, in the table :data:`STEPS`.

A run cut short (Ctrl-C; SIGTERM on the command line) names the steps it did not reach
(:attr:`~spitemalice.validation.report.Report.not_run`); :func:`after_games` runs them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from spitemalice.bots.players import make_player
from spitemalice.engine.apply import apply_move
from spitemalice.engine.deal import deal
from spitemalice.engine.shuffle import derive_seed
from spitemalice.errors import SpiteMaliceError
from spitemalice.formats.records.making import record_game
from spitemalice.formats.records.record import RecordFinding
from spitemalice.formats.records.writing import record_to_dict
from spitemalice.measures.coverage import UNEXERCISED, coverage_notes
from spitemalice.model import Outcome
from spitemalice.moves import move_text
from spitemalice.rules.book import RuleBook, book_field
from spitemalice.rules.findings import cite
from spitemalice.rules.loader import built_in_rulesets, load
from spitemalice.rules.registry import installed
from spitemalice.runs.loop import play_game
from spitemalice.wording import count_of

from . import termination
from .base import Base
from .dynamic import STUCK
from .failure import Failure
from .intent import Intended, intended
from .judge import ENOUGH_GAMES, judge
from .report import OWN_GAMES, Check, Finding, GameStats, Report
from .shrink import shrink
from .spread import check_clause_settings, check_seat_counts, check_stacking
from .termination import NonTermination, cpu_limit

BASE_GAMES = 60
"""Greedy games of the base rule set played to compare game length with."""


@attrs.frozen
class Plan:
    """What the steps after the games work from: the configuration validated, with the
    defaults of :class:`~spitemalice.validation.run.Validation` filled in from its rule book.

    Attributes:
        book: the configuration validated.
        seed: the seed of its games.
        reload: builds the configuration with parameter overrides (every seat count).
        stack: builds it with these house-rule names, in this order.
        own: the configuration's own house-rule names (stacked in every order).
        plugins: the plugin objects of ``book``, rule set first.
        base: the base rule set to compare game length and parameters with.
        failure: the first failure the configuration's own games met (``None`` before they
            are played, or when every game was clean).

    Raises:
        TypeError: ``book`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """

    book: RuleBook = attrs.field(eq=False, validator=book_field())
    seed: int
    reload: Callable[[Mapping[str, Any]], RuleBook]
    stack: Callable[[Sequence[str]], RuleBook]
    own: tuple[str, ...]
    plugins: tuple[object, ...]
    base: Base
    failure: Failure | None = None


@attrs.frozen
class Step:
    """One step after the games.

    Attributes:
        name: what a run cut short names as not done (``"the smallest failing game"``).
        run: the report with the step done, from the plan and the report so far.
    """

    name: str
    run: Callable[[Plan, Report], Report]


def seat_counts(plan: Plan, report: Report) -> Report:
    """``report`` with the check of a few games at every other seat count (and its smallest
    failing game, :func:`_recorded`)."""
    return _recorded(plan, report, *check_seat_counts(plan.reload, plan.book, plan.seed))


def stacking(plan: Plan, report: Report) -> Report:
    """``report`` with the check of the house rules stacked in every order (and its smallest
    failing game, :func:`_recorded`)."""
    return _recorded(plan, report, *check_stacking(plan.stack, list(plan.own), plan.seed))


def _recorded(plan: Plan, report: Report, check: Check, failure: Failure | None) -> Report:
    """``report`` with ``check``, and with the smallest failing game of ``failure`` (played
    under another configuration: ``failure.book``) as its reproduction when none is there yet
    and the configuration's own games were clean (their failure comes first: a report
    records one failing game)."""
    report = attrs.evolve(report, checks=(*report.checks, check))
    if failure is None or failure.book is None or plan.failure is not None \
            or report.reproduction is not None:
        return report
    return attrs.evolve(report, reproduction=_reproduction(failure.book, failure,
                                                           check=check.name))


def clause_settings(plan: Plan, report: Report) -> Report:
    """``report`` with a few checked games under the settings that put in force each clause
    its games did not exercise whose plugin names them (``VALIDATE_SETTINGS``), and those
    clauses' coverage rows made of those games' counts; unchanged when there is none."""
    check, rows = check_clause_settings(plan.reload, plan.book, plan.plugins, plan.seed,
                                        report.coverage)
    if check is None:
        return report
    return attrs.evolve(report, checks=(*report.checks, check), coverage=rows)


def judgement(plan: Plan, report: Report) -> Report:
    """``report`` with the judged checks and every finding: play against the base rule set's
    greedy games, unusual parameters, the stuck seats the rules intend and the clauses no
    game exercised."""
    assert report.stats is not None  # the steps run after the games
    stats, base = report.stats, plan.base
    expected = intended(plan.book, list(plan.plugins))
    base_stats = None if base.book is None else _greedy_stats(base.book, plan.seed,
                                                              stats.greedy_games)
    changed = {} if base.book is None else _changed(plan.book, base.book)
    judged, findings = judge(plan.book, stats, base_stats, changed, usual_configurations(),
                             expected, base.name or "the base rule set", base.how,
                             None if base.book is None else base.book.ruleset.turn_limit)
    return attrs.evolve(report, checks=(*report.checks, *judged),
                        findings=(*findings, *_stuck_seats(stats, expected),
                                  *_unexercised(plan.book, report)))


def smallest_failing_game(plan: Plan, report: Report) -> Report:
    """``report`` with the smallest failing game found from the first failure of the
    configuration's own games, if any (else the one an earlier step recorded, if any)."""
    return attrs.evolve(report, reproduction=report.reproduction if plan.failure is None
                        else _reproduction(plan.book, plan.failure))


STEPS: tuple[Step, ...] = (
    Step("games at every seat count", seat_counts),
    Step("house rules stacked in every order", stacking),
    Step("clauses under their settings", clause_settings),
    Step("the judgement of the games", judgement),
    Step("the smallest failing game", smallest_failing_game),
)
"""What validate does after its games, in order.  A report records one failing game, shrunk:
the configuration's own games' first failure, else the first failing game at another seat
count, else in a stacking order (played under that configuration, which its record names).
A failed check with no game (a static check, two stacking orders listing different moves)
is named by :attr:`~spitemalice.validation.report.Report.unrecorded`."""


def after_games(plan: Plan, report: Report, steps: Sequence[Step] = STEPS) -> Report:
    """``report`` (its games played) with ``steps`` done in order.  Cut short, or when the
    games were: what was found so far, the steps not done named, and the failing game as it
    was found (not shrunk: the person asked to stop)."""
    later = list(steps)
    if report.stats is not None and not report.stats.interrupted:
        try:
            while later:
                report = later[0].run(plan, report)
                later.pop(0)
            return report
        except KeyboardInterrupt:
            pass
    found = report.reproduction if plan.failure is None else _reproduction(
        plan.book, plan.failure, shrunk=False)
    return attrs.evolve(report, interrupted=True, not_run=tuple(step.name for step in later),
                        reproduction=found)


def _reproduction(book: RuleBook, failure: Failure, shrunk: bool = True,
                  check: str = "") -> dict[str, object]:
    """The smallest failing game found from ``failure`` under ``book`` (``shrunk=False``:
    ``failure`` as it was found, for a run cut short), with its record; ``check``: the
    failed check it shows, where it is not the configuration's own games."""
    small = _shrunk(book, failure) if shrunk else failure
    invariant = small.invariant or failure.invariant
    ended = None if invariant == "non-termination" else _outcome(book, small)
    record = attrs.evolve(record_game(book, small.seed, small.moves, outcome=ended),
                          finding=RecordFinding(invariant, small.problem))
    return {"seed": small.seed, "moves": [move_text(m) for m in small.moves],
            "problem": small.problem, "invariant": invariant, "record": record_to_dict(record),
            "check": check or OWN_GAMES, "where": failure.where}


def _unexercised(book: RuleBook, report: Report) -> list[Finding]:
    """A finding (``unexercised``: a warning, or info for a clause declaring it) for each
    clause no game exercised."""
    tally = report.stats.coverage_tally if report.stats is not None else None
    if tally is None or not report.coverage:
        return []
    return [Finding(note.level, UNEXERCISED, note.message)
            for note in coverage_notes(book, report.coverage, tally.games)]


def _shrunk(book: RuleBook, failure: Failure) -> Failure:
    """A smaller failing game, within a CPU-time budget; a game that does not end is kept as
    it is (replaying it would not end either)."""
    if failure.invariant == "non-termination":
        return failure
    try:
        with cpu_limit(4 * termination.GAME_CPU_SECONDS):
            return shrink(book, failure)
    except NonTermination:
        return failure


def _greedy_stats(base: RuleBook, seed: int, games: int) -> GameStats:
    """Greedy games of the base rule set: only their count and mean length are used."""
    count = max(ENOUGH_GAMES, min(BASE_GAMES, games))
    lengths = []
    for game in range(count):
        game_seed = derive_seed(seed, "base", game)
        players = [make_player("greedy", derive_seed(game_seed, "seat", i))
                   for i in range(base.players)]
        lengths.append(len(play_game(base, players, game_seed).moves))
    return GameStats(count, 0.0, 0.0, 0.0, (0.0, 1.0), greedy_games=count,
                     greedy_mean_moves=sum(lengths) / count, greedy_lengths=tuple(lengths))


def _changed(book: RuleBook, base: RuleBook) -> dict[str, Any]:
    mine, theirs = book.parameters(), base.parameters()
    return {key: value for key, value in mine.items()
            if key != "players" and theirs.get(key) != value}


@functools.cache
def usual_configurations() -> tuple[dict[str, Any], ...]:
    """The parameters of every built-in turn-based rule set, alone and with each built-in
    house rule that stacks on it (what "unusual" is measured against: Spit's parameters
    shape a game whose seats move at once, so its pay-off size says nothing of a turn-based
    game's)."""
    infos = [info for info in installed() if info.origin.startswith("spitemalice_variants")]
    rulesets = built_in_rulesets()
    house_rules = [info.name for info in infos if info.kind == "house-rule"]
    configs = []
    for name in rulesets:
        for rules in ([], *([h] for h in house_rules)):
            try:
                configs.append(load(name, rules).parameters())
            except SpiteMaliceError:
                continue
    return tuple(configs)


def _stuck_seats(stats: GameStats, expected: Intended) -> list[Finding]:
    """Info on the stuck seats a clause intends (unintended ones failed their games)."""
    clauses = expected.get(STUCK)
    if not clauses:
        return []
    games = count_of(stats.games, "clean game")
    if not stats.stuck_seats:  # what was measured is that it never happened: say that
        return [Finding("info", STUCK, "no seat was ever left with no legal move but a pass "
                                       f"while holding a card it may discard {cite(clauses)}",
                        f"in none of the {games}" if stats.games != 1 else f"not in the {games}")]
    times = "once" if stats.stuck_seats == 1 else f"{stats.stuck_seats} times"
    return [Finding("info", STUCK, f"a seat was left with no legal move but a pass while "
                                   f"holding a card it may discard {times} {cite(clauses)}",
                    f"in {stats.stuck_games} of {games}")]


def _outcome(book: RuleBook, failure: Failure) -> Outcome | None:
    """How the failing game stands after its moves, so that its record is complete."""
    state = deal(book, failure.seed)
    try:
        for move in failure.moves:
            state = apply_move(book, state, move)
    except Exception:  # the failure may be a crash; the record then stays open
        return None
    return state.outcome

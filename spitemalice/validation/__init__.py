"""Validating a rule-set configuration: static checks, checked games, a judgement, a report.

``validate("g4a", ["mandatory-aces"], {"players": 2}, games=300, seed=1)`` returns a
:class:`Report`; ``spitemalice validate`` prints it.  Errors mean the rules are inconsistent
(an invariant broken, a crash, a game that does not end, listed and checked moves that
disagree); warnings mean they play badly (see :mod:`spitemalice.validation.judge`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from spitemalice.bots.players import make_player
from spitemalice.engine import apply_move, deal
from spitemalice.engine.shuffle import derive_seed
from spitemalice.errors import SpiteMaliceError
from spitemalice.formats.records import RecordFinding, record_game, record_to_dict
from spitemalice.guards import check_games, check_list, check_seed
from spitemalice.measures.coverage import (
    UNEXERCISED,
    ClauseCoverage,
    clause_coverage,
    coverage_notes,
)
from spitemalice.model import Outcome
from spitemalice.moves import move_text
from spitemalice.rules.book import RuleBook, check_book
from spitemalice.rules.custom import is_file_name
from spitemalice.rules.findings import cite
from spitemalice.rules.loader import load
from spitemalice.rules.registry import installed, load_plugin
from spitemalice.rules.sheet import format_value
from spitemalice.runs.loop import play_game
from spitemalice.runs.progress import Progress
from spitemalice.runs.provenance import RunConfiguration, describe_run
from spitemalice.wording import count_of

from . import termination
from .base import Base, base_of
from .dynamic import STUCK, Failure, dynamic_checks, shrink
from .intent import Intended, intended
from .judge import ENOUGH_GAMES, judge
from .report import Check, Finding, GameStats, Report, format_report, skip
from .spread import check_seat_counts, check_stacking
from .static import static_checks
from .termination import NonTermination, check_blocked_position, cpu_limit

__all__ = ["Check", "Finding", "GameStats", "Report", "format_report", "validate",
           "validate_book"]

GAMES = "the checked games"
"""What validate does after its static checks."""

AFTER_GAMES = ("games at every seat count", "house rules stacked in every order",
               "the judgement of the games", "the smallest failing game")
"""What validate does after its games, in order: what a run cut short names as not done."""

BASE_GAMES = 60
"""Greedy games of the base rule set played to compare game length with."""


def validate(
    name: str,
    house_rules: Sequence[str] = (),
    params: Mapping[str, Any] | None = None,
    games: int = 300,
    seed: int = 0,
    progress: bool = False,
    jobs: int | None = 1,
    client: Any = None,
) -> Report:
    """Validate an installed rule set (or a rule-set file) with house rules and parameters.

    ``jobs`` (worker processes, ``None`` for every core) and ``client`` (a
    ``distributed.Client``) say where the configuration's own games are played; the report
    does not depend on them (:func:`spitemalice.runs.parallel.run_games`).

    Args:
        progress: show a progress bar on a terminal (stderr) while the games are played.

    Raises:
        TypeError: ``house_rules`` is a bare str (a list is wanted).
        RulesetError: the configuration cannot be loaded at all (unknown names, bad values);
            every other fault is a failed check in the report.
        SpiteMaliceError: ``games`` not 1 to :data:`~spitemalice.limits.MAX_GAMES`, or a
            seed not 0 to :data:`~spitemalice.limits.MAX_SEED`.
    """
    check_list(house_rules, "validate", "house_rules, a list of names,",
               '["mandatory-aces"]')
    games, seed = check_games(games), check_seed(seed)
    params = dict(params or {})
    book = load(name, house_rules, params)
    entry = _entry_point_check([name, *house_rules])
    base = base_of(name, house_rules, params, book.players)

    def reload(extra: Mapping[str, Any]) -> RuleBook:
        return load(name, house_rules, {**params, **extra})

    def stack(order: Sequence[str]) -> RuleBook:
        return load(name, order, params)

    named = describe_run(book, (), seed, ruleset=str(name), house_rules=house_rules,
                         settings=[(key, format_value(value)) for key, value in params.items()])
    return validate_book(book, games, seed, reload, extra_checks=[entry], stack=stack,
                         house_rules=house_rules, base=base, progress=progress, jobs=jobs,
                         client=client, named=named)


def validate_book(
    book: RuleBook,
    games: int = 300,
    seed: int = 0,
    reload: Callable[[Mapping[str, Any]], RuleBook] | None = None,
    extra_checks: Sequence[Check] = (),
    stack: Callable[[Sequence[str]], RuleBook] | None = None,
    house_rules: Sequence[str] | None = None,
    base: RuleBook | Base | None = None,
    progress: bool = False,
    jobs: int | None = 1,
    client: Any = None,
    named: RunConfiguration | None = None,
) -> Report:
    """Validate an already built :class:`RuleBook` (plugins that are not installed, too;
    with ``jobs`` above 1 or ``client`` the book is rebuilt in each worker from its
    description, so plugin modules must be importable by name there and plugin objects must
    pickle: :mod:`spitemalice.runs.workers`).

    Args:
        reload: a callable taking parameter overrides and returning the same configuration
            (used to deal every player count); ``None`` rebuilds from ``book``'s plugins.
        stack: builds the configuration with these house-rule names, in this order;
            ``None`` stacks ``book``'s own plugins and installed house rules, without
            parameter overrides.
        house_rules: the configuration's own house-rule names (default: ``book``'s).
        base: the base rule set to compare game length and parameters with: a
            :class:`~spitemalice.validation.base.Base` (found by
            :func:`~spitemalice.validation.base.base_of`, with how it was found), a rule book,
            or ``None`` for none.
        progress: show a progress bar on a terminal while the games are played.
        named: how the report names the configuration and the command that reruns it
            (:func:`~spitemalice.runs.provenance.describe_run`; default: from ``book``).

    Raises:
        TypeError: ``house_rules`` is a bare str (a list is wanted).
        SpiteMaliceError: ``games`` not 1 to :data:`~spitemalice.limits.MAX_GAMES`, or a
            seed not 0 to :data:`~spitemalice.limits.MAX_SEED`.
        TypeError: ``book`` is not a :class:`~spitemalice.rules.book.RuleBook`, or ``base``
            is neither ``None``, a Base nor a RuleBook.
    """
    check_book(book, "validate_book")  # in parameter order: of two wrong, the first is named
    games, seed = check_games(games), check_seed(seed)
    check_list(house_rules, "validate_book", "house_rules, a list of names,",
               '["mandatory-aces"]', none=True)
    if base is not None and not isinstance(base, Base):
        check_book(base, "validate_book's base")
    plugins = [book.plugin(name) for name in book.plugins]
    own = list(book.plugins[1:] if house_rules is None else house_rules)
    reload = reload or (lambda extra: book.rebuild(**extra))
    stack = stack or _stacker(book)
    if not isinstance(base, Base):
        base = Base(base, base.name if base else "", "")
    named = named or describe_run(book, (), seed)
    report = Report(f"{' + '.join(book.plugins)}, {book.players} players", (), None, None, (),
                    named, named.command("validate", "--games", str(games)),
                    f"{base.name} ({base.how})" if base.book is not None and base.how
                    else base.name or base.how)
    try:
        checks = [*static_checks(reload, book, plugins), *extra_checks,
                  check_blocked_position(book)]
    except KeyboardInterrupt:  # cut short before any game
        return attrs.evolve(report, interrupted=True, not_run=(GAMES, *AFTER_GAMES))
    with Progress(games, "validate", enabled=progress) as bar:
        dynamic, stats, failure = dynamic_checks(book, games, seed, jobs, client, bar.advance)
    report = attrs.evolve(report, checks=(*checks, *dynamic), stats=stats,
                          coverage=tuple(_coverage_rows(book, stats)))
    later = list(AFTER_GAMES)
    if not stats.interrupted:
        try:
            # A failure at another seat count or stacking is named in its check; only a
            # failure of this very configuration is shrunk and recorded.
            while later:
                report = _after_games(later[0], report, book, failure, seed, base, reload,
                                      stack, own, plugins)
                later.pop(0)
            return report
        except KeyboardInterrupt:
            pass
    # Cut short: what was found so far, and the failing game as it was found.
    found = None if failure is None else _reproduction(book, failure, shrunk=False)
    return attrs.evolve(report, interrupted=True, not_run=tuple(later), reproduction=found)


def _after_games(step: str, report: Report, book: RuleBook, failure: Failure | None,
                 seed: int, base: Base, reload: Callable[[Mapping[str, Any]], RuleBook],
                 stack: Callable[[Sequence[str]], RuleBook], own: list[str],
                 plugins: list[object]) -> Report:
    """``report`` with one of :data:`AFTER_GAMES` done."""
    if step == AFTER_GAMES[0]:
        return attrs.evolve(report, checks=(*report.checks,
                                            check_seat_counts(reload, book, seed)[0]))
    if step == AFTER_GAMES[1]:
        return attrs.evolve(report, checks=(*report.checks, check_stacking(stack, own, seed)[0]))
    if step == AFTER_GAMES[2]:
        assert report.stats is not None
        judged, findings = _judgement(book, report.stats, base, seed, intended(book, plugins))
        return attrs.evolve(report, checks=(*report.checks, *judged),
                            findings=(*findings, *_unexercised(book, report)))
    return attrs.evolve(report,
                        reproduction=None if failure is None else _reproduction(book, failure))


def _judgement(book: RuleBook, stats: GameStats, base: Base, seed: int,
               expected: Intended) -> tuple[list[Check], list[Finding]]:
    """The judged checks and every finding: play against the base rule set's greedy games,
    unusual parameters, and the stuck seats the rules intend."""
    base_stats = None if base.book is None else _greedy_stats(base.book, seed,
                                                              stats.greedy_games)
    changed = {} if base.book is None else _changed(book, base.book)
    judged, findings = judge(book, stats, base_stats, changed, usual_configurations(),
                             expected, base.name or "the base rule set", base.how)
    return judged, findings + _stuck_seats(stats, expected)


def _reproduction(book: RuleBook, failure: Failure, shrunk: bool = True) -> dict[str, object]:
    """The smallest failing game found from ``failure`` (``shrunk=False``: ``failure`` as it
    was found, for a run cut short), with its record."""
    small = _shrunk(book, failure) if shrunk else failure
    invariant = small.invariant or failure.invariant
    ended = None if invariant == "non-termination" else _outcome(book, small)
    record = attrs.evolve(record_game(book, small.seed, small.moves, outcome=ended),
                          finding=RecordFinding(invariant, small.problem))
    return {"seed": small.seed, "moves": [move_text(m) for m in small.moves],
            "problem": small.problem, "invariant": invariant, "record": record_to_dict(record)}


def _coverage_rows(book: RuleBook, stats: GameStats) -> list[ClauseCoverage]:
    """How the games exercised each clause (none when no game was counted)."""
    tally = stats.coverage_tally
    return [] if tally is None or not tally.games else clause_coverage(book, tally)


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


def _stacker(book: RuleBook) -> Callable[[Sequence[str]], RuleBook]:
    mine = {name: book.plugin(name) for name in book.plugins}

    def stack(order: Sequence[str]) -> RuleBook:
        rules = [mine.get(name) or load_plugin(name, "house-rule") for name in order]
        return RuleBook.from_plugins(mine[book.plugins[0]], rules)

    return stack


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
    """The parameters of every built-in rule set, alone and with each built-in house rule
    that stacks on it (what "unusual" is measured against)."""
    infos = [info for info in installed() if info.origin.startswith("spitemalice_variants")]
    rulesets = [info.name for info in infos if info.kind == "ruleset"]
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
    times = "never" if not stats.stuck_seats else (
        "once" if stats.stuck_seats == 1 else f"{stats.stuck_seats} times")
    return [Finding("info", STUCK, f"a seat was left with no legal move but a pass while "
                                   f"holding a card it may discard {times} {cite(clauses)}",
                    f"in {stats.stuck_games} of {count_of(stats.games, 'clean game')}")]


def _entry_point_check(names: Sequence[str]) -> Check:
    failures = []
    names = [name for name in names if not is_file_name(name)]
    if not names:
        return skip("loads from its entry point", "a rule-set file has no entry point")
    for name in names:
        try:
            load_plugin(name)
        except SpiteMaliceError as error:
            failures.append(str(error))
    return Check("loads from its entry point", not failures,
                 f"{len(names) - len(failures)}/{count_of(len(names), 'plugin')}",
                 "; ".join(failures))


def _outcome(book: RuleBook, failure: Failure) -> Outcome | None:
    """How the failing game stands after its moves, so that its record is complete."""
    state = deal(book, failure.seed)
    try:
        for move in failure.moves:
            state = apply_move(book, state, move)
    except Exception:  # the failure may be a crash; the record then stays open
        return None
    return state.outcome

"""Running a validation: :class:`Validation`, what to validate and how, as a frozen value
whose :meth:`~Validation.run` gives the :class:`~spitemalice.validation.report.Report`;
:func:`validate` builds one from an installed rule set's name (what ``spitemalice validate``
runs) and :func:`validate_book` from a rule book.

A run does, in order: the static checks (:mod:`~spitemalice.validation.static`), the checked
games (:mod:`~spitemalice.validation.dynamic`), then the steps of
:data:`~spitemalice.validation.steps.STEPS`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from spitemalice.errors import SpiteMaliceError
from spitemalice.guards import check_games, check_jobs, check_list, check_seed
from spitemalice.measures.coverage import ClauseCoverage, clause_coverage
from spitemalice.rules.book import RuleBook, check_book
from spitemalice.rules.custom import is_file_name
from spitemalice.rules.loader import load
from spitemalice.rules.registry import load_plugin
from spitemalice.rules.sheet import format_value
from spitemalice.runs.progress import Progress
from spitemalice.runs.provenance import RunConfiguration, describe_run
from spitemalice.wording import count_of, given_text

from .base import Base, base_of
from .dynamic import dynamic_checks
from .report import Check, GameStats, Report, skip
from .static import static_checks
from .steps import STEPS, Plan, Step, after_games
from .termination import check_blocked_position

GAMES = "the checked games"
"""What validate does after its static checks (and before :data:`STEPS`)."""


def check_arguments(function: str, book: Any, games: Any, seed: Any, house_rules: Any,
                    base: Any, jobs: Any) -> None:
    """Refuse what :class:`Validation` (or ``function``, which makes one) cannot take, the
    first wrong argument in parameter order named.

    Raises:
        TypeError: ``book`` is not a :class:`~spitemalice.rules.book.RuleBook`,
            ``house_rules`` is a bare str (a list is wanted), or ``base`` is neither ``None``,
            a Base nor a RuleBook.
        SpiteMaliceError: ``games`` not 1 to :data:`~spitemalice.limits.MAX_GAMES`, a seed
            not 0 to :data:`~spitemalice.limits.MAX_SEED`, or ``jobs`` neither ``None`` nor 1
            to :data:`~spitemalice.limits.MAX_JOBS`.
    """
    check_book(book, function)
    check_games(games)
    check_seed(seed)
    check_list(house_rules, function, "house_rules, a list of names,", '["mandatory-aces"]',
               none=True)
    if base is not None and not isinstance(base, Base):
        check_book(base, f"{function}'s base")
    check_jobs(jobs)


def checked_steps(function: str, steps: Any) -> tuple[Step, ...]:
    """``steps`` as a tuple (so a :class:`Validation` stays a hashable value), once each is a
    :class:`~spitemalice.validation.steps.Step`.

    Raises:
        TypeError: ``steps`` is not a list or tuple, or holds something that is not a Step.
    """
    check_list(steps, function, "steps, a list of Step values,", "list(STEPS)")
    for number, step in enumerate(steps):
        if not isinstance(step, Step):
            raise TypeError(f"{function} takes steps as Step values (validation.STEPS lists "
                            f"them); step {number} is {given_text(step)}")
    return tuple(steps)


@attrs.frozen
class Validation:
    """A validation of an already built :class:`RuleBook` (plugins that are not installed,
    too): what to check and how.  :meth:`run` plays it; with ``jobs`` above 1 or ``client``
    the book is rebuilt in each worker from its description, so plugin modules must be
    importable by name there and plugin objects must pickle
    (:mod:`spitemalice.runs.workers`).

    Attributes:
        book: the configuration validated.
        games: its checked games (1 to :data:`~spitemalice.limits.MAX_GAMES`).
        seed: the seed of every game played (0 to :data:`~spitemalice.limits.MAX_SEED`).
        reload: a callable taking parameter overrides and returning the same configuration
            (used to deal every player count); ``None`` rebuilds from ``book``'s plugins.
        extra_checks: checks made before the run, reported after the static checks.
        stack: builds the configuration with these house-rule names, in this order;
            ``None`` stacks ``book``'s own plugins and installed house rules, without
            parameter overrides.
        house_rules: the configuration's own house-rule names (default: ``book``'s).
        base: the base rule set to compare game length and parameters with: a
            :class:`~spitemalice.validation.base.Base` (found by
            :func:`~spitemalice.validation.base.base_of`, with how it was found), a rule book,
            or ``None`` for none.
        progress: show a progress bar on a terminal (stderr) while the games are played.
        jobs: worker processes for the configuration's own games (``None`` for every core);
            with ``client`` (a ``distributed.Client``) they say where the games are played;
            the report does not depend on them (:func:`spitemalice.runs.parallel.run_games`).
        named: how the report names the configuration and the command that reruns it
            (:func:`~spitemalice.runs.provenance.describe_run`; default: from ``book``).
        steps: what is done after the games, in order
            (:data:`~spitemalice.validation.steps.STEPS`, all of them, by default).

    Raises:
        TypeError: ``book`` is not a :class:`~spitemalice.rules.book.RuleBook`,
            ``house_rules`` is a bare str (a list is wanted), or ``base`` is neither ``None``,
            a Base nor a RuleBook.
        SpiteMaliceError: ``games`` not 1 to :data:`~spitemalice.limits.MAX_GAMES`, a seed
            not 0 to :data:`~spitemalice.limits.MAX_SEED`, or ``jobs`` neither ``None`` nor 1
            to :data:`~spitemalice.limits.MAX_JOBS`.
    """

    book: RuleBook  # compared by identity, as rule books are
    games: int = 300
    seed: int = 0
    reload: Callable[[Mapping[str, Any]], RuleBook] | None = None
    extra_checks: Sequence[Check] = ()
    stack: Callable[[Sequence[str]], RuleBook] | None = None
    house_rules: Sequence[str] | None = None
    base: RuleBook | Base | None = None
    progress: bool = False
    jobs: int | None = 1
    client: Any = None
    named: RunConfiguration | None = None
    steps: tuple[Step, ...] = STEPS

    def __attrs_post_init__(self) -> None:
        check_arguments(type(self).__name__, self.book, self.games, self.seed,
                        self.house_rules, self.base, self.jobs)
        object.__setattr__(self, "steps", checked_steps(type(self).__name__, self.steps))

    def run(self) -> Report:
        """The report: the static checks, the checked games and :attr:`steps`.  A stop
        (Ctrl-C; SIGTERM on the command line) cuts the run short: the report then says so
        and names what was not done."""
        plan = self._plan()
        report = self._heading(plan.base)
        try:
            checks = [*static_checks(plan.reload, self.book, list(plan.plugins)),
                      *self.extra_checks, check_blocked_position(self.book)]
        except KeyboardInterrupt:  # cut short before any game
            return attrs.evolve(report, interrupted=True,
                                not_run=(GAMES, *(step.name for step in self.steps)))
        with Progress(self.games, "validate", enabled=self.progress) as bar:
            dynamic, stats, failure = dynamic_checks(self.book, self.games, self.seed,
                                                     self.jobs, self.client, bar.advance)
        report = attrs.evolve(report, checks=(*checks, *dynamic), stats=stats,
                              coverage=tuple(_coverage_rows(self.book, stats)))
        return after_games(attrs.evolve(plan, failure=failure), report, self.steps)

    def _plan(self) -> Plan:
        """This validation with its defaults filled in from :attr:`book`."""
        book = self.book
        base = self.base if isinstance(self.base, Base) else Base(
            self.base, self.base.name if self.base else "", "")
        return Plan(book, self.seed,
                    self.reload or (lambda extra: book.rebuild(**extra)),
                    self.stack or _stacker(book),
                    tuple(book.plugins[1:] if self.house_rules is None else self.house_rules),
                    tuple(book.plugin(name) for name in book.plugins), base)

    def _heading(self, base: Base) -> Report:
        """The report before any check: what is validated, against what, rerun how."""
        book = self.book
        named = self.named or describe_run(book, (), self.seed)
        return Report(f"{_plugins_named(book.plugins)}, {book.players} players", (), None, None, (),
                      named, named.command("validate", "--games", str(self.games)),
                      f"{base.name} ({base.how})" if base.book is not None and base.how
                      else base.name or base.how)


def _plugins_named(plugins: Sequence[str]) -> str:
    """A configuration's plugins for a report's title, each named once: a rule-set file's
    house rules written as data (``"F.toml:DD-1"``) go in brackets after the file's own name
    where the file is among ``plugins`` (``"blackwood-frey + F.toml (DD-1, DD-2)"``); a data
    rule without its file (validated alone) keeps its whole name."""
    files = {name for name in plugins if is_file_name(name)}
    rules: dict[str, list[str]] = {}
    for name in plugins:
        file, colon, clause = name.rpartition(":")
        if colon and file in files:
            rules.setdefault(file, []).append(clause)
    named = [f"{name} ({', '.join(rules[name])})" if name in rules else name
             for name in plugins if name.rpartition(":")[0] not in rules]
    return " + ".join(named)


def validate(
    name: str,
    house_rules: Sequence[str] = (),
    params: Mapping[str, Any] | None = None,
    games: int = 300,
    seed: int = 0,
    progress: bool = False,
    jobs: int | None = 1,
    client: Any = None,
    *,
    allow_files: bool = False,
) -> Report:
    """Validate an installed rule set (or a rule-set file) with house rules and parameters:
    the :class:`Validation` of the configuration loaded, with a check that each plugin loads
    from its entry point, every seat count and stacking order loaded the same way, and the
    base :func:`~spitemalice.validation.base.base_of` finds.

    ``jobs`` (worker processes, ``None`` for every core) and ``client`` (a
    ``distributed.Client``) say where the configuration's own games are played; the report
    does not depend on them (:func:`spitemalice.runs.parallel.run_games`).

    Args:
        progress: show a progress bar on a terminal (stderr) while the games are played.
        allow_files: a rule-set file's ``base`` may name another file (as
            :func:`~spitemalice.load`'s ``allow_files``).

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
    book = load(name, house_rules, params, allow_files=allow_files)
    entry = _entry_point_check([name, *house_rules])
    base = base_of(name, house_rules, params, book.players, allow_files=allow_files)

    def reload(extra: Mapping[str, Any]) -> RuleBook:
        return load(name, house_rules, {**params, **extra}, allow_files=allow_files)

    def stack(order: Sequence[str]) -> RuleBook:
        return load(name, order, params, allow_files=allow_files)

    named = describe_run(book, (), seed, ruleset=str(name), house_rules=house_rules,
                         settings=[(key, format_value(value)) for key, value in params.items()])
    return Validation(book, games, seed, reload, extra_checks=[entry], stack=stack,
                      house_rules=house_rules, base=base, progress=progress, jobs=jobs,
                      client=client, named=named).run()


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
    """Validate an already built :class:`RuleBook`: ``Validation(book, ...).run()``, the
    arguments as :class:`Validation` describes them.

    Raises:
        TypeError: ``house_rules`` is a bare str (a list is wanted).
        SpiteMaliceError: ``games`` not 1 to :data:`~spitemalice.limits.MAX_GAMES`, or a
            seed not 0 to :data:`~spitemalice.limits.MAX_SEED`.
        TypeError: ``book`` is not a :class:`~spitemalice.rules.book.RuleBook`, or ``base``
            is neither ``None``, a Base nor a RuleBook.
    """
    # Checked here too, so that the message names the function called.
    check_arguments("validate_book", book, games, seed, house_rules, base, jobs)
    return Validation(book, games, seed, reload, extra_checks, stack, house_rules, base,
                      progress, jobs, client, named).run()


def _coverage_rows(book: RuleBook, stats: GameStats) -> list[ClauseCoverage]:
    """How the games exercised each clause (none when no game was counted)."""
    tally = stats.coverage_tally
    return [] if tally is None or not tally.games else clause_coverage(book, tally)


def _stacker(book: RuleBook) -> Callable[[Sequence[str]], RuleBook]:
    mine = {name: book.plugin(name) for name in book.plugins}

    def stack(order: Sequence[str]) -> RuleBook:
        rules = [mine.get(name) or load_plugin(name, "house-rule") for name in order]
        return RuleBook.from_plugins(mine[book.plugins[0]], rules)

    return stack


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

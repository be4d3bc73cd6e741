"""Validating a rule-set configuration: static checks, simulated games, a report.

``validate("g4a", ["mandatory-aces"], {"players": 2}, games=300, seed=1)`` returns a
:class:`Report`; ``spitemalice validate`` prints it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from spitemalice.engine import apply_move, deal
from spitemalice.errors import SpiteMaliceError
from spitemalice.loader import load
from spitemalice.model import Outcome
from spitemalice.moves import move_text
from spitemalice.records import record_game, record_to_dict
from spitemalice.registry import load_plugin
from spitemalice.rulebook import RuleBook

from .dynamic import Failure, dynamic_checks, shrink
from .report import Check, GameStats, Report, format_report
from .static import static_checks

__all__ = ["Check", "GameStats", "Report", "format_report", "validate", "validate_book"]


def validate(
    name: str,
    house_rules: Sequence[str] = (),
    params: Mapping[str, Any] | None = None,
    games: int = 300,
    seed: int = 0,
    jobs: int | None = 1,
    client: Any = None,
) -> Report:
    """Validate an installed rule set (or a rule-set file) with house rules and parameters.

    ``jobs`` (worker processes, ``None`` for every core) and ``client`` (a
    ``distributed.Client``) say where the games are played; the report does not depend on
    them (:func:`spitemalice.parallel.run_games`).

    Raises:
        RulesetError: the configuration cannot be loaded at all (unknown names, bad values);
            every other fault is a failed check in the report.
    """
    params = dict(params or {})
    book = load(name, house_rules, params)
    entry = _entry_point_check([name, *house_rules])

    def reload(extra: Mapping[str, Any]) -> RuleBook:
        return load(name, house_rules, {**params, **extra})

    return validate_book(book, games, seed, reload, extra_checks=[entry], jobs=jobs,
                         client=client)


def validate_book(
    book: RuleBook,
    games: int = 300,
    seed: int = 0,
    reload: Any = None,
    extra_checks: Sequence[Check] = (),
    jobs: int | None = 1,
    client: Any = None,
) -> Report:
    """Validate an already built :class:`RuleBook` (plugins that are not installed, too;
    with ``jobs`` above 1 they reach the worker processes by fork, and with ``client`` they
    must pickle).

    Args:
        reload: a callable taking parameter overrides and returning the same configuration
            (used to deal every player count); ``None`` rebuilds from ``book``'s plugins.
    """
    plugins = [book.pm.get_plugin(name) for name in book.plugins]
    if reload is None:
        def reload(extra: Mapping[str, Any]) -> RuleBook:
            return book.rebuild(**extra)
    checks = [*static_checks(reload, book, plugins), *extra_checks]
    dynamic, stats, failure = dynamic_checks(book, games, seed, jobs, client)
    checks += dynamic
    reproduction = None
    if failure is not None:
        small = shrink(book, failure)
        record = record_game(book, small.seed, small.moves, outcome=_outcome(book, small))
        reproduction = {"seed": small.seed, "moves": [move_text(m) for m in small.moves],
                        "problem": small.problem, "record": record_to_dict(record)}
    target = f"{' + '.join(book.plugins)}, {book.players} players"
    return Report(target, tuple(checks), stats, reproduction)



def _entry_point_check(names: Sequence[str]) -> Check:
    failures = []
    for name in names:
        if name.endswith(".toml"):
            continue
        try:
            load_plugin(name)
        except SpiteMaliceError as error:
            failures.append(str(error))
    return Check("loads from its entry point", not failures,
                 f"{len(names) - len(failures)}/{len(names)} plugins", "; ".join(failures))


def _outcome(book: RuleBook, failure: Failure) -> Outcome | None:
    """How the failing game stands after its moves, so that its record is complete."""
    state = deal(book, failure.seed)
    try:
        for move in failure.moves:
            state = apply_move(book, state, move)
    except Exception:  # the failure may be a crash; the record then stays open
        return None
    return state.outcome

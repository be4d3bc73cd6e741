"""Checked games beyond the configuration as given: every allowed seat count, every
installed house rule stacked on it in both orders (two forced-play rules must both apply
whichever comes first), and the settings that put in force a clause the configuration's own
games cannot exercise (a plugin's ``VALIDATE_SETTINGS``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence, Set
from typing import Any

import attrs

from spitemalice.engine.coverage import Recorder
from spitemalice.engine.deal import deal
from spitemalice.engine.legal import legal_moves
from spitemalice.engine.shuffle import derive_seed
from spitemalice.errors import RulesetError, SpiteMaliceError
from spitemalice.guards import check_list
from spitemalice.measures.coverage import ClauseCoverage, clause_coverage
from spitemalice.rules.book import RuleBook, check_book
from spitemalice.rules.registry import installed
from spitemalice.rules.sheet import format_value
from spitemalice.wording import count_of, given_text

from .dynamic import LINEUPS, play_checked
from .failure import Failure
from .report import Check, skip

SEAT_COUNT_GAMES = 4
"""Checked games (each with audited positions) at every allowed seat count other than the
configured one."""

STACK_GAMES = 2
"""Checked games per order for each house rule stacked on the configuration."""

Loader = Callable[[Mapping[str, Any]], RuleBook]
Stacker = Callable[[Sequence[str]], RuleBook]


def _games(book: RuleBook, seed: int, count: int, label: str) -> tuple[int, Failure | None]:
    """Play ``count`` checked games, every one audited; the games played and the first
    failure."""
    for game in range(count):
        game_seed = derive_seed(seed, label, game)
        _, _, _, failure = play_checked(book, game_seed, LINEUPS[game % len(LINEUPS)], (0, 7, 23))
        if failure is not None:
            return game + 1, failure
    return count, None


def check_seat_counts(load: Loader, book: RuleBook, seed: int) -> tuple[Check, Failure | None]:
    """Checked games at every seat count the rule set allows besides the configured one; the
    check, and the first failure met (its ``book`` and ``where`` say which seat count), or
    ``None``.

    Raises:
        TypeError: ``book`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(book, "check_seat_counts")
    name = "games at every seat count"
    rules = book.ruleset
    others = [n for n in range(rules.min_players, rules.max_players + 1) if n != book.players]
    if not others:
        return skip(name, f"the rule set allows only {book.players} seats"), None
    played, counts = 0, []
    for players in others:
        try:
            other = load({"players": players})
        except SpiteMaliceError:
            continue  # "deal every player count" reports it
        count, failure = _games(other, seed, SEAT_COUNT_GAMES, f"seats{players}")
        played += count
        counts.append(players)  # only the counts whose games were played are named
        if failure is not None:
            return Check(name, False, f"{players} players",
                         f"{players} players: {failure.problem}"), attrs.evolve(
                failure, book=other, where=f"at {players} players")
    if not counts:
        return skip(name, "no other seat count loads (\"deal every player count\" says "
                    "why)"), None
    seats = ", ".join(map(str, counts))
    return Check(name, True, f"{count_of(played, 'game')} at {seats} players"), None


def house_rule_names() -> list[str]:
    """Every installed house rule's name."""
    return [info.name for info in installed() if info.kind == "house-rule"]


def check_stacking(stack: Stacker, own: Sequence[str], seed: int,
                   extra: Sequence[str] | None = None) -> tuple[Check, Failure | None]:
    """Every other installed house rule stacked first and last on the configuration (whose
    house rules are ``own``), and ``own`` reversed: checked games in each order, and the same
    legal moves in the first position of both orders when both resolve to the same rules;
    the check, and the first failing game (its ``book`` and ``where`` say which order), or
    ``None`` (also when the orders list different moves: that fails with no game).

    Raises:
        TypeError: ``own`` is a bare str (a list is wanted).
    """
    check_list(own, "check_stacking", "own, a list of house-rule names,",
               '["mandatory-aces"]')
    check_list(extra, "check_stacking", "extra, a list of house-rule names,",
               '["mandatory-aces"]', none=True)
    name = "house rules stacked in both orders"
    others = [h for h in (house_rule_names() if extra is None else extra) if h not in own]
    pairs: list[tuple[list[str], list[str]]] = [([*own, h], [h, *own]) for h in others]
    if len(own) >= 2:
        pairs.append((list(own), list(reversed(own))))
    orders = 0
    for first, second in pairs:
        try:
            books = [stack(first), stack(second)]
        except SpiteMaliceError:
            continue  # these do not stack: nothing to play
        orders += 2
        for order, book in zip((first, second), books, strict=True):
            _, failure = _games(book, seed, STACK_GAMES, "stack:" + "+".join(order))
            if failure is not None:
                return Check(name, False, " + ".join(order),
                             f"stacked as {' + '.join(order)}: {failure.problem}"), attrs.evolve(
                    failure, book=book, where=f"stacked as {' + '.join(order)}")
        problem = _same_moves(books, first, second, seed)
        if problem:
            return Check(name, False, "", problem), None
    if not orders:
        return skip(name, "no other installed house rule stacks on this configuration"), None
    return Check(name, True, f"{count_of(orders, 'stacking order')}, "
                             f"{count_of(orders * STACK_GAMES, 'game')}"), None


def _same_moves(books: list[RuleBook], first: list[str], second: list[str],
                seed: int) -> str | None:
    if books[0].ruleset != books[1].ruleset:
        return None  # the orders resolve to different rules: nothing to compare
    states = [deal(book, seed) for book in books]
    moves = [set(legal_moves(book, state)) for book, state in zip(books, states, strict=True)]
    if states[0] == states[1] and moves[0] != moves[1]:
        only = sorted(map(str, moves[0] ^ moves[1]))[:3]
        return (f"{' + '.join(first)} and {' + '.join(second)} list different legal moves in "
                f"the same position (for example {', '.join(only)})")
    return None


SETTING_GAMES = 4
"""Checked games under the settings a plugin names for a clause out of force in the
configuration (``VALIDATE_SETTINGS``)."""

SETTINGS_CHECK = "clauses under their settings"
"""The name of :func:`check_clause_settings`' check."""


def clause_settings(plugins: Sequence[object], clauses: Set[str]) -> dict[str, dict[str, Any]]:
    """Clause id -> the parameter overrides that put it in force, from the plugins'
    ``VALIDATE_SETTINGS`` (``{"SK-26": {"packs": 3, "draw_pack": 0}}``), for the clauses of
    ``clauses`` (a plugin's clause another plugin took away is left out).

    Raises:
        RulesetError: a plugin's ``VALIDATE_SETTINGS`` is not a dict of clause ids to
            non-empty dicts of parameter names, naming the plugin and what was wrong.
    """
    found: dict[str, dict[str, Any]] = {}
    for plugin in plugins:
        given = getattr(plugin, "VALIDATE_SETTINGS", None)
        if given is None:
            continue
        owner = getattr(plugin, "NAME", type(plugin).__name__)
        if not isinstance(given, Mapping) or not all(
                isinstance(clause, str) and isinstance(settings, Mapping) and settings
                and all(isinstance(key, str) for key in settings)
                for clause, settings in given.items()):
            raise RulesetError(f"{owner}: VALIDATE_SETTINGS maps a clause id to the parameters "
                               "that put it in force, such as {'SK-26': {'packs': 3, "
                               f"'draw_pack': 0}}; not {given_text(given)}")
        found.update({clause: dict(settings) for clause, settings in given.items()
                      if clause in clauses})
    return found


def check_clause_settings(load: Loader, book: RuleBook, plugins: Sequence[object], seed: int,
                          rows: Sequence[ClauseCoverage],
                          ) -> tuple[Check | None, tuple[ClauseCoverage, ...]]:
    """Checked games under the settings that put a clause in force, for each clause the
    configuration's own games did not exercise whose plugin names them (``VALIDATE_SETTINGS``,
    :func:`clause_settings`): :data:`SETTING_GAMES` games each, their rule coverage counted.
    The check (``None`` when no such clause is out of force) and ``rows`` with each such
    clause's row made of those games' counts (:attr:`ClauseCoverage.under` names them).

    Raises:
        TypeError: ``book`` is not a :class:`~spitemalice.rules.book.RuleBook`.
        RulesetError: as :func:`clause_settings`.
    """
    check_book(book, "check_clause_settings")
    settings = clause_settings(plugins, {row.clause for row in rows if not row.exercised})
    if not settings:
        return None, tuple(rows)
    done: dict[str, ClauseCoverage] = {}
    said = []
    for clause, overrides in settings.items():
        named = ", ".join(f"{key}={format_value(value)}" for key, value in overrides.items())
        try:
            other = load(overrides)
        except SpiteMaliceError as error:  # not with this configuration: nothing to play
            said.append(f"{clause} not under {named}, which does not load here ({error})")
            continue
        recorder = Recorder(other)
        with recorder:
            for game in range(SETTING_GAMES):
                game_seed = derive_seed(seed, f"setting:{clause}", game)
                _, _, _, failure = play_checked(other, game_seed, LINEUPS[game % len(LINEUPS)],
                                                (0, 7, 23), recorder=recorder)
                recorder.game()
                if failure is not None:
                    return Check(SETTINGS_CHECK, False, f"{clause} under {named}",
                                 f"{clause} under {named}: {failure.problem}"), tuple(rows)
        row = next((row for row in clause_coverage(other, recorder.tally)
                    if row.clause == clause), None)
        if row is None:  # another plugin takes the clause away under these settings
            said.append(f"{clause} not in the sheet under {named}")
            continue
        done[clause] = attrs.evolve(row, under=f"{named} in {count_of(SETTING_GAMES, 'game')}")
        said.append(f"{clause} under {named}" + ("" if row.exercised else " (not exercised)"))
    if not done:
        return skip(SETTINGS_CHECK, "; ".join(said)), tuple(rows)
    return (Check(SETTINGS_CHECK, True, f"{count_of(len(done) * SETTING_GAMES, 'game')}: "
                  f"{'; '.join(said)}"),
            tuple(done.get(row.clause, row) for row in rows))

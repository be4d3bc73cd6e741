"""Static checks of a rule-set configuration: what can be known without playing a game."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from spitemalice import hookspecs
from spitemalice.errors import SpiteMaliceError
from spitemalice.rulebook import RuleBook

from .report import Check

Loader = Callable[[Mapping[str, Any]], RuleBook]


def static_checks(load: Loader, book: RuleBook, plugins: Sequence[object]) -> list[Check]:
    """Every static check of ``book``.

    Args:
        load: builds the same configuration with extra parameter overrides (``players``).
        book: the configuration under test.
        plugins: the plugin objects (rule set, then house rules) behind ``book``.
    """
    return [
        check_player_counts(load, book),
        check_ceiling_reachable(book),
        check_limits(book),
        check_hook_markers(plugins),
    ]


def check_player_counts(load: Loader, book: RuleBook) -> Check:
    """Every player count the rule set allows can be dealt pay-off piles and hands."""
    rules = book.ruleset
    counts = rules.player_counts
    failures = []
    for players in counts:
        try:
            load({"players": players})
        except SpiteMaliceError as error:
            failures.append(f"{players} players: {error}")
    figure = f"{len(counts) - len(failures)}/{len(counts)} player counts dealt"
    return Check("deal every player count", not failures, figure, "; ".join(failures))


def check_ceiling_reachable(book: RuleBook) -> Check:
    """Every rank from 1 to the build ceiling has a card that may stand for it, and the deck
    holds enough such cards to complete at least one build pile."""
    ceiling = book.ceiling.ceiling
    cards = [*book.deck.cards, *(book.deck.payoff_cards or ())]
    fitting = {r: sum(1 for c in cards if r in book.accepts[c.rank]) for r in range(1, ceiling + 1)}
    missing = [rank for rank, count in fitting.items() if count == 0]
    if missing:
        return Check("build ceiling reachable", False, f"ceiling {ceiling}",
                     f"no card may stand for rank(s) {missing}")
    fewest = min(fitting.values())
    return Check("build ceiling reachable", True,
                 f"ceiling {ceiling}; every rank has >= {fewest} cards")


def check_limits(book: RuleBook) -> Check:
    """Limits are positive and consistent with each other."""
    problems = []
    deal, discard = book.deal, book.discard
    if deal.hand_size < 1:
        problems.append("hand size below 1")
    if discard.piles < 1:
        problems.append("no discard pile")
    if book.build_limit < 0:
        problems.append("negative build-pile limit")
    if not 1 <= discard.max_cards <= deal.hand_size:
        problems.append(f"a discard of {discard.max_cards} cards with a hand of {deal.hand_size}")
    if book.ceiling.ceiling < 2:
        problems.append("build ceiling below 2")
    limit = book.build_limit or "unlimited"
    figure = (f"hand {deal.hand_size}, {discard.piles} discard piles, {limit} build piles, "
              f"ceiling {book.ceiling.ceiling}")
    return Check("limits consistent", not problems, figure, "; ".join(problems))


def check_hook_markers(plugins: Sequence[object]) -> Check:
    """Every ``spitemalice_*`` function of a plugin carries ``@hookimpl`` and names a real hook
    (pluggy skips an unmarked function silently, so a forgotten marker would go unnoticed)."""
    specs = {name for name in dir(hookspecs) if name.startswith("spitemalice_")}
    problems, counted = [], 0
    for plugin in plugins:
        name = getattr(plugin, "NAME", repr(plugin))
        for attr, value in inspect.getmembers(plugin, callable):
            if not attr.startswith("spitemalice_"):
                continue
            counted += 1
            if attr not in specs:
                problems.append(f"{name}.{attr} is not a hook")
            elif not hasattr(value, f"{hookspecs.PROJECT}_impl"):
                problems.append(f"{name}.{attr} lacks @hookimpl")
    return Check("hook markers", not problems, f"{counted} hook implementations",
                 "; ".join(problems))

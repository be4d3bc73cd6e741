"""Static checks of a rule-set configuration: what can be known without playing a game."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from spitemalice.errors import SpiteMaliceError
from spitemalice.rules import hookspecs
from spitemalice.rules.book import RuleBook, check_book
from spitemalice.wording import count_of, rank_names

from .report import Check

Loader = Callable[[Mapping[str, Any]], RuleBook]


def static_checks(load: Loader, book: RuleBook, plugins: Sequence[object]) -> list[Check]:
    """Every static check of ``book``.

    Args:
        load: builds the same configuration with extra parameter overrides (``players``).
        book: the configuration under test.
        plugins: the plugin objects (rule set, then house rules) behind ``book``.

    Raises:
        TypeError: ``book`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(book, "static_checks")
    return [
        check_player_counts(load, book),
        check_ceiling_reachable(book),
        check_every_rank_playable(book),
        check_tables_follow_ruleset(book),
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
    figure = f"{len(counts) - len(failures)}/{count_of(len(counts), 'player count')} dealt"
    return Check("deal every player count", not failures, figure, "; ".join(failures))


def check_ceiling_reachable(book: RuleBook) -> Check:
    """Every rank from 1 to the build ceiling has a card that may stand for it, and the deck
    holds enough such cards to complete at least one build pile.
    """
    ceiling = book.ceiling.ceiling
    cards = [*book.deck.cards, *(book.deck.payoff_cards or ())]
    fitting = {r: sum(1 for c in cards if r in book.accepts[c.rank]) for r in range(1, ceiling + 1)}
    missing = [rank for rank, count in fitting.items() if count == 0]
    if missing:
        return Check("build ceiling reachable", False, f"ceiling {ceiling}",
                     f"no card may stand for build rank(s) {rank_names(missing)}")
    fewest = min(fitting.values())
    return Check("build ceiling reachable", True,
                 f"ceiling {ceiling}; every rank has >= {count_of(fewest, 'card')}")


def check_every_rank_playable(book: RuleBook) -> Check:
    """Every rank in the deck can be played on some build pile: a rank above the build
    ceiling that is not wild, or a rank neither natural nor wild below it, makes its cards
    dead (they can only be discarded, and clog the discard piles).
    """
    cards = [*book.deck.cards, *(book.deck.payoff_cards or ())]
    ranks = sorted({card.rank for card in cards})
    dead = [rank for rank in ranks
            if not (rank < len(book.accepts) and book.accepts[rank])]
    name = "every rank can be built"
    if dead:
        count = sum(1 for card in cards if card.rank in dead)
        return Check(name, False, f"{len(ranks) - len(dead)}/{len(ranks)} ranks",
                     f"no build pile ever takes rank(s) {rank_names(dead)} "
                     f"({count_of(count, 'dead card')}); look at build_ceiling "
                     f"({book.ceiling.ceiling}) and wild_ranks")
    return Check(name, True, f"{len(ranks)}/{len(ranks)} ranks")


def check_tables_follow_ruleset(book: RuleBook) -> Check:
    """The tables the engine reads (which ranks a card may stand for, the build-pile limit,
    the ranks that may not be discarded, the hand size) say what the resolved rule set says,
    so that the rule sheet and ``spitemalice rules`` describe the game actually played.
    """
    rules = book.ruleset
    problems = []
    ceiling = book.ceiling.ceiling
    if ceiling != rules.build_ceiling:
        problems.append(f"build ceiling {ceiling}, rule set {rules.build_ceiling}")
    if book.build_limit != (rules.max_build_piles or 0):
        problems.append(f"build-pile limit {book.build_limit}, rule set {rules.max_build_piles}")
    if book.discard.forbidden != rules.discard_forbidden:
        problems.append(f"forbidden discards {rank_names(book.discard.forbidden)}, rule set "
                        f"{rank_names(rules.discard_forbidden)}")
    if book.deal.hand_size != rules.hand_size:
        problems.append(f"hand size {book.deal.hand_size}, rule set {rules.hand_size}")
    for rank in sorted(rules.wild_ranks):
        if rank >= len(book.accepts) or not book.accepts[rank]:
            continue
        want = {r for r in range(1, ceiling + 1) if r not in rules.wild_excluded}
        if book.accepts[rank] != want:
            problems.append(f"a wild {rank_names([rank])} may stand for "
                            f"{rank_names(book.accepts[rank])}, the rule set says "
                            f"{rank_names(want)}")
    return Check("engine tables follow the rule set", not problems,
                 "ceiling, limits, forbidden discards, hand size, wild cards",
                 "; ".join(problems))


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
    limit = (count_of(book.build_limit, "build pile") if book.build_limit
             else "unlimited build piles")
    figure = (f"hand {deal.hand_size}, {count_of(discard.piles, 'discard pile')}, {limit}, "
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
    return Check("hook markers", not problems, count_of(counted, "hook implementation"),
                 "; ".join(problems))

"""Refusing a configuration that cannot work, before any game is dealt.

Each check raises :class:`~spitemalice.errors.RulesetError` naming what is wrong and what would
be right: a conflict a plugin reports, a rule sheet that leaves a reason code uncovered, a deck
that cannot deal the seats, a rank set naming ranks no card has, a deck holding cards no build
pile can take, a parameter only a plugin enforces with no such plugin loaded, and an override
that undoes a house rule.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import pluggy

from spitemalice.errors import RulesetError
from spitemalice.guards import not_a_book
from spitemalice.rules import reasons, sheet
from spitemalice.rules.policies import Clause
from spitemalice.rules.resolve import call, call_order, wrap
from spitemalice.rules.ruleset import ENFORCED_FIELDS, RANK_SETS, TEAM_FIELDS, Ruleset
from spitemalice.wording import count_of, rank_names, shown, together

if TYPE_CHECKING:
    from spitemalice.rules.book import RuleBook


def check_values(book: RuleBook, plugins: Sequence[object],
                 enforcers: Callable[[str], Sequence[tuple[str, str]]] | None,
                 pm: pluggy.PluginManager, given: Mapping[str, Any]) -> None:
    """The checks of a built book's values, every one that fails refused together: the deal
    (:func:`check_deal`), rank sets (:func:`check_ranks`), enforced parameters
    (:func:`check_enforced`, ``plugins`` the rule set and its house rules), settings that
    undo a house rule (:func:`check_overrides_keep_house_rules`, ``given`` the file's and the
    caller's values) and, only when none is undone (that refusal explains them better) and
    every build rank is one some card may stand for, dead cards (:func:`check_dead_cards`).

    Raises:
        RulesetError: one or more failed, each whole in one message
            (:func:`~spitemalice.wording.together`).
        TypeError: ``book`` is not a rule book.
    """
    try:
        book.ruleset, book.deck  # noqa: B018  # fields every rule book has
    except AttributeError:
        raise not_a_book(book, "check_values") from None
    problems = failures([lambda: check_deal(book, given), lambda: check_ranks(book),
                         lambda: check_enforced(book, plugins, enforcers)])
    undone = failures([lambda: check_overrides_keep_house_rules(pm, book.ruleset, given)])
    # Dead cards are weighed against the wild ranks: not while those name ranks no card has,
    # nor while some build rank is one no card may stand for (the fix offered for dead cards
    # could keep what that refusal says to take out: wild_ranks = 1 on a standard pack).
    valid = not _unreachable(book) and not any(
        bad for name, bad in _unknown_ranks(book) if name in ("wild_ranks", "wild_excluded"))
    problems += undone or (failures([lambda: check_dead_cards(book)]) if valid else [])
    if problems:
        raise RulesetError(together(problems))


def failures(made: Sequence[Callable[[], None]]) -> list[str]:
    """Make every check of ``made`` (callables without arguments that raise
    :class:`~spitemalice.errors.RulesetError`), and give the refusal of each that failed, in
    order: what :meth:`~spitemalice.rules.book.RuleBook.from_plugins` refuses together
    (a refusal that joins several gives each: :func:`~spitemalice.wording.together` flattens).

    Raises:
        TypeError: a member of ``made`` is not callable.
    """
    problems = []
    for check in made:
        if not callable(check):
            raise TypeError(f"failures takes checks as callables, not {check!r}")
        try:
            check()
        except RulesetError as error:
            problems.append(str(error))
    return problems


def check_conflicts(pm: pluggy.PluginManager, ruleset: Ruleset, plugins: Sequence[str]) -> None:
    """Refuse the configuration when any plugin's ``spitemalice_conflicts`` names a conflict."""
    for impl in call_order(pm, "spitemalice_conflicts"):
        problem = call(impl, ruleset=ruleset, plugins=list(plugins))
        if problem:
            raise RulesetError(f"{impl.plugin_name} cannot stack here: {problem}")


def clause_table(
    clauses: Sequence[Clause], needs: tuple[list[str], set[str]], plugins: Sequence[str]
) -> dict[str, str]:
    """The clause cited for each reason key; later clauses override earlier ones.

    Raises:
        RulesetError: a clause names an unknown reason code, or a required key is uncovered.
    """
    required, declared = needs
    table: dict[str, str] = {}
    for clause in clauses:
        for key in clause.reasons:
            if not reasons.known(key, declared):
                raise RulesetError(
                    f"clause {clause.id} names the reason code {key!r}, which is not one the "
                    "engine or a loaded plugin raises; see spitemalice.rules.reasons for the set")
            table[key] = clause.id
    resolved = {key: table.get(key) or table.get(key.partition("@")[0], "") for key in required}
    uncovered = [key for key, clause_id in resolved.items() if not clause_id]
    if uncovered:
        raise RulesetError(
            f"the rule sheet of {' + '.join(plugins)} has no clause for the reason code(s) "
            f"{', '.join(uncovered)}: list them in a clause's reasons (inherit a built-in "
            "rule set's sheet with spitemalice.rules.registry.base_sheet)")
    return {**table, **resolved}


def check_deal(book: RuleBook, given: Mapping[str, Any] | None = None) -> None:
    """Refuse a seat count the deck cannot deal pay-off piles and hands for; ``given`` (the
    file's and the caller's values) lets a refusal quote a size as it was written
    (``"equal"``, not the 0 it reads as).

    Raises:
        RulesetError: the deck is too small for the seats.
    """
    try:
        rules, deal = book.ruleset, book.deal
    except AttributeError:  # fields every rule book has (this module cannot import the class)
        raise not_a_book(book, "check_deal") from None
    if deal.payoff_size is None and book.deck.payoff_cards is None:
        size_by = _size_by(rules)
        written = (given or {}).get(size_by, 0)  # "equal", "share" or 0, as written
        written = written if f"{written}".strip() == "0" else shown(written)
        raise RulesetError(
            f"{size_by} = {written} shares out a separate pay-off pack, but payoff_pack = 0: give "
            f"{size_by} {_sizes(book)}, or set payoff_pack to the pack's size")
    payoffs = rules.players * deal.payoff_piles * (deal.payoff_size or 1)
    need = rules.players * deal.hand_size
    if book.deck.payoff_cards is None:  # pay-off piles come from the same cards as the hands
        payoff_need = payoff_have = 0
        need += payoffs
    else:
        payoff_need, payoff_have = payoffs, len(book.deck.payoff_cards)
    have = len(book.deck.cards)
    piles = (f"{count_of(deal.payoff_piles, 'pay-off pile')} of "
             + ("at least 1 card" if deal.payoff_size is None
                else count_of(deal.payoff_size, "card")))
    size_by = _size_by(rules)
    if rules.players >= 5 and rules.payoff_size_many:
        size_by += ", from 5 seats"
    if payoff_need > payoff_have:
        raise RulesetError(
            f"{rules.name}: the separate pay-off pack of {count_of(payoff_have, 'card')} "
            f"cannot deal each of {rules.players} seats {piles} ({size_by}): "
            f"{count_of(payoff_need, 'card')}; use fewer players, smaller pay-off piles "
            f"({_size_by(rules)} {_sizes(book, True)}) or a larger payoff_pack")
    if need > have:
        shared = book.deck.payoff_cards is None  # the pay-off piles come from these cards too
        dealt = f"{piles} ({size_by}) and a hand of {deal.hand_size}" if shared else \
            f"a hand of {deal.hand_size}"
        aside = "" if shared else " (the separate pay-off pack aside)"
        smaller = (f"smaller pay-off piles ({_size_by(rules)} {_sizes(book, True)}), a smaller "
                   "hand_size" if shared else "a smaller hand_size")
        larger = "a larger draw_pack" if rules.draw_pack else "more packs"
        raise RulesetError(
            f"{rules.name}: the deck of {count_of(have, 'card')}{aside} cannot deal "
            f"each of {rules.players} seats {dealt}: {count_of(need, 'card')}; use fewer "
            f"players, {smaller} or {larger}")


def _size_by(rules: Ruleset) -> str:
    """The parameter the deal rule takes the pay-off piles' size from at this seat count."""
    return "payoff_size_many" if rules.players >= 5 and rules.payoff_size_many else \
        "payoff_size"


def _largest_payoff(book: RuleBook) -> int:
    """The most cards per pay-off pile the deck deals every seat (its hand too, where the
    pay-off piles come from the same cards), at most 60, the parameters' bound: the range
    every refusal of a pay-off size names, so that they agree (0 when not even one card)."""
    rules, deal = book.ruleset, book.deal
    piles = rules.players * deal.payoff_piles
    if book.deck.payoff_cards is not None:
        room = len(book.deck.payoff_cards)
    else:
        room = len(book.deck.cards) - rules.players * deal.hand_size
    return max(0, min(60, room // piles))


def _sizes(book: RuleBook, most_only: bool = False) -> str:
    """The pay-off sizes the deck deals, in words: ``"a number from 1 to 47 (what the deck
    deals 2 seats)"``, or with ``most_only`` ``"at most 47 for 2 seats"``."""
    most = _largest_payoff(book)
    seats = count_of(book.ruleset.players, "seat")
    if most < 1:
        return f"1 or more, with a larger deck (this one deals {seats} no pay-off card)"
    if most_only:
        return f"at most {most} for {seats}"
    return f"a number from 1 to {most} (what the deck deals {seats})"


def check_ranks(book: RuleBook) -> None:
    """Refuse rank sets naming ranks no card or build pile has, and a build ceiling that no
    card can reach (some rank from 1 to the ceiling that no card may stand for).

    Raises:
        RulesetError: naming the rank set or the ranks no card reaches.
    """
    try:
        book.deck  # noqa: B018  # a field every rule book has
    except AttributeError:
        raise not_a_book(book, "check_ranks") from None
    highest = _highest_rank(book)
    named = [f"{name} names rank(s) {rank_names(bad)} that no card has; ranks here run from "
             f"0 (joker) to {highest}" for name, bad in _unknown_ranks(book) if bad]
    if named:
        raise RulesetError(together(named))
    missing = _unreachable(book)
    if missing:
        ranks = "rank" if len(missing) == 1 else "ranks"
        raise RulesetError(f"{book.ruleset.name}: no card may stand for build {ranks} "
                           f"{rank_names(missing)}, so no build pile can reach the ceiling "
                           f"{book.ceiling.ceiling}; {_unreachable_fixes(book, missing)}")


def _unreachable(book: RuleBook) -> list[int]:
    """The build ranks from 1 to the ceiling that no card of ``book``'s deck may stand for."""
    cards = (*book.deck.cards, *(book.deck.payoff_cards or ()))
    reachable = set().union(*(book.accepts[card.rank] for card in cards))
    return [r for r in range(1, book.ceiling.ceiling + 1) if r not in reachable]


def _highest_rank(book: RuleBook) -> int:
    """The highest rank a card of ``book``'s deck has or a build pile reaches."""
    cards = (*book.deck.cards, *(book.deck.payoff_cards or ()))
    return max([book.ceiling.ceiling, *(card.rank for card in cards)])


def _unknown_ranks(book: RuleBook) -> list[tuple[str, list[int]]]:
    """Each rank set with the ranks it names that no card has (above :func:`_highest_rank`)."""
    highest = _highest_rank(book)
    return [(name, [r for r in getattr(book.ruleset, name) if r > highest])
            for name in RANK_SETS]


def _unreachable_fixes(book: RuleBook, missing: list[int]) -> str:
    """What would let a card stand for each of ``missing``: a rank whose own cards are wild
    (``wild_ranks``) or that wild cards may not stand for (``wild_excluded``) is named with
    the parameter that keeps it out; otherwise a lower ceiling or wild cards."""
    rules, fixes = book.ruleset, []
    wild = [rank for rank in missing if rank in rules.wild_ranks]
    if wild:
        fixes.append(f"take {rank_names(wild)} out of wild_ranks (those cards are wild, so none "
                     "is its own rank)")
    excluded = [rank for rank in missing if rank in rules.wild_excluded]
    if excluded and rules.wild_ranks:
        fixes.append(f"take {rank_names(excluded)} out of wild_excluded (wild cards may not stand "
                     "for it)")
    if not fixes:
        fixes.append(f"lower build_ceiling below {missing[0]} or add wild cards")
    return " or ".join(fixes)


def check_dead_cards(book: RuleBook) -> None:
    """Refuse a deck holding cards no build pile can ever take: a rank above the build ceiling
    that is not wild, or a wild rank that ``wild_excluded`` leaves no rank to stand for.  In
    a turn-based game a card leaves a hand, a pay-off pile or a discard pile only by a play
    onto a build pile, so such a card can only be discarded, and one in a pay-off pile never
    leaves it: its seat cannot win.  A rule set whose seats move at once (Spit) plays by its
    own rules and is not asked.

    Raises:
        RulesetError: naming the ranks, how many cards are dead and what would make them
            playable (or take them out).
    """
    try:
        deck, accepts, simultaneous = book.deck, book.accepts, book.simultaneous
    except AttributeError:  # fields every rule book has
        raise not_a_book(book, "check_dead_cards") from None
    if simultaneous is not None:
        return
    cards = (*deck.cards, *(deck.payoff_cards or ()))
    dead = sorted({card.rank for card in cards if not accepts[card.rank]})
    if not dead:
        return
    rules, ceiling = book.ruleset, book.ceiling.ceiling
    count = sum(1 for card in cards if card.rank in dead)
    names = rank_names(dead)
    fixes = []
    excluded = [rank for rank in dead if rank in rules.wild_ranks]
    if excluded:
        fixes.append("take ranks out of wild_excluded: it leaves a wild "
                     f"{rank_names(excluded)} no rank to "
                     "stand for")
    above = [rank for rank in dead if rank not in rules.wild_ranks]
    if above:
        # Only ranks a card has: a suggestion is a value the loader takes.
        highest = _highest_rank(book)
        wild = sheet.format_value(frozenset(r for r in rules.wild_ranks | frozenset(above)
                                            if r <= highest))
        fixes.append(f"make them wild (wild_ranks = {wild})")
        if above == [0]:  # (taking the jokers out leaves any other rank dead)
            fixes.append("take them out of the deck (jokers = 0, jokers_per_pack = 0)")
        if max(above) <= 30 and 0 not in above:  # build_ceiling's own bound
            fixes.append(f"build up to them (build_ceiling = {max(above)})")
    ranks = "rank" if len(dead) == 1 else "ranks"
    raise RulesetError(
        f"{rules.name}: no build pile can ever take the {count_of(count, 'card')} of {ranks} "
        f"{names} (build ceiling {ceiling}, wild_ranks = {sheet.format_value(rules.wild_ranks)}):"
        " such a card can only be discarded, and one in a pay-off pile never leaves it; "
        + (", ".join(fixes[:-1]) + " or " if len(fixes) > 1 else "") + fixes[-1])


_UNSTATED = {"team_size": "forms teams that no clause of the sheet states",
             "partner_piles": "sets partners' piles that no clause of the sheet states"}


def check_enforced(
    book: RuleBook, plugins: Iterable[object],
    enforcers: Callable[[str], Sequence[tuple[str, str]]] | None,
) -> None:
    """Refuse a parameter that only a plugin's move filter gives effect to
    (:data:`~spitemalice.rules.ruleset.ENFORCED_FIELDS`, against the default) or that forms teams
    (:data:`~spitemalice.rules.ruleset.TEAM_FIELDS`, against the rule set's own value) when no
    loaded plugin enforces it.

    Raises:
        RulesetError: naming the parameter and the plugins that would enforce it.
    """
    try:
        own, ruleset = book.own, book.ruleset
    except AttributeError:  # fields every rule book has
        raise not_a_book(book, "check_enforced") from None
    default = Ruleset()
    loaded = [getattr(plugin, "ENFORCES", ()) for plugin in plugins]
    for field, baseline in ([(f, default) for f in ENFORCED_FIELDS]
                            + [(f, own) for f in TEAM_FIELDS]):
        value = getattr(ruleset, field)
        if value == getattr(baseline, field) or any(field in enforces for enforces in loaded):
            continue
        found = sorted(enforcers(field)) if enforcers else []
        house = [name for name, kind in found if kind == "house-rule"]
        sets = [name for name, kind in found if kind == "ruleset"]
        fix = (f"; add --house-rule {' or '.join(house)}" if house
               else f"; it is an option of the rule set {' or '.join(sets)}" if sets
               else "; no installed plugin enforces it")
        effect = _UNSTATED.get(field, "has no effect")
        raise RulesetError(f"{field} = {sheet.format_value(value)} {effect} on "
                           f"{ruleset.name} unless a plugin that enforces it is loaded{fix}")


def check_overrides_keep_house_rules(
    pm: pluggy.PluginManager, ruleset: Ruleset, given: Mapping[str, Any]
) -> None:
    """Refuse parameter settings that undo a house rule (``--set max_build_piles=2`` with
    unlimited-build-piles): each house rule's ruleset wrapper is applied once more to the
    final rule set, and a parameter given that it would change again is a conflict."""
    if not given:
        return
    for impl in pm.hook.spitemalice_ruleset.get_hookimpls():
        if not impl.wrapper:
            continue
        try:
            again = wrap(impl, ruleset)
        except RulesetError:
            continue  # the house rule sees nothing left to change: it is in effect
        undone = sorted(name for name in given
                        if getattr(again, name, None) != getattr(ruleset, name, None))
        if undone:
            raise RulesetError(
                f"{', '.join(undone)} as given undo{'es' if len(undone) == 1 else ''} the "
                f"house rule {impl.plugin_name}; drop the setting or the house rule")

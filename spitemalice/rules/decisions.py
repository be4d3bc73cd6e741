"""The build-time hooks whose answers a Ruleset states: folded in, then checked.

``spitemalice_wild``, ``spitemalice_build_ceiling``, ``spitemalice_build_pile_limit``,
``spitemalice_discard_limits`` and ``spitemalice_deal`` are extension points of their own
(design notes §3): a plugin may answer one instead of returning a whole
:class:`~spitemalice.rules.ruleset.Ruleset`.  Each answer is a few Ruleset values, so
:func:`fold_answers` writes it into the Ruleset, and what the engine uses is what every output
shows (the rule sheet, records, ``spitemalice rules``).  :func:`engine_values` then gives the
engine the base rules' answers from the final Ruleset, after checking that every plugin's
answer, ``spitemalice_deck``'s included, agrees with them.  One table, :data:`VALUE_HOOKS`,
drives both.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from operator import attrgetter
from typing import Any

import attrs
import pluggy

from spitemalice.errors import RulesetError
from spitemalice.rules import defaults as base
from spitemalice.rules import sheet
from spitemalice.rules.policies import Deck
from spitemalice.rules.resolve import first_answer
from spitemalice.rules.ruleset import Ruleset
from spitemalice.wording import count_of, kind

Reads = Mapping[str, Callable[[Any], Any]]
"""For each Ruleset field an answer states, how to read the field's value from the answer."""


def _reads(**attributes: str) -> Reads:
    """``field=attribute`` pairs as readers: the field's value is the answer's attribute."""
    return {field: attrgetter(attribute) for field, attribute in attributes.items()}


def _limit(answer: Any) -> int | None:
    if not isinstance(answer, int) or isinstance(answer, bool) or answer < 0:
        raise TypeError("a build pile limit is a whole number, 0 for no limit")
    return answer or None


VALUE_HOOKS: dict[str, tuple[str, Reads]] = {
    # hook: (the RuleBook attribute the engine reads, the Ruleset fields its answer states)
    "spitemalice_deck": ("deck", {}),  # stated by several values together: checked, not folded
    "spitemalice_wild": ("wild", _reads(wild_ranks="wild_ranks", wild_excluded="excluded")),
    "spitemalice_build_ceiling": (
        "ceiling", _reads(build_ceiling="ceiling", completed_piles="completed")),
    "spitemalice_build_pile_limit": ("build_limit", {"max_build_piles": _limit}),
    "spitemalice_discard_limits": ("discard", _reads(
        discard_piles="piles", discard_forbidden="forbidden", max_discard_cards="max_cards")),
    "spitemalice_deal": ("deal", {
        **_reads(payoff_piles="payoff_piles", hand_size="hand_size", first_seat="first_seat"),
        "payoff_size": lambda deal: deal.payoff_size or 0}),  # None: share a pay-off pack out
}
"""The value hooks, in the order they are asked: each one's RuleBook attribute and how its
answer reads as Ruleset fields (the inverse of the base rules' answer from a Ruleset)."""


def fold_answers(pm: pluggy.PluginManager, ruleset: Ruleset, origin: dict[str, str],
                 given: Mapping[str, Any], own: str) -> Ruleset:
    """``ruleset`` with the plugins' answers to the value hooks written into it; ``origin``
    credits each parameter an answer changes to the plugin and hook.

    The answer of ``own``, the rule-set plugin itself, is one of its own values worked out
    from the others (skip-bo's kings, wild when the deck is made of standard packs, SK-26):
    like the values its ``spitemalice_ruleset`` states, it gives way to a parameter in
    ``given``.  Any other plugin's answer is a rule the configuration asked for, so a
    parameter given against it is refused.  The deck is stated by several values together
    and checked, not folded (:func:`engine_values`), but for one: the jokers of ``own``'s
    deck answer are its answer for ``jokers`` (less the ``jokers_per_pack`` ones), giving
    way to a ``jokers`` given (skip-bo's standard-pack game holds two a pack, K2, where its
    numbered game holds 18).

    Raises:
        RulesetError: an answer the Ruleset cannot state (naming the plugin, the hook and
            why), or a house rule's answer that changes a parameter in ``given`` (set in a
            file or as an override), naming both values.
    """
    ruleset = _own_jokers(pm, ruleset, origin, given, own)
    for hook, (_, reads) in VALUE_HOOKS.items():
        if not reads:
            continue
        answer, who = first_answer(pm, hook, ruleset)
        if who is None:
            continue
        try:
            folded = attrs.evolve(ruleset, **{field: read(answer) for field, read in reads.items()
                                              if not (who == own and field in given)})
        except (TypeError, ValueError, AttributeError) as error:
            raise RulesetError(
                f"plugin {who!r} answers {hook} with {answer!r}, which the rule set "
                f"{ruleset.name} cannot state: {error}") from None
        for field in reads:
            before, after = getattr(ruleset, field), getattr(folded, field)
            if after == before:
                continue
            if field in given:
                raise RulesetError(
                    f"{field} = {sheet.format_value(before)} as given, but plugin {who!r} "
                    f"answers {hook} with {sheet.format_value(after)}; drop the setting or "
                    "the plugin")
            origin[field] = f"plugin {who} ({hook})"
        ruleset = folded
    return ruleset


def _own_jokers(pm: pluggy.PluginManager, ruleset: Ruleset, origin: dict[str, str],
                given: Mapping[str, Any], own: str) -> Ruleset:
    """``ruleset`` with ``jokers`` as the rule-set plugin ``own``'s deck answer holds them (its
    jokers less ``jokers_per_pack`` a standard pack), unless ``jokers`` is given or the
    answer is another plugin's, no deck, or holds fewer jokers than the packs' own (each
    refused by :func:`engine_values`)."""
    if "jokers" in given:
        return ruleset
    answer, who = first_answer(pm, "spitemalice_deck", ruleset)
    if who != own or not isinstance(answer, Deck):
        return ruleset
    jokers = _joker_count(answer.cards) - ruleset.jokers_per_pack * ruleset.seat_packs
    if jokers < 0 or jokers == ruleset.jokers:
        return ruleset
    try:
        folded = attrs.evolve(ruleset, jokers=jokers)
    except (TypeError, ValueError) as error:
        raise RulesetError(f"plugin {who!r} answers spitemalice_deck with {_short(answer)}, "
                           f"which the rule set {ruleset.name} cannot state: {error}") from None
    origin["jokers"] = f"plugin {who} (spitemalice_deck)"
    return folded


def _joker_count(cards: Iterable[Any]) -> int:
    return sum(1 for card in cards if card.rank == 0)


def _given_jokers(answer: Any, expected: Any) -> Any:
    """The rule set's own deck ``answer`` with the jokers ``expected`` (the resolved values)
    holds, a ``jokers`` given holding as given: its other cards in its order, then the
    jokers in its joker face (a plain joker's where it has none); ``answer`` itself when it
    is no deck or holds as many."""
    if not isinstance(answer, Deck) or not isinstance(expected, Deck):
        return answer
    count = _joker_count(expected.cards)
    jokers = [card for card in answer.cards if card.rank == 0]
    if len(jokers) == count:
        return answer
    face = jokers[0] if jokers else next(card for card in expected.cards if card.rank == 0)
    return Deck(tuple(card for card in answer.cards if card.rank != 0) + (face,) * count,
                answer.payoff_cards)


def engine_values(pm: pluggy.PluginManager, rules: Ruleset, given: Mapping[str, Any],
                  own: str) -> dict[str, Any]:
    """The value hooks' answers the engine uses, by RuleBook attribute (``deck``, ``wild``,
    ``ceiling``, ``build_limit``, ``discard``, ``deal``): the base rules' answers from the
    final Ruleset; for the deck, a plugin's answer holding the same cards (a joker's face is
    the plugin's to choose).  The answer of ``own``, the rule-set plugin, is held to the
    fields not in ``given`` (:func:`fold_answers` let those give way), its deck to the
    ``jokers`` given.

    Raises:
        RulesetError: a plugin's answer that is not the one the Ruleset states.
    """
    values = {}
    for hook, (attribute, reads) in VALUE_HOOKS.items():
        expected = getattr(base, hook)(rules)
        answer, who = first_answer(pm, hook, rules)
        if who is not None and isinstance(expected, Deck) and not isinstance(answer, Deck):
            raise RulesetError(
                f"plugin {who!r} answers {hook} with {kind(answer)}; the hook answers a "
                "Deck (spitemalice.stated_deck(ruleset) gives the one the Ruleset states)")
        if who is not None and who == own and given.keys() & reads.keys():
            answer = _given_kept(answer, expected, reads, given)
        if who is not None and who == own and not reads and "jokers" in given:
            answer = _given_jokers(answer, expected)  # the deck: a jokers given holds
        if who is not None and not _same(answer, expected):
            raise RulesetError(
                f"plugin {who!r} answers {hook} with {_short(answer)}, but the resolved "
                f"rule set {rules.name} gives {_short(expected)}{'' if reads else _DECK_HINT}")
        values[attribute] = answer if who is not None and not reads else expected
    return values


def _given_kept(answer: Any, expected: Any, reads: Reads, given: Mapping[str, Any]) -> Any:
    """The rule set's own ``answer`` to a value hook with the fields in ``given`` taken from
    ``expected`` (the resolved values), when the two agree on every other field; else
    ``answer`` itself, which the caller then refuses."""
    try:
        if all(read(answer) == read(expected) for field, read in reads.items()
               if field not in given):
            return expected
    except (TypeError, ValueError, AttributeError):
        pass
    return answer


_DECK_HINT = ("; a deck is stated by Ruleset values (packs, packs_per_seat, jokers, "
              "jokers_per_pack, draw_pack, payoff_pack): set them in spitemalice_ruleset")


def _same(answer: Any, expected: Any) -> bool:
    """Whether a plugin's answer is the one the Ruleset states.  Decks compare by what the
    Ruleset says of them: how many cards of each rank, suited or suitless; a joker's face
    (Skip-Bo's ``SB``) is the plugin's to choose."""
    if isinstance(expected, Deck):
        return isinstance(answer, Deck) and _kinds(answer.cards) == _kinds(expected.cards) \
            and _kinds(answer.payoff_cards or ()) == _kinds(expected.payoff_cards or ()) \
            and (answer.payoff_cards is None) == (expected.payoff_cards is None)
    return bool(answer == expected)


def _kinds(cards: Iterable[Any]) -> Counter[tuple[int, bool]]:
    return Counter((card.rank, bool(card.suit) and card.rank != 0) for card in cards)


def _short(value: Any) -> str:
    if isinstance(value, Deck):
        extra = (f" and a pay-off pack of {_cards(value.payoff_cards)}"
                 if value.payoff_cards else "")
        return f"a deck of {_cards(value.cards)}{extra}"
    return repr(value)


def _cards(cards: Sequence[Any]) -> str:
    """``"156 cards: 104 suited, 52 numbered, 0 jokers, ranks 1-13"`` (enough to tell two
    decks apart, in the kinds :func:`_kinds` compares: a joker is a joker whatever its
    face)."""
    ranks = sorted({card.rank for card in cards})
    jokers = sum(1 for card in cards if card.rank == 0)
    numbered = sum(1 for card in cards if not card.suit and card.rank != 0)
    span = f"ranks {ranks[0]}-{ranks[-1]}" if ranks else "no ranks"
    return (f"{count_of(len(cards), 'card')}: {len(cards) - numbered - jokers} suited, "
            f"{numbered} numbered, {count_of(jokers, 'joker')}, {span}")

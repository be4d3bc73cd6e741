"""The piles keep their shape: build piles rise as the rules allow, hands and pile counts stay
within the rule set's, discard piles hold no forbidden rank, a fresh deal is dealt as the
sheet says."""

from __future__ import annotations

from collections.abc import Callable

from spitemalice.engine.invariants.violation import Violations
from spitemalice.model import GameState, require_state
from spitemalice.rules.book import RuleBook, check_book
from spitemalice.wording import count_of


def build_piles_well_formed(rules: RuleBook, state: GameState) -> Violations:
    """Each open build pile rises from rank 1 (or from the cards recycled from under its top)
    with cards that may stand for their rank, stays below the build ceiling, and no more
    piles are open than the limit allows.

    Raises:
        TypeError: ``state`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say: the
            message names what takes one).
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "build_piles_well_formed")
    require_state(state, "build_piles_well_formed")
    return _build_piles_well_formed(rules, state)


def _build_piles_well_formed(rules: RuleBook, state: GameState) -> Violations:
    problems = []
    if rules.build_limit and len(state.builds) > rules.build_limit:
        problems.append(f"{len(state.builds)} build piles open, limit {rules.build_limit}")
    removed = state.build_removed
    if removed and (len(removed) != len(state.builds) or not rules.ruleset.recycle_under_tops
                    or min(removed) < 0):
        problems.append(f"recycled counts {removed} for "
                        f"{count_of(len(state.builds), 'build pile')}, "
                        f"recycle_under_tops = {rules.ruleset.recycle_under_tops}")
        removed = ()
    for number, pile in enumerate(state.builds, 1):
        under = removed[number - 1] if removed else 0
        name = rules.deck.rank_name  # A, Q for a standard pack; 1, 12 for Skip-Bo's
        if not pile or under + len(pile) >= rules.ceiling.ceiling:
            problems.append(f"build pile {number} stands at rank {name(under + len(pile))} "
                            f"with {count_of(len(pile), 'card')}; it must stand at rank "
                            f"{name(1)} to {name(rules.ceiling.ceiling - 1)} (a full pile "
                            "leaves the table)")
        for rank, card in enumerate(pile, under + 1):
            if rank not in rules.accepts[card.rank]:
                problems.append(f"build pile {number}: {card} cannot stand for rank "
                                f"{name(rank)}")
    return problems


def limits_kept(rules: RuleBook, state: GameState) -> Violations:
    """Hands never exceed the hand size; every seat has the rule set's pile counts.

    Raises:
        TypeError: ``state`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say: the
            message names what takes one).
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "limits_kept")
    require_state(state, "limits_kept")
    return _limits_kept(rules, state)


def _limits_kept(rules: RuleBook, state: GameState) -> Violations:
    problems = []
    for index, seat in enumerate(state.seats):
        if len(seat.hand) > rules.deal.hand_size:
            problems.append(f"seat {index} holds {len(seat.hand)} cards, "
                            f"hand size {rules.deal.hand_size}")
        if len(seat.discards) != rules.discard.piles:
            problems.append(f"seat {index} has {count_of(len(seat.discards), 'discard pile')}")
        if len(seat.payoff) != rules.deal.payoff_piles:
            problems.append(f"seat {index} has {count_of(len(seat.payoff), 'pay-off pile')}")
    if not 0 <= state.seat < len(state.seats):
        problems.append(f"seat on turn {state.seat} does not exist")
    return problems


def discard_piles_hold_allowed_ranks(rules: RuleBook, state: GameState) -> Violations:
    """No discard pile holds a rank the rules forbid to discard (``discard_forbidden``): such a
    card can reach a discard pile only through a move the rules refuse.

    Raises:
        TypeError: ``state`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say: the
            message names what takes one).
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "discard_piles_hold_allowed_ranks")
    require_state(state, "discard_piles_hold_allowed_ranks")
    return _discard_piles_hold_allowed_ranks(rules, state)


def _discard_piles_hold_allowed_ranks(rules: RuleBook, state: GameState) -> Violations:
    forbidden = rules.discard.forbidden
    if not forbidden:
        return []
    return [f"seat {index} discard pile {number} holds {card}, a rank that may not be discarded"
            for index, seat in enumerate(state.seats)
            for number, pile in enumerate(seat.discards, 1)
            for card in pile if card.rank in forbidden]


def dealt_as_the_sheet_says(rules: RuleBook, state: GameState) -> Violations:
    """A fresh deal: no build pile, empty discard piles, the seat on turn holds a full hand and
    every pay-off pile holds the ``payoff_size`` cards the rule set deals to each (when the
    rule set deals a fixed number rather than sharing out a pay-off pack).

    Raises:
        TypeError: ``state`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say: the
            message names what takes one).
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "dealt_as_the_sheet_says")
    require_state(state, "dealt_as_the_sheet_says")
    return _dealt_as_the_sheet_says(rules, state)


def _dealt_as_the_sheet_says(rules: RuleBook, state: GameState) -> Violations:
    problems = []
    if state.builds or state.turn or state.outcome is not None:
        problems.append("a fresh deal has build piles, turns or an outcome")
    size = rules.deal.payoff_size
    for index, seat in enumerate(state.seats):
        if any(seat.discards):
            problems.append(f"seat {index} starts with cards on its discard piles")
        dealt = [len(pile) for pile in seat.payoff]
        if size is not None and any(n != size for n in dealt):
            problems.append(f"seat {index} is dealt pay-off piles of {dealt} cards, "
                            f"the rule set deals {size} to each")
    if len(state.seats[state.seat].hand) != rules.deal.hand_size:
        problems.append(f"seat {state.seat} starts its turn with "
                        f"{count_of(len(state.seats[state.seat].hand), 'card')}, hand size "
                        f"{rules.deal.hand_size}")
    return problems


UNCHECKED: dict[str, Callable[[RuleBook, GameState], Violations]] = {
    "build_piles_well_formed": _build_piles_well_formed,
    "dealt_as_the_sheet_says": _dealt_as_the_sheet_says,
    "discard_piles_hold_allowed_ranks": _discard_piles_hold_allowed_ranks,
    "limits_kept": _limits_kept,
}
"""This module's invariant checks for arguments the caller has checked, by public name
(:mod:`~spitemalice.engine.invariants.run` calls them on every move of a checked game)."""

"""Audits of one position: the legal-move list and the move checker agree, and every
forced-play filter's narrowing holds.

:func:`audit_position` is the expensive part of validation (a few hundred ``check_move`` calls
per position), so :mod:`spitemalice.validation.dynamic` runs it on sampled positions only.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

from spitemalice.cards import Card
from spitemalice.engine.check import check_move
from spitemalice.engine.legal import PASS, base_moves, legal_moves
from spitemalice.errors import IllegalMove
from spitemalice.model import GameState, Pile
from spitemalice.moves import NEW_PILE, Discard, Move, Play, Zone
from spitemalice.rules.book import RuleBook

BURIED_DEPTH = 3  # cards below a pile's top offered as (illegal) buried-card candidates


def audit_position(rules: RuleBook, state: GameState) -> str | None:
    """The first disagreement in ``state`` between what is listed and what is accepted, or
    ``None``.

    * every listed move is accepted by ``check_move`` with the legal-move cache cleared (so the
      checker's own rules run, not the cache);
    * every listed move is allowed by each forced-play filter that answers (two filters must
      both apply, in any stacking order);
    * every unlisted candidate (buried cards, cards not held, wrong ranks, wild cards on every
      pile, discards of every hand card and pair, a pass) is refused.
    """
    rules.forget_last_legal()
    listed = legal_moves(rules, state)
    for move in listed:
        rules.forget_last_legal()
        try:
            check_move(rules, state, move)
        except IllegalMove as error:
            return f"listed move {move} is refused by check_move ({error.reason}: {error})"
    problem = filters_hold(rules, state, listed)
    if problem:
        return problem
    known = set(listed)
    for move in candidates(rules, state):
        if move in known:
            continue
        rules.forget_last_legal()
        try:
            check_move(rules, state, move)
        except (IllegalMove, TypeError):
            continue
        return f"{move} is accepted by check_move but not listed by legal_moves"
    rules.forget_last_legal()
    return None


def filters_hold(rules: RuleBook, state: GameState, listed: tuple[Move, ...]) -> str | None:
    """A listed move that some forced-play filter refuses, or ``None``."""
    if not rules.filter_moves_hooks or listed == (PASS,):
        return None
    offered = base_moves(rules, state)
    for hook in rules.filter_moves_hooks:
        answer = hook(rules.ruleset, state, offered)
        if answer is None:
            continue
        allowed = set(answer.allowed)
        for move in listed:
            if move not in allowed:
                name = _plugin_of(hook)
                return f"{move} is listed although the forced-play rule of {name} refuses it"
    return None


def answering_filters(rules: RuleBook, state: GameState) -> int:
    """How many forced-play filters answer (narrow the moves) in ``state``."""
    offered = base_moves(rules, state)
    return sum(hook(rules.ruleset, state, offered) is not None
               for hook in rules.filter_moves_hooks)


def _plugin_of(hook: object) -> str:
    """The name of the plugin (module or object) a hook implementation belongs to."""
    owner = getattr(hook, "__self__", None) or sys.modules.get(getattr(hook, "__module__", ""))
    return str(getattr(owner, "NAME", getattr(hook, "__qualname__", "a forced-play rule")))


def candidates(rules: RuleBook, state: GameState) -> Iterator[Move]:
    """Moves worth trying in ``state``, legal or not: plays of every visible card (hand,
    pay-off and discard piles down to :data:`BURIED_DEPTH`, one card of each rank not held)
    onto every build pile, a new one and one that does not exist; discards of every hand card
    and ordered pair onto every discard pile and one more; the same from and onto every other
    seat's piles (:func:`other_seats`); a pass.
    """
    seat = state.seats[state.seat]
    targets = [*range(len(state.builds) + 1), NEW_PILE]
    for card in dict.fromkeys(seat.hand):
        yield from (Play(Zone.HAND, card, pile) for pile in targets)
    for zone, piles in ((Zone.PAYOFF, seat.payoff), (Zone.DISCARD, seat.discards)):
        for index, pile in enumerate(piles):
            for card in _near_top(pile):
                yield from (Play(zone, card, target, index) for target in targets)
    held = set(seat.hand)
    for card in _one_per_rank(rules):
        if card not in held:
            yield from (Play(Zone.HAND, card, pile) for pile in targets)
    discard_piles = range(rules.discard.piles + 1)
    for card in dict.fromkeys(seat.hand):
        yield from (Discard((card,), pile) for pile in discard_piles)
    for i, first in enumerate(seat.hand):
        for j, second in enumerate(seat.hand):
            if i != j:
                yield from (Discard((first, second), pile) for pile in discard_piles)
    yield from other_seats(rules, state, targets)
    yield PASS


def other_seats(rules: RuleBook, state: GameState, targets: list[int]) -> Iterator[Move]:
    """Moves that name a seat's piles: plays of the top card (and the one below it) of every
    pay-off and discard pile of every other seat, and discards of each hand card and each
    equal-rank pair onto their discard piles, whether the rules share piles with that seat
    (partners, PT-2 and PT-3) or not; and a move that names the mover's own seat (which must
    drop the prefix).  What the rules share must be listed, and the rest refused.
    """
    seat = state.seats[state.seat]
    hand = dict.fromkeys(seat.hand)
    pairs = [(a, b) for i, a in enumerate(seat.hand) for j, b in enumerate(seat.hand)
             if i != j and a.rank == b.rank]
    for owner, other in enumerate(state.seats):
        if owner == state.seat:
            for index, pile in enumerate(seat.discards):
                if pile:
                    yield Play(Zone.DISCARD, pile[-1], NEW_PILE, index, owner)
            yield from (Discard((card,), 0, owner) for card in hand)
            continue
        yield from (Play(Zone.HAND, card, targets[0], 0, owner) for card in hand)
        for zone, piles in ((Zone.PAYOFF, other.payoff), (Zone.DISCARD, other.discards)):
            for index, pile in enumerate(piles):
                for card in pile[-2:]:
                    yield from (Play(zone, card, target, index, owner) for target in targets)
        for number in range(rules.discard.piles):
            yield from (Discard((card,), number, owner) for card in hand)
            yield from (Discard(pair, number, owner) for pair in pairs)


def _near_top(pile: Pile) -> Pile:
    return pile[-BURIED_DEPTH - 1 :]


def _one_per_rank(rules: RuleBook) -> list[Card]:
    cards = {card.rank: card for card in (*rules.deck.cards, *(rules.deck.payoff_cards or ()))}
    return [cards[rank] for rank in sorted(cards)]

"""Dealing a game from a seed."""

from __future__ import annotations

import secrets

from spitemalice.guards import check_int, check_seed
from spitemalice.model import GameState
from spitemalice.rules.book import RuleBook, check_book

from .dealing import deal_turns

SEED_BITS = 128
"""Bits of an unguessable seed drawn by :func:`deal` when none is given."""


def new_seed() -> int:
    """An unguessable seed: :data:`SEED_BITS` random bits from :mod:`secrets` (a small seed
    lets a seat find it by trying seeds against its own view, and with it every hidden card)."""
    return secrets.randbits(SEED_BITS)


def deal(rules: RuleBook, seed: object = None, dealer: object = None) -> GameState:
    """A new game: the deck shuffled by ``seed``, pay-off piles and hands dealt.

    Pay-off piles are dealt first (from the separate pay-off pack if the deck has one), then a
    full hand to every seat; the rest is the draw pile.  The first seat follows the rule set's
    ``first_seat`` rule: under ``"cut"`` the dealer plays first, and the dealer is ``dealer``
    or, when ``None``, a seeded cut; under ``"higher-payoff-top"`` the seat showing the higher
    pay-off top plays first (wild cards rank highest) and equal tops are reshuffled; under
    ``"cut-left"`` the dealer is found as for ``"cut"`` and the seat after it plays first (the
    older Skip-Bo sheet, rules dossier §6 K9); under ``"youngest"`` seat 0 plays first (the
    modern Skip-Bo sheet, seats numbered from the youngest player).

    Args:
        seed: a whole number from 0 to :data:`~spitemalice.limits.MAX_SEED` (80 digits, as
            records and the notation read seeds back); equal seeds give equal games.  ``None``
            (the default) draws an unguessable one (:func:`new_seed`), kept in the state's
            ``seed``; a game server should deal so and keep the seed secret until the game
            ends.
        dealer: the dealing seat (a match rotates it), or ``None``.

    Raises:
        SpiteMaliceError: a seed that is not a whole number from 0 to ``MAX_SEED``, or a
            dealer that is not a seat (a bool, a float or text among them, in either build);
            the message names the bound.
    """
    check_book(rules, "deal")
    if rules.simultaneous is not None:  # a rule set whose seats move at once deals its own way
        return rules.simultaneous.deal(new_seed() if seed is None else check_seed(seed))  # type: ignore[return-value]
    # Both checked here, whichever build runs: the parameters are typed ``object`` so that
    # the compiled build (setup.py) does not refuse a wrong type first with its own error.
    number = new_seed() if seed is None else check_seed(seed)
    first = None if dealer is None else check_int(dealer, "dealer", 0, rules.players - 1)
    return deal_turns(rules, number, first)

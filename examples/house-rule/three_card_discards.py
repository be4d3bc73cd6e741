"""three-card-discards: an example house rule from outside the spitemalice package.

A discard pile holds at most three cards.  A seat whose discard piles are all full, and that
cannot play, is left with nothing but a pass: the rule means that, and its clause says so with
``expects=("stuck-seat",)``, so ``spitemalice validate`` and the conformance kit report the
stuck seats as intended instead of as a fault.
"""

from __future__ import annotations

from collections.abc import Sequence

from spitemalice import Clause, Discard, GameState, Move, MoveFilter, Ruleset, hookimpl

NAME = "three-card-discards"
KIND = "house-rule"
DESCRIPTION = "a discard pile holds at most three cards"
REASONS = {"discard-pile-full": "that discard pile holds three cards already"}
LIMIT = 3


@hookimpl
def spitemalice_rule_sheet(ruleset: Ruleset) -> list[Clause]:
    return [
        Clause("TD-1", f"A discard pile holds at most {LIMIT} cards: a discard that would put "
               "more on it is refused.", "HOUSE", reasons=("discard-pile-full",)),
        Clause("TD-2", "A seat whose discard piles are all full and that cannot play passes, "
               "keeping its hand.", "HOUSE", expects=("stuck-seat",)),
    ]


@hookimpl
def spitemalice_filter_moves(ruleset: Ruleset, state: GameState,
                             moves: Sequence[Move]) -> MoveFilter | None:
    allowed = [move for move in moves if not _overfills(state, move)]
    if len(allowed) == len(moves):
        return None
    return MoveFilter(allowed, "discard-pile-full",
                      f"a discard pile holds at most {LIMIT} cards")


def _overfills(state: GameState, move: Move) -> bool:
    if not isinstance(move, Discard):
        return False
    owner = state.seat if move.owner is None else move.owner  # a partner's pile, too
    return len(state.seats[owner].discards[move.pile]) + len(move.cards) > LIMIT

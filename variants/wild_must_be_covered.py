"""House rule wild-must-be-covered: a wild card on a build pile must be covered at once by a
natural card, and wild cards may not stand for a 7 or a queen (rules dossier §8 HR4, scenario
11).

"Covered at once" is read strictly (dossier A15): while a build pile has a wild card on top,
the next card played must be a natural card on it, so a wild card may be played only when the
seat can cover it with a card it can reach.  The turn can then never end on an uncovered wild.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Generator

import attrs

from spitemalice.hookspecs import hookimpl
from spitemalice.model import GameState
from spitemalice.moves import NEW_PILE, Move, Play, Zone
from spitemalice.policies import Clause, MoveFilter
from spitemalice.ruleset import Ruleset

from ._common import rank_names

NAME = "wild-must-be-covered"
KIND = "house-rule"
DESCRIPTION = ("a wild card on a build pile must be covered at once by a natural card; no wild "
               "as 7 or Q")
ENFORCES = ("wild_must_be_covered",)
REASONS = ("wild-uncovered",)  # what its move filter answers with (spitemalice.reasons)


@hookimpl(wrapper=True)
def spitemalice_ruleset() -> Generator[None, Ruleset, Ruleset]:
    ruleset = yield
    return attrs.evolve(ruleset, wild_must_be_covered=True,
                        wild_excluded=ruleset.wild_excluded | {7, ruleset.build_ceiling})


@hookimpl
def spitemalice_conflicts(ruleset: Ruleset, plugins: list[str]) -> str | None:
    """Refuse a rule set without wild cards: there would be nothing to cover."""
    if not ruleset.has_wild_cards:
        return (f"{plugins[0]} has no wild cards in its deck (wild ranks: "
                f"{rank_names(ruleset.wild_ranks)}), so {NAME} would have nothing to cover")
    return None


@hookimpl
def spitemalice_filter_moves(
    ruleset: Ruleset, state: GameState, moves: tuple[Move, ...]
) -> MoveFilter | None:
    """While a build pile has a wild card on top, allow only natural cards played onto it
    (clause WC-1); otherwise refuse a wild card the seat could not cover at once (WC-2)."""
    if not ruleset.wild_must_be_covered:
        return None
    wild = ruleset.wild_ranks
    bare = {i for i, pile in enumerate(state.builds) if pile[-1].rank in wild}
    allowed: tuple[Move, ...]
    if bare:
        allowed = tuple(move for move in moves if isinstance(move, Play)
                        and move.pile in bare and move.card.rank not in wild)
        piles = " and ".join(str(i + 1) for i in sorted(bare))
        message = (f"build pile {piles} has a wild card on top: the next card must be a natural "
                   "card on it")
    else:
        wild_plays: list[Play] = [
            move for move in moves if isinstance(move, Play) and move.card.rank in wild
        ]
        if not wild_plays:
            return None
        naturals = _reachable_naturals(state, wild)
        # By identity: the refused moves are objects of `moves` (hashing moves is slow).
        refused = {id(m) for m in wild_plays if not _coverable(state, m, naturals, wild)}
        allowed = tuple(move for move in moves if id(move) not in refused)
        message = ("a wild card may be played only when a natural card the seat can reach "
                   "covers it at once")
    if len(allowed) == len(moves):
        return None
    return MoveFilter(allowed, "wild-uncovered", message)


def _reachable_naturals(state: GameState, wild: frozenset[int]) -> Counter[int]:
    """Ranks of the natural cards the seat on turn can reach: hand, discard and pay-off tops."""
    seat = state.seats[state.seat]
    tops = [pile[-1] for pile in (*seat.discards, *seat.payoff) if pile]
    return Counter(card.rank for card in (*seat.hand, *tops) if card.rank not in wild)


def _coverable(state: GameState, move: Play, naturals: Counter[int],
               wild: frozenset[int]) -> bool:
    """Whether, after ``move`` puts a wild card on a build pile, the seat can reach a natural
    card of the next rank: in its hand, on its discard-pile tops (the card under the one
    played counts) or its pay-off tops (never the face-down card under the one played)."""
    need = 2 if move.pile == NEW_PILE else state.build_tops[move.pile] + 2
    if naturals[need]:
        return True
    if move.zone is Zone.DISCARD:
        pile = state.seats[state.seat].discards[move.index]
        return len(pile) >= 2 and pile[-2].rank == need and need not in wild
    return False


@hookimpl
def spitemalice_rule_sheet(ruleset: Ruleset) -> list[Clause]:
    excluded = rank_names(frozenset({7, ruleset.build_ceiling}))
    return [
        Clause("WC-1", "A wild card on a build pile must be covered at once: while a build pile "
               "has a wild card on top, the only legal moves are natural cards played onto it, "
               "so no other play and no discard comes first and the turn cannot end on it.",
               "SEED-ES HR4 ('covered at once by the next natural card'); that the very next "
               "card must cover it ASSUMPTION (dossier A15)", reasons=("wild-uncovered",)),
        Clause("WC-2", "So a wild card may be played only when the seat can cover it at once "
               "with a natural card it can reach: in its hand, on a discard-pile top (the card "
               "under the one played counts) or a pay-off top (never the face-down card under "
               "the one played). A wild card never covers a wild card.",
               "ASSUMPTION (follows from WC-1; a hidden card never decides legality)"),
        Clause("WC-3", f"A wild card may not stand for {excluded}: a 7, or the card that "
               "completes a pile (the queen, or the build ceiling), which could not be covered.",
               "SEED-ES HR4", reasons=("wild-excluded",)),
        Clause("WC-4", "A wild card left uncovered all the same (only in a position set up by "
               "hand) binds every seat: each must cover it before any other move, and a seat "
               "that cannot passes.", "ASSUMPTION (no source covers it)"),
    ]

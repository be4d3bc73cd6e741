"""House rule wild-must-be-covered: a wild card on a build pile must be covered by a natural
card before the turn ends, and wild cards may not stand for a 7 or a queen (rules dossier §8
HR4, scenario 11).

"Covered at once" is read as "before the turn ends" (dossier A15): while any build pile has a
wild card on top, no discard is legal and no wild card may be played onto it.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

from spitemalice.hookspecs import hookimpl
from spitemalice.model import GameState
from spitemalice.moves import NEW_PILE, Move, Play
from spitemalice.policies import Clause, MoveFilter
from spitemalice.ruleset import Ruleset

from ._common import rank_names

NAME = "wild-must-be-covered"
KIND = "house-rule"
DESCRIPTION = "a wild card on a build pile must be covered before the turn ends; no wild as 7 or Q"
ENFORCES = ("wild_must_be_covered",)


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
    """While a build pile has a wild card on top, refuse every discard and every wild card
    played onto such a pile (clauses WC-1, WC-2)."""
    if not ruleset.wild_must_be_covered:
        return None
    wild = ruleset.wild_ranks
    bare = {i for i, pile in enumerate(state.builds) if pile[-1].rank in wild}
    if not bare:
        return None
    allowed = tuple(
        move for move in moves
        if isinstance(move, Play)
        and not (move.card.rank in wild and move.pile != NEW_PILE and move.pile in bare)
    )
    if len(allowed) == len(moves):
        return None
    piles = " and ".join(str(i + 1) for i in sorted(bare))
    return MoveFilter(allowed, "wild-uncovered",
                      f"build pile {piles} has a wild card on top: cover it with a natural card "
                      "before discarding")


@hookimpl
def spitemalice_rule_sheet(ruleset: Ruleset) -> list[Clause]:
    excluded = rank_names(frozenset({7, ruleset.build_ceiling}))
    return [
        Clause("WC-1", "A wild card played on a build pile must be covered by a natural card "
               "before the turn ends: while any build pile has a wild card on top, no card may "
               "be discarded.", "SEED-ES HR4; 'before the turn ends' ASSUMPTION (dossier A15)",
               reasons=("wild-uncovered",)),
        Clause("WC-2", "Only a natural card covers a wild card: no wild card may be played on a "
               "build pile whose top card is wild.", "SEED-ES HR4 (dossier scenario 11)"),
        Clause("WC-3", f"A wild card may not stand for {excluded}: a 7, or the card that "
               "completes a pile (the queen, or the build ceiling), which could not be covered.",
               "SEED-ES HR4", reasons=("wild-excluded",)),
        Clause("WC-4", "A seat that cannot cover a wild card and has no other play passes; the "
               "wild card stays on the pile and every seat must cover it before it may "
               "discard.", "ASSUMPTION (no source covers it)"),
    ]

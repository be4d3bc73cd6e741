"""House rule no-wild-on-wild: no two wild cards in a row on a build pile.

Skip-Bo players' house rule that you "can't play 2" SKIP-BO cards in a row, reported on one FAQ
page (rules dossier §6 edge rules, grade D): while a build pile has a wild card on top, a wild
card may not be played on it; a natural card must come first.  Refused on a rule set without
wild cards, and with wild-must-be-covered, whose bare wild card already takes only a natural.
"""

from __future__ import annotations

from spitemalice import Clause, GameState, Move, MoveFilter, Play, Ruleset, hookimpl

from ._common import no_wild_cards, wild_words

NAME = "no-wild-on-wild"
KIND = "house-rule"
DESCRIPTION = "no two wild cards (SKIP-BO cards, kings, jokers) in a row on a build pile"
REASONS = {"wild-on-wild": "a wild card may not be played on a wild card on a build pile"}
SOURCE = "a Skip-Bo FAQ page (grade D; dossier §6 edge rules: you \"can't play 2\" in a row)"


@hookimpl
def spitemalice_filter_moves(
    ruleset: Ruleset, state: GameState, moves: tuple[Move, ...]
) -> MoveFilter | None:
    """Refuse a wild card played on a build pile whose top card is a wild card (NO-1).  Reads
    only the build-pile tops, which every seat sees."""
    wild = ruleset.wild_ranks
    bare = {i for i, pile in enumerate(state.builds) if pile[-1].rank in wild}
    if not bare:
        return None
    allowed = tuple(move for move in moves if not (
        isinstance(move, Play) and move.pile in bare and move.card.rank in wild))
    if len(allowed) == len(moves):
        return None
    piles = " and ".join(str(i + 1) for i in sorted(bare))
    return MoveFilter(allowed, "wild-on-wild", f"build pile {piles} has a wild card on top: "
                      "no second wild card may follow it; a natural card comes first")


@hookimpl
def spitemalice_conflicts(ruleset: Ruleset, plugins: list[str]) -> str | None:
    """Refuse a rule set without wild cards, and wild-must-be-covered (a bare wild card
    already takes only a natural card there): the house rule would change nothing."""
    refusal = no_wild_cards(ruleset, plugins, NAME)
    if refusal:
        return refusal
    if "wild-must-be-covered" in plugins:
        return (f"{NAME} would change nothing with wild-must-be-covered, under which a wild "
                "card on a build pile already takes only a natural card")
    return None


@hookimpl
def spitemalice_rule_sheet(ruleset: Ruleset) -> list[Clause]:
    wild = wild_words(ruleset)
    return [
        Clause("NO-1", f"No two wild cards ({wild}) in a row on a build pile: while a build "
               "pile has a wild card on top, the next card played on it must be a natural "
               "card.", SOURCE, reasons=("wild-on-wild",)),
        Clause("NO-2", "A wild card may still start a build pile, follow a natural card, and "
               "be discarded where the rule set allows; only a wild card directly on a wild "
               "card is refused.", "ASSUMPTION (the FAQ names only the two in a row)",
               expects=("unexercised",)),
    ]

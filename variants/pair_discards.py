"""House rule pair-discards: two cards of equal rank may go on one discard pile together,
never more than two (rules dossier §8 HR6)."""

from __future__ import annotations

from collections.abc import Generator

import attrs

from spitemalice import Clause, Ruleset, RulesetError, hookimpl

NAME = "pair-discards"
KIND = "house-rule"
DESCRIPTION = "two cards of equal rank may be discarded together on one discard pile"


@hookimpl(wrapper=True)
def spitemalice_ruleset() -> Generator[None, Ruleset, Ruleset]:
    """Allow two-card discards of equal rank.

    Raises:
        RulesetError: the rule set allows pair discards already.
    """
    ruleset = yield
    if ruleset.max_discard_cards >= 2:
        raise RulesetError(f"{NAME} cannot stack on {ruleset.name}: it allows pair discards "
                           "already, so the house rule would change nothing")
    return attrs.evolve(ruleset, max_discard_cards=2)


@hookimpl
def spitemalice_rule_sheet(ruleset: Ruleset) -> list[Clause]:
    return [
        Clause("PD-1", "Two hand cards of equal rank may be discarded together on one discard "
               "pile; two cards of different ranks may not.", "SEED-ES HR6 (dossier §8)",
               reasons=("pair-unequal",)),
        Clause("PD-2", "A discard is one card or one pair, never more than two cards, and a "
               "pair discard ends the turn as a single discard does.",
               "SEED-ES HR6; the turn end ASSUMPTION (dossier §8 HR6)",
               reasons=("discard-count",)),
    ]

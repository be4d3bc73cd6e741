"""House rule no-wild-discards: a wild card may not be discarded.

Skip-Bo players' house rule against discarding a SKIP-BO card (georgiee/angular-workshop-skipbo
#7, rules dossier §6 edge rules and §12.1); in Spite and Malice the same rule for kings is coded
in dnephin/Spite-And-Malice (dossier §8 HR9).  Refused on a rule set without wild cards.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

from spitemalice import Clause, Ruleset, hookimpl

from ._common import no_wild_cards, wild_words

NAME = "no-wild-discards"
KIND = "house-rule"
DESCRIPTION = "wild cards (SKIP-BO cards, kings, jokers) may not be discarded"


@hookimpl(wrapper=True)
def spitemalice_ruleset() -> Generator[None, Ruleset, Ruleset]:
    ruleset = yield
    return attrs.evolve(ruleset, discard_forbidden=ruleset.discard_forbidden | ruleset.wild_ranks)


@hookimpl
def spitemalice_conflicts(ruleset: Ruleset, plugins: list[str]) -> str | None:
    """Refuse a rule set without wild cards: the house rule would change nothing."""
    return no_wild_cards(ruleset, plugins, NAME)


@hookimpl
def spitemalice_rule_sheet(ruleset: Ruleset) -> list[Clause]:
    wild = wild_words(ruleset)
    return [
        Clause("NW-1", f"A wild card ({wild}) may not be discarded; it must be played on a "
               "build pile or kept in the hand.",
               "georgiee/angular-workshop-skipbo#7 (a player's house rule; dossier §6 edge "
               "rules, §12.1); dnephin/Spite-And-Malice (dossier §8 HR9)",
               reasons=("forbidden-discard",)),
        Clause("NW-2", "A seat that holds only cards it may neither play nor discard passes.",
               "ASSUMPTION (dossier A7)",
               events=("passed",), expects=("unexercised",)),
    ]

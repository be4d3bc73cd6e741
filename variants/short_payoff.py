"""House rule short-payoff: shorter pay-off piles ("stock piles" in Skip-Bo) of 10 cards.

Skip-Bo's shorter game (rules dossier §6 K4): finalbosscardgame.com suggests 10 cards; a blog
plays anything from 10 to 30, which is ``--set payoff_size=N payoff_size_many=N`` without this
house rule.  Refused where pay-off piles already hold 10 cards or fewer, or share out a separate
pay-off pack.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

from spitemalice import Clause, Ruleset, RulesetError, hookimpl

NAME = "short-payoff"
KIND = "house-rule"
DESCRIPTION = "pay-off piles of 10 cards at every seat count, for a shorter game"
SIZE = 10


@hookimpl(wrapper=True)
def spitemalice_ruleset() -> Generator[None, Ruleset, Ruleset]:
    """Pay-off piles of 10 cards, with 5 or more seats as well.

    Raises:
        RulesetError: the rule set shares out a separate pay-off pack, or its pay-off piles
            already hold 10 cards or fewer.
    """
    ruleset = yield
    if ruleset.payoff_size == 0:
        raise RulesetError(f"{NAME} cannot stack on {ruleset.name}: its pay-off piles share out "
                           "a separate pay-off pack (payoff_size = 0)")
    if ruleset.payoff_size <= SIZE:
        raise RulesetError(f"{NAME} cannot stack on {ruleset.name}: its pay-off piles already "
                           f"hold {ruleset.payoff_size} cards, no more than {SIZE}")
    many = SIZE if ruleset.payoff_size_many else 0
    return attrs.evolve(ruleset, payoff_size=SIZE, payoff_size_many=many)


@hookimpl
def spitemalice_rule_sheet(ruleset: Ruleset) -> list[Clause]:
    return [
        Clause("SP-1", f"Each pay-off pile holds {ruleset.payoff_size} cards at every seat count "
               "(payoff_size, payoff_size_many), for a shorter game.",
               "finalbosscardgame.com (10 cards; dossier §6 K4)",
               events=("dealt",)),
        Clause("SP-2", "Other short lengths, anything from 10 to 30 cards, are played without "
               "this house rule by setting payoff_size and payoff_size_many.",
               "a blog (10-30; dossier §6 K4)",
               expects=("unexercised",)),
    ]

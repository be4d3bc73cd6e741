"""House rule no-wild-ceiling: a wild card may not stand for the build ceiling, so a natural
card completes every build pile.

Skip-Bo players' house rule that a SKIP-BO card "must always be covered by a number, so it can
never stand for 12", reported on one FAQ page (rules dossier §6 edge rules, grade D).  The
house rule gives effect to what the page says follows (never 12); it does not make a seat
cover a wild card within its turn (stack wild-must-be-covered for that on a Spite and Malice
rule set).  Refused on a rule set without wild cards, and with wild-must-be-covered, which
already excludes the build ceiling.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

from spitemalice import Clause, Ruleset, hookimpl

from ._common import deck_ranks, no_wild_cards, wild_words

NAME = "no-wild-ceiling"
KIND = "house-rule"
DESCRIPTION = "a wild card may not stand for the build ceiling (12 in Skip-Bo): a natural card " \
              "completes a build pile"
# Applied again after --set and file parameters: the build ceiling in force joins the ranks given.
COMPOSES_WITH = ("wild_excluded", "build_ceiling")
SOURCE = ("a Skip-Bo FAQ page (grade D; dossier §6 edge rules: a wild card must be covered by "
          "a number, so it never stands for 12)")


@hookimpl(wrapper=True)
def spitemalice_ruleset() -> Generator[None, Ruleset, Ruleset]:
    ruleset = yield
    return attrs.evolve(ruleset, wild_excluded=ruleset.wild_excluded | {ruleset.build_ceiling})


@hookimpl
def spitemalice_conflicts(ruleset: Ruleset, plugins: list[str]) -> str | None:
    """Refuse a rule set without wild cards, wild-must-be-covered (which already excludes the
    build ceiling), and a stack that moves the build ceiling after this house rule."""
    refusal = no_wild_cards(ruleset, plugins, NAME)
    if refusal:
        return refusal
    if "wild-must-be-covered" in plugins:
        return (f"{NAME} would change nothing with wild-must-be-covered, under which a wild "
                "card already may not stand for the build ceiling")
    if ruleset.build_ceiling not in ruleset.wild_excluded:
        return (f"a plugin stacked after {NAME} moved the build ceiling to "
                f"{ruleset.build_ceiling}; stack {NAME} after it")
    return None


@hookimpl
def spitemalice_rule_sheet(ruleset: Ruleset) -> list[Clause]:
    ceiling = ruleset.build_ceiling
    top, below = (deck_ranks(ruleset, frozenset({rank})) for rank in (ceiling, ceiling - 1))
    return [
        Clause("NC-1", f"A wild card ({wild_words(ruleset)}) may not stand for {top}, the build "
               f"ceiling: only a natural {top} completes a build pile.", SOURCE,
               reasons=("wild-excluded",)),
        Clause("NC-2", f"A wild card may stand for {below} and wait there: nothing makes the "
               "seat cover it within its turn.",
               "ASSUMPTION (the FAQ says only that a number must cover it)",
               expects=("unexercised",)),
    ]

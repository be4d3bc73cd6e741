"""House rule natural-ace-two: no wild card may stand for an ace or a two (rules dossier §8
HR6).  Refused on a rule set without wild cards, where it would change nothing."""

from __future__ import annotations

from collections.abc import Generator

import attrs

from spitemalice import Clause, Ruleset, hookimpl

from ._common import no_wild_cards

NAME = "natural-ace-two"
KIND = "house-rule"
DESCRIPTION = "no wild card may stand for an ace or a two"


@hookimpl(wrapper=True)
def spitemalice_ruleset() -> Generator[None, Ruleset, Ruleset]:
    ruleset = yield
    return attrs.evolve(ruleset, wild_excluded=ruleset.wild_excluded | {1, 2})


@hookimpl
def spitemalice_conflicts(ruleset: Ruleset, plugins: list[str]) -> str | None:
    """Refuse a rule set without wild cards, and jokers-to-king (whose jokers already may not
    stand for A or 2): the house rule would change nothing."""
    refusal = no_wild_cards(ruleset, plugins, NAME)
    if refusal:
        return refusal
    if "jokers-to-king" in plugins:
        return (f"{NAME} would change nothing with jokers-to-king, whose jokers already may "
                "not stand for A or 2")
    return None


@hookimpl
def spitemalice_rule_sheet(ruleset: Ruleset) -> list[Clause]:
    return [
        Clause("NA-1", "Aces and twos must be natural: no wild card may stand for an ace or a "
               "two, so a wild card may neither start a build pile nor follow its ace.",
               "SEED-ES HR6 (dossier §8)", reasons=("wild-cannot-start", "wild-excluded")),
    ]

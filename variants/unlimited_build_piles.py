"""House rule unlimited-build-piles: any number of build piles may be open at once.

Rules dossier §8 HR1 (SEED-ES; RIGAL "unlimited stacks, if you prefer").
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

from spitemalice import Clause, Ruleset, RulesetError, hookimpl

NAME = "unlimited-build-piles"
KIND = "house-rule"
DESCRIPTION = "any number of build piles may be open at once"


@hookimpl(wrapper=True)
def spitemalice_ruleset() -> Generator[None, Ruleset, Ruleset]:
    """Lift the build pile limit.

    Raises:
        RulesetError: the rule set has no limit already (the house rule would change nothing).
    """
    ruleset = yield
    if ruleset.max_build_piles is None:
        raise RulesetError(f"{NAME} cannot stack on {ruleset.name}: it has no build pile limit "
                           "to lift, so the house rule would change nothing")
    return attrs.evolve(ruleset, max_build_piles=None)


@hookimpl
def spitemalice_rule_sheet(ruleset: Ruleset) -> list[Clause]:
    return [
        Clause("UB-1", "Any number of build piles may be open at once; this replaces the rule "
               "set's limit.", "SEED-ES HR1; RIGAL (dossier §8)", reasons=("build-pile-limit",)),
        Clause("UB-2", "Completed build piles keep the rule set's own policy (set aside or "
               "shuffled in); SEED-ES's 'cleared only when the draw pile runs out' is "
               "--set completed_piles=set-aside.", "ASSUMPTION (dossier §8 HR1, A5)",
               events=("pile-completed",)),
    ]

"""House rule jokers-to-king: jokers in, build piles run A to K, jokers wild except as A, 2, 7
and J, kings natural (rules dossier §8 HR3).

It changes the deck, so it is applied first, right after the rule set (``trylast`` wrapper), and
other house rules stack on its result whatever order they are given in.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

from spitemalice import Clause, Ruleset, hookimpl

from ._common import numbered_deck

NAME = "jokers-to-king"
KIND = "house-rule"
DESCRIPTION = "jokers in and wild (not as A, 2, 7 or J), kings natural, build piles A to K"
JOKER_EXCLUDED = frozenset({1, 2, 7, 11})


@hookimpl(wrapper=True, trylast=True)
def spitemalice_ruleset() -> Generator[None, Ruleset, Ruleset]:
    ruleset = yield
    return attrs.evolve(
        ruleset, wild_ranks=frozenset({0}), wild_excluded=ruleset.wild_excluded | JOKER_EXCLUDED,
        build_ceiling=13, jokers_per_pack=max(ruleset.jokers_per_pack, 2),
    )


@hookimpl
def spitemalice_conflicts(ruleset: Ruleset, plugins: list[str]) -> str | None:
    """Refuse a rule set without standard packs (it has no kings or jokers to use)."""
    if numbered_deck(ruleset) or not ruleset.seat_packs:
        return (f"{plugins[0]} plays with numbered cards, not the standard packs with kings "
                f"and jokers that {NAME} needs")
    return None


@hookimpl
def spitemalice_rule_sheet(ruleset: Ruleset) -> list[Clause]:
    return [
        Clause("JK-1", "Each standard pack brings its two jokers into the deck "
               "(jokers_per_pack = 2).", "ASSUMPTION (SEED-ES HR3 keeps the jokers; how many "
               "is not stated)",
               events=("dealt",)),
        Clause("JK-2", "Build piles run from the ace to the king: a pile is complete when it "
               "reaches the king (thirteen cards). This replaces the rule set's build ceiling.",
               "SEED-ES HR3; PARLETT B4",
               events=("pile-completed",)),
        Clause("JK-3", "Jokers are the wild cards and may stand for any rank except A, 2, 7 and "
               "J, so a joker may not start a build pile; kings are natural cards.",
               "SEED-ES HR3 (the A, 2, 7, J exclusion is only there)",
               reasons=("wild-cannot-start", "wild-excluded")),
    ]

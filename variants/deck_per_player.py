"""House rule deck-per-player: one standard pack per seat (rules dossier §8 HR5).

It changes the deck, so it is applied right after the rule set (``trylast`` wrapper).
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

from spitemalice import Clause, Ruleset, RulesetError, hookimpl

from ._common import numbered_deck

NAME = "deck-per-player"
KIND = "house-rule"
DESCRIPTION = "one standard pack per seat (packs = players)"


@hookimpl(wrapper=True, trylast=True)
def spitemalice_ruleset() -> Generator[None, Ruleset, Ruleset]:
    """Deal one standard pack per seat.

    Raises:
        RulesetError: the rule set plays with numbered cards, or already deals a pack per seat
            (by its own rule, or because its only player count equals its pack count).
    """
    ruleset = yield
    if numbered_deck(ruleset):
        raise RulesetError(f"{NAME} cannot stack on {ruleset.name}: it needs standard packs, "
                           f"but {ruleset.name} plays with numbered cards")
    if ruleset.packs_per_seat:
        raise RulesetError(f"{NAME} cannot stack on {ruleset.name}: {ruleset.name} already "
                           "deals one pack per seat, so the house rule would change nothing")
    if ruleset.min_players == ruleset.max_players == ruleset.packs:
        raise RulesetError(f"{NAME} cannot stack on {ruleset.name}: {ruleset.name} is for "
                           f"{ruleset.packs} players with {ruleset.packs} packs, already one "
                           "pack per seat, so the house rule would change nothing")
    return attrs.evolve(ruleset, packs_per_seat=True)


@hookimpl
def spitemalice_rule_sheet(ruleset: Ruleset) -> list[Clause]:
    return [
        Clause("DP-1", "The deck is one standard 52-card pack per seat (packs_per_seat), in "
               "place of the rule set's pack count; jokers come with the packs as the rule set "
               "says.", "SEED-ES HR5 (dossier §8)",
               events=("dealt",)),
    ]

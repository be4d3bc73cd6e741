"""quick-malice: an example variant from outside the spitemalice package.

Two packs with their four jokers, 12 pay-off cards, three build piles, jokers and kings wild
(not as an ace), and every completed pile shuffled straight back into the draw pile.  It shows
everything a third-party variant needs: a Ruleset, a rule sheet, an entry point.
"""

from __future__ import annotations

from spitemalice import Clause, Ruleset, base_sheet, hookimpl

NAME = "quick-malice"
KIND = "ruleset"
DESCRIPTION = "example outside variant: 2 packs + 4 jokers, 12 pay-off cards, 3 build piles"

RULESET = Ruleset(
    name=NAME, title="Quick Malice (example variant)", version="1.0",
    players=2, min_players=2, max_players=3,
    packs=2, jokers=4, wild_ranks=frozenset({0, 13}), wild_excluded=frozenset({1}),
    build_ceiling=12, max_build_piles=3, completed_piles="shuffle-in",
    payoff_size=12, hand_size=5, discard_forbidden=frozenset(), exhaustion="tie",
)

CLAUSES = [
    Clause("QM-1", "Two packs and their four jokers; jokers and kings are wild but never an "
           "ace.", "EXAMPLE", reasons=("wild-cannot-start", "wild-excluded")),
    Clause("QM-2", "At most three build piles; a completed pile goes back into the draw pile "
           "at once.", "EXAMPLE", reasons=("build-pile-limit",)),
    Clause("QM-3", "Each seat has 12 pay-off cards; any hand card may be discarded.", "EXAMPLE"),
]


@hookimpl
def spitemalice_ruleset() -> Ruleset:
    return RULESET


@hookimpl
def spitemalice_rule_sheet(ruleset: Ruleset) -> list[Clause]:
    # uspcc's sheet, rendered from this rule set's values, then these clauses on top.
    return base_sheet("uspcc", ruleset, CLAUSES)

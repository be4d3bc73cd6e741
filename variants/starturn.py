"""The starturn rule set: W. H. Storey's Starturn (Chad Valley, 1935), seed ``000``.

A stack pack of 44 cards shared out as the seats' stacks (pay-off piles) and a draw pack of 52;
build piles run 1 to 15, at most four, and a completed pile is shuffled into the draw pack at
once (rules dossier §5).  The card faces are documented nowhere.  The default reading was
chosen by ``spitemalice tune`` toward play like the family's (completion and game length
near blackwood-frey's under the same bots, docs/rulesets.md): the draw pack holds 9 wild star
cards and 43 numbers, the stack pack 44 numbers, each spread 1..15 as evenly as possible.  The
earlier reading (no star cards: ``--set draw_pack=52 --set jokers=0 --set wild_ranks=none``)
ends most games drawn and its sheet says so (ST-16).
"""

from __future__ import annotations

from spitemalice import Clause, Ruleset, hookimpl

from ._common import play_clauses

NAME = "starturn"
KIND = "ruleset"
DESCRIPTION = ("Starturn (1935): stack pack of 44 and draw pack of 52 (9 wild stars, a "
               "searched reading), build piles 1 to 15, 2-4 players")

RULESET = Ruleset(
    name=NAME,
    title="Starturn (W. H. Storey, Chad Valley 1935)",
    version="2.0",
    players=2, min_players=2, max_players=4,
    packs=0, jokers=9, draw_pack=43, payoff_pack=44,
    wild_ranks=frozenset({0}), wild_excluded=frozenset(),
    build_ceiling=15, max_build_piles=4, completed_piles="shuffle-in",
    payoff_piles=1, payoff_size=0, hand_size=5, first_seat="cut",
    discard_piles=4, discard_forbidden=frozenset(), max_discard_cards=1,
    exhaustion="tie", win_bonus=1, points_per_card=0, match_target=1,
)

S = "SEED-ES"  # seeds/000 (Spanish Wikipedia), rules dossier §5 (S1-S8)
SEARCH = ("spitemalice tune starturn --set wild_ranks=0 --param jokers=0..24 --param "
          "draw_pack=52-jokers --param 'wild_excluded=none|1' --target 'completion>=0.95' "
          "--target turns=70+-14 --budget 1500 --batch 50 --recheck 3 --recheck-games 300 "
          "--bots heuristic --seed 0")
"""The search that chose the default card faces (docs/rulesets.md gives its figures)."""


def _faces_clause(ruleset: Ruleset) -> Clause:
    stars = ruleset.seat_jokers if 0 in ruleset.wild_ranks else 0
    faces = (f"the draw pack {ruleset.draw_pack} numbers and {stars} wild star cards "
             "(jokers, written *)" if stars else
             f"the draw pack {ruleset.draw_pack} numbers and no star cards")
    return Clause(
        "ST-2", "The card faces are not documented. Both packs are taken to hold suitless "
        f"numbers from 1 to {ruleset.build_ceiling} (build_ceiling) spread as evenly as "
        f"possible: the stack pack {ruleset.payoff_pack} numbers, {faces}. The default, 9 "
        "star cards among the 52 draw cards, was chosen by a search toward play like Spite "
        f"and Malice's: `{SEARCH}` (docs/rulesets.md gives its figures). The earlier reading "
        "without stars is --set draw_pack=52 --set jokers=0 --set wild_ranks=none; the "
        "dossier's six stars, --set draw_pack=46 --set jokers=6.",
        "ASSUMPTION ST-A2 (dossier §5, A17); the star count chosen by spitemalice tune",
        events=("dealt",))


def _wild_clause(ruleset: Ruleset) -> Clause:
    reasons = ("wild-cannot-start", "wild-excluded")
    if not ruleset.has_wild_cards:
        return Clause("ST-9", "There are no wild cards.", "ASSUMPTION ST-A2 (dossier §5)",
                      reasons=reasons, expects=("unexercised",))
    allowed = [r for r in range(1, ruleset.build_ceiling + 1) if r not in ruleset.wild_excluded]
    stands = f"any number from {allowed[0]} to {allowed[-1]}" if allowed else "no number"
    if len(allowed) < ruleset.build_ceiling:
        stands += " (wild_excluded)"
    start = "so it may" if allowed[:1] == [1] else "so it may not"
    return Clause("ST-9", f"A star card is wild: it stands for {stands} on a build pile, "
                  f"{start} start one.",
                  "ASSUMPTION ST-A1, ST-A2 (dossier §5: 'star' cards, effect undocumented)",
                  reasons=reasons)


def _end_clause(ruleset: Ruleset) -> Clause:
    text = ("When a required draw finds no card at all (completed piles are already in the "
            "draw pile), the game ends drawn and nobody scores; a blocked or timed-out game "
            "also scores nothing. A draw that finds fewer cards than it needs takes those "
            "there are, and the seat plays on.")
    events = ("drawn", "short-draw", "blocked", "turn-limit")
    source = "ASSUMPTION (no source covers it; dossier A21)"
    if ruleset.has_wild_cards:
        return Clause("ST-16", text, source, events=events)
    return Clause("ST-16", text + " Without star cards most games end drawn, even between "
                  "sensible players: the draw pack runs out before a stack is played out "
                  "(`spitemalice validate starturn` reports this low completion as intended).",
                  source, expects=("completion",), events=events)


def clauses(ruleset: Ruleset) -> list[Clause]:
    """The rule sheet: the card faces (ST-2), the wild cards (ST-9) and the drawn game
    (ST-16) written from ``ruleset``."""
    written = {"ST-2": _faces_clause, "ST-9": _wild_clause, "ST-16": _end_clause}
    return [written[c.id](ruleset) if c.id in written else c for c in CLAUSES]


CLAUSES = (
    Clause("ST-1", "Two separate packs are used: a stack pack of 44 cards (payoff_pack) and a "
           "draw pack of 52 cards (draw_pack).", f"{S} S1",
           events=("dealt",)),
    Clause("ST-2", "", ""),  # written from the rule set above
    Clause("ST-3", "{players_range} A player count the packs cannot deal stacks and hands "
           "for is refused.", f"{S} S2; deal check LIBRARY",
           events=("dealt",)),
    Clause("ST-4", "The stack pack is shared out equally as the seats' stacks (pay-off piles, "
           "payoff_size = 0), face down with the top card face up; stack cards left over join "
           "the draw pack.",
           f"{S} S3; the leftovers ASSUMPTION",
           events=("dealt",)),
    Clause("ST-5", "Only the top card of a stack (pay-off pile) may be played.", f"{S} S3",
           reasons=("empty-pile@payoff", "buried-card@payoff")),
    Clause("ST-6", "Each seat is dealt {hand_size:word} cards from the draw pack and fills its "
           "hand "
           "to {hand_size:word} at the start of each turn; the rest of the draw pack is the draw "
           "pile.", f"{S} S4",
           events=("dealt",)),
    Clause("ST-7", "A build pile starts with a 1 and rises by exactly one up to "
           "{build_ceiling}.", f"{S} S5",
           reasons=("wrong-rank",)),
    Clause("ST-8", "{build_pile_limit}", f"{S} S5",
           reasons=("build-pile-limit",)),
    Clause("ST-9", "", ""),  # written from the rule set above
    Clause("ST-10", "A build pile that reaches {build_ceiling} is complete and "
           "{completed}.", f"{S} S7",
           events=("pile-completed",)),
    Clause("ST-11", "Each seat has {discard_piles:word} discard piles of its own. Only the top "
           "card of a "
           "discard pile may be played, and only by its owner.", f"{S} S6",
           reasons=("buried-card@discard", "not-on-pile@discard", "not-own-pile",
                    "not-own-discard-pile",
                    "empty-pile@discard")),
    Clause("ST-12", "A turn ends when the seat puts exactly one hand card, any card, on one of "
           "its discard piles; cards go to discard piles only from the hand.",
           f"{S} S6; 'any card' ASSUMPTION",
           reasons=("discard-count", "pair-unequal", "forbidden-discard")),
    Clause("ST-13", "A seat that plays its whole hand onto build piles draws five more at once "
           "and goes on, as in Spite and Malice; no discard is owed for the emptied hand.",
           f"ASSUMPTION (reading of {S} S6 'unless the whole hand went onto build piles')",
           events=("hand-emptied",)),
    Clause("ST-14", "A seeded cut picks the seat that plays first; turns go round in seat "
           "order.", "ASSUMPTION (who starts is not documented, dossier §5)",
           events=("dealt",)),
    Clause("ST-15", "The first seat to play the last card of its stack wins at once.",
           f"{S} S8",
           events=("win",)),
    Clause("ST-16", "", ""),  # written from the rule set above
    Clause("ST-17", "No scoring is documented: a win scores 1 point (win_bonus) and a match is "
           "a single game (match_target = 1).", "ASSUMPTION ST-A1 ('no scoring; single win')",
           events=("win",)),
    *play_clauses("ST", 18),
)


@hookimpl
def spitemalice_ruleset() -> Ruleset:
    return RULESET


@hookimpl
def spitemalice_rule_sheet(ruleset: Ruleset) -> list[Clause]:
    return clauses(ruleset)

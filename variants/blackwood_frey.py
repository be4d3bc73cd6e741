"""The blackwood-frey rule set: three packs, kings wild, four build piles, A up to Q.

This is the version most card books and the Wikipedia article give (seed ``000``); the name
follows common use, though the dossier could not confirm Frey's own numbers (dossier A1).
Every rule is a :class:`Ruleset` value; this plugin adds only the values and the rule sheet.
"""

from __future__ import annotations

from spitemalice import Clause, Ruleset, hookimpl

NAME = "blackwood-frey"
KIND = "ruleset"
DESCRIPTION = "3 packs, kings wild (not as ace), 4 build piles A-Q, 26 pay-off cards, 2-4 players"

RULESET = Ruleset(
    name=NAME,
    title="Spite and Malice (Blackwood/Frey, three packs)",
    version="1.0",
    players=2, min_players=2, max_players=4,
    packs=3, jokers=0, wild_ranks=frozenset({0, 13}), wild_excluded=frozenset({1}),
    build_ceiling=12, max_build_piles=4, completed_piles="set-aside",
    payoff_piles=1, payoff_size=26, hand_size=5, first_seat="cut",
    discard_piles=4, discard_forbidden=frozenset({1}), max_discard_cards=1,
    exhaustion="difference", win_bonus=5, points_per_card=1, match_target=50,
)

S = "SEED-ES"  # seeds/000 (Spanish Wikipedia), rules dossier §1.3 W1-W12
CLAUSES = (
    Clause("BF-1", "The deck is {deck}. Option: keep the jokers (jokers=6); they are then wild "
           "like kings.", f"{S} W1",
           events=("dealt",)),
    Clause("BF-2", "{players_range} A player count the deck cannot deal pay-off piles and "
           "hands for is refused.", f"{S} W3; deal check LIBRARY",
           events=("dealt",)),
    Clause("BF-3", "Ranks run from the ace (1, low) to the {build_ceiling:rank} ({build_ceiling}, "
           "high); suits do not matter. A build pile starts with an ace and rises by exactly one "
           "rank.",
           f"{S} W2, W5", reasons=("wrong-rank",)),
    Clause("BF-4", "{wild_rule}", f"{S} W2",
           reasons=("wild-cannot-start", "wild-excluded")),
    Clause("BF-5", "{build_pile_limit}", f"{S} W5",
           reasons=("build-pile-limit",)),
    Clause("BF-6", "A build pile that reaches the {build_ceiling:rank} ({build_ceiling:word} "
           "cards) "
           "is complete and {completed}.", f"{S} W6",
           events=("pile-completed",)),
    Clause("BF-7", "When a required draw finds the draw pile empty, the set-aside cards are "
           "shuffled into a new draw pile and the draw goes on.",
           f"{S} W6; timing ASSUMPTION (dossier A5)",
           events=("recycled",)),
    Clause("BF-8", "When a required draw finds no card at all (the draw pile empty and no "
           "set-aside cards), the hand is drawn and the game ends. A draw that finds fewer "
           "cards than it needs takes those there are, and the seat plays on.",
           f"{S} W11; the short draw ASSUMPTION (dossier A21, scenario 5)",
           events=("drawn", "short-draw")),
    Clause("BF-9", "Each seat is dealt {payoff_deal} (26 as the source deals, 13 for a short "
           "game: payoff_size) with its top card face up; only that top card may be played.",
           f"{S} W4",
           reasons=("empty-pile@payoff", "buried-card@payoff")),
    Clause("BF-10", "Each seat holds a hand of {hand_size:word}. The hand is filled to "
           "{hand_size:word} "
           "at the start of each turn, and when a seat plays its last hand card it draws "
           "{hand_size:word} more at once.",
           f"{S} W9",
           events=("dealt", "hand-emptied")),
    Clause("BF-11", "A seeded cut picks the dealer, who plays first; turns go round in seat "
           "order. In a match the deal passes to the next seat each game.", f"{S} W4, W8",
           events=("dealt",)),
    Clause("BF-12", "Each seat has {discard_piles:word} discard piles of its own. Only the top "
           "card of a "
           "discard pile may be played, and only by its owner.", f"{S} W7",
           reasons=("buried-card@discard", "not-on-pile@discard", "not-own-pile",
                    "not-own-discard-pile",
                    "empty-pile@discard")),
    Clause("BF-13", "{discard_rule}", f"{S} W7", reasons=("forbidden-discard",)),
    Clause("BF-14", "A turn ends when the seat puts {discard_count} on one of its discard "
           "piles; cards go to discard piles only from the hand.", f"{S} W9",
           reasons=("discard-count", "pair-unequal")),
    Clause("BF-15", "Only the seat on turn moves, with cards it holds or may reach.", "LIBRARY",
           reasons=("not-on-turn", "not-in-hand", "no-such-pile", "seat-prefix")),
    Clause("BF-16", "Playing the last pay-off card wins the game at once; no discard follows.",
           f"{S} W9",
           events=("win",)),
    Clause("BF-17", "The winner scores {win_bonus} points plus {points_per_card} for every card "
           "left in all opponents' "
           "pay-off piles; nobody else scores.", f"{S} W10",
           events=("win",)),
    Clause("BF-18", "In a drawn hand the one seat with fewest pay-off cards scores the sum over "
           "opponents of (their cards minus its own); a tie for fewest scores nothing.",
           f"{S} W11; the tie ASSUMPTION",
           events=("drawn", "blocked", "turn-limit")),
    Clause("BF-19", "A match is played to {match_target} points (25, 50 and 100 are common: "
           "match_target).",
           f"{S} W12",
           events=("match-won",), expects=("unexercised",)),
    Clause("BF-20", "A seat that can neither play nor discard (say, only aces in hand and no "
           "build pile free) passes; a seat that has another legal move may not pass.",
           "ASSUMPTION (dossier A7)", reasons=("pass-not-allowed",)),
    Clause("BF-21", "When every seat in turn ends its turn with a pass and no card moved, the "
           "game is blocked and scored as a drawn hand.", "ASSUMPTION (Parlett stalemate, B7)",
           events=("blocked",), expects=("unexercised",)),
    Clause("BF-22", "A game that reaches the turn limit ({turn_limit} turns), or a turn that "
           "reaches "
           "as many moves, ends and is scored as a drawn hand.",
           "LIBRARY (termination guarantee)",
           events=("turn-limit",), expects=("unexercised",)),
    Clause("BF-23", "No move may be made once the game has ended.", "LIBRARY",
           reasons=("game-over",)),
)


@hookimpl
def spitemalice_ruleset() -> Ruleset:
    return RULESET


@hookimpl
def spitemalice_rule_sheet(ruleset: Ruleset) -> list[Clause]:
    return list(CLAUSES)

"""The misery rule set: two pay-off piles of twelve per seat, both tops playable, hand of six.

The only source is the Wikipedia article (seed ``000``, rules dossier §4): two packs for two
players and three for three, two goal piles of twelve cards each and a hand of six.  How the
two piles are used and everything else is the dossier's ASSUMPTION M-A1: both tops are
playable, a seat wins when both piles are empty, the rest as blackwood-frey (design notes §5).
"""

from __future__ import annotations

from spitemalice import Clause, Ruleset, hookimpl

from ._common import play_clauses

NAME = "misery"
KIND = "ruleset"
DESCRIPTION = ("one pack per seat, 2-3 players, two pay-off piles of 12 each (both tops "
               "playable), hand of 6")

RULESET = Ruleset(
    name=NAME,
    title="Misery",
    version="1.0",
    players=2, min_players=2, max_players=3,
    packs=2, packs_per_seat=True, jokers=0,
    wild_ranks=frozenset({0, 13}), wild_excluded=frozenset({1}),
    build_ceiling=12, max_build_piles=4, completed_piles="set-aside",
    payoff_piles=2, payoff_size=12, hand_size=6, first_seat="cut",
    discard_piles=4, discard_forbidden=frozenset({1}), max_discard_cards=1,
    exhaustion="difference", win_bonus=5, points_per_card=1, match_target=50,
)

S = "SEED-ES"  # seeds/000 (Spanish Wikipedia), rules dossier §4 (M1-M4)
A = "ASSUMPTION M-A1"  # dossier §4: the rest as the Wikipedia game (§1.3, W1-W12)
CLAUSES = (
    Clause("MI-1", "The deck is {deck}.", f"{S} M2",
           events=("dealt",)),
    Clause("MI-2", "{players_range} A player count the deck cannot deal pay-off piles "
           "and hands for is refused.", f"{S} M1, M2; deal check LIBRARY",
           events=("dealt",)),
    Clause("MI-3", "Ranks run from the ace (low) to the {build_ceiling:rank} (high); suits do "
           "not matter. A "
           "build pile starts with an ace and rises by exactly one rank.", f"{A} (as {S} W2, W5)",
           reasons=("wrong-rank",)),
    Clause("MI-4", "{wild_rule}", f"{A} (as {S} W2)",
           reasons=("wild-cannot-start", "wild-excluded")),
    Clause("MI-5", "{build_pile_limit}", f"{A} (as {S} W5)",
           reasons=("build-pile-limit",)),
    Clause("MI-6", "A build pile that reaches the {build_ceiling:rank} ({build_ceiling:word} "
           "cards) "
           "is complete and {completed}.", f"{A} (as {S} W6)",
           events=("pile-completed",)),
    Clause("MI-7", "When a required draw finds the draw pile empty, the set-aside cards are "
           "shuffled into a new draw pile and the draw goes on.",
           f"{A} (as {S} W6; timing dossier A5)",
           events=("recycled",)),
    Clause("MI-8", "When a required draw finds no card at all (the draw pile empty and no "
           "set-aside cards), the hand is drawn and the game ends. A draw that finds fewer "
           "cards than it needs takes those there are, and the seat plays on.",
           f"{A} (as {S} W11; the short draw as dossier A21)",
           events=("drawn", "short-draw")),
    Clause("MI-9", "Each seat is dealt {payoff_deal} (payoff_piles, payoff_size).", f"{S} M3",
           events=("dealt",)),
    Clause("MI-10", "Both pay-off piles have their top card face up, and either top may be "
           "played at any time in the turn; a card under a top may not.", A,
           reasons=("empty-pile@payoff", "buried-card@payoff")),
    Clause("MI-11", "Each seat holds a hand of {hand_size:word}. The hand is filled to "
           "{hand_size:word} at the start of each turn, and when a seat plays its last hand "
           "card it draws {hand_size:word} more at once.",
           f"{S} M4; the refill {A}",
           events=("dealt", "hand-emptied")),
    Clause("MI-12", "A seeded cut picks the dealer, who plays first; turns go round in seat "
           "order. In a match the deal passes to the next seat each game.",
           f"{A} (as {S} W4, W8)",
           events=("dealt",)),
    Clause("MI-13", "Each seat has {discard_piles:word} discard piles of its own. Only the top "
           "card of a "
           "discard pile may be played, and only by its owner.", f"{A} (as {S} W7)",
           reasons=("buried-card@discard", "not-on-pile@discard", "not-own-pile",
                    "not-own-discard-pile",
                    "empty-pile@discard")),
    Clause("MI-14", "{discard_rule}", f"{A} (as {S} W7)",
           reasons=("forbidden-discard",)),
    Clause("MI-15", "A turn ends when the seat puts {discard_count} on one of its discard "
           "piles; cards go to discard piles only from the hand.", f"{A} (as {S} W9)",
           reasons=("discard-count", "pair-unequal")),
    Clause("MI-16", "A seat wins at once, with no discard, when both of its pay-off piles are "
           "empty; emptying one pile is not a win.", A,
           events=("win",)),
    Clause("MI-17", "The winner scores {win_bonus} points plus {points_per_card} for every card "
           "left in the opponents' "
           "pay-off piles, both piles of each counted; nobody else scores.",
           f"{A} (as {S} W10)",
           events=("win",)),
    Clause("MI-18", "In a drawn hand the one seat with fewest pay-off cards (both piles "
           "together) scores the sum over opponents of (their cards minus its own); a tie for "
           "fewest scores nothing.", f"{A} (as {S} W11; the tie ASSUMPTION)",
           events=("drawn", "blocked", "turn-limit")),
    Clause("MI-19", "A match is played to {match_target} points (match_target).", f"{A} (as {S} "
           "W12)",
           events=("match-won",), expects=("unexercised",)),
    *play_clauses("MI", 20),
)


@hookimpl
def spitemalice_ruleset() -> Ruleset:
    return RULESET


@hookimpl
def spitemalice_rule_sheet(ruleset: Ruleset) -> list[Clause]:
    return list(CLAUSES)

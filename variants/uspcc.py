"""The uspcc rule set: the two-pack game of the Bicycle (USPCC) page and pagat.

Two players, two packs, 20 pay-off cards, at most three build piles, kings wild, completed
build piles shuffled into the draw pile at once, the higher pay-off top starts (equal tops
reshuffle), and a draw from an empty draw pile ends the game as a drawn hand with no score
(rules dossier §1.2 and §2, design notes §5).  Every rule is a :class:`Ruleset` value; this
plugin adds only the values and the rule sheet.
"""

from __future__ import annotations

from spitemalice import Clause, Ruleset, hookimpl

from ._common import play_clauses

NAME = "uspcc"
KIND = "ruleset"
DESCRIPTION = "2 packs, 2 players, 20 pay-off cards, 3 build piles, kings wild, piles shuffled in"

RULESET = Ruleset(
    name=NAME,
    title="Spite and Malice (USPCC/Bicycle, two packs)",
    version="1.0",
    players=2, min_players=2, max_players=2,
    packs=2, jokers=0, wild_ranks=frozenset({0, 13}), wild_excluded=frozenset({1}),
    build_ceiling=12, max_build_piles=3, completed_piles="shuffle-in",
    payoff_piles=1, payoff_size=20, hand_size=5, first_seat="higher-payoff-top",
    discard_piles=4, discard_forbidden=frozenset(), max_discard_cards=1,
    exhaustion="tie", win_bonus=0, points_per_card=1, match_target=50,
)

U, P = "BICYCLE-COPY", "PAGAT"  # rules dossier §2 (U1-U9) and §1.2 (P1-P14)
CLAUSES = (
    Clause("US-1", "The deck is {deck}, shuffled together.", f"{U} U1; {P} P1",
           events=("dealt",)),
    Clause("US-2", "{players_range} A player count the deck cannot deal pay-off piles and hands "
           "for is refused.", f"{U} U1; {P} P1; deal check LIBRARY",
           events=("dealt",)),
    Clause("US-3", "Ranks run from the ace (low) to the {build_ceiling:rank} (high); suits do "
           "not matter. A "
           "build pile starts with an ace and rises by exactly one rank, skipping none.",
           f"{U} U1, U5; {P} P2, P6", reasons=("wrong-rank",)),
    Clause("US-4", "{wild_rule}",
           f"{U} U1; {P} P2; 'not as an ace' ASSUMPTION (dossier A2, scenario 3)",
           reasons=("wild-cannot-start", "wild-excluded")),
    Clause("US-5", "{build_pile_limit}", f"{U} U5; {P} P6",
           reasons=("build-pile-limit",)),
    Clause("US-6", "A build pile that reaches the {build_ceiling:rank} ({build_ceiling:word} "
           "cards; "
           "a wild card may stand for it) is complete and {completed}.",
           f"{P} P10 (the Bicycle page's text on this was not readable, {U} U8)",
           events=("pile-completed",)),
    Clause("US-7", "Each seat is dealt {payoff_deal} (payoff_size) with its top card face "
           "up; only that top card may be played, and the next one is turned up.",
           f"{U} U2, U4; {P} P3, P5",
           reasons=("empty-pile@payoff", "buried-card@payoff")),
    Clause("US-8", "Each seat is dealt a hand of {hand_size:word}. A seat holding fewer cards "
           "draws "
           "up to {hand_size:word} at the start of its turn, and when it plays its last hand "
           "card it draws {hand_size:word} more at once and goes on.", f"{U} U2, U7; {P} P8, P9",
           events=("dealt", "hand-emptied")),
    Clause("US-9", "The seat whose pay-off top is higher plays first; a king counts as the "
           "highest card for this. When the highest tops are equal, those seats shuffle their "
           "pay-off piles and turn up new tops until one is higher.",
           f"{U} U3; {P} P4; king ranking ASSUMPTION (dossier A3)",
           events=("dealt",)),
    Clause("US-10", "Each seat has {discard_piles:word} discard piles of its own. Only the top "
           "card of a "
           "discard pile may be played, and only by its owner.", f"{U} U6; {P} P7",
           reasons=("buried-card@discard", "not-on-pile@discard", "not-own-pile",
                    "not-own-discard-pile",
                    "empty-pile@discard")),
    Clause("US-11", "{discard_rule} A discard goes on any of the seat's discard piles, in any "
           "order.", f"{U} U6; {P} P7 (dossier A9)",
           reasons=("forbidden-discard",)),
    Clause("US-12", "A turn ends when the seat puts {discard_count} on one of its discard "
           "piles; cards go to discard piles only from the hand.", f"{P} P8",
           reasons=("discard-count", "pair-unequal")),
    Clause("US-13", "Playing the last pay-off card wins the game at once; no discard follows.",
           f"{P} P11",
           events=("win",)),
    Clause("US-14", "When a required draw finds no card at all (completed piles are already "
           "in the draw pile), the game ends as a drawn hand. A draw that finds fewer cards "
           "than it needs takes those there are, and the seat plays on.",
           f"{P} P12; the moment ASSUMPTION (dossier A6, A21)",
           events=("drawn", "short-draw")),
    Clause("US-15", "A drawn, blocked or timed-out game scores nothing for anyone.", f"{P} P12",
           events=("drawn", "blocked", "turn-limit")),
    Clause("US-16", "The winner scores 1 point for each card left in the opponent's pay-off "
           "pile, with no bonus.",
           f"ASSUMPTION: pagat's scoring was not retrieved ({P} P13, dossier A12); "
           "as SEED-G4A G10",
           events=("win",)),
    Clause("US-17", "A match is played to {match_target} points (match_target).",
           "ASSUMPTION (dossier A12; as SEED-G4A G12)",
           events=("match-won",), expects=("unexercised",)),
    *play_clauses("US", 18),
)


@hookimpl
def spitemalice_ruleset() -> Ruleset:
    return RULESET


@hookimpl
def spitemalice_rule_sheet(ruleset: Ruleset) -> list[Clause]:
    return list(CLAUSES)

"""The g4a rule set: the two-player Spite & Malice app by Games4All (seed ``001``).

Two players, 20 pay-off cards, hand of five, four side (discard) piles, three build piles;
kings wild on any build pile, an empty one included, where a king stands for the ace; a Q or a
K on a J completes a pile, which is shuffled into the draw pile at once; a draw from an empty
draw pile ends the game as a tie with no score; the winner scores the opponent's pay-off cards
left; match to 50 (rules dossier §3, design notes §5).  Every rule is a :class:`Ruleset` value.
"""

from __future__ import annotations

from spitemalice import Clause, Ruleset, hookimpl

from ._common import play_clauses

NAME = "g4a"
KIND = "ruleset"
DESCRIPTION = ("Games4All app: 2 packs, 2 players, 20 pay-off cards, 3 build piles, a king may "
               "start a pile")

RULESET = Ruleset(
    name=NAME,
    title="Spite & Malice (Games4All app)",
    version="1.0",
    players=2, min_players=2, max_players=2,
    packs=2, jokers=0, wild_ranks=frozenset({0, 13}), wild_excluded=frozenset(),
    build_ceiling=12, max_build_piles=3, completed_piles="shuffle-in",
    payoff_piles=1, payoff_size=20, hand_size=5, first_seat="higher-payoff-top",
    discard_piles=4, discard_forbidden=frozenset(), max_discard_cards=1,
    exhaustion="tie", win_bonus=0, points_per_card=1, match_target=50,
)

G = "SEED-G4A"  # seeds/001 (G4A store text), rules dossier §3 (G1-G12)
CLAUSES = (
    Clause("G4-1", "The deck is {deck}.",
           "ASSUMPTION G-A1 (dossier §3: the app does not state its deck; pagat's)",
           events=("dealt",)),
    Clause("G4-2", "{players_range} A player count the deck cannot deal pay-off piles and hands "
           "for is refused.", f"{G} G1; deal check LIBRARY",
           events=("dealt",)),
    Clause("G4-3", "Build piles are built from the ace upwards by exactly one rank, regardless "
           "of suit.", f"{G} G4", reasons=("wrong-rank",)),
    Clause("G4-4", "{wild_rule}",
           f"{G} G5; the empty pile ASSUMPTION (dossier §3, A2)",
           reasons=("wild-cannot-start", "wild-excluded")),
    Clause("G4-5", "{build_pile_limit}", f"{G} G2",
           reasons=("build-pile-limit",)),
    Clause("G4-6", "A build pile is complete when a {build_ceiling:rank}, or a wild card "
           "standing for it, is played on it ({build_ceiling:word} cards), and then "
           "{completed}.",
           f"{G} G6 ('at once' as the text implies)",
           events=("pile-completed",)),
    Clause("G4-7", "Each seat is dealt {payoff_deal} (payoff_size) with its top card face "
           "up; only that top card may be played.", f"{G} G1, G9",
           reasons=("empty-pile@payoff", "buried-card@payoff")),
    Clause("G4-8", "Each seat holds a hand of {hand_size:word}, drawn up to {hand_size:word} at "
           "the "
           "start of its turn. A seat that plays its last hand card draws {hand_size:word} "
           "more at once and goes on.",
           f"{G} G1, G8; the empty hand ASSUMPTION (as PAGAT P9)",
           events=("dealt", "hand-emptied")),
    Clause("G4-9", "The seat whose pay-off top is higher plays first (a king counts highest); "
           "equal tops are reshuffled until one is higher.",
           "ASSUMPTION G-A2 (the pagat rule, PAGAT P4; king ranking dossier A3)",
           events=("dealt",)),
    Clause("G4-10", "Each seat has {discard_piles:word} side (discard) piles of its own. Only "
           "the top card of "
           "a side pile may be played, and only by its owner.", f"{G} G1, G7, G9",
           reasons=("buried-card@discard", "not-on-pile@discard", "not-own-pile",
                    "not-own-discard-pile",
                    "empty-pile@discard")),
    Clause("G4-11", "{discard_rule} A discard goes on a side pile.", f"{G} G7",
           reasons=("forbidden-discard",)),
    Clause("G4-12", "Putting one hand card on a side pile ends the turn at once; cards go to "
           "side piles only from the hand.", f"{G} G9", reasons=("discard-count", "pair-unequal")),
    Clause("G4-13", "The game ends when a seat plays its last pay-off card; that seat wins at "
           "once, with no discard.", f"{G} G3, G10",
           events=("win",)),
    Clause("G4-14", "If the draw pile runs out, the game is a tie and nobody scores; a blocked "
           "or timed-out game is scored the same way. The draw pile runs out when a required "
           "draw finds no card at all: a draw that finds fewer cards than it needs takes those "
           "there are, and the seat plays on (drawing the last card does not end the game).",
           f"{G} G11; the moment ASSUMPTION (dossier A6, A21, scenario 20)",
           events=("drawn", "short-draw", "blocked", "turn-limit")),
    Clause("G4-15", "The winner scores the number of cards left in the opponent's pay-off pile "
           "(no bonus).", f"{G} G10",
           events=("win",)),
    Clause("G4-16", "A match is played to {match_target} points (match_target).", f"{G} G12",
           events=("match-won",), expects=("unexercised",)),
    *play_clauses("G4", 17),
)


@hookimpl
def spitemalice_ruleset() -> Ruleset:
    return RULESET


@hookimpl
def spitemalice_rule_sheet(ruleset: Ruleset) -> list[Clause]:
    return list(CLAUSES)

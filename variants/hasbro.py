"""The hasbro rule set: Hasbro's "Spite & Malice" (2002, reprinted by Parker Brothers).

No rule sheet of this edition has been found; every clause is marked by the secondary
description it comes from (rules dossier §7, H1-H7, and the descriptions issue 35 gathers:
calsboardgamemusings.blogspot.com's 2009 review, howdoyouplayit.com, boardgamegeek.com thread
24063) or as RECONSTRUCTED.  What they give: 110 cards, 2-5 players, a stack (pay-off pile) of
8, a hand of 5 refilled each turn, build piles 1 to 13, a drawn 1 played to the centre at once
and 2s as soon as possible, at most four store (discard) piles, completed piles gathered in a
shared discard pile that is reshuffled into a new draw pile, the highest face-up ("UP") stack
card starts.  What they leave open (the faces of the 110 cards, the wild "spite" cards, how
many build piles, the end of a game with no cards left, scoring) is reconstructed, the card
faces, the build-pile limit and whether a spite card may start a pile chosen by
``spitemalice tune`` (docs/rulesets.md gives the search and its figures).
"""

from __future__ import annotations

from spitemalice import Clause, Ruleset, hookimpl

from ._common import deck_ranks, play_clauses
from .mandatory_aces import spitemalice_filter_moves  # the forced 1s and 2s (HB-12)

NAME = "hasbro"
KIND = "ruleset"
ENFORCES = ("mandatory_ranks",)  # HB-12 states the forced ranks; the filter above enforces them
REASONS = ("forced-play",)
DESCRIPTION = ("Hasbro / Parker Brothers Spite & Malice (2002), reconstructed: 110 numbered "
               "cards 1-13 with wild spite cards, stacks of 8, 2-5 players")

RULESET = Ruleset(
    name=NAME,
    title="Spite & Malice (Hasbro / Parker Brothers, 2002; reconstructed)",
    version="1.1",  # 1.1: the tune search's winner (3 build piles, no spite card as a 1)
    players=2, min_players=2, max_players=5,
    packs=0, draw_pack=100, jokers=10,
    wild_ranks=frozenset({0}), wild_excluded=frozenset({1}),
    build_ceiling=13, max_build_piles=3, completed_piles="set-aside",
    payoff_piles=1, payoff_size=8, hand_size=5, first_seat="higher-payoff-top",
    discard_piles=4, discard_forbidden=frozenset(), max_discard_cards=1,
    mandatory_ranks=frozenset({1, 2}),
    exhaustion="tie", win_bonus=1, points_per_card=0, match_target=1,
)

H = "HASBRO"  # rules dossier §7 (H1-H7) and issue 35's descriptions
R = "RECONSTRUCTED"
TUNED = f"{R} (spitemalice tune, docs/rulesets.md)"

spitemalice_filter_moves = spitemalice_filter_moves  # registered as this plugin's hook


def _deck_clause(ruleset: Ruleset) -> Clause:
    total = ruleset.draw_pack + ruleset.seat_jokers
    return Clause("HB-1", f"The deck is {total} cards: suitless numbers 1 to "
                  f"{ruleset.build_ceiling} spread as evenly as the count allows "
                  f"({ruleset.draw_pack} cards, draw_pack) and {ruleset.seat_jokers} wild "
                  "'spite' cards (jokers). The edition's 110 cards are sourced; how they divide "
                  "into numbers and spite cards is not, and is chosen by a search toward play "
                  "like the family's; the 'malice' cards' effects are unknown and left out.",
                  f"{H} H2 (110 cards), H7; the faces {TUNED}",
                  events=("dealt",))


def _wild_clause(ruleset: Ruleset) -> Clause:
    allowed = [r for r in range(1, ruleset.build_ceiling + 1) if r not in ruleset.wild_excluded]
    stands = (f"any number from {allowed[0]} to {allowed[-1]}" if allowed
              else "no number")
    inside = sorted(r for r in ruleset.wild_excluded if allowed and allowed[0] < r < allowed[-1])
    if inside:  # numbered cards: the numbers themselves, never a court card's letter
        stands += f" but {' or '.join(str(r) for r in inside)} (wild_excluded)"
    return Clause("HB-8", f"A spite card is wild: it stands for {stands} on a build pile "
                  f"({'so it may' if 1 in allowed else 'so it may not'} start one). The "
                  "edition added spite cards whose effect no description gives; this reading "
                  "is Skip-Bo's wild card.", f"{H} H7; the effect {R}, whether it may start a pile "
                  f"{TUNED}",
                  reasons=("wild-cannot-start", "wild-excluded"))


def clauses(ruleset: Ruleset) -> list[Clause]:
    """The rule sheet, its parameter-dependent clauses written from ``ruleset``."""
    return [*_deal_clauses(ruleset), *_play_clauses(ruleset), *play_clauses("HB", 17)]


def _deal_clauses(ruleset: Ruleset) -> list[Clause]:
    return [
        _deck_clause(ruleset),
        Clause("HB-2", "{players_range} A player count the deck cannot deal stacks and hands "
               "for is refused.", f"{H} H2 (2-5 players); deal check LIBRARY",
               events=("dealt",)),
        Clause("HB-3", "Each seat is dealt a stack (pay-off pile) of {payoff_size} cards, face "
               "down with the top card turned face up; only that top card may be played.",
               f"{H} H3", reasons=("empty-pile@payoff", "buried-card@payoff")),
        Clause("HB-4", "Each seat is dealt {hand_size:word} cards and fills its hand to "
               "{hand_size:word} from the draw pile at the start of each turn. One "
               "description deals 4 at the start; the library deals a full hand (the nearest "
               "reading its deal can express). A seat that plays its whole hand draws "
               "{hand_size:word} more at once and goes on, as in Spite and Malice.",
               f"{H} H3 (hand of 5 refilled each turn); the deal of 4 and the emptied hand "
               f"{R}", events=("dealt", "hand-emptied")),
        Clause("HB-5", "Every stack's top card is turned up; the seat whose UP card is "
               "highest plays first (a spite card counts highest) and turns go round in seat "
               "order; equal highest tops: the stacks are shuffled and dealt again.",
               f"{H} (issue 35: 'highest UP card starts'); the tie and the spite card {R}",
               events=("dealt",)),
    ]


def _play_clauses(ruleset: Ruleset) -> list[Clause]:
    return [
        Clause("HB-6", "A build pile starts with a 1 and rises by exactly one number, up to "
               "{build_ceiling}.", f"{H} H4", reasons=("wrong-rank",)),
        Clause("HB-7", "{build_pile_limit} They are shared by all seats.",
               f"the limit {TUNED}; shared {H} H4", reasons=("build-pile-limit",)),
        _wild_clause(ruleset),
        Clause("HB-9", "A build pile that reaches {build_ceiling} is complete: it is removed "
               "to the shared discard pile (set aside) and a new pile may be started in its "
               "place.", f"{H} H4 ('then removed'); the shared pile issue 35's descriptions",
               events=("pile-completed",)),
        Clause("HB-10", "When a required draw finds the draw pile used up, the shared discard "
               "pile is shuffled to form a new draw pile and the draw goes on.",
               f"{H} (issue 35: 'a shared discard pile reshuffled into a new draw pile')",
               events=("recycled",)),
        Clause("HB-11", "When a required draw finds no card at all, the game ends drawn and "
               "nobody scores; a blocked or timed-out game also scores nothing. A draw that "
               "finds fewer cards than it needs takes those there are, and the seat plays on.",
               R, events=("drawn", "short-draw", "blocked", "turn-limit")),
        Clause("HB-12", f"While a {deck_ranks(ruleset, ruleset.mandatory_ranks, 'or')} can "
               "be played onto a build pile from the hand, the stack top or a store-pile "
               "top, only such plays are legal. The descriptions say a drawn 1 goes to the "
               "centre at once and 2s as soon as possible; the library forces such a play "
               "wherever the card lies, the nearest reading its move filter expresses "
               "(mandatory_ranks).",
               f"{H} H5; the reading {R}", reasons=("forced-play",)),
        Clause("HB-13", "Each seat has up to {discard_piles:word} store piles (discard piles) "
               "of its own. Only the top card of a store pile may be played, and only by its "
               "owner.", f"{H} H6", reasons=("buried-card@discard", "not-on-pile@discard",
                                               "not-own-pile", "not-own-discard-pile",
                                               "empty-pile@discard")),
        Clause("HB-14", "A turn ends when the seat puts exactly one hand card, any card, on "
               "one of its store piles.", f"{H} H6 (one card per turn); 'any card' {R}",
               reasons=("discard-count", "pair-unequal", "forbidden-discard")),
        Clause("HB-15", "The first seat to play the last card of its stack wins at once.",
               f"{H} H3 (the object of the game)", events=("win",)),
        Clause("HB-16", "No scoring is documented: a win scores {win_bonus} point "
               "(win_bonus) and a match is a single game (match_target = {match_target}).",
               R, events=("win",)),
    ]


@hookimpl
def spitemalice_ruleset() -> Ruleset:
    return RULESET


@hookimpl
def spitemalice_rule_sheet(ruleset: Ruleset) -> list[Clause]:
    return clauses(ruleset)

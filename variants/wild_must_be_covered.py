"""House rule wild-must-be-covered: a wild card on a build pile must be covered at once by a
natural card, and wild cards may not stand for a 7 or a queen (rules dossier §8 HR4, scenario
11).

"Covered at once" is read strictly (dossier A15): while a build pile has a wild card on top,
the next card played must be a natural card on it, so a wild card may be played only when the
seat can cover it with a card it can reach.  The turn can then never end on an uncovered wild.
"""

from __future__ import annotations

from collections.abc import Generator
from operator import attrgetter

import attrs

from spitemalice import (
    NEW_PILE,
    Clause,
    GameState,
    Move,
    MoveFilter,
    Pile,
    Play,
    Ruleset,
    Zone,
    hookimpl,
)

from ._common import deck_ranks, leading_plays, no_wild_cards

NAME = "wild-must-be-covered"
KIND = "house-rule"
DESCRIPTION = ("a wild card on a build pile must be covered at once by a natural card; no wild "
               "as 7 or Q")
ENFORCES = ("wild_must_be_covered",)
REASONS = ("wild-uncovered",)  # what its move filter answers with (spitemalice.rules.reasons)


@hookimpl(wrapper=True)
def spitemalice_ruleset() -> Generator[None, Ruleset, Ruleset]:
    ruleset = yield
    return attrs.evolve(ruleset, wild_must_be_covered=True,
                        wild_excluded=ruleset.wild_excluded | {7, ruleset.build_ceiling})


@hookimpl
def spitemalice_conflicts(ruleset: Ruleset, plugins: list[str]) -> str | None:
    """Refuse a rule set without wild cards: there would be nothing to cover."""
    return no_wild_cards(ruleset, plugins, NAME, "would have nothing to cover")


@hookimpl
def spitemalice_filter_moves(
    ruleset: Ruleset, state: GameState, moves: tuple[Move, ...]
) -> MoveFilter | None:
    """While a build pile has a wild card on top, allow only natural cards played onto it
    (clause WC-1); otherwise refuse a wild card the seat could not cover at once (WC-2).

    Looks only at the plays, which come before every discard in ``moves``: this runs on
    every move, so it does the least it can where nothing is refused."""
    if not ruleset.wild_must_be_covered:
        return None
    wild = ruleset.wild_ranks
    builds = state.builds
    for pile in builds:
        if pile[-1].rank in wild:
            return _cover_first(builds, moves, wild)
    kept: list[Move] = []  # the plays allowed, if any is refused
    refused = False
    reachable: list[int] | None = None
    tops: tuple[int, ...] = ()
    plays = 0
    for move in moves:
        if type(move) is not Play:
            break  # the plays come first: the rest are discards
        plays += 1
        if move.card.rank in wild:
            if reachable is None:
                reachable, tops = _reachable_ranks(state), state.build_tops
            # The rank that must cover the wild card at once (WC-2).
            need = 2 if move.pile == NEW_PILE else tops[move.pile] + 2
            if (need not in reachable or need in wild) and not (
                    move.zone is Zone.DISCARD and _under_covers(state, move, need, wild)):
                refused = True
                continue
        kept.append(move)
    if not refused:
        return None
    # Only plays are refused; the discards after the plays stay as they are.
    return MoveFilter((*kept, *moves[plays:]), "wild-uncovered", "a wild card may be "
                      "played only when a natural card the seat can reach covers it at once")


def _cover_first(builds: tuple[Pile, ...], moves: tuple[Move, ...],
                 wild: frozenset[int]) -> MoveFilter | None:
    """Only natural cards played onto a build pile with a wild card on top (clause WC-1)."""
    bare = [i for i, pile in enumerate(builds) if pile[-1].rank in wild]
    allowed = tuple(move for move in leading_plays(moves)
                    if move.pile in bare and move.card.rank not in wild)
    if len(allowed) == len(moves):
        return None
    piles = " and ".join(str(i + 1) for i in bare)
    return MoveFilter(allowed, "wild-uncovered", f"build pile {piles} has a wild card on top: "
                      "the next card must be a natural card on it")


def _reachable_ranks(state: GameState) -> list[int]:
    """Ranks of the cards the seat on turn can reach: its hand, discard-pile tops and pay-off
    tops (a wild card's own rank among them; a short list is searched faster than a set is
    built)."""
    seat = state.seats[state.seat]
    ranks = list(map(_RANK, seat.hand))
    ranks += [pile[-1].rank for pile in seat.discards if pile]
    ranks += [pile[-1].rank for pile in seat.payoff if pile]
    return ranks


_RANK = attrgetter("rank")


def _under_covers(state: GameState, move: Play, need: int, wild: frozenset[int]) -> bool:
    """Whether the card under a wild card played from a discard pile is the natural card of
    rank ``need`` that covers it (asked only of discard piles: a pay-off pile's next card is
    face down and never counts)."""
    if need in wild:
        return False
    pile = state.seats[state.seat].discards[move.index]
    return len(pile) >= 2 and pile[-2].rank == need


@hookimpl
def spitemalice_rule_sheet(ruleset: Ruleset) -> list[Clause]:
    excluded = deck_ranks(ruleset, frozenset({7, ruleset.build_ceiling}))
    return [
        Clause("WC-1", "A wild card on a build pile must be covered at once: while a build pile "
               "has a wild card on top, the only legal moves are natural cards played onto it, "
               "so no other play and no discard comes first and the turn cannot end on it.",
               "SEED-ES HR4 ('covered at once by the next natural card'); that the very next "
               "card must cover it ASSUMPTION (dossier A15)", reasons=("wild-uncovered",)),
        Clause("WC-2", "So a wild card may be played only when the seat can cover it at once "
               "with a natural card it can reach: in its hand, on a discard-pile top (the card "
               "under the one played counts) or a pay-off top (never the face-down card under "
               "the one played). A wild card never covers a wild card.",
               "ASSUMPTION (follows from WC-1; a hidden card never decides legality)",
               expects=("unexercised",)),
        Clause("WC-3", f"A wild card may not stand for {excluded}: a 7, or the card that "
               "completes a pile (the queen, or the build ceiling), which could not be covered.",
               "SEED-ES HR4", reasons=("wild-excluded",)),
        Clause("WC-4", "A wild card left uncovered all the same (only in a position set up by "
               "hand) binds every seat: each must cover it before any other move, and a seat "
               "that cannot passes.", "ASSUMPTION (no source covers it)",
               expects=("unexercised",)),
    ]

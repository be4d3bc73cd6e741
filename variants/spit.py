"""The spit rule set: Spit (Speed, Slam), the real-time game of seed 003, for two seats that
move at once.

One 52-card pack, 26 cards each; five stock piles of 1 to 5 cards with their tops face up and
11 spit cards face down; both spit, then play as fast as they can onto the two spit piles a
card one rank above or below (suits do not matter, an ace goes on a king or a two); when
nobody can move both spit again; a round ends when a seat plays out its stock or nobody can
move with no spit card left; both slap a spit pile, take it, and lay out again.  The standard
game is won by the seat that plays out its stock holding no spit card; ``points_per_card`` 1
(``--set points_per_card=1``) plays the seed's points game to ``match_target`` (100).

Every clause cites the seed's sentence (SEED-SPIT, ``seeds/003_e9502e360636f7c8.txt``, in
French) or is marked ASSUMPTION where the seed is silent; the seats move at once through the
engine's simultaneous doors (:mod:`spitemalice.rules.simultaneous`).
"""

from __future__ import annotations

from spitemalice import Clause, Ruleset, hookimpl

from ._spit_game import Fill, Lay, Slap, Spit, SpitSeat, SpitState, SpitView, parse_spit_move
from ._spit_rules import REASONS, SpitGame
from ._spit_sheet import clauses

NAME = "spit"
KIND = "ruleset"
DESCRIPTION = ("Spit (Speed): two seats move at once, one 52-card pack, five stock piles "
               "each, cards one rank above or below on two spit piles; seed 003")
__all__ = ["DESCRIPTION", "KIND", "NAME", "REASONS", "RULESET", "Fill", "Lay", "Slap", "Spit",
           "SpitGame", "SpitSeat", "SpitState", "SpitView", "parse_spit_move"]

RULESET = Ruleset(
    name=NAME,
    title="Spit (Speed)",
    version="1.0",
    players=2, min_players=2, max_players=2,
    packs=1, wild_ranks=frozenset(), wild_excluded=frozenset(),
    build_ceiling=13, max_build_piles=2,
    payoff_piles=1, payoff_size=15, hand_size=5, first_seat="youngest",
    discard_piles=1, discard_forbidden=frozenset(),
    win_bonus=0, points_per_card=0, match_target=100, turn_limit=20000,
)
"""The parameters.  Spit reads four of them: ``players`` (2), ``points_per_card`` (0: the
standard game; 1: the points game), ``match_target`` (the points that end the points game)
and ``turn_limit`` (moves after which a game ends); the others only let the library's
turn-based tools refuse or describe the rule set and play no part in a game."""


@hookimpl
def spitemalice_ruleset() -> Ruleset:
    return RULESET


@hookimpl
def spitemalice_simultaneous(ruleset: Ruleset) -> SpitGame:
    return SpitGame(ruleset)


@hookimpl
def spitemalice_rule_sheet(ruleset: Ruleset) -> list[Clause]:
    return clauses(ruleset)

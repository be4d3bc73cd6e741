"""House rule mandatory-aces: while an ace can be played, only ace plays are legal.

Option: twos as well, with ``--set mandatory_ranks=1,2`` (the ranks live in the
:class:`Ruleset` so any rank set works).  Rules dossier §8 HR2, design notes §5.
"""

from __future__ import annotations

from collections.abc import Generator

import attrs

from spitemalice import Clause, GameState, Move, MoveFilter, Ruleset, hookimpl

from ._common import deck_ranks, leading_plays

NAME = "mandatory-aces"
KIND = "house-rule"
DESCRIPTION = ("an ace that can be played must be played first (twos as well: "
               "--set mandatory_ranks=1,2)")
ENFORCES = ("mandatory_ranks",)
REASONS = ("forced-play",)  # what its move filter answers with (spitemalice.rules.reasons)


@hookimpl(wrapper=True)
def spitemalice_ruleset() -> Generator[None, Ruleset, Ruleset]:
    ruleset = yield
    return attrs.evolve(ruleset, mandatory_ranks=ruleset.mandatory_ranks | {1})


@hookimpl
def spitemalice_filter_moves(
    ruleset: Ruleset, state: GameState, moves: tuple[Move, ...]
) -> MoveFilter | None:
    """While a card of a ``mandatory_ranks`` rank can be played onto a build pile (from the
    hand, a pay-off top or a discard-pile top), only such plays are allowed (clause MA-1).

    Looks only at the plays, which come before every discard in ``moves``."""
    ranks = ruleset.mandatory_ranks
    forced = [move for move in leading_plays(moves) if move.card.rank in ranks]
    if not forced:
        return None
    if ruleset.wild_must_be_covered and any(
        pile[-1].rank in ruleset.wild_ranks for pile in state.builds
    ):
        return None  # a bare wild must be covered first (clause MA-4)
    shown = ", ".join(str(move) for move in forced[:3])
    return MoveFilter(forced, "forced-play",
                      f"a card of rank {deck_ranks(ruleset, ranks, 'or')} can be played and "
                      f"must be, before anything else: {shown}")


@hookimpl
def spitemalice_rule_sheet(ruleset: Ruleset) -> list[Clause]:
    ranks = deck_ranks(ruleset, ruleset.mandatory_ranks, "or")
    return [
        Clause("MA-1", f"While a card of rank {ranks} (mandatory_ranks) can be played onto a "
               "build pile from the hand, a pay-off top or a discard-pile top, only such plays "
               "are legal: no other play and no discard.",
               "SEED-ES HR2; TA-V1 ('some groups force Aces'), dossier §8",
               reasons=("forced-play",)),
        Clause("MA-2", "Option: twos must be played as well (--set mandatory_ranks=1,2).",
               "SEED-ES HR2 ('aces and twos'); HASBRO H5",
               expects=("unexercised",)),
        Clause("MA-3", "Only a card of a forced rank is forced: a wild card that could stand "
               "for an ace is not, and a seat with several forced plays chooses among them.",
               "ASSUMPTION",
               expects=("unexercised",)),
        Clause("MA-4", "Stacked with wild-must-be-covered, a bare wild on a build pile is "
               "covered first: no play is forced while a build pile has a wild card on top.",
               "ASSUMPTION (the two house rules would otherwise leave only a pass)",
               expects=("unexercised",)),
    ]

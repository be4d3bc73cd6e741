"""The descending-discards house rule written in Python, as docs/variants.md teaches a move
filter: the data file examples/house-rules/descending-discards.toml must play as it does."""

from spitemalice import Clause, Discard, GameState, Move, MoveFilter, Ruleset, hookimpl

NAME = "descending-discards"
KIND = "house-rule"
DESCRIPTION = "a card discarded onto a discard pile may not be higher than its top card"
REASONS = {"discard-not-descending": "a discard pile descends"}


@hookimpl
def spitemalice_rule_sheet(ruleset: Ruleset) -> list[Clause]:
    return [Clause("DD-1", "A card discarded onto a discard pile that is not empty may not be "
                   "higher than its top card.", "HOUSE", reasons=("discard-not-descending",))]


@hookimpl
def spitemalice_filter_moves(ruleset: Ruleset, state: GameState,
                             moves: tuple[Move, ...]) -> MoveFilter | None:
    allowed = [move for move in moves if not _climbs(state, move)]
    if len(allowed) == len(moves):
        return None
    return MoveFilter(allowed, "discard-not-descending", "a discard pile descends: the card "
                      "may not be higher than the pile's top card")


def _climbs(state: GameState, move: Move) -> bool:
    if not isinstance(move, Discard):
        return False
    owner = state.seat if move.owner is None else move.owner
    pile = state.seats[owner].discards[move.pile]
    return bool(pile) and move.cards[0].rank > pile[-1].rank

"""Kinds of move, as the bots tell them apart.

Every rule set lists the :data:`BASIC` kinds: plays from the hand, a pay-off top or a
discard-pile top, single-card discards and the pass.  Rules add others: pair discards (PD-1),
plays from a partner's piles and discards onto them (PT-2, PT-3), and whatever a third-party
rule lists.  A bot ranks the moves it knows how to judge; the ``mcts`` bot also searches the
best-ranked move of each kind outside :data:`BASIC`, so that a kind a rule adds is tried
against the heuristic's choice rather than left unplayed (design notes §9, "Bots play every
rule").
"""

from __future__ import annotations

from spitemalice.moves import Discard, Move, Pass, Play, Zone

_SOURCES = {Zone.HAND: "hand", Zone.PAYOFF: "pay-off", Zone.DISCARD: "discard-pile"}

BASIC: frozenset[str] = frozenset({"hand play", "pay-off play", "discard-pile play", "discard",
                                   "pass"})
"""The kinds every rule set lists."""


def move_kind(move: Move) -> str:
    """The kind of ``move`` as a short phrase: ``"hand play"``, ``"pay-off play"``,
    ``"discard-pile play"`` (each ``"partner's ..."`` from another seat's pile),
    ``"discard"``, ``"pair discard"`` (``"3-card discard"`` and on), ``"... onto a partner's
    pile"``, ``"pass"``, and for any other object its class name.

    Examples:
        >>> from spitemalice.moves import parse_move
        >>> move_kind(parse_move("9H+9S>D2")), move_kind(parse_move("S2.D1:9H>B1"))
        ('pair discard', "partner's discard-pile play")
    """
    if isinstance(move, Play):
        kind = f"{_SOURCES[move.zone]} play"
        return kind if move.owner is None else f"partner's {kind}"
    if isinstance(move, Discard):
        count = len(move.cards)
        kind = "discard" if count == 1 else "pair discard" if count == 2 else \
            f"{count}-card discard"
        return kind if move.owner is None else f"{kind} onto a partner's pile"
    if isinstance(move, Pass):
        return "pass"
    return type(move).__name__

"""A state's legal actions as the environments' fast paths keep them: the actions as the bits
of one ``int`` (bit ``a`` set for each legal action ``a``), and the moves they stand for as
dicts from action to move, in the engine's listing order, of which the first that holds an
action gives its move (for two cards of one rank, the first move the engine lists, as
``legal_list`` pairs them).

The card catalogue makes one bit set and one dict per move group of the engine and keeps
them, so a listing is OR-ed and gathered a group at a time, with no join and no search for a
repeated action (:meth:`~spitemalice.env.card_actions.CardCatalogue._legal_sets`).  The
vectorised environment keeps its games' listings so and unpacks its masks from the bits with
``numpy.unpackbits``.  (The AEC path, one row at a time, keeps ``legal_list`` and sets a byte
per action: callgrind put the bits 2.6% dearer per step there, compiled, and 0.8% in pure
Python.)  Compiled in the compiled build (setup.py); internal, no argument is checked.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from spitemalice.moves import Move

Listed = tuple[int, list[dict[int, Move]]]
"""A state's legal actions as bits, and dicts from action to move in listing order."""


def action_bits(actions: Iterable[int]) -> int:
    """``actions`` (whole numbers, 0 or more) as one ``int``, bit ``a`` set for each ``a``."""
    bits = 0
    for action in actions:
        bits |= 1 << action
    return bits


def listed_sets(listed: tuple[list[int], Sequence[Move]]) -> Listed:
    """A catalogue's ``legal_list`` (its actions and, in the same order, their moves) as
    :data:`Listed`, each action standing for the first of its moves."""
    actions, moves = listed
    first: dict[int, Move] = {}
    for action, move in zip(actions, moves, strict=True):
        first.setdefault(action, move)
    return action_bits(actions), [first]


def first_move(listed: Listed, action: int, size: int) -> Move | None:
    """The move ``action`` stands for, or ``None`` when it is not legal (or not below
    ``size``, the number of actions; negative actions included)."""
    bits, firsts = listed
    if not 0 <= action < size or not (bits >> action) & 1:
        return None
    for first in firsts:
        move = first.get(action)
        if move is not None:
            return move
    return None  # (bits and dicts disagree: not made by this module's callers)

"""One legal move drawn at random without listing them all (:func:`random_move`).

The engine keeps its moves in groups (per card and source,
:func:`~spitemalice.engine.legal.move_groups`); the listing joins them, a draw counts them
and takes the drawn one from its group.  The draw is the listing's draw exactly, so random
games stay the games they were.
"""

from __future__ import annotations

import random

from spitemalice.errors import SpiteMaliceError
from spitemalice.model import AnyState, GameState
from spitemalice.moves import Move
from spitemalice.rules.book import RuleBook, check_book
from spitemalice.wording import shown

from .legal import PASS, foreign, legal_moves, move_groups, not_a_state
from .simultaneous import game_of


def random_move(rules: RuleBook, state: AnyState, rng: random.Random) -> Move:
    """One legal move of the seat on turn, drawn uniformly at random with ``rng``.

    The draw is exactly ``moves[rng.randrange(len(moves))]`` (and so ``rng.choice(moves)``)
    for ``moves = legal_moves(rules, state)``: the same one call of the generator, the same
    move, and the generator left in the same state; a pass, when it is the only move, draws
    too (``rng.randrange(1)``), as choosing from the one-move list does.  So a loop of
    ``random_move`` and ``apply_move`` plays the games that loop of ``legal_moves`` and
    ``rng.choice`` plays.  Where it can, it counts the moves in the groups the engine keeps
    (per card and source) and takes the drawn one, without joining them into the list;
    under forced-play rules (``spitemalice_filter_moves``) and for a simultaneous state it
    lists them.  ``apply_move`` accepts the move drawn for that very state without checking
    it again, as it does a listed one.

    Args:
        rng: the generator to draw with (a :class:`random.Random`, or a subclass).

    Raises:
        SpiteMaliceError: the game is over (``state.outcome`` is set): no move is legal, so
            none can be drawn.  For a simultaneous state, no seat may move.
        TypeError: ``rng`` is not a :class:`random.Random`, ``state`` is not a
            :class:`GameState` (a seat's view, say: the message names
            :func:`spitemalice.view_legal_moves`), or ``rules`` is not a
            :class:`~spitemalice.rules.book.RuleBook` (naming :func:`spitemalice.load`).
        PositionError: a state of another configuration (as ``legal_moves`` finds it).
    """
    try:
        cache = rules.engine_cache
    except AttributeError:  # checked only here: a call with a rule book pays nothing for it
        check_book(rules, "random_move")
        raise
    if not isinstance(rng, random.Random):
        raise TypeError(f"random_move draws with a random.Random (rng), not {shown(rng)}")
    if type(state) is not GameState:
        return _simultaneous_draw(rules, state, rng)
    if len(state.seats) != rules.ruleset.players:  # fewer seats would play on silently
        raise foreign(rules, state, "random_move")
    if state.outcome is not None:
        raise SpiteMaliceError(f"random_move: the game is over ({state.outcome.describe()}), "
                               "so no move is legal")
    if rules.filter_moves_hooks:  # forced plays narrow the listing: list, then draw
        moves = legal_moves(rules, state)
        return moves[_below(rng, len(moves))]
    cached = cache.last_legal
    if cached is not None and cached[0] is state:  # listed already: draw from the list
        listed = cached[1]
        return listed[_below(rng, len(listed))]
    try:
        groups = move_groups(rules, state)
    except (IndexError, KeyError):  # read only once it failed: another configuration?
        raise foreign(rules, state, "random_move") from None
    at = _below(rng, sum(map(len, groups)) or 1)
    move: Move = PASS
    for group in groups:
        if at < len(group):
            move = group[at]
            break
        at -= len(group)
    cache.last_drawn = (state, move)
    return move


def _below(rng: random.Random, count: int) -> int:
    """``rng.randrange(count)`` for ``count`` of 1 or more: the same number from the same
    draws.  For a plain :class:`random.Random` it draws as ``randrange`` does (CPython 3.11
    to 3.13: ``getrandbits`` of the bit length of ``count``, again while too large), which the
    compiled build runs without entering the interpreter; a subclass, which may draw
    otherwise, is asked itself."""
    if type(rng) is not random.Random:
        return rng.randrange(count)
    getrandbits = rng.getrandbits
    bits = count.bit_length()
    at = getrandbits(bits)
    while at >= count:
        at = getrandbits(bits)
    return at


def _simultaneous_draw(rules: RuleBook, state: object, rng: random.Random) -> Move:
    """:func:`random_move` of a simultaneous state: drawn from the listing of every seat that
    may move.

    Raises:
        TypeError: ``state`` is no position of ``rules`` (a seat's view, say).
        SpiteMaliceError: no seat may move.
    """
    if game_of(rules, state) is None:
        raise not_a_state(state, "random_move")
    moves = legal_moves(rules, state)  # a simultaneous state
    if not moves:
        raise SpiteMaliceError("random_move: no seat may move in this position (the game is "
                               "over)")
    return moves[rng.randrange(len(moves))]

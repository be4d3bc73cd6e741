"""The vectorised environment's per-step loops over its games, compiled in the compiled build.

:class:`~spitemalice.env.vector.SelfPlayVectorEnv` keeps, per game, the state and its legal
actions (:data:`~spitemalice.env.legal_sets.Listed`: the actions as bits, and dicts from
action to move).  A step maps every game's action to its move (:func:`chosen_moves`), makes
them and lists the new legal actions (:func:`make_moves`), packs the masks
(:func:`mask_bits`), then encodes every game's observation (:func:`observations`).  These
loops are the whole step but for numpy's arrays and the games that end, so they live here,
typed, where mypyc compiles them (setup.py): in Python each game's step paid about 4 µs of
interpreted bookkeeping around the engine's own work.  The masks are bits OR-ed a move
group at a time and unpacked by numpy once per step: a byte set per legal action cost 5.0k
instructions per game step, packing the bits 0.8k (callgrind, compiled; docs/performance.md).

Nothing here checks its arguments: the environment has (its states are its own, dealt by
the rules it holds; the actions are one whole number per game).
"""

from __future__ import annotations

from spitemalice.engine.apply import apply_listed
from spitemalice.env.actions import ActionCatalogue
from spitemalice.env.card_actions import CardCatalogue
from spitemalice.env.kept import KeptSegments
from spitemalice.env.legal_sets import Listed, first_move, listed_sets
from spitemalice.model import GameState
from spitemalice.moves import Move
from spitemalice.rules.book import RuleBook


def chosen_moves(legal: list[Listed], numbers: list[int], size: int
                 ) -> tuple[list[Move], int]:
    """The move each game's action stands for, and ``-1``; or, at the first game whose
    action (a whole number, not necessarily below ``size``) is not among its legal ones, the
    moves found so far and that game's index."""
    chosen: list[Move] = []
    for i, action in enumerate(numbers):
        move = first_move(legal[i], action, size)
        if move is None:
            return chosen, i
        chosen.append(move)
    return chosen, -1


def listing(catalogue: ActionCatalogue | CardCatalogue, state: GameState) -> Listed:
    """``state``'s legal actions under ``catalogue``, as
    :data:`~spitemalice.env.legal_sets.Listed` (the hand-slot catalogue has no quicker way
    than its ``legal_list``)."""
    if isinstance(catalogue, CardCatalogue):
        return catalogue._legal_sets(state)
    return listed_sets(catalogue.legal_list(state))


def make_moves(rules: RuleBook, games: list[GameState], chosen: list[Move],
               legal: list[Listed], catalogue: ActionCatalogue | CardCatalogue) -> list[int]:
    """Make ``chosen[i]`` in ``games[i]`` (a move listed for that very state, so unchecked:
    :func:`~spitemalice.engine.apply.apply_listed`), in place, and list each live game's
    legal actions into ``legal[i]``.  Give back the indices of the games that ended, whose
    ``legal`` entry is left for the caller (it deals them again)."""
    ended: list[int] = []
    for i, move in enumerate(chosen):
        after = apply_listed(rules, games[i], move)
        games[i] = after
        if after.outcome is not None:
            ended.append(i)
        else:
            legal[i] = listing(catalogue, after)
    return ended


def mask_bits(legal: list[Listed], width: int) -> bytes:
    """Each game's legal actions as ``width`` bytes of bits (little-endian: action ``a`` is
    bit ``a % 8`` of byte ``a // 8``), joined in order; ``numpy.unpackbits`` with
    ``bitorder="little"`` makes them mask rows."""
    return b"".join([bits.to_bytes(width, "little") for bits, _ in legal])


def observations(games: list[GameState], kept: list[KeptSegments]) -> bytes:
    """Each game's observation for its seat on turn, as ``int16`` bytes, joined in order;
    game ``i``'s segments are kept in ``kept[i]`` and encoded again only where its state
    changed (:mod:`spitemalice.env.kept`)."""
    return b"".join([kept[i].encode(game, game.seat) for i, game in enumerate(games)])


def seats_on_turn(games: list[GameState]) -> list[int]:
    """The seat on turn in each game."""
    return [game.seat for game in games]

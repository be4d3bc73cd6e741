"""The vectorised environment's per-step loops over its games, compiled in the compiled build.

:class:`~spitemalice.env.vector.SelfPlayVectorEnv` keeps, per game, the state and its legal
actions with the move each stands for (``legal[i] = (actions, moves)``, the catalogue's
``legal_list``).  A step maps every game's action to its move (:func:`chosen_moves`), makes
them (:func:`make_moves`), then encodes every game's observation (:func:`observations`).
These loops are the whole step but for numpy's arrays and the games that end, so they live
here, typed, where mypyc compiles them (setup.py): in Python each game's step paid about
4 µs of interpreted bookkeeping around the engine's own work.

Nothing here checks its arguments: the environment has (its states are its own, dealt by
the rules it holds; the actions are one whole number per game).
"""

from __future__ import annotations

from collections.abc import Sequence

from spitemalice.engine.apply import apply_listed
from spitemalice.env.actions import ActionCatalogue
from spitemalice.env.card_actions import CardCatalogue
from spitemalice.env.kept import KeptSegments
from spitemalice.model import GameState
from spitemalice.moves import Move
from spitemalice.rules.book import RuleBook

Listed = tuple[list[int], Sequence[Move]]
"""A game's legal actions and, in the same order, the move each stands for."""


def chosen_moves(legal: list[Listed], numbers: list[int]) -> tuple[list[Move], int]:
    """The move each game's action stands for, and ``-1``; or, at the first game whose
    action is not among its legal ones, the moves found so far and that game's index."""
    chosen: list[Move] = []
    for i, action in enumerate(numbers):
        actions, moves = legal[i]
        try:
            chosen.append(moves[actions.index(action)])
        except ValueError:
            return chosen, i
    return chosen, -1


def make_moves(rules: RuleBook, games: list[GameState], chosen: list[Move],
               legal: list[Listed], catalogue: ActionCatalogue | CardCatalogue,
               masks: bytearray) -> list[int]:
    """Make ``chosen[i]`` in ``games[i]`` (a move listed for that very state, so unchecked:
    :func:`~spitemalice.engine.apply.apply_listed`), in place; for each game still live,
    list its legal actions into ``legal[i]`` and set them in its row of ``masks`` (rows of
    ``catalogue.size`` bytes, all 0 on entry).  Give back the indices of the games that
    ended, whose ``legal`` entry and mask row are left for the caller (it deals them
    again)."""
    size = catalogue.size
    ended: list[int] = []
    for i, move in enumerate(chosen):
        after = apply_listed(rules, games[i], move)
        games[i] = after
        if after.outcome is not None:
            ended.append(i)
            continue
        listed = catalogue.legal_list(after)
        legal[i] = listed
        set_row(masks, i * size, listed[0])
    return ended


def set_row(masks: bytearray, base: int, actions: list[int]) -> None:
    """Set ``masks[base + action]`` to 1 for each of ``actions``."""
    for action in actions:
        masks[base + action] = 1


def observations(games: list[GameState], kept: list[KeptSegments]) -> bytes:
    """Each game's observation for its seat on turn, as ``int16`` bytes, joined in order;
    game ``i``'s segments are kept in ``kept[i]`` and encoded again only where its state
    changed (:mod:`spitemalice.env.kept`)."""
    return b"".join([kept[i].encode(game, game.seat) for i, game in enumerate(games)])


def seats_on_turn(games: list[GameState]) -> list[int]:
    """The seat on turn in each game."""
    return [game.seat for game in games]

"""Players (bots) that choose among legal moves, and the one registry of their names.

This package is the one place to import them from.  ``random`` and ``greedy`` are quick and
simple (:mod:`spitemalice.bots.players`); ``heuristic`` plays the strategy serious players
describe, ``mcts`` runs Monte Carlo tree search over the seat's view and ``ismcts``
(:class:`IsmctsPlayer`) scores its seat's moves over the worlds the seat cannot tell apart;
``learned`` plays a network trained by ``bench/train.py`` (numpy inference, the ``rl`` extra:
:class:`spitemalice.env.LearnedPlayer`, found through the ``spitemalice.players`` entry point),
and :class:`spitemalice.env.PolicyPlayer` seats any policy function over the learning
environments' observation and action mask.  Every
one is a :class:`Player`; :func:`make_player` makes one by name (:data:`PLAYERS`).

Every one also decides from its seat's view alone: it is a :class:`spitemalice.ViewPlayer`,
the one way to write such a bot (subclass it and define ``choose_from_view(rules, view,
moves)``), and a table asks any bot for its move with :func:`move_from_view`
(:mod:`spitemalice.bots.base`).  The search bots share :class:`SearchPlayer`.
"""

from spitemalice.bots.base import Player, SearchPlayer, move_from_view
from spitemalice.bots.heuristic import HeuristicPlayer
from spitemalice.bots.ismcts import IsmctsPlayer
from spitemalice.bots.mcts import MctsPlayer
from spitemalice.bots.players import (
    PLAYERS,
    GreedyPlayer,
    RandomPlayer,
    check_player,
    make_player,
)

__all__ = ["PLAYERS", "GreedyPlayer", "HeuristicPlayer", "IsmctsPlayer", "MctsPlayer", "Player",
           "RandomPlayer", "SearchPlayer", "check_player", "make_player", "move_from_view"]

"""Players (bots) that choose among legal moves, and the one registry of their names.

This package is the one place to import them from.  ``random`` and ``greedy`` are quick and
simple (:mod:`spitemalice.bots.players`); ``heuristic`` plays the strategy serious players
describe, ``mcts`` runs Monte Carlo tree search over the seat's view and ``ismcts``
(:class:`IsmctsPlayer`) scores its seat's moves over the worlds the seat cannot tell apart.  Every
one is a :class:`Player`; :func:`make_player` makes one by name (:data:`PLAYERS`).  A bot written
against a seat's view joins them through :class:`spitemalice.ViewPlayer`.
"""

from spitemalice.bots.heuristic import HeuristicPlayer
from spitemalice.bots.ismcts import IsmctsPlayer
from spitemalice.bots.mcts import MctsPlayer
from spitemalice.bots.players import PLAYERS, GreedyPlayer, Player, RandomPlayer, make_player

__all__ = ["PLAYERS", "GreedyPlayer", "HeuristicPlayer", "IsmctsPlayer", "MctsPlayer", "Player",
           "RandomPlayer", "make_player"]

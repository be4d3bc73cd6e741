"""Bots that play like people: ``heuristic`` (the strategy serious players describe) and
``mcts`` (Monte Carlo tree search over the seat's view).  Both are
:class:`~spitemalice.bots.players.Player` objects;
:func:`spitemalice.bots.players.make_player` is the one registry of bot names."""

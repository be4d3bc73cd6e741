"""The seats an environment does not hand to a learner: their bots move until a learner is on
turn or the game ends (the Gymnasium environment's opponents, the AEC environment's
fall-back moves for truncated agents)."""

from __future__ import annotations

from collections.abc import Callable

from spitemalice.bots.base import Player
from spitemalice.engine.apply import apply_move
from spitemalice.engine.legal import legal_moves
from spitemalice.model import GameState
from spitemalice.rules.book import RuleBook


def bots_move(rules: RuleBook, state: GameState,
              bot_of: Callable[[int], Player | None]) -> GameState:
    """The state after each seat on turn moved by its bot, for as long as the game is live and
    ``bot_of(seat)`` gives a bot: the first state whose seat on turn has none (a learner's),
    or the end of the game.  ``bot_of`` is asked once per move, so it may make a seat's bot
    the first time that seat moves."""
    while state.outcome is None:
        bot = bot_of(state.seat)
        if bot is None:
            return state
        state = apply_move(rules, state, bot.choose(rules, state, legal_moves(rules, state)))
    return state

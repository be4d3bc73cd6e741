"""Positions for the search bots' tests: one where the seat on turn has a real choice, and its
twin that differs only in cards that seat cannot see."""

from __future__ import annotations

from collections import Counter

import spitemalice as sm
from spitemalice.bots.heuristic import rank_moves
from spitemalice.engine import legal_moves
from spitemalice.engine.views import view_of
from spitemalice.moves import Play, Zone


def searched_state(rules: sm.RuleBook) -> sm.GameState:
    """A dealt state where the seat on turn has several moves and no pay-off play."""
    for seed in range(50):
        state = sm.deal(rules, seed)
        moves = legal_moves(rules, state)
        kinds = {type(m) for m in rank_moves(rules, view_of(state, state.seat), moves)[:5]}
        if len(moves) > 3 and not any(isinstance(m, Play) and m.zone is Zone.PAYOFF
                                      for m in moves) and len(kinds) == 1:
            return state
    raise AssertionError("no dealt state needs a search")


def swap_hidden(state: sm.GameState) -> sm.GameState:
    """The same state with the opponent's hand exchanged for cards of the draw pile: the seat
    on turn cannot tell the two apart."""
    other = (state.seat + 1) % len(state.seats)
    them = state.seats[other]
    count = len(them.hand)
    new_hand, draw = state.draw[:count], state.draw[count:] + them.hand
    assert Counter(new_hand) != Counter(them.hand)
    seats = list(state.seats)
    seats[other] = sm.Seat(them.payoff, new_hand, them.discards)
    return sm.GameState(tuple(seats), state.builds, draw, state.completed, state.seat,
                        state.turn, state.turn_moves, state.idle_turns, state.seed + 1,
                        state.shuffles, state.outcome)

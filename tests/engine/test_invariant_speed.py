"""Card conservation is counted by what changed since the last state checked: it must still
give, for any state in any order, exactly what counting every card gives."""

from __future__ import annotations

import random
from collections import Counter

import spitemalice as sm
from spitemalice.bots.players import RandomPlayer
from spitemalice.engine.invariants import card_conservation
from spitemalice.runs.loop import play_game


def _counted(rules: sm.RuleBook, state: sm.GameState) -> bool:
    want = Counter(rules.deck.cards) + Counter(rules.deck.payoff_cards or ())
    return Counter(state.all_cards()) == want


def _game(rules: sm.RuleBook, seed: int) -> list[sm.GameState]:
    """Every state of a game of uniformly random moves (one generator for every seat)."""
    states: list[sm.GameState] = []
    final = play_game(rules, [RandomPlayer(seed)] * rules.players, seed,
                      on_move=lambda state, _: states.append(state)).final
    return [*states, final]


def _swap_one_card(state: sm.GameState, card: sm.Card) -> sm.GameState:
    """``state`` with the top card of the draw pile replaced by ``card``."""
    return sm.GameState(state.seats, state.builds, (*state.draw[:-1], card), state.completed,
                        state.seat, state.turn, state.turn_moves, state.idle_turns,
                        state.seed, state.shuffles, state.outcome)


def test_conservation_holds_along_a_game_and_breaks_where_a_card_is_swapped() -> None:
    rules = sm.load("blackwood-frey", ["pair-discards"], players=3)
    states = _game(rules, 5)
    for index, state in enumerate(states):
        assert card_conservation(rules, state) == []
        if index % 7 == 3 and state.draw:
            other = next(c for c in rules.deck.cards if c != state.draw[-1])
            broken = _swap_one_card(state, other)
            assert not _counted(rules, broken)
            assert card_conservation(rules, broken)[0].startswith("cards not conserved")


def test_conservation_agrees_with_a_full_count_on_states_in_any_order() -> None:
    rules = sm.load("misery", payoff_size=5)
    states = _game(rules, 2) + _game(rules, 3)
    rng = random.Random(1)
    deck = list(rules.deck.cards)
    for _ in range(300):
        state = rng.choice(states)
        if rng.random() < 0.3 and state.draw:
            state = _swap_one_card(state, rng.choice(deck))
        assert (card_conservation(rules, state) == []) == _counted(rules, state)

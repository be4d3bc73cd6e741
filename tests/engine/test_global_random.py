"""A seeded game is independent of Python's global random state."""

from __future__ import annotations

import itertools
import random

import pytest
from helpers.walks import RULESETS

import spitemalice as sm
from spitemalice.bots.players import GreedyPlayer, RandomPlayer
from spitemalice.formats import record_game, replay


def _play(rules: sm.RuleBook, seed: int, meddle: bool) -> list[sm.GameState]:
    """A seeded game between a random and a greedy bot; with ``meddle`` the global random
    generator is reseeded and drawn from before the deal and between every two moves."""
    if meddle:
        random.seed(987)
        random.random()
    state = sm.deal(rules, seed)
    players = [RandomPlayer(seed) if seat % 2 else GreedyPlayer(seed)
               for seat in range(rules.players)]
    states = [state]
    while state.outcome is None:
        if meddle:
            random.seed(random.getrandbits(32))
            random.shuffle(list(range(10)))
            random.random()
        move = players[state.seat].choose(rules, state, sm.legal_moves(rules, state))
        state = sm.apply_move(rules, state, move)
        states.append(state)
    return states


@pytest.mark.parametrize("ruleset", RULESETS)
def test_drawing_from_global_random_between_moves_changes_nothing(ruleset) -> None:
    rules = sm.load(ruleset, payoff_size=6)
    saved = random.getstate()
    try:
        for seed in (1, 2):
            random.seed(1)
            quiet = _play(rules, seed, meddle=False)
            random.seed(2)
            noisy = _play(rules, seed, meddle=True)
            assert noisy == quiet
    finally:
        random.setstate(saved)


def test_replaying_a_record_ignores_global_random(bf: sm.RuleBook) -> None:
    saved = random.getstate()
    try:
        states = _play(bf, 5, meddle=False)
        record = record_game(bf, 5, _moves_between(bf, states), outcome=states[-1].outcome)
        replayed = []
        for state in replay(record):
            random.seed(random.random())
            replayed.append(state)
        assert replayed == states
    finally:
        random.setstate(saved)


def _moves_between(rules: sm.RuleBook, states: list[sm.GameState]) -> list[sm.Move]:
    """The move that leads from each state to the next (the first that does)."""
    moves = []
    for before, after in itertools.pairwise(states):
        moves.append(next(m for m in sm.legal_moves(rules, before)
                          if sm.apply_move(rules, before, m) == after))
    return moves


def test_the_random_player_draws_what_randrange_draws() -> None:
    # RandomPlayer skips randrange's argument checks; its choices must stay those of
    # randrange(len(moves)) on a generator seeded alike, or seeded games would change.
    player, reference = RandomPlayer(42), random.Random(42)
    for count in [1, 2, 3, 17, 20, 64, 1000, 2**40, *range(1, 60)]:
        moves = range(count)
        assert player.choose(None, None, moves) == reference.randrange(count)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        player.choose(None, None, ())  # type: ignore[arg-type]

"""The legal actions as bits and first moves (spitemalice.env.legal_sets), the environments'
fast path: the same actions and moves as the catalogues' legal_list."""

from __future__ import annotations

import random
from typing import Any

import pytest

import spitemalice as sm
from spitemalice.env.actions import ActionCatalogue
from spitemalice.env.batch import listing
from spitemalice.env.card_actions import CardCatalogue
from spitemalice.env.legal_sets import action_bits, first_move, listed_sets


@pytest.mark.parametrize("kind", [ActionCatalogue, CardCatalogue])
@pytest.mark.parametrize(("name", "options"), [
    ("blackwood-frey", {}), ("misery", {"house_rules": ["pair-discards"]}),
    ("blackwood-frey", {"players": 4, "house_rules": ["partnerships"]}), ("skip-bo", {})])
def test_the_bits_and_first_moves_are_the_legal_list(kind: type, name: str,
                                                     options: dict[str, Any]) -> None:
    rules = sm.load(name, **options)
    catalogue = kind(rules)
    rng = random.Random(5)
    state = sm.deal(rules, 5)
    for _ in range(600):
        if state.outcome is not None:
            state = sm.deal(rules, rng.randrange(10**6))
        actions, moves = catalogue.legal_list(state)
        listed = listing(catalogue, state)
        assert listed[0] == action_bits(actions)
        for action in range(-1, catalogue.size + 1):
            expected = moves[actions.index(action)] if action in actions else None
            assert first_move(listed, action, catalogue.size) is expected
        state = sm.apply_move(rules, state, moves[rng.randrange(len(moves))])


def test_listed_sets_keeps_the_first_move_of_a_repeated_action() -> None:
    first, second = sm.Pass(), sm.Pass()
    assert first_move(listed_sets(([3, 3], [first, second])), 3, 4) is first
    assert first_move(listed_sets(([3], [first])), 2**80, 4) is None

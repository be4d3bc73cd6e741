"""The engine's own shuffle draws what ``random.Random.shuffle`` draws: seeded games are the
games they were, in the pure and the compiled build."""

from __future__ import annotations

import pytest

from spitemalice.engine import shuffle


@pytest.mark.parametrize("length", [*range(0, 40), 63, 64, 65, 104, 127, 128, 129, 162, 500])
def test_the_shuffle_is_random_shuffle(length: int) -> None:
    cards = list(range(length))
    for seed, counter in [(0, 0), (1, 0), (1, 1), (12345, 7), (2**40 + 3, 99)]:
        expected = list(cards)
        shuffle._rng(seed, counter).shuffle(expected)
        assert shuffle._shuffled_list(cards, seed, counter) == expected
        assert shuffle.shuffled(cards, seed, counter) == tuple(expected)


def test_a_shuffle_keeps_the_cards_and_leaves_the_input_alone() -> None:
    cards = tuple("ABCDEFGHIJ" * 3)
    order = shuffle._shuffled_list(cards, 5, 2)
    assert sorted(order) == sorted(cards)
    assert order != list(cards)
    assert cards == tuple("ABCDEFGHIJ" * 3)

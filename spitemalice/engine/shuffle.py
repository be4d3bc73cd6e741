"""Seeded shuffles that depend on nothing but the game's seed and a shuffle counter.

A state keeps ``seed`` and ``shuffles`` (how many shuffles were made so far), never a random
generator, so the state alone fixes its future and saves as plain data.  Each shuffle builds a
private :class:`random.Random` from both numbers; Python's global ``random`` is never touched,
so other code drawing from it cannot change a seeded game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def rng_for(seed: int, counter: int, purpose: str = "shuffle") -> random.Random:
    """A generator for shuffle number ``counter`` of game ``seed`` (string seeding is stable
    across processes and Python versions, unlike hashing)."""
    return random.Random(f"spitemalice:{purpose}:{seed}:{counter}")


def derive_seed(seed: int, *parts: object) -> int:
    """A seed for a sub-stream (a game of a match, a player of a game), stable across runs:
    48 bits drawn from ``seed`` and the ``parts`` joined as text."""
    return rng_for(seed, 0, ":".join(map(str, parts))).getrandbits(48)


def shuffled(cards: Sequence[T], seed: int, counter: int) -> tuple[T, ...]:
    """``cards`` in the order shuffle number ``counter`` of game ``seed`` puts them."""
    return tuple(shuffled_list(cards, seed, counter))


def shuffled_list(cards: Sequence[T], seed: int, counter: int) -> list[T]:
    """:func:`shuffled` as a new list (the deal cuts it up at once)."""
    order = list(cards)
    rng_for(seed, counter).shuffle(order)
    return order

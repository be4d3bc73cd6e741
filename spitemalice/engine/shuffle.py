"""Seeded shuffles that depend on nothing but the game's seed and a shuffle counter.

A state keeps ``seed`` and ``shuffles`` (how many shuffles were made so far), never a random
generator, so the state alone fixes its future and saves as plain data.  Each shuffle builds a
private :class:`random.Random` from both numbers; Python's global ``random`` is never touched,
so other code drawing from it cannot change a seeded game.

The public functions check their arguments (a seed from 0 to
:data:`~spitemalice.limits.MAX_SEED`, a counter from 0 to
:data:`~spitemalice.limits.MAX_INT`) and refuse others with
:class:`~spitemalice.errors.SpiteMaliceError`; the engine, which shuffles with the seed and
counter of a state it made, calls the unchecked twins :func:`_rng` and :func:`_shuffled_list`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

from spitemalice.errors import SpiteMaliceError
from spitemalice.guards import check_int, check_seed
from spitemalice.limits import MAX_INT, MAX_SEED
from spitemalice.wording import shown

T = TypeVar("T")


def rng_for(seed: object, counter: object, purpose: object = "shuffle") -> random.Random:
    """A generator for shuffle number ``counter`` of game ``seed`` (string seeding is stable
    across processes and Python versions, unlike hashing).

    Args:
        seed: a whole number from 0 to :data:`~spitemalice.limits.MAX_SEED`.
        counter: a whole number from 0 to :data:`~spitemalice.limits.MAX_INT`.
        purpose: text naming the stream (``"shuffle"``, ``"cut"``...).

    Raises:
        SpiteMaliceError: ``seed`` or ``counter`` is not a whole number in its range (a bool,
            a float, a string, ``None``...), or ``purpose`` is not text; the message names
            the argument and the bound.
    """
    if not isinstance(purpose, str):
        raise SpiteMaliceError(f"purpose is text (a str), not {shown(purpose)}")
    return _rng(_seed(seed), _counter(counter), purpose)


def _rng(seed: int, counter: int, purpose: str = "shuffle") -> random.Random:
    """:func:`rng_for` unchecked, for a seed and counter the engine holds (a state's)."""
    return random.Random(f"spitemalice:{purpose}:{seed}:{counter}")


def _seed(seed: object) -> int:
    """:func:`~spitemalice.guards.check_seed`, with no call for an int in range."""
    return seed if type(seed) is int and 0 <= seed <= MAX_SEED else check_seed(seed)


def _counter(counter: object) -> int:
    """A shuffle counter, 0 to ``MAX_INT`` (no call for an int in range)."""
    if type(counter) is int and 0 <= counter <= MAX_INT:
        return counter
    return check_int(counter, "counter (a shuffle number)")


def derive_seed(seed: object, *parts: object) -> int:
    """A seed for a sub-stream (a game of a match, a player of a game), stable across runs:
    48 bits drawn from ``seed`` and the ``parts`` joined as text.

    Raises:
        SpiteMaliceError: ``seed`` is not a whole number from 0 to
            :data:`~spitemalice.limits.MAX_SEED`; the message names the bound.
    """
    return _rng(_seed(seed), 0, ":".join(map(str, parts))).getrandbits(48)


def shuffled(cards: Sequence[T], seed: object, counter: object) -> tuple[T, ...]:
    """``cards`` in the order shuffle number ``counter`` of game ``seed`` puts them.

    Raises:
        SpiteMaliceError: as :func:`rng_for`, for ``seed`` and ``counter``.
    """
    return tuple(_shuffled_list(cards, _seed(seed), _counter(counter)))


def shuffled_list(cards: Sequence[T], seed: object, counter: object) -> list[T]:
    """:func:`shuffled` as a new list (the deal cuts it up at once).

    Raises:
        SpiteMaliceError: as :func:`rng_for`, for ``seed`` and ``counter``.
    """
    return _shuffled_list(cards, _seed(seed), _counter(counter))


def _shuffled_list(cards: Sequence[T], seed: int, counter: int) -> list[T]:
    """:func:`shuffled_list` unchecked, for a seed and counter the engine holds.

    The order is exactly what ``random.Random.shuffle`` makes with :func:`_rng`'s generator
    (Python 3.11 to 3.13 shuffle alike: Fisher-Yates from the last place down, each place
    drawn as ``_randbelow`` draws it, ``getrandbits`` of the bit length of the places left,
    drawn again while too large), written here so that the compiled build runs the loop in C
    and calls the generator only for its bits; so seeded games stay the games they were
    (tests/engine/test_shuffle.py holds the two equal).
    """
    order = list(cards)
    getrandbits = _rng(seed, counter).getrandbits
    places = len(order)
    bits = places.bit_length()
    while places > 1:
        # where the last of the first `places` cards goes: a place below `places`
        if places < 1 << (bits - 1):  # the bit length falls by one at each power of two
            bits -= 1
        at = getrandbits(bits)
        while at >= places:
            at = getrandbits(bits)
        places -= 1
        order[places], order[at] = order[at], order[places]
    return order

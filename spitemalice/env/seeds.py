"""The seed of each game an environment deals.

* ``reset(seed=s)`` deals from ``s`` itself: the game :func:`spitemalice.deal` deals with
  seed ``s``, the game a record with seed ``s`` replays.
* After that, ``reset()`` without a seed deals the next game of the sequence ``s`` started:
  reset ``n`` deals from 128 bits drawn from ``s`` and ``n`` (:func:`sequence_seed`), so a
  seeded run of many episodes is reproducible.
* An environment never given a seed deals every game from an unguessable seed:
  :func:`spitemalice.engine.deal.new_seed`, the one source of every unseeded game (128 bits
  from :mod:`secrets`), so no seat can search for the seed from what it sees.
"""

from __future__ import annotations

from spitemalice.engine.deal import SEED_BITS, new_seed
from spitemalice.engine.shuffle import rng_for


def sequence_seed(seed: int, number: int) -> int:
    """The seed of reset ``number`` (1, 2, ...) after a reset seeded ``seed``:
    :data:`~spitemalice.engine.deal.SEED_BITS` bits drawn from both."""
    return rng_for(seed, number, "episode").getrandbits(SEED_BITS)


class EpisodeSeeds:
    """Where an environment's game seeds come from (see the module docstring)."""

    def __init__(self) -> None:
        self._seed: int | None = None
        self._resets = 0

    def next(self, seed: int | None) -> int:
        """The seed of the next game: ``seed`` when given (a checked whole number), else the
        next of the seeded sequence, else an unguessable one."""
        if seed is not None:
            self._seed, self._resets = seed, 0
            return seed
        if self._seed is None:
            return new_seed()
        self._resets += 1
        return sequence_seed(self._seed, self._resets)


__all__ = ["EpisodeSeeds", "sequence_seed"]

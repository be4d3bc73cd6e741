"""Bounded fuzzing of every parser of untrusted input (issue 10, class 1): grammar-shaped
and mutated-valid inputs get either an answer or the library's own error, nothing else.

Kept small for CI; ``bench/fuzz.py`` runs the same targets on many more inputs and reports
the figures.
"""

from __future__ import annotations

import random

import pytest
from helpers.fuzz_targets import TARGETS, Target, outcome
from hypothesis import given, settings
from hypothesis import strategies as st


@pytest.mark.parametrize("target", TARGETS, ids=lambda t: t.name)
@settings(max_examples=60)
@given(rng=st.randoms(use_true_random=False))
def test_only_the_librarys_own_errors_come_out(target: Target, rng: random.Random) -> None:
    data = target.generate(rng)
    assert outcome(target, data) is None, repr(data)[:500]

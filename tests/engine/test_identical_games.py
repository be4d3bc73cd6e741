"""Engine changes made for speed play every game exactly as before: each stored game (seeded
bot games over every configuration, and the committed records) passes through the same states
with the same moves (see ``tests/helpers/game_digests.py`` for how to regenerate after a rule
change).
"""

from __future__ import annotations

import json

import pytest
from helpers.game_digests import DATA, game_digest, game_keys, state_text

import spitemalice as sm

STORED: dict[str, str] = json.loads(DATA.read_text(encoding="utf-8"))


def test_every_game_has_a_stored_digest() -> None:
    assert sorted(STORED) == sorted(game_keys())


@pytest.mark.parametrize("key", sorted(STORED))
def test_a_game_passes_through_the_same_states(key: str) -> None:
    assert game_digest(key) == STORED[key], (
        f"{key} plays differently; if a rule change meant it, run "
        "`python tests/helpers/game_digests.py`")


def test_the_state_text_tells_states_apart(bf: sm.RuleBook) -> None:
    state = sm.deal(bf, 3)
    after = sm.apply_move(bf, state, sm.legal_moves(bf, state)[-1])
    assert state_text(state) != state_text(after)
    assert state_text(state) == state_text(sm.deal(bf, 3))

"""The conformance kit runs on a rule-set file whose house rules are data, as on a plugin:
three-card-discards written as [[rule]] tables (examples/house-rules), with scenario tests
citing its own clauses (the kit asks for them: they are the file's, not spitemalice's)."""

from __future__ import annotations

from pathlib import Path

import pytest

import spitemalice as sm
from spitemalice.testing import VariantConformance

FILE = str(Path(__file__).parents[3] / "examples" / "house-rules" / "three-card-discards.toml")


class TestThreeCardDiscardsAsDataConforms(VariantConformance):
    ruleset = FILE
    games = 4


FIRST_FULL = "QH:9H,5D:2C,3C,4C|6S|-|-/KS:-:-|-|-|- - rest - on=0"
ALL_FULL = "QH:9H,5D:2C,3C,4C|2D,3D,4D|2S,3S,4S|6C,7C,8C/KS:-:-|-|-|- - rest - on=0"


@pytest.mark.clause("TD-1")
def test_a_discard_onto_a_pile_of_three_is_refused_citing_its_clause() -> None:
    rules = sm.load(FILE)
    state = sm.parse_position(FIRST_FULL, rules)
    with pytest.raises(sm.IllegalMove) as refused:
        sm.apply_move(rules, state, sm.parse_move("9H>D1"))
    assert (refused.value.reason, refused.value.clause) == ("discard-pile-full", "TD-1")
    assert "at most 3 cards" in str(refused.value)
    assert sm.is_legal(rules, state, sm.parse_move("9H>D2"))


@pytest.mark.clause("TD-2")
def test_a_seat_whose_discard_piles_are_all_full_passes() -> None:
    rules = sm.load(FILE)
    state = sm.parse_position(ALL_FULL, rules)
    assert sm.legal_moves(rules, state) == (sm.Pass(),)

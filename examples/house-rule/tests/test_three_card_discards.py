"""three-card-discards' own tests: a scenario test for each of its clauses, and the
conformance kit on blackwood-frey in one class (the kit asks for scenarios of the house
rule's own clauses only: blackwood-frey's are spitemalice's to test)."""

import pytest

import spitemalice as sm
from spitemalice.testing.conformance import VariantConformance


class TestThreeCardDiscardsConforms(VariantConformance):
    ruleset = "blackwood-frey"
    house_rules = ("three-card-discards",)
    games = 6


# Seat 0 holds 9H and 5D under pay-off top QH; its first discard pile holds three cards, the
# others one or none; seat 1 is idle.  Nothing can be built (no open pile takes a 9 or a 5).
FULL_FIRST = "QH:9H,5D:2C,3C,4C|6S|-|-/KS:-:-|-|-|- - rest - on=0"
# Every discard pile of seat 0 holds three cards and nothing can be played.
ALL_FULL = "QH:9H,5D:2C,3C,4C|2D,3D,4D|2S,3S,4S|6C,7C,8C/KS:-:-|-|-|- - rest - on=0"


@pytest.mark.clause("TD-1")
def test_a_discard_onto_a_pile_of_three_is_refused(load_rules) -> None:
    rules = load_rules("blackwood-frey", ["three-card-discards"])
    state = sm.parse_position(FULL_FIRST, rules)
    with pytest.raises(sm.IllegalMove) as refused:
        sm.apply_move(rules, state, sm.parse_move("9H>D1"))
    assert (refused.value.reason, refused.value.clause) == ("discard-pile-full", "TD-1")
    assert sm.is_legal(rules, state, sm.parse_move("9H>D2"))  # a pile of one takes it
    plain = load_rules("blackwood-frey")
    assert sm.is_legal(plain, sm.parse_position(FULL_FIRST, plain), sm.parse_move("9H>D1"))


@pytest.mark.clause("TD-2")
def test_a_seat_whose_discard_piles_are_all_full_passes(load_rules) -> None:
    rules = load_rules("blackwood-frey", ["three-card-discards"])
    state = sm.parse_position(ALL_FULL, rules)
    assert sm.legal_moves(rules, state) == (sm.Pass(),)
    after = sm.apply_move(rules, state, sm.Pass())
    assert after.seat == 1 and after.seats[0].hand == state.seats[0].hand

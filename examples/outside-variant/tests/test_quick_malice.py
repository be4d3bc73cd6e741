"""quick-malice's own tests: its scenarios, and the conformance kit in one line."""

import pytest

import spitemalice as sm
from spitemalice.testing import VariantConformance


class TestQuickMaliceConforms(VariantConformance):
    ruleset = "quick-malice"


def game_with(hand: str, builds: tuple[str, ...] = ()) -> tuple[sm.RuleBook, sm.GameState]:
    rules = sm.load("quick-malice")
    state = sm.deal(rules, 1)
    seat = state.seats[state.seat]
    cards = sm.parse_cards(hand)
    others = [c for c in seat.hand if c not in cards] or list(seat.hand)
    fresh = sm.Seat(seat.payoff, cards, seat.discards)
    seats = tuple(fresh if i == state.seat else s for i, s in enumerate(state.seats))
    piles = tuple(sm.parse_cards(b) for b in builds)
    # Keep the deck whole: put the replaced hand cards on the draw pile.
    return rules, sm.GameState(seats, piles, state.draw + tuple(others), state.completed,
                               seat=state.seat, seed=1)


@pytest.mark.clause("QM-1")
def test_a_joker_is_wild_but_not_an_ace() -> None:
    rules, state = game_with("*", builds=("AS 2S",))
    assert sm.is_legal(rules, state, sm.parse_move("*>B1"))
    with pytest.raises(sm.IllegalMove) as refused:
        sm.check_move(rules, state, sm.parse_move("*>B+"))
    assert refused.value.clause == "QM-1"


@pytest.mark.clause("QM-2")
def test_a_fourth_build_pile_is_refused() -> None:
    rules, state = game_with("AH", builds=("AS", "AD", "AC"))
    with pytest.raises(sm.IllegalMove) as refused:
        sm.check_move(rules, state, sm.parse_move("AH>B+"))
    assert refused.value.reason == "build-pile-limit" and refused.value.clause == "QM-2"


@pytest.mark.clause("QM-3")
def test_twelve_pay_off_cards_and_aces_may_be_discarded() -> None:
    rules = sm.load("quick-malice")
    assert all(len(s.payoff[0]) == 12 for s in sm.deal(rules, 3).seats)
    rules, state = game_with("AH")
    assert sm.is_legal(rules, state, sm.parse_move("AH>D1"))

"""Scenario tests for the uspcc rule sheet: one at least per clause (US-1 ... US-22)."""

from __future__ import annotations

from collections import Counter

import pytest
from helpers import sheet_checks as check
from helpers.positions import position, run

import spitemalice as sm

US = sm.load("uspcc")


@pytest.mark.clause("US-1")
def test_two_packs_without_jokers() -> None:
    ranks = Counter(card.rank for card in US.deck.cards)
    assert len(US.deck.cards) == 104 and US.deck.payoff_cards is None
    assert set(ranks) == set(range(1, 14)) and set(ranks.values()) == {8}
    state = sm.deal(US, seed=2)
    assert len(state.draw) == 104 - 2 * 20 - 2 * 5


@pytest.mark.clause("US-2")
def test_two_players_only() -> None:
    assert US.players == 2
    with pytest.raises(sm.RulesetError, match="is for 2 players only, not 3"):
        sm.load("uspcc", players=3)


@pytest.mark.clause("US-3")
def test_build_piles_rise_by_one_from_the_ace() -> None:
    state = position(US, hands=["5H 4H 2H"], builds=[run(3)])
    error = check.refused(US, state, "5H>B1")
    assert (error.reason, error.clause) == ("wrong-rank", "US-3")
    error = check.refused(US, state, "2H>B+")
    assert (error.reason, error.clause) == ("wrong-rank", "US-3")
    after = check.play(US, state, "4H>B1")
    assert len(after.builds[0]) == 4


@pytest.mark.clause("US-4")
def test_kings_wild_but_not_as_an_ace() -> None:
    state = position(US, hands=["KH 9C"], builds=[run(2)])
    error = check.refused(US, state, "KH>B+")
    assert (error.reason, error.clause) == ("wild-cannot-start", "US-4")
    after = check.play(US, state, "KH>B1")
    assert sm.build_ranks(after.builds[0]) == (1, 2, 3)


@pytest.mark.clause("US-5")
def test_a_fourth_build_pile_is_refused() -> None:
    three_open = position(US, hands=["AH 9C"], builds=["AS 2S 3S 4S", "AD 2D", "AC"])
    error = check.refused(US, three_open, "AH>B+")
    assert (error.reason, error.clause) == ("build-pile-limit", "US-5")
    two_open = position(US, hands=["AH 9C"], builds=["AS 2S 3S 4S", "AD 2D"])
    assert len(check.play(US, two_open, "AH>B+").builds) == 3


@pytest.mark.clause("US-6")
def test_a_completed_pile_goes_into_the_draw_pile_at_once() -> None:
    check.shuffled_in_at_once(US)
    state = position(US, hands=["KH 9C"], builds=[run(11)])
    after = check.play(US, state, "KH>B1")  # a king standing for the queen completes it
    assert after.builds == () and len(after.draw) == len(state.draw) + 12


@pytest.mark.clause("US-7")
def test_twenty_pay_off_cards_top_only() -> None:
    state = sm.deal(US, seed=4)
    assert [len(seat.payoff[0]) for seat in state.seats] == [20, 20]
    empty = position(US, hands=["9C"], payoffs=[""], builds=[run(3)])
    error = check.refused(US, empty, "P:4H>B1")
    assert (error.reason, error.clause) == ("empty-pile", "US-7")
    buried = position(US, hands=["9C"], payoffs=["4H 9H"], builds=[run(3)])
    assert check.refused(US, buried, "P:4H>B1").reason == "buried-card"
    after = check.play(US, position(US, hands=["9C"], payoffs=["9H 4H"], builds=[run(3)]),
                       "P:4H>B1")
    assert after.seats[0].payoff[0] == (sm.parse_card("9H"),)


@pytest.mark.clause("US-8")
def test_hand_of_five_refilled_and_redrawn() -> None:
    assert all(len(seat.hand) == 5 for seat in sm.deal(US, seed=1).seats)
    check.refill_at_turn_start(US)
    check.empty_hand_draws_again(US)


@pytest.mark.clause("US-9")
def test_the_higher_pay_off_top_starts_and_ties_reshuffle() -> None:
    reshuffled = 0
    for seed in range(60):
        state = sm.deal(US, seed)
        tops = [99 if card.rank == 13 else card.rank  # a king counts highest
                for card in (seat.payoff[0][-1] for seat in state.seats)]
        assert tops[state.seat] > tops[1 - state.seat]
        reshuffled += state.shuffles > 1
    assert reshuffled, "no deal in 60 needed a reshuffle of equal tops"


@pytest.mark.clause("US-10")
def test_four_own_discard_piles_top_card_only() -> None:
    assert US.discard.piles == 4
    check.discard_piles_top_only(US, "US-10")


@pytest.mark.clause("US-11")
def test_aces_and_kings_may_be_discarded() -> None:
    state = position(US, hands=["AH KH"], builds=["AS 2S 3S", "AD", "AC 2C"],
                     payoffs=["9H"])
    moves = sm.legal_moves(US, state)
    assert sm.parse_move("AH>D1") in moves and sm.parse_move("KH>D4") in moves
    assert check.play(US, state, "AH>D1").seats[0].discards[0] == (sm.parse_card("AH"),)
    blackwood = sm.load("blackwood-frey")
    assert not sm.is_legal(blackwood, position(blackwood, hands=["AH KH"]),
                           sm.parse_move("AH>D1"))


@pytest.mark.clause("US-12")
def test_one_discard_ends_the_turn() -> None:
    check.one_card_discard_ends_turn(US, "US-12")


@pytest.mark.clause("US-13")
def test_last_pay_off_card_wins_at_once() -> None:
    check.last_payoff_card_wins(US)


@pytest.mark.clause("US-14")
def test_empty_draw_pile_ends_the_game_drawn() -> None:
    check.empty_draw_pile_ends_drawn(US)


@pytest.mark.clause("US-15")
def test_a_drawn_hand_scores_nothing() -> None:
    after = check.empty_draw_pile_ends_drawn(US)
    assert [s.payoff_count for s in after.seats] == [1, 2]
    assert after.outcome is not None and after.outcome.scores == (0, 0)
    check.blocked(US, (0, 0))


@pytest.mark.clause("US-16")
def test_the_winner_scores_the_opponents_cards_left() -> None:
    after = check.last_payoff_card_wins(US)
    assert after.outcome is not None and after.outcome.scores == (2, 0)


@pytest.mark.clause("US-17")
def test_a_match_goes_to_fifty() -> None:
    check.match_to(US, 50)


@pytest.mark.clause("US-18")
def test_only_the_seat_on_turn_moves() -> None:
    check.seat_on_turn(US, "US-18")


@pytest.mark.clause("US-19")
def test_pass_only_when_stuck() -> None:
    check.pass_only_when_stuck(US, "US-19")


@pytest.mark.clause("US-20")
def test_a_round_of_passes_is_blocked() -> None:
    check.blocked(US, (0, 0))


@pytest.mark.clause("US-21")
def test_the_turn_limit_ends_the_game() -> None:
    check.turn_limit(US)


@pytest.mark.clause("US-22")
def test_no_move_after_the_end() -> None:
    check.game_over(US, "US-22")

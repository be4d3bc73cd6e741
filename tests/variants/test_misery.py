"""Scenario tests for the misery rule sheet: one at least per clause (MI-1 ... MI-24)."""

from __future__ import annotations

import pytest
from helpers import sheet_checks as check
from helpers.positions import position, run

import spitemalice as sm

MI = sm.load("misery")
MI3 = sm.load("misery", players=3)


@pytest.mark.clause("MI-1")
def test_one_pack_per_seat() -> None:
    assert len(MI.deck.cards) == 104 and len(MI3.deck.cards) == 156
    assert not any(card.is_joker for card in MI3.deck.cards)


@pytest.mark.clause("MI-2")
def test_two_or_three_players() -> None:
    assert (MI.players, MI3.players) == (2, 3)
    with pytest.raises(sm.RulesetError, match="2 to 3 players, not 4"):
        sm.load("misery", players=4)


@pytest.mark.clause("MI-3")
def test_build_piles_rise_by_one_from_the_ace() -> None:
    state = position(MI, hands=["5H 4H 2H"], builds=[run(3)])
    error = check.refused(MI, state, "5H>B1")
    assert (error.reason, error.clause) == ("wrong-rank", "MI-3")
    assert len(check.play(MI, state, "4H>B1").builds[0]) == 4


@pytest.mark.clause("MI-4")
def test_kings_wild_but_not_as_an_ace() -> None:
    state = position(MI, hands=["KH 9C"], builds=[run(4)])
    error = check.refused(MI, state, "KH>B+")
    assert (error.reason, error.clause) == ("wild-cannot-start", "MI-4")
    assert sm.build_ranks(check.play(MI, state, "KH>B1").builds[0])[-1] == 5


@pytest.mark.clause("MI-5")
def test_at_most_four_build_piles() -> None:
    four = position(MI, hands=["AH 9C"], builds=["AS 2S", "AD", "AC", "AS 2S 3S"])
    error = check.refused(MI, four, "AH>B+")
    assert (error.reason, error.clause) == ("build-pile-limit", "MI-5")
    three = position(MI, hands=["AH 9C"], builds=["AS 2S", "AD", "AC"])
    assert len(check.play(MI, three, "AH>B+").builds) == 4


@pytest.mark.clause("MI-6")
@pytest.mark.clause("MI-7")
def test_completed_piles_set_aside_then_recycled() -> None:
    check.set_aside_then_recycled(MI)


@pytest.mark.clause("MI-8")
def test_empty_draw_pile_and_nothing_set_aside_is_a_drawn_hand() -> None:
    after = check.empty_draw_pile_ends_drawn(MI)
    assert after.outcome is not None and after.outcome.kind == "drawn"


@pytest.mark.clause("MI-9")
def test_two_pay_off_piles_of_twelve() -> None:
    for rules in (MI, MI3):
        state = sm.deal(rules, seed=8)
        assert all([len(pile) for pile in seat.payoff] == [12, 12] for seat in state.seats)


@pytest.mark.clause("MI-10")
def test_both_pay_off_tops_are_playable() -> None:
    state = position(MI, hands=["9C"], builds=[run(3), run(4)], payoffs=[("7H 4H", "9D 5D")])
    moves = sm.legal_moves(MI, state)
    assert sm.parse_move("P1:4H>B1") in moves and sm.parse_move("P2:5D>B2") in moves
    after = check.play(MI, state, "P2:5D>B2", "P1:4H>B1")
    assert after.seats[0].payoff == ((sm.parse_card("7H"),), (sm.parse_card("9D"),))
    error = check.refused(MI, state, "P2:9D>B2")
    assert error.reason == "buried-card"
    empty = position(MI, hands=["9C"], builds=[run(3)], payoffs=[("7H", "")])
    error = check.refused(MI, empty, "P2:4H>B1")
    assert (error.reason, error.clause) == ("empty-pile", "MI-10")


@pytest.mark.clause("MI-11")
def test_hand_of_six() -> None:
    assert all(len(seat.hand) == 6 for seat in sm.deal(MI, seed=1).seats)
    check.refill_at_turn_start(MI)
    check.empty_hand_draws_again(MI)


@pytest.mark.clause("MI-12")
def test_the_dealer_plays_first() -> None:
    assert sm.deal(MI, seed=3, dealer=1).seat == 1
    assert sm.deal(MI3, seed=3, dealer=2).seat == 2
    firsts = {sm.deal(MI3, seed).seat for seed in range(30)}
    assert firsts == {0, 1, 2}


@pytest.mark.clause("MI-13")
def test_four_own_discard_piles_top_card_only() -> None:
    assert MI.discard.piles == 4
    check.discard_piles_top_only(MI, "MI-13")


@pytest.mark.clause("MI-14")
def test_an_ace_may_not_be_discarded() -> None:
    state = position(MI, hands=["AH 9C"], builds=["AS 2S", "AD", "AC", "AS 2S 3S"])
    error = check.refused(MI, state, "AH>D1")
    assert (error.reason, error.clause) == ("forbidden-discard", "MI-14")


@pytest.mark.clause("MI-15")
def test_one_discard_ends_the_turn() -> None:
    check.one_card_discard_ends_turn(MI, "MI-15")


@pytest.mark.clause("MI-16")
def test_a_seat_that_empties_one_pay_off_pile_has_not_won() -> None:
    state = position(MI, hands=["9C"], builds=[run(3), run(6)], payoffs=[("4H", "8D 7D")])
    one_empty = check.play(MI, state, "P1:4H>B1")
    assert one_empty.seats[0].payoff == ((), (sm.parse_card("8D"), sm.parse_card("7D")))
    assert one_empty.outcome is None and one_empty.seat == 0
    both_empty = check.play(MI, one_empty, "P2:7D>B2", "P2:8D>B2")
    assert both_empty.outcome is not None
    assert (both_empty.outcome.kind, both_empty.outcome.winner) == ("win", 0)


@pytest.mark.clause("MI-17")
def test_the_winner_scores_five_plus_both_opponent_piles() -> None:
    state = position(MI3, hands=["9C"], builds=[run(3)],
                     payoffs=[("4H", ""), ("8D 7D", "6D"), ("", "5C")])
    after = check.play(MI3, state, "P1:4H>B1")
    assert after.outcome is not None and after.outcome.scores == (5 + 3 + 1, 0, 0)


@pytest.mark.clause("MI-18")
def test_a_drawn_hand_scores_the_difference_over_both_piles() -> None:
    five = "5H"
    state = position(MI, hands=[five], builds=[run(4)],
                     payoffs=[("9H", "8H"), ("8D 7D", "6D 9S")], draw="")
    after = check.play(MI, state, f"{five}>B1")
    assert after.outcome is not None and after.outcome.kind == "drawn"
    assert after.outcome.scores == (4 - 2, 0)


@pytest.mark.clause("MI-19")
def test_a_match_goes_to_fifty() -> None:
    check.match_to(MI, 50)


@pytest.mark.clause("MI-20")
def test_only_the_seat_on_turn_moves() -> None:
    check.seat_on_turn(MI, "MI-20")


@pytest.mark.clause("MI-21")
def test_pass_only_when_stuck() -> None:
    check.pass_only_when_stuck(MI, "MI-21")
    aces = position(MI, hands=["AH AD AC"], builds=["AS 2S", "AD", "AC", "AS 2S 3S"],
                    payoffs=[("9H", "9D")])
    assert sm.legal_moves(MI, aces) == (check.PASS,)


@pytest.mark.clause("MI-22")
def test_a_round_of_passes_is_blocked() -> None:
    check.blocked(MI, (0, 0))  # both seats hold one pay-off card: a tie for fewest


@pytest.mark.clause("MI-23")
def test_the_turn_limit_ends_the_game() -> None:
    check.turn_limit(MI)


@pytest.mark.clause("MI-24")
def test_no_move_after_the_end() -> None:
    check.game_over(MI, "MI-24")

"""Scenario tests for the g4a rule sheet: one at least per clause (G4-1 ... G4-21)."""

from __future__ import annotations

from collections import Counter

import pytest
from helpers import sheet_checks as check
from helpers.positions import position, run

import spitemalice as sm
from spitemalice.cards import parse_cards

G4 = sm.load("g4a")


@pytest.mark.clause("G4-1")
def test_two_packs_without_jokers() -> None:
    assert len(G4.deck.cards) == 104 and G4.deck.payoff_cards is None
    assert set(Counter(card.rank for card in G4.deck.cards).values()) == {8}
    assert len(sm.deal(G4, seed=3).draw) == 54


@pytest.mark.clause("G4-2")
def test_two_players_only() -> None:
    assert G4.players == 2
    with pytest.raises(sm.RulesetError, match="is for 2 players only, not 4"):
        sm.load("g4a", players=4)


@pytest.mark.clause("G4-3")
def test_build_from_the_ace_up_by_one_regardless_of_suit() -> None:
    state = position(G4, hands=["4D 6H 3C"], builds=["AS 2H 3D"])
    error = check.refused(G4, state, "6H>B1")
    assert (error.reason, error.clause) == ("wrong-rank", "G4-3")
    error = check.refused(G4, state, "3C>B+")
    assert (error.reason, error.clause) == ("wrong-rank", "G4-3")
    assert len(check.play(G4, state, "4D>B1").builds[0]) == 4


@pytest.mark.clause("G4-4")
def test_a_king_may_start_a_pile_as_its_ace() -> None:
    state = position(G4, hands=["KH 2C 9D"])
    after = check.play(G4, state, "KH>B+", "2C>B1")
    assert after.builds[0] == (sm.parse_card("KH"), sm.parse_card("2C"))
    assert sm.build_ranks(after.builds[0]) == (1, 2)
    blackwood = sm.load("blackwood-frey")
    error = check.refused(blackwood, position(blackwood, hands=["KH 2C 9D"]), "KH>B+")
    assert (error.reason, error.clause) == ("wild-cannot-start", "BF-4")


@pytest.mark.clause("G4-4")
def test_a_king_becomes_the_card_the_pile_needs() -> None:
    state = position(G4, hands=["KH 9D"], builds=[run(9)])
    after = check.play(G4, state, "KH>B1")
    assert sm.build_ranks(after.builds[0])[-1] == 10


@pytest.mark.clause("G4-5")
def test_a_fourth_build_pile_is_refused() -> None:
    state = position(G4, hands=["AH KD 9C"], builds=["AS 2S", "AD", "AC 2C 3C"])
    error = check.refused(G4, state, "AH>B+")
    assert (error.reason, error.clause) == ("build-pile-limit", "G4-5")
    error = check.refused(G4, state, "KD>B+")
    assert (error.reason, error.clause) == ("build-pile-limit", "G4-5")
    blackwood = sm.load("blackwood-frey")
    bf_state = position(blackwood, hands=["AH 9C"], builds=["AS 2S", "AD", "AC 2C 3C"])
    assert len(check.play(blackwood, bf_state, "AH>B+").builds) == 4


@pytest.mark.clause("G4-6")
def test_a_king_on_a_jack_completes_the_pile_into_the_draw_pile_at_once() -> None:
    state = position(G4, hands=["KH 3C 7C 9C 9D"], builds=[run(11), "AD 2D 3D 4D 5D"],
                     payoffs=["8H"])
    after = check.play(G4, state, "KH>B1")
    assert len(after.builds) == 1 and after.completed == ()
    assert len(after.draw) == len(state.draw) + 12
    assert Counter(after.draw) - Counter(state.draw) == Counter(
        sm.parse_card(text) for text in [*run(11).split(), "KH"])
    assert after.seat == 0


@pytest.mark.clause("G4-6")
def test_a_queen_on_a_jack_completes_the_pile() -> None:
    check.shuffled_in_at_once(G4)


@pytest.mark.clause("G4-7")
def test_twenty_pay_off_cards_top_only() -> None:
    assert [len(seat.payoff[0]) for seat in sm.deal(G4, seed=5).seats] == [20, 20]
    empty = position(G4, hands=["9C"], payoffs=[""], builds=[run(3)])
    error = check.refused(G4, empty, "P:4H>B1")
    assert (error.reason, error.clause) == ("empty-pile", "G4-7")
    after = check.play(G4, position(G4, hands=["9C"], payoffs=["9H 4H"], builds=[run(3)]),
                       "P:4H>B1")
    assert after.seats[0].payoff[0] == (sm.parse_card("9H"),)


@pytest.mark.clause("G4-8")
def test_hand_of_five_drawn_at_turn_start_and_when_emptied() -> None:
    assert all(len(seat.hand) == 5 for seat in sm.deal(G4, seed=1).seats)
    check.refill_at_turn_start(G4)
    check.empty_hand_draws_again(G4)


@pytest.mark.clause("G4-9")
def test_the_higher_pay_off_top_starts() -> None:
    reshuffled = 0
    for seed in range(60):
        state = sm.deal(G4, seed)
        tops = [99 if card.rank == 13 else card.rank
                for card in (seat.payoff[0][-1] for seat in state.seats)]
        assert tops[state.seat] > tops[1 - state.seat]
        reshuffled += state.shuffles > 1
    assert reshuffled


@pytest.mark.clause("G4-10")
def test_four_side_piles_top_card_only() -> None:
    assert G4.discard.piles == 4
    check.discard_piles_top_only(G4, "G4-10")


@pytest.mark.clause("G4-11")
def test_any_hand_card_may_go_on_a_side_pile() -> None:
    state = position(G4, hands=["AH KH QH"], builds=["AS 2S", "AD", "AC"], payoffs=["9D"])
    moves = sm.legal_moves(G4, state)
    assert {sm.parse_move(m) for m in ("AH>D1", "KH>D2", "QH>D3")} <= set(moves)
    assert check.play(G4, state, "AH>D1").seat == 1


@pytest.mark.clause("G4-12")
def test_a_side_pile_card_ends_the_turn() -> None:
    check.one_card_discard_ends_turn(G4, "G4-12")


@pytest.mark.clause("G4-13")
def test_the_last_pay_off_card_wins() -> None:
    check.last_payoff_card_wins(G4)


@pytest.mark.clause("G4-14")
def test_an_empty_draw_pile_is_a_tie_with_no_score() -> None:
    after = check.empty_draw_pile_ends_drawn(G4)
    assert [seat.payoff_count for seat in after.seats] == [1, 2]
    assert after.outcome is not None and after.outcome.scores == (0, 0)
    check.blocked(G4, (0, 0))


@pytest.mark.clause("G4-14")
def test_a_short_draw_plays_on_and_the_tie_comes_at_a_draw_that_finds_nothing() -> None:
    """Dossier §11 scenario 20: two cards left when B's turn starts and B holds one; B draws
    the two and plays on.  The tie comes at the next required draw, which finds no card."""
    state = position(G4, hands=["9C", "3D"], payoffs=["8C 8H", "8D 8S"], draw="4D 5D")
    after = check.play(G4, state, "9C>D1")
    assert after.seat == 1 and after.outcome is None and after.draw == ()
    assert Counter(after.seats[1].hand) == Counter(parse_cards("3D 4D 5D"))
    after = check.play(G4, after, "3D>D1")
    assert after.outcome == sm.Outcome("drawn", None, (0, 0))


@pytest.mark.clause("G4-15")
def test_the_winner_scores_the_opponents_cards_left() -> None:
    after = check.last_payoff_card_wins(G4)
    assert after.outcome is not None and after.outcome.scores == (2, 0)


@pytest.mark.clause("G4-16")
def test_a_match_goes_to_fifty() -> None:
    check.match_to(G4, 50)


@pytest.mark.clause("G4-17")
def test_only_the_seat_on_turn_moves() -> None:
    check.seat_on_turn(G4, "G4-17")


@pytest.mark.clause("G4-18")
def test_pass_only_when_stuck() -> None:
    check.pass_only_when_stuck(G4, "G4-18")


@pytest.mark.clause("G4-19")
def test_a_round_of_passes_is_blocked() -> None:
    check.blocked(G4, (0, 0))


@pytest.mark.clause("G4-20")
def test_the_turn_limit_ends_the_game() -> None:
    check.turn_limit(G4)


@pytest.mark.clause("G4-21")
def test_no_move_after_the_end() -> None:
    check.game_over(G4, "G4-21")

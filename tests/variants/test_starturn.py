"""Scenario tests for the starturn rule sheet: one at least per clause (ST-1 ... ST-22)."""

from __future__ import annotations

from collections import Counter

import pytest
from helpers import sheet_checks as check
from helpers.positions import position

import spitemalice as sm

ST = sm.load("starturn")


def pile(top: int) -> str:
    return " ".join(str(value) for value in range(1, top + 1))


@pytest.mark.clause("ST-1")
def test_a_stack_pack_of_44_and_a_draw_pack_of_52() -> None:
    assert len(ST.deck.cards) == 52
    assert ST.deck.payoff_cards is not None and len(ST.deck.payoff_cards) == 44
    assert ST.deck.size == 96


@pytest.mark.clause("ST-2")
def test_the_assumed_faces_are_numbers_1_to_15_spread_evenly_and_nine_stars() -> None:
    draw = Counter(card.rank for card in ST.deck.cards if not card.is_joker)
    stack = Counter(card.rank for card in ST.deck.payoff_cards or ())
    assert draw == {value: 3 if value <= 13 else 2 for value in range(1, 16)}  # 43 numbers
    assert sum(card.is_joker for card in ST.deck.cards) == 9  # the searched reading
    assert stack == {value: 3 if value <= 14 else 2 for value in range(1, 16)}
    assert {card.suit for card in ST.deck.cards} == {""}
    clause = ST.clause("ST-2")
    assert "ASSUMPTION" in clause.source and "spitemalice tune" in clause.source
    assert "spitemalice tune starturn" in clause.text  # the search that chose it, to rerun
    old = sm.load("starturn", draw_pack=52, jokers=0, wild_ranks="none")  # the earlier reading
    assert Counter(card.rank for card in old.deck.cards) == {
        value: 4 if value <= 7 else 3 for value in range(1, 16)}
    assert "no star cards" in old.clause("ST-2").text
    other = sm.load("starturn", draw_pack=60, payoff_pack=36, build_ceiling=12, jokers=0)
    assert Counter(card.rank for card in other.deck.cards) == dict.fromkeys(range(1, 13), 5)
    assert Counter(card.rank for card in other.deck.payoff_cards or ()) == dict.fromkeys(
        range(1, 13), 3)
    stars = sm.load("starturn", draw_pack=46, jokers=6, wild_ranks="0")
    assert len(stars.deck.cards) == 52 and sum(c.is_joker for c in stars.deck.cards) == 6
    assert stars.accepts[0] == frozenset(range(1, 16))


@pytest.mark.clause("ST-3")
def test_two_to_four_players() -> None:
    assert [sm.load("starturn", players=n).players for n in (2, 3, 4)] == [2, 3, 4]
    with pytest.raises(sm.RulesetError, match="2 to 4 players, not 5"):
        sm.load("starturn", players=5)
    with pytest.raises(sm.RulesetError, match=r"the deck of 11 cards \(the separate pay-off pack "
                       r"aside\) cannot deal each of 4 seats a hand of 5: 20 cards; use fewer "
                       "players, a "
                       "smaller hand_size or a larger draw_pack"):
        sm.load("starturn", players=4, draw_pack=2)  # 11 draw cards, 20 to deal


@pytest.mark.clause("ST-4")
def test_the_stack_pack_is_shared_out_equally() -> None:
    for players, share, left in ((2, 22, 0), (3, 14, 2), (4, 11, 0)):
        rules = sm.load("starturn", players=players)
        state = sm.deal(rules, seed=players)
        assert [len(seat.payoff[0]) for seat in state.seats] == [share] * players
        assert len(state.draw) == 52 - 5 * players + left


@pytest.mark.clause("ST-4")
def test_a_fixed_stack_size_is_dealt_from_the_stack_pack() -> None:
    rules = sm.load("starturn", players=4, payoff_size=10)
    state = sm.deal(rules, seed=1)
    assert [len(seat.payoff[0]) for seat in state.seats] == [10] * 4
    assert len(state.draw) == 52 - 4 * 5 + 4  # the 4 stack cards left over join the draw pack
    with pytest.raises(sm.RulesetError, match=r"the separate pay-off pack of 44 cards cannot "
                       r"deal each of 4 seats 1 pay-off pile of 12 cards \(payoff_size\): "
                       r"48 cards.*a "
                       "larger payoff_pack"):
        sm.load("starturn", players=4, payoff_size=12)  # 48 stack cards of 44


@pytest.mark.clause("ST-5")
def test_only_the_stack_top_may_be_played() -> None:
    state = position(ST, hands=["9"], payoffs=["4 7"], builds=[pile(3)])
    error = check.refused(ST, state, "P:4>B1")
    assert error.reason == "buried-card"
    empty = position(ST, hands=["9"], payoffs=[""], builds=[pile(3)])
    error = check.refused(ST, empty, "P:4>B1")
    assert (error.reason, error.clause) == ("empty-pile", "ST-5")
    after = check.play(ST, position(ST, hands=["9"], payoffs=["7 4"], builds=[pile(3)]),
                       "P:4>B1")
    assert after.seats[0].payoff[0] == (sm.parse_card("7"),)


@pytest.mark.clause("ST-6")
def test_hands_of_five_from_the_draw_pack() -> None:
    state = sm.deal(ST, seed=6)
    assert all(len(seat.hand) == 5 for seat in state.seats)
    stack = Counter(ST.deck.payoff_cards or ())
    dealt_stacks = Counter(card for seat in state.seats for card in seat.payoff[0])
    assert dealt_stacks == stack  # all 44 stack cards went to the stacks, none to the hands
    check.refill_at_turn_start(ST)


@pytest.mark.clause("ST-7")
def test_build_piles_run_from_1_up_by_one() -> None:
    state = position(ST, hands=["13 12 2"], builds=[pile(11)])
    error = check.refused(ST, state, "13>B1")
    assert (error.reason, error.clause) == ("wrong-rank", "ST-7")
    error = check.refused(ST, state, "2>B+")
    assert (error.reason, error.clause) == ("wrong-rank", "ST-7")
    assert len(check.play(ST, state, "12>B1", "13>B1").builds[0]) == 13


@pytest.mark.clause("ST-8")
def test_at_most_four_build_piles() -> None:
    four = position(ST, hands=["1 9"], builds=["1 2", "1", "1", "1 2 3"])
    error = check.refused(ST, four, "1>B+")
    assert (error.reason, error.clause) == ("build-pile-limit", "ST-8")
    assert len(check.play(ST, position(ST, hands=["1 9"], builds=["1", "1"]), "1>B+").builds) == 3


@pytest.mark.clause("ST-9")
def test_a_star_card_is_wild_and_the_earlier_reading_has_none() -> None:
    assert ST.wild.wild_ranks == frozenset({0})
    assert ST.accepts[0] == frozenset(range(1, 16))
    state = position(ST, hands=["* 9"], builds=[pile(4)], payoffs=["6"])
    after = check.play(ST, state, "*>B1", "P:6>B1")  # the star stood for 5
    assert after.outcome is not None and after.outcome.winner == 0
    assert check.play(ST, position(ST, hands=["* 9"], payoffs=["8"]), "*>B+").builds
    old = sm.load("starturn", draw_pack=52, jokers=0, wild_ranks="none")
    assert old.wild.wild_ranks == frozenset()
    assert all(old.accepts[value] == {value} for value in range(1, 16))
    assert old.clause("ST-9").text == "There are no wild cards."
    state = position(old, hands=["13 9"], builds=[pile(4)])
    error = check.refused(old, state, "13>B1")
    assert (error.reason, error.clause) == ("wrong-rank", "ST-7")


@pytest.mark.clause("ST-10")
def test_a_15_completes_a_pile_into_the_draw_pack_at_once() -> None:
    state = position(ST, hands=["15 9"], builds=[pile(14), "1"], payoffs=["8"])
    after = check.play(ST, state, "15>B1")
    assert len(after.builds) == 1 and after.completed == ()
    assert len(after.draw) == len(state.draw) + 15
    check.shuffled_in_at_once(ST)


@pytest.mark.clause("ST-11")
def test_four_own_discard_piles_top_card_only() -> None:
    assert ST.discard.piles == 4
    check.discard_piles_top_only(ST, "ST-11")


@pytest.mark.clause("ST-12")
def test_one_discard_of_any_card_ends_the_turn() -> None:
    check.one_card_discard_ends_turn(ST, "ST-12")
    state = position(ST, hands=["1 15"], builds=["1", "1", "1", "1"], payoffs=["8"])
    after = check.play(ST, state, "1>D3")
    assert after.seat == 1 and after.seats[0].discards[2] == (sm.parse_card("1"),)


@pytest.mark.clause("ST-13")
def test_playing_the_whole_hand_draws_five_more() -> None:
    state = position(ST, hands=["5 6"], builds=[pile(4)], payoffs=["9"])
    after = check.play(ST, state, "5>B1", "6>B1")
    assert after.seat == 0 and len(after.seats[0].hand) == 5 and after.outcome is None
    check.empty_hand_draws_again(ST)


@pytest.mark.clause("ST-14")
def test_a_seeded_cut_picks_the_first_seat() -> None:
    four = sm.load("starturn", players=4)
    assert sm.deal(four, seed=1, dealer=3).seat == 3
    assert {sm.deal(four, seed).seat for seed in range(40)} == {0, 1, 2, 3}
    assert sm.deal(four, seed=9).seat == sm.deal(four, seed=9).seat


@pytest.mark.clause("ST-15")
def test_the_last_stack_card_wins() -> None:
    check.last_payoff_card_wins(ST)


@pytest.mark.clause("ST-16")
def test_an_empty_draw_pack_ends_the_game_drawn_without_score() -> None:
    after = check.empty_draw_pile_ends_drawn(ST)
    assert after.outcome is not None and after.outcome.scores == (0, 0)
    # Most games end drawn only without star cards, and only that reading's sheet says so.
    old = sm.load("starturn", draw_pack=52, jokers=0, wild_ranks="none")
    assert old.clause("ST-16").expects == ("completion",)
    assert ST.clause("ST-16").expects == ()


@pytest.mark.clause("ST-17")
def test_a_win_scores_one_and_a_match_is_one_game_won() -> None:
    after = check.last_payoff_card_wins(ST)
    assert after.outcome is not None and after.outcome.scores == (1, 0)
    check.match_to(ST, 1)


@pytest.mark.clause("ST-18")
def test_only_the_seat_on_turn_moves() -> None:
    check.seat_on_turn(ST, "ST-18")


@pytest.mark.clause("ST-19")
def test_pass_only_when_stuck() -> None:
    check.pass_only_when_stuck(ST, "ST-19")


@pytest.mark.clause("ST-20")
def test_a_round_of_passes_is_blocked() -> None:
    check.blocked(ST, (0, 0))


@pytest.mark.clause("ST-21")
def test_the_turn_limit_ends_the_game() -> None:
    check.turn_limit(ST)


@pytest.mark.clause("ST-22")
def test_no_move_after_the_end() -> None:
    check.game_over(ST, "ST-22")

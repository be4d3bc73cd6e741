"""Scenario tests for the hasbro rule sheet (the Hasbro / Parker Brothers edition,
reconstructed): one at least per clause (HB-1 ... HB-21), and every clause marked by its
source or as RECONSTRUCTED."""

from __future__ import annotations

from collections import Counter

import pytest
from helpers import sheet_checks as check
from helpers.positions import position

import spitemalice as sm

HB = sm.load("hasbro")


def pile(top: int) -> str:
    return " ".join(str(value) for value in range(1, top + 1))


def test_every_clause_names_a_source_or_says_it_is_reconstructed() -> None:
    own = [clause for clause in HB.clauses if clause.id.startswith("HB-")]
    for clause in own[:16]:  # the edition's own; the rest are the library's play clauses
        assert "HASBRO" in clause.source or "RECONSTRUCTED" in clause.source, clause.id


@pytest.mark.clause("HB-1")
def test_110_cards_numbers_1_to_13_and_wild_spite_cards() -> None:
    assert len(HB.deck.cards) == 110 and HB.deck.payoff_cards is None
    spite = sum(card.is_joker for card in HB.deck.cards)
    numbers = Counter(card.rank for card in HB.deck.cards if not card.is_joker)
    assert spite == HB.ruleset.jokers and spite + sum(numbers.values()) == 110
    assert set(numbers) == set(range(1, 14))
    assert max(numbers.values()) - min(numbers.values()) <= 1  # spread evenly
    assert "RECONSTRUCTED (spitemalice tune" in HB.clause("HB-1").source


@pytest.mark.clause("HB-2")
def test_two_to_five_players() -> None:
    assert [sm.load("hasbro", players=n).players for n in (2, 3, 4, 5)] == [2, 3, 4, 5]
    with pytest.raises(sm.RulesetError, match="2 to 5 players, not 6"):
        sm.load("hasbro", players=6)


@pytest.mark.clause("HB-3")
def test_a_stack_of_8_only_its_top_playable() -> None:
    state = sm.deal(sm.load("hasbro", players=5), seed=2)
    assert [len(seat.payoff[0]) for seat in state.seats] == [8] * 5
    buried = position(HB, hands=["9"], payoffs=["5 4"], builds=[pile(3)])
    assert check.refused(HB, buried, "P:5>B1").reason == "buried-card"
    empty = position(HB, hands=["9"], payoffs=[""], builds=[pile(3)])
    error = check.refused(HB, empty, "P:4>B1")
    assert (error.reason, error.clause) == ("empty-pile", "HB-3")


@pytest.mark.clause("HB-4")
def test_a_hand_of_five_refilled_each_turn() -> None:
    assert all(len(seat.hand) == 5 for seat in sm.deal(HB, seed=4).seats)
    check.refill_at_turn_start(HB)
    check.empty_hand_draws_again(HB)
    assert "RECONSTRUCTED" in HB.clause("HB-4").source  # the deal of 4 is not expressed


@pytest.mark.clause("HB-5")
def test_the_highest_up_card_starts_and_equal_tops_deal_again() -> None:
    reshuffled = 0
    for seed in range(60):
        state = sm.deal(HB, seed)
        tops = [99 if card.is_joker else card.rank  # a spite card counts highest
                for card in (seat.payoff[0][-1] for seat in state.seats)]
        assert tops[state.seat] > tops[1 - state.seat]
        reshuffled += state.shuffles > 1
    assert reshuffled, "no deal in 60 needed a second deal of equal tops"


@pytest.mark.clause("HB-6")
def test_build_piles_run_from_1_up_to_13() -> None:
    state = position(HB, hands=["13 12 3"], builds=[pile(11)], payoffs=["9"])
    error = check.refused(HB, state, "13>B1")
    assert (error.reason, error.clause) == ("wrong-rank", "HB-6")
    error = check.refused(HB, state, "3>B+")
    assert (error.reason, error.clause) == ("wrong-rank", "HB-6")
    after = check.play(HB, state, "12>B1", "13>B1")
    assert after.builds == () and len(after.completed) == 13


@pytest.mark.clause("HB-7")
def test_the_build_pile_limit() -> None:
    limit = HB.ruleset.max_build_piles
    assert limit is not None
    full = position(HB, hands=["1 9"], builds=["1 2"] * limit, payoffs=["8"])
    error = check.refused(HB, full, "1>B+")
    assert (error.reason, error.clause) == ("build-pile-limit", "HB-7")


@pytest.mark.clause("HB-8")
def test_a_spite_card_is_wild() -> None:
    assert HB.wild.wild_ranks == frozenset({0})
    state = position(HB, hands=["* 9"], builds=[pile(6)], payoffs=["8"])
    after = check.play(HB, state, "*>B1", "P:8>B1")
    assert after.outcome is not None and after.outcome.winner == 0  # * stood for 7
    excluded = sm.load("hasbro", wild_excluded="1")
    error = check.refused(excluded, position(excluded, hands=["* 9"], payoffs=["8"]), "*>B+")
    assert (error.reason, error.clause) == ("wild-cannot-start", "HB-8")


@pytest.mark.clause("HB-9")
def test_a_completed_pile_goes_to_the_shared_discard_pile() -> None:
    check.set_aside_then_recycled(HB)


@pytest.mark.clause("HB-10")
def test_the_shared_discard_pile_becomes_a_new_draw_pile() -> None:
    state = position(HB, hands=["13"], builds=[pile(12)], payoffs=["8"], draw="")
    after = check.play(HB, state, "13>B1")
    assert after.completed == () and len(after.seats[0].hand) == 5
    assert after.shuffles == state.shuffles + 1


@pytest.mark.clause("HB-11")
def test_no_card_to_draw_ends_the_game_drawn_without_score() -> None:
    after = check.empty_draw_pile_ends_drawn(HB)
    assert after.outcome is not None and after.outcome.scores == (0, 0)


@pytest.mark.clause("HB-12")
def test_a_playable_1_or_2_must_be_played_first() -> None:
    state = position(HB, hands=["1 9 4"], builds=[pile(3)], payoffs=["12"])
    error = check.refused(HB, state, "9>D1")
    assert (error.reason, error.clause) == ("forced-play", "HB-12")
    # the numbered deck's 1 is no ace: the refusal said "rank A or 2"
    assert "a card of rank 1 or 2 can be played and must be" in str(error)
    assert check.refused(HB, state, "4>B1").reason == "forced-play"
    assert sm.legal_moves(HB, state) == (sm.parse_move("1>B+"),)
    two = position(HB, hands=["9 4"], builds=["1"], payoffs=["2"])
    assert sm.legal_moves(HB, two) == (sm.parse_move("P:2>B1"),)
    free = position(HB, hands=["9 4"], builds=[pile(3)], payoffs=["12"])
    assert len(sm.legal_moves(HB, free)) > 1  # no 1 or 2 playable: nothing forced


@pytest.mark.clause("HB-13")
def test_four_store_piles_top_card_only() -> None:
    assert HB.discard.piles == 4
    check.discard_piles_top_only(HB, "HB-13")


@pytest.mark.clause("HB-14")
def test_one_card_of_any_rank_to_a_store_pile_ends_the_turn() -> None:
    check.one_card_discard_ends_turn(HB, "HB-14")
    state = position(HB, hands=["13 *"], builds=[pile(3)], payoffs=["8"])
    after = check.play(HB, state, "*>D2")
    assert after.seat == 1 and after.seats[0].discards[1] == (sm.parse_card("*"),)


@pytest.mark.clause("HB-15")
def test_the_last_stack_card_wins() -> None:
    check.last_payoff_card_wins(HB)


@pytest.mark.clause("HB-16")
def test_a_win_scores_one_and_a_match_is_one_game() -> None:
    after = check.last_payoff_card_wins(HB)
    assert after.outcome is not None and after.outcome.scores == (1, 0)
    check.match_to(HB, 1)


@pytest.mark.clause("HB-17")
def test_only_the_seat_on_turn_moves() -> None:
    check.seat_on_turn(HB, "HB-17")


@pytest.mark.clause("HB-18")
def test_pass_only_when_stuck() -> None:
    check.pass_only_when_stuck(HB, "HB-18")


@pytest.mark.clause("HB-19")
def test_a_round_of_passes_is_blocked() -> None:
    check.blocked(HB, (0, 0))


@pytest.mark.clause("HB-20")
def test_the_turn_limit_ends_the_game() -> None:
    check.turn_limit(HB)


@pytest.mark.clause("HB-21")
def test_no_move_after_the_end() -> None:
    check.game_over(HB, "HB-21")

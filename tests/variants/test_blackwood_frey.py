"""Scenario tests for the blackwood-frey rule sheet, one or more per clause BF-1..BF-23.

Each scenario is a position, a move, and the expected position or the expected refusal
(reason code and clause).  Positions come from :func:`positions.position`, which keeps card
conservation by putting every unused deck card in the draw pile unless ``draw`` is given.
"""

from __future__ import annotations

import copy
from collections import Counter

import attrs
import pytest
from helpers.positions import position, run

import spitemalice as sm
from spitemalice.cards import parse_cards
from spitemalice.engine.shuffle import shuffled
from spitemalice.moves import NEW_PILE, Zone

clause = pytest.mark.clause


def cards(text: str) -> tuple[sm.Card, ...]:
    return parse_cards(text)


def play(rules: sm.RuleBook, state: sm.GameState, text: str) -> sm.GameState:
    """Apply a move given in text form, after checking that legal_moves lists it."""
    move = sm.parse_move(text)
    assert move in sm.legal_moves(rules, state), f"{text} should be legal"
    return sm.apply_move(rules, state, move)


def refused(
    rules: sm.RuleBook,
    state: sm.GameState,
    move: sm.Move | str,
    reason: str,
    clause_id: str,
    seat: int | None = None,
) -> sm.IllegalMove:
    """Assert the move is refused with ``reason`` citing ``clause_id`` and nothing changed."""
    if isinstance(move, str):
        move = sm.parse_move(move)
    before = copy.deepcopy(state)
    with pytest.raises(sm.IllegalMove) as e:
        sm.apply_move(rules, state, move, seat=seat)
    assert e.value.reason == reason, str(e.value)
    assert e.value.clause == clause_id, str(e.value)
    assert state == before
    if seat is None:
        assert move not in sm.legal_moves(rules, state)
        assert not sm.is_legal(rules, state, move)
    return e.value


def evolve(state: sm.GameState, **changes: object) -> sm.GameState:
    return attrs.evolve(state, **changes)


# A position where four build piles are open and every one needs a 4.
FOUR_PILES = ["AS 2S 3S", "AH 2H 3H", "AD 2D 3D", "AC 2C 3C"]


@pytest.fixture(scope="module")
def bf3() -> sm.RuleBook:
    """Blackwood/Frey for three players."""
    return sm.load("blackwood-frey", players=3)


# --- BF-1 deck ---------------------------------------------------------------------------


@clause("BF-1")
def test_deck_is_three_packs_without_jokers(bf: sm.RuleBook) -> None:
    counts = Counter(bf.deck.cards)
    assert len(bf.deck.cards) == 156
    assert len(counts) == 52
    assert set(counts.values()) == {3}
    assert not any(card.is_joker for card in bf.deck.cards)
    dealt = sm.deal(bf, seed=7)
    assert Counter(dealt.all_cards()) == counts


@clause("BF-1")
def test_jokers_option_adds_six_jokers() -> None:
    rules = sm.load("blackwood-frey", jokers=6)
    assert len(rules.deck.cards) == 162
    assert sum(card.is_joker for card in rules.deck.cards) == 6
    assert Counter(sm.deal(rules, seed=3).all_cards()) == Counter(rules.deck.cards)


@clause("BF-1")
def test_joker_is_wild_on_a_five() -> None:
    rules = sm.load("blackwood-frey", jokers=6)
    state = position(rules, hands=["* 9H"], payoffs=["QC", "QD"], builds=["AS 2S 3S 4S 5S"])
    after = play(rules, state, "*>B1")
    assert after.builds == (cards("AS 2S 3S 4S 5S *"),)
    assert after.seats[0].hand == cards("9H")
    # the joker stood for 6, so a natural 7 now follows it
    follow = position(rules, hands=["7H 9H"], payoffs=["QC", "QD"],
                      builds=["AS 2S 3S 4S 5S *"])
    assert play(rules, follow, "7H>B1").builds == (cards("AS 2S 3S 4S 5S * 7H"),)


@clause("BF-1")
def test_joker_cannot_start_a_pile() -> None:
    rules = sm.load("blackwood-frey", jokers=6)
    state = position(rules, hands=["* 9H"], payoffs=["QC", "QD"])
    refused(rules, state, "*>B+", "wild-cannot-start", "BF-4")


# --- BF-2 player counts ------------------------------------------------------------------


@clause("BF-2")
@pytest.mark.parametrize("players", [1, 5])
def test_player_count_outside_two_to_four_is_refused(players: int) -> None:
    with pytest.raises(sm.RulesetError):
        sm.load("blackwood-frey", players=players)


@clause("BF-2")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_two_to_four_players_deal(players: int) -> None:
    rules = sm.load("blackwood-frey", players=players)
    state = sm.deal(rules, seed=2)
    assert len(state.seats) == players
    assert len(state.draw) == 156 - players * (26 + 5)


@clause("BF-2")
def test_deck_that_cannot_deal_is_refused() -> None:
    """Four seats of 40 pay-off cards and 5 in hand need 180 cards; the deck has 156."""
    with pytest.raises(sm.RulesetError, match=r"the deck of 156 cards cannot deal each of 4 "
                       r"seats 1 pay-off pile of 40 cards \(payoff_size\) and a hand of 5: "
                       "180 cards; use "
                       r"fewer players, smaller pay-off piles \(payoff_size at most 34 for 4 "
                       r"seats\), a smaller hand_size or more packs"):
        sm.load("blackwood-frey", players=4, payoff_size=40)
    assert sm.load("blackwood-frey", players=4, payoff_size=34).deal.payoff_size == 34


@pytest.mark.parametrize(("ruleset", "players", "most"), [
    ("blackwood-frey", 2, 60), ("blackwood-frey", 4, 34), ("uspcc", 2, 47), ("g4a", 2, 47),
    ("skip-bo", 2, 60), ("skip-bo", 6, 22)])
def test_the_refusals_of_a_payoff_size_name_one_range(ruleset: str, players: int,
                                                      most: int) -> None:
    """A fresh user tried payoff_size=0 on the built-in rule sets: its refusal offered 1 to 60
    while uspcc's deck deals at most 47 and the bound said "at least 0"; now the refusal of
    0 and of a size too large name the range the deck deals, and the bound says when 0 is
    allowed."""
    with pytest.raises(sm.RulesetError) as zero:  # payoff_size_many 0: payoff_size at 5+
        sm.load(ruleset, players=players, payoff_size=0, payoff_size_many=0)
    assert ("payoff_size = 0 shares out a separate pay-off pack, but payoff_pack = 0: give "
            f"payoff_size a number from 1 to {most} (what the deck deals {players} seats)"
            ) in str(zero.value)
    size_by = "payoff_size_many" if players >= 5 else "payoff_size"
    assert sm.load(ruleset, players=players, **{size_by: most}).deal.payoff_size == most
    if most < 60:
        with pytest.raises(sm.RulesetError, match=rf"\({size_by} at most {most} for "
                                                  rf"{players} seats\)"):
            sm.load(ruleset, players=players, **{size_by: most + 1})
    with pytest.raises(sm.RulesetError, match=r"payoff_size = 61: it must be at least 0 and "
                       r"at most 60 \(0 only with a separate pay-off pack, payoff_pack\)"):
        sm.load(ruleset, players=players, payoff_size=61)


@pytest.mark.parametrize("word", ["equal", "Share"])
def test_a_payoff_size_word_is_quoted_as_written(word: str) -> None:
    """A new user's payoff_size = "equal" on blackwood-frey (no separate pay-off pack) was
    refused as "payoff_size = 0 ...", a value the user did not write: the refusal quotes the
    word given (the word itself is accepted: docs/rulesets.md, 0 = share out equally)."""
    with pytest.raises(sm.RulesetError) as refused:
        sm.load("blackwood-frey", payoff_size=word)
    assert f'payoff_size = "{word}" shares out a separate pay-off pack' in str(refused.value)
    assert "payoff_size = 0" not in str(refused.value)


# --- BF-3 ranks and sequence -------------------------------------------------------------


@clause("BF-3")
def test_ace_starts_a_build_pile(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["AH 9C"], payoffs=["QC", "QD"])
    after = play(bf, state, "AH>B+")
    expected = position(bf, hands=["9C"], payoffs=["QC", "QD"], builds=["AH"])
    assert after == evolve(expected, turn_moves=1)


@clause("BF-3")
def test_build_pile_rises_by_one_whatever_the_suit(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["2H 9C"], payoffs=["QC", "QD"], builds=["AS"])
    after = play(bf, state, "2H>B1")
    assert after.builds == (cards("AS 2H"),)
    assert after.seats[0].hand == cards("9C")


@clause("BF-3")
def test_skipping_a_rank_is_refused(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["3H 9C"], payoffs=["QC", "QD"], builds=["AS"])
    refused(bf, state, "3H>B1", "wrong-rank", "BF-3")


@clause("BF-3")
def test_non_ace_cannot_start_a_pile(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["2H 9C"], payoffs=["QC", "QD"])
    refused(bf, state, "2H>B+", "wrong-rank", "BF-3")


# --- BF-4 kings wild ---------------------------------------------------------------------


@clause("BF-4")
def test_king_on_empty_build_area_is_refused(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["KD 9C"], payoffs=["QC", "QD"])
    refused(bf, state, "KD>B+", "wild-cannot-start", "BF-4")


@clause("BF-4")
def test_king_cannot_open_a_new_pile_beside_others(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["KD 9C"], payoffs=["QC", "QD"], builds=["AS 2S"])
    refused(bf, state, "KD>B+", "wild-cannot-start", "BF-4")


@clause("BF-4")
def test_king_stands_for_the_next_rank(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["KD 7H"], payoffs=["QC", "QD"], builds=["AS 2S 3S 4S 5S"])
    after = play(bf, state, "KD>B1")
    assert after.builds == (cards("AS 2S 3S 4S 5S KD"),)
    after = play(bf, after, "7H>B1")
    assert after.builds == (cards("AS 2S 3S 4S 5S KD 7H"),)
    assert sm.build_ranks(after.builds[0]) == (1, 2, 3, 4, 5, 6, 7)


# --- BF-5 build pile limit ---------------------------------------------------------------


@clause("BF-5")
def test_fifth_build_pile_is_refused(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["AS 9C"], payoffs=["QC", "QD"], builds=FOUR_PILES)
    refused(bf, state, "AS>B+", "build-pile-limit", "BF-5")
    assert not any(
        isinstance(m, sm.Play) and m.pile == NEW_PILE for m in sm.legal_moves(bf, state)
    )


@clause("BF-5")
def test_fourth_build_pile_may_open(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["AC 9C"], payoffs=["QC", "QD"], builds=FOUR_PILES[:3])
    after = play(bf, state, "AC>B+")
    assert len(after.builds) == 4
    assert after.builds[3] == cards("AC")


# --- BF-6 completion at Q ----------------------------------------------------------------


@clause("BF-6")
def test_queen_completes_and_sets_the_pile_aside(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["QH 9C"], payoffs=["5C", "5D"],
                     builds=["AH 2H", run(11), "AD"], completed=run(12))
    after = play(bf, state, "QH>B2")
    assert len(after.completed) == len(state.completed) + 12
    assert after.completed[12:] == cards(run(11) + " QH")
    assert after.builds == (cards("AH 2H"), cards("AD"))
    assert after.seats[0].hand == cards("9C")
    assert Counter(after.all_cards()) == Counter(state.all_cards())


@clause("BF-6")
def test_king_on_a_jack_completes(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["KH 9C"], payoffs=["5C", "5D"], builds=[run(11)])
    after = play(bf, state, "KH>B1")
    assert after.builds == ()
    assert after.completed == cards(run(11) + " KH")


@clause("BF-6")
def test_pile_below_queen_stays(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["JH 9C"], payoffs=["5C", "5D"], builds=[run(10)])
    after = play(bf, state, "JH>B1")
    assert after.builds == (cards(run(10) + " JH"),)
    assert after.completed == ()


# --- BF-7 recycling completed cards ------------------------------------------------------

RECYCLE = "AH 2H 3H 4H 5D 6H 7H 8H 9H 10H JH QH"


@clause("BF-7")
def test_empty_hand_with_empty_draw_recycles_completed(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["5H"], payoffs=["9C", "9D"], builds=["AS 2S 3S 4S"],
                     draw="", completed=RECYCLE, seed=11)
    after = play(bf, state, "5H>B1")
    order = shuffled(cards(RECYCLE), 11, state.shuffles)
    assert after.outcome is None
    assert after.completed == ()
    assert after.shuffles == state.shuffles + 1
    assert len(after.seats[0].hand) == 5
    assert after.draw == order[:7]
    assert Counter(after.draw + after.seats[0].hand) == Counter(cards(RECYCLE))
    assert after.draw != cards(RECYCLE)[:7], "the recycled cards were not shuffled"


@clause("BF-7")
def test_turn_start_draw_uses_draw_pile_then_recycles(bf: sm.RuleBook) -> None:
    """Seat 1 needs 5, the draw pile has 2: it takes those, then recycles for the rest."""
    state = position(bf, hands=["5H 9S", ""], payoffs=["9C", "9D"], builds=["AS"],
                     draw="10C 10D", completed=RECYCLE, seed=4)
    after = play(bf, state, "9S>D1")
    hand = after.seats[1].hand
    assert after.seat == 1 and after.outcome is None
    assert len(hand) == 5
    assert Counter(cards("10C 10D")) <= Counter(hand)
    assert after.completed == ()
    assert len(after.draw) == 9
    assert Counter(after.draw + hand) == Counter(cards("10C 10D " + RECYCLE))


# --- BF-8 drawn hand ---------------------------------------------------------------------


@clause("BF-8")
def test_empty_draw_and_nothing_to_recycle_draws_the_hand(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["5H"], payoffs=["9C 8C", "9D 8D 7D 6D 5D"],
                     builds=["AS 2S 3S 4S"], draw="", completed="")
    after = play(bf, state, "5H>B1")
    assert after.outcome == sm.Outcome("drawn", None, (3, 0))
    assert sm.legal_moves(bf, after) == ()


@clause("BF-8")
def test_turn_start_draw_with_nothing_left_draws_the_hand(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["5H 6H", ""], payoffs=["9C 8C 7C", "9D"], draw="")
    after = play(bf, state, "6H>D1")
    assert after.outcome is not None
    assert after.outcome.kind == "drawn"
    assert after.outcome.winner is None
    assert after.outcome.scores == (0, 2)


# --- BF-9 pay-off piles ------------------------------------------------------------------


@clause("BF-9")
def test_deal_gives_26_payoff_cards_each(bf: sm.RuleBook) -> None:
    state = sm.deal(bf, seed=5)
    assert [len(seat.payoff) for seat in state.seats] == [1, 1]
    assert [seat.payoff_count for seat in state.seats] == [26, 26]


@clause("BF-9")
def test_short_game_deals_13(bf: sm.RuleBook) -> None:
    rules = sm.load("blackwood-frey", payoff_size=13)
    state = sm.deal(rules, seed=5)
    assert [seat.payoff_count for seat in state.seats] == [13, 13]
    assert len(state.draw) == 156 - 2 * (13 + 5)


@clause("BF-9")
def test_payoff_top_may_be_played(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["9C"], payoffs=["7D 2C", "QD"], builds=["AS"])
    after = play(bf, state, "P:2C>B1")
    assert after.seats[0].payoff == (cards("7D"),)
    assert after.builds == (cards("AS 2C"),)


@clause("BF-9")
def test_buried_payoff_card_is_refused(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["9C"], payoffs=["2C 9H", "QD"], builds=["AS"])
    refused(bf, state, "P:2C>B1", "buried-card", "BF-9")


@clause("BF-9")
def test_play_from_empty_payoff_pile_is_refused(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["9C"], payoffs=["", "QD"])
    refused(bf, state, "P:AS>B+", "empty-pile", "BF-9")


# --- BF-10 hand size and refills ---------------------------------------------------------


@clause("BF-10")
def test_deal_gives_every_seat_five(bf3: sm.RuleBook) -> None:
    state = sm.deal(bf3, seed=9)
    assert [len(seat.hand) for seat in state.seats] == [5, 5, 5]


@clause("BF-10")
def test_emptying_hand_by_plays_draws_five_at_once(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["2H"], payoffs=["QC", "QD"], builds=["AS"],
                     draw="3C 4C 5C 6C 7C 8C 9C")
    after = play(bf, state, "2H>B1")
    expected = position(bf, hands=["5C 6C 7C 8C 9C"], payoffs=["QC", "QD"],
                        builds=["AS 2H"], draw="3C 4C")
    assert after == evolve(expected, turn_moves=1)


@clause("BF-10")
def test_discard_fills_next_seat_hand_to_five(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["5H 6H", "7C"], payoffs=["QC", "QD"],
                     draw="2D 3D 4D 5D 6D 7D")
    after = play(bf, state, "6H>D1")
    expected = position(bf, hands=["5H", "7C 4D 5D 6D 7D"], payoffs=["QC", "QD"],
                        discards=[["6H"]], draw="2D 3D", seat=1)
    assert after == evolve(expected, turn=1)


# --- BF-11 first seat and turn order -----------------------------------------------------


@clause("BF-11")
def test_same_seed_same_deal_and_first_seat(bf3: sm.RuleBook) -> None:
    assert sm.deal(bf3, seed=42) == sm.deal(bf3, seed=42)
    assert sm.deal(bf3, seed=42) != sm.deal(bf3, seed=43)
    assert [sm.deal(bf3, seed=s).seat for s in range(20)] == [
        sm.deal(bf3, seed=s).seat for s in range(20)
    ]


@clause("BF-11")
def test_cut_gives_every_seat_the_first_turn(bf3: sm.RuleBook) -> None:
    firsts = Counter(sm.deal(bf3, seed=s).seat for s in range(100))
    assert set(firsts) == {0, 1, 2}


@clause("BF-11")
def test_given_dealer_plays_first(bf3: sm.RuleBook) -> None:
    for dealer in range(3):
        assert sm.deal(bf3, seed=1, dealer=dealer).seat == dealer


@clause("BF-11")
def test_turn_passes_in_seat_order(bf3: sm.RuleBook) -> None:
    state = position(bf3, hands=["5H 6H", "5C 6C", "5D 6D"], payoffs=["QC", "QD", "QS"],
                     seat=2)
    after = play(bf3, state, "6D>D1")
    assert after.seat == 0
    assert play(bf3, after, "6H>D2").seat == 1


# --- BF-12 discard piles -----------------------------------------------------------------


@clause("BF-12")
def test_discard_top_may_be_played(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["9C"], payoffs=["QC", "QD"], discards=[["9S 5H"]],
                     builds=["AS 2S 3S 4S"])
    after = play(bf, state, "D1:5H>B1")
    assert after.seats[0].discards[0] == cards("9S")
    assert after.builds == (cards("AS 2S 3S 4S 5H"),)


@clause("BF-12")
def test_buried_discard_card_is_refused(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["9C"], payoffs=["QC", "QD"], discards=[["5H 9S"]],
                     builds=["AS 2S 3S 4S"])
    refused(bf, state, "D1:5H>B1", "buried-card", "BF-12")


@clause("BF-12")
def test_card_not_on_the_discard_pile_is_refused(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["9C"], payoffs=["QC", "QD"], discards=[["9S 5H"]],
                     builds=["AS 2S 3S 4S"])
    refused(bf, state, "D1:5D>B1", "not-on-pile", "BF-12")


@clause("BF-12")
def test_playing_from_another_seats_discard_pile_is_refused(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["9C"], payoffs=["QC", "QD"], discards=[[], ["9S 5H"]],
                     builds=["AS 2S 3S 4S"])
    move = sm.parse_move("S1.D1:5H>B1")
    assert move == sm.Play(Zone.DISCARD, sm.parse_card("5H"), 0, 0, owner=1)
    refused(bf, state, move, "not-own-pile", "BF-12")


@clause("BF-12")
def test_naming_own_seat_agrees_with_legal_moves(bf: sm.RuleBook) -> None:
    """check_move accepts exactly the moves legal_moves lists (engine/legal.py)."""
    state = position(bf, hands=["9C"], payoffs=["QC", "QD"], discards=[["9S 5H"]],
                     builds=["AS 2S 3S 4S"])
    move = sm.parse_move("S0.D1:5H>B1")
    assert sm.is_legal(bf, state, move) == (move in sm.legal_moves(bf, state))


# --- BF-13 no ace discards ---------------------------------------------------------------


@clause("BF-13")
def test_ace_cannot_be_discarded(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["AH 9C"], payoffs=["QC", "QD"], builds=FOUR_PILES)
    refused(bf, state, "AH>D1", "forbidden-discard", "BF-13")
    assert sm.parse_move("9C>D1") in sm.legal_moves(bf, state)


# --- BF-14 discarding ends the turn ------------------------------------------------------


@clause("BF-14")
def test_discard_goes_on_top_and_ends_the_turn(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["5H 9C"], payoffs=["QC", "QD"], discards=[["", "2S"]])
    after = play(bf, state, "9C>D2")
    assert after.seats[0].discards == ((), cards("2S 9C"), (), ())
    assert after.seats[0].hand == cards("5H")
    assert (after.seat, after.turn, after.turn_moves) == (1, 1, 0)


@clause("BF-14")
def test_two_card_discard_is_refused(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["5H 5D 9C"], payoffs=["QC", "QD"])
    move = sm.Discard(cards("5H 5D"), 0)
    refused(bf, state, move, "discard-count", "BF-14")


@clause("BF-14")
def test_empty_discard_is_refused(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["5H 9C"], payoffs=["QC", "QD"])
    refused(bf, state, sm.Discard((), 0), "discard-count", "BF-14")


# --- BF-15 who moves, with what ----------------------------------------------------------


@clause("BF-15")
def test_seat_not_on_turn_is_refused(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["5H 9C", "6H 9D"], payoffs=["QC", "QD"])
    refused(bf, state, "9D>D1", "not-on-turn", "BF-15", seat=1)


@clause("BF-15")
def test_card_not_in_hand_is_refused(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["5H 9C", "2H"], payoffs=["QC", "QD"], builds=["AS"])
    refused(bf, state, "2H>B1", "not-in-hand", "BF-15")


@clause("BF-15")
def test_discarding_a_card_not_in_hand_is_refused(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["5H 9C"], payoffs=["QC", "QD"])
    refused(bf, state, "9D>D1", "not-in-hand", "BF-15")


@clause("BF-15")
@pytest.mark.parametrize("move", ["2H>B2", "P2:2H>B1", "D5:2H>B1", "2H>D5"])
def test_pile_that_does_not_exist_is_refused(bf: sm.RuleBook, move: str) -> None:
    state = position(bf, hands=["2H 9C"], payoffs=["QC", "QD"], builds=["AS"])
    refused(bf, state, move, "no-such-pile", "BF-15")


@clause("BF-15")
def test_hand_play_with_a_pile_index_agrees_with_legal_moves(bf: sm.RuleBook) -> None:
    """check_move accepts exactly the moves legal_moves lists (engine/legal.py)."""
    state = position(bf, hands=["2H 9C"], payoffs=["QC", "QD"], builds=["AS"])
    move = sm.Play(Zone.HAND, sm.parse_card("2H"), 0, index=3)
    assert sm.is_legal(bf, state, move) == (move in sm.legal_moves(bf, state))


# --- BF-16 / BF-17 winning ---------------------------------------------------------------


@clause("BF-16")
def test_last_payoff_card_wins_at_once(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["9C"], payoffs=["5H", "QD 2D"], builds=["AS 2S 3S 4S"])
    after = play(bf, state, "P:5H>B1")
    assert after.outcome is not None
    assert after.outcome.kind == "win" and after.outcome.winner == 0
    assert after.seat == 0 and after.turn == 0
    assert after.seats[0].hand == cards("9C")
    assert after.seats[0].payoff == ((),)
    assert sm.legal_moves(bf, after) == ()


@clause("BF-16")
def test_last_payoff_card_that_completes_a_pile_wins(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["9C"], payoffs=["QH", "QD"], builds=[run(11)])
    after = play(bf, state, "P:QH>B1")
    assert after.outcome is not None and after.outcome.winner == 0
    assert after.builds == ()
    assert len(after.completed) == 12


@clause("BF-16")
def test_payoff_play_that_leaves_cards_does_not_win(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["9C"], payoffs=["7H 5H", "QD"], builds=["AS 2S 3S 4S"])
    assert play(bf, state, "P:5H>B1").outcome is None


@clause("BF-17")
def test_winner_scores_five_plus_opponent_cards(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["9C"], payoffs=["5H", "QD JD 10D 9D 8D 7D 6D"],
                     builds=["AS 2S 3S 4S"])
    after = play(bf, state, "P:5H>B1")
    assert after.outcome == sm.Outcome("win", 0, (12, 0))


@clause("BF-17")
def test_winner_scores_all_opponents_cards_with_three_players(bf3: sm.RuleBook) -> None:
    state = position(bf3, hands=["", "", "9C"],
                     payoffs=["QC JC 10C", "QD JD 10D 9D 8D 7D 6D 5D 4D 3D", "5H"],
                     builds=["AS 2S 3S 4S"], seat=2)
    after = play(bf3, state, "P:5H>B1")
    assert after.outcome == sm.Outcome("win", 2, (0, 0, 5 + 3 + 10))


# --- BF-18 drawn-hand scoring ------------------------------------------------------------


@clause("BF-18")
def test_drawn_hand_fewest_scores_the_differences(bf3: sm.RuleBook) -> None:
    state = position(bf3, hands=["5H", "9S", "9S"],
                     payoffs=["QC 10C", "QD JD 10D 9D 8D", "2H 3H 4H 6H 7H 8H 9H 10H JH"],
                     builds=["AS 2S 3S 4S"], draw="", completed="")
    after = play(bf3, state, "5H>B1")
    assert after.outcome == sm.Outcome("drawn", None, (3 + 7, 0, 0))


@clause("BF-18")
def test_drawn_hand_tie_for_fewest_scores_nothing(bf3: sm.RuleBook) -> None:
    state = position(bf3, hands=["5H", "9S", "9S"],
                     payoffs=["QC 10C 9C", "QD JD 10D", "2H 3H 4H 6H 7H 8H 9H"],
                     builds=["AS 2S 3S 4S"], draw="", completed="")
    after = play(bf3, state, "5H>B1")
    assert after.outcome == sm.Outcome("drawn", None, (0, 0, 0))


# --- BF-19 match target ------------------------------------------------------------------


@clause("BF-19")
def test_match_target_is_50_and_adjustable(bf: sm.RuleBook) -> None:
    assert bf.ruleset.match_target == 50
    assert sm.load("blackwood-frey", match_target=25).ruleset.match_target == 25
    assert sm.load("blackwood-frey", match_target="100").ruleset.match_target == 100
    with pytest.raises(sm.RulesetError):
        sm.load("blackwood-frey", match_target=0)


# --- BF-20 passing -----------------------------------------------------------------------


@clause("BF-20")
def test_aces_only_with_four_piles_open_must_pass(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["AS AS AH AD AC", "9D 9H 9S 9C 10C"], payoffs=["9C", "9D"],
                     builds=FOUR_PILES)
    assert sm.legal_moves(bf, state) == (sm.Pass(),)
    after = sm.apply_move(bf, state, sm.Pass())
    assert after == evolve(state, seat=1, turn=1, idle_turns=1)


@clause("BF-20")
def test_pass_with_another_move_is_refused(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["AS AS AH AD 9C"], payoffs=["9C", "9D"], builds=FOUR_PILES)
    refused(bf, state, "pass", "pass-not-allowed", "BF-20")


@clause("BF-20")
def test_pass_with_a_play_available_is_refused(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["AS AS AH AD AC"], payoffs=["4C", "9D"], builds=FOUR_PILES)
    refused(bf, state, "pass", "pass-not-allowed", "BF-20")


# --- BF-21 blocked game ------------------------------------------------------------------


@clause("BF-21")
def test_every_seat_passing_in_a_row_blocks_the_game() -> None:
    """Two hands of aces only need 10 aces besides the 4 under the build piles, more than
    three packs hold, so this scenario uses hands of four."""
    rules = sm.load("blackwood-frey", hand_size=4)
    state = position(rules, hands=["AS AS AH AH", "AD AD AC AC"], payoffs=["9C", "9D 8D"],
                     builds=FOUR_PILES)
    after = sm.apply_move(rules, state, sm.Pass())
    assert after.outcome is None and after.seat == 1
    assert sm.legal_moves(rules, after) == (sm.Pass(),)
    after = sm.apply_move(rules, after, sm.Pass())
    assert after.outcome == sm.Outcome("blocked", None, (1, 0))


@clause("BF-21")
def test_pass_after_the_other_seat_passed_blocks(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["AS AS AH AD AC"], payoffs=["9C 8C 7C", "9D"],
                     builds=FOUR_PILES)
    state = evolve(state, idle_turns=1)
    after = sm.apply_move(bf, state, sm.Pass())
    assert after.outcome == sm.Outcome("blocked", None, (0, 2))


@clause("BF-21")
def test_pass_after_moving_a_card_is_not_idle(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["AS AH AD AC 4H", "9D 9H 9S 9C 10C"], payoffs=["9C", "9D"],
                     builds=FOUR_PILES)
    state = evolve(state, idle_turns=1)
    after = play(bf, state, "4H>B1")
    assert sm.legal_moves(bf, after) == (sm.Pass(),)
    after = sm.apply_move(bf, after, sm.Pass())
    assert after.outcome is None
    assert after.idle_turns == 0


# --- BF-22 turn limit --------------------------------------------------------------------


@clause("BF-22")
def test_turn_limit_ends_the_game() -> None:
    rules = sm.load("blackwood-frey", turn_limit=10)
    state = position(rules, hands=["5H 6H"], payoffs=["QC JC", "QD JD 10D 9D"])
    before_limit = play(rules, evolve(state, turn=8), "6H>D1")
    assert before_limit.outcome is None and before_limit.turn == 9
    after = play(rules, evolve(state, turn=9), "6H>D1")
    assert after.turn == 10
    assert after.outcome == sm.Outcome("turn-limit", None, (2, 0))


@clause("BF-22")
def test_default_turn_limit_and_whole_game_stops() -> None:
    from spitemalice.bots.players import GreedyPlayer
    from spitemalice.runs.loop import play_game

    assert sm.load("blackwood-frey").ruleset.turn_limit == 3000
    rules = sm.load("blackwood-frey", turn_limit=10)
    result = play_game(rules, [GreedyPlayer(1), GreedyPlayer(2)], seed=3)
    assert result.final.outcome is not None
    assert result.final.outcome.kind == "turn-limit"
    assert result.final.turn == 10


# --- BF-23 game over ---------------------------------------------------------------------


@clause("BF-23")
def test_no_move_after_the_game_ended(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["9C 8C", "9D"], payoffs=["5H", "QD"], builds=["AS 2S 3S 4S"])
    ended = play(bf, state, "P:5H>B1")
    assert ended.is_over
    for move in ("9C>D1", "pass", "8C>B+"):
        refused(bf, ended, move, "game-over", "BF-23")
    refused(bf, ended, "9D>D1", "game-over", "BF-23", seat=1)


@clause("BF-13")
def test_illegal_move_is_a_value_error(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["AH 9C"], payoffs=["QC", "QD"])
    with pytest.raises(ValueError, match="forbidden-discard"):
        sm.apply_move(bf, state, sm.parse_move("AH>D1"))


# --- BF-11 / BF-19 matches ---------------------------------------------------------------


@pytest.fixture(scope="module")
def short3() -> sm.RuleBook:
    """Three players with pay-off piles of 5, so that matches are quick."""
    return sm.load("blackwood-frey", players=3, payoff_size=5)


@clause("BF-11")
def test_match_rotates_the_dealer(short3: sm.RuleBook) -> None:
    from spitemalice.bots.players import GreedyPlayer
    from spitemalice.study.match import play_match

    result = play_match(short3, [GreedyPlayer(i) for i in range(3)], seed=8, target=25,
                        max_games=40)
    assert len(result.games) >= 3
    first = result.dealers[0]
    assert list(result.dealers) == [(first + g) % 3 for g in range(len(result.games))]
    assert [game.first_seat for game in result.games] == list(result.dealers)
    again = play_match(short3, [GreedyPlayer(i) for i in range(3)], seed=8, target=25,
                        max_games=40)
    assert again.dealers == result.dealers and again.totals == result.totals


@clause("BF-19")
def test_match_is_played_to_the_rule_sets_target() -> None:
    from spitemalice.bots.players import GreedyPlayer
    from spitemalice.study.match import play_match

    rules = sm.load("blackwood-frey", players=3, payoff_size=5, match_target=25)
    result = play_match(rules, [GreedyPlayer(i) for i in range(3)], seed=3, max_games=40)
    assert result.winner is not None
    assert result.totals[result.winner] == max(result.totals) >= 25
    last = result.games[-1].final.outcome
    assert last is not None
    before_last = [t - s for t, s in zip(result.totals, last.scores, strict=True)]
    assert max(before_last) < 25, "the match went on after the target was reached"


@clause("BF-8")
def test_a_recycle_too_small_for_the_draw_is_a_short_draw_without_duplicating_cards(
    bf: sm.RuleBook,
) -> None:
    """Regression: completed cards recycled into a draw that still falls short must leave
    state.completed (they were once counted twice); the seat takes the two and plays on."""
    from collections import Counter

    state = position(bf, hands=["9C"], payoffs=["QC 5H"], builds=["AH"], draw="",
                     completed="AD 2D")
    after = sm.apply_move(bf, state, sm.parse_move("9C>D1"))
    assert after.outcome is None and after.seat == 1
    assert after.completed == () and after.draw == ()
    assert Counter(after.seats[1].hand) == Counter(cards("AD 2D"))
    assert Counter(after.all_cards()) == Counter(state.all_cards())


@clause("BF-8")
def test_a_short_draw_takes_what_is_left_and_the_seat_plays_on(bf: sm.RuleBook) -> None:
    """Dossier §11 scenario 5, edge S=3: the hand empties mid-turn, three cards are left; the
    seat draws the three and goes on; the game ends only at a draw that finds no card."""
    state = position(bf, hands=["5H"], payoffs=["9C 8C", "9D 8D 7D 6D 5D"],
                     builds=["AS 2S 3S 4S"], draw="7S 6S 10C", completed="")
    after = play(bf, state, "5H>B1")
    assert after.outcome is None and after.seat == 0
    assert Counter(after.seats[0].hand) == Counter(cards("7S 6S 10C")) and after.draw == ()
    for move in ("6S>B1", "7S>B1", "10C>D1"):
        after = play(bf, after, move)
    assert after.seat == 1 and after.outcome is not None
    assert after.outcome.kind == "drawn" and after.outcome.scores == (3, 0)


@clause("BF-22")
def test_a_turn_that_reaches_the_limit_in_moves_ends_the_game() -> None:
    rules = sm.load("blackwood-frey", turn_limit=10)
    state = position(rules, hands=["AH 2H 3H 4H 5H"], payoffs=["QC 9D", "QD"],
                     builds=[run(8)])
    state = sm.GameState(state.seats, state.builds, state.draw, (), turn_moves=9)
    after = sm.apply_move(rules, state, sm.parse_move("AH>B+"))
    assert after.outcome is not None and after.outcome.kind == "turn-limit"
    assert after.turn == 0 and after.turn_moves == 10


@clause("BF-12")
def test_an_empty_discard_pile_cites_the_discard_clause(bf: sm.RuleBook) -> None:
    state = position(bf, hands=["9C"], payoffs=["QH"], builds=["AS 2S 3S"])
    refused(bf, state, "D1:4S>B1", "empty-pile", "BF-12")

"""spitemalice.engine.hands: finding a card by identity and placing a drawn card give what
tuple.index, removal, dict.fromkeys and bisect_right with the hand's order give (the engine
used those)."""

from __future__ import annotations

from bisect import bisect_right

from hypothesis import given
from hypothesis import strategies as st

from spitemalice.cards import Card
from spitemalice.engine.hands import (
    distinct_cards,
    insert_place,
    missing_card,
    place_of,
    without,
)
from spitemalice.model import hand_order, sort_hand

# ranks 0 (jokers) to 13 in every suit a deck uses, and numbered Skip-Bo-style cards
CARDS = st.one_of(
    st.builds(Card, st.integers(1, 13), st.sampled_from("SHDC")),
    st.just(Card(0)), st.just(Card(0, "SB")), st.builds(Card, st.integers(1, 12)))
HANDS = st.lists(CARDS, max_size=8).map(sort_hand)


@given(HANDS, CARDS)
def test_place_of_is_the_index_or_minus_one(hand: tuple[Card, ...], card: Card) -> None:
    expected = hand.index(card) if card in hand else -1
    assert place_of(hand, card) == expected


@given(HANDS, st.lists(CARDS, max_size=3))
def test_without_takes_one_of_each_card_or_says_none(hand: tuple[Card, ...],
                                                     cards: list[Card]) -> None:
    rest = list(hand)
    for card in cards:
        if card not in rest:
            assert without(hand, tuple(cards)) is None
            return
        rest.remove(card)
    assert without(hand, tuple(cards)) == tuple(rest)


@given(HANDS, CARDS)
def test_insert_place_keeps_the_hand_sorted_as_bisect_does(hand: tuple[Card, ...],
                                                           card: Card) -> None:
    at = insert_place(hand, card)
    assert at == bisect_right(hand, hand_order(card), key=hand_order)
    assert (*hand[:at], card, *hand[at:]) == sort_hand((*hand, card))


@given(HANDS, st.lists(CARDS, max_size=3))
def test_missing_card_is_the_first_card_removal_would_not_find(hand: tuple[Card, ...],
                                                               cards: list[Card]) -> None:
    rest, expected = list(hand), None
    for card in cards:
        if card not in rest:
            expected = card
            break
        rest.remove(card)
    assert missing_card(hand, tuple(cards)) is expected


@given(HANDS)
def test_distinct_cards_is_the_hand_with_each_card_once(hand: tuple[Card, ...]) -> None:
    assert distinct_cards(hand) == tuple(dict.fromkeys(hand))

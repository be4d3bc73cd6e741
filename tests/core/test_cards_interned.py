"""Cards are interned: every card value is one object, however it was made (constructor,
parser, JSON, position notation, deck, pickle, copy), so equality is identity and the engine
can hash and compare cards in C.  The public behaviour of a card is that of a value."""

from __future__ import annotations

import copy
import gc
import pickle
import subprocess
import sys

import attrs
from hypothesis import given
from hypothesis import strategies as st

import spitemalice as sm
from spitemalice.cards import SKIP_BO, Card, parse_card, parse_cards, standard_pack
from spitemalice.formats import dumps_state, format_position, loads_state, parse_position

ranks = st.integers(min_value=0, max_value=10**30)
suits = st.sampled_from(["", "S", "H", "D", "C", "SB"])


@given(rank=ranks, suit=suits)
def test_equal_values_are_one_object_and_behave_as_values(rank: int, suit: str) -> None:
    card = Card(rank, suit)
    assert Card(rank, suit) is card and Card(rank=rank, suit=suit) is card
    assert card == Card(rank, suit) and hash(card) == hash(Card(rank, suit))
    assert (card.rank, card.suit) == (rank, suit)
    assert attrs.evolve(card) is card
    other = Card(rank + 1, suit)
    assert other != card and other is not card
    assert (card < other) and (other > card) and card <= card and card >= card


def test_cards_parsed_independently_are_the_same_object() -> None:
    first, second = parse_card("qs"), parse_card(" QS ")
    assert first is second is Card(12, "S") and first == second
    assert parse_cards("10H, 10h")[0] is parse_cards("10H 10h")[1]
    assert parse_card("SB") is SKIP_BO is Card(0, "SB")
    assert parse_card("*") is Card(0) and parse_card("15") is Card(15)
    assert standard_pack(1)[0] is parse_card("AS") and standard_pack(1)[-1] is parse_card("*")
    assert attrs.evolve(first, suit="H") is parse_card("QH")


def test_states_read_from_json_and_notation_hold_the_same_card_objects() -> None:
    rules = sm.load("blackwood-frey")
    state = sm.deal(rules, 3)
    for again in (loads_state(dumps_state(state), rules),
                  parse_position(format_position(state), rules)):
        assert again == state
        assert all(a is b for a, b in zip(again.draw, state.draw, strict=True))
        assert again.seats[1].hand[0] is state.seats[1].hand[0]


def test_pickled_and_copied_cards_are_interned() -> None:
    card = parse_card("7D")
    assert pickle.loads(pickle.dumps(card)) is card
    assert pickle.loads(pickle.dumps((card, [card]), protocol=2))[1][0] is card
    assert copy.copy(card) is card and copy.deepcopy({"c": [card]})["c"][0] is card
    state = sm.deal(sm.load("blackwood-frey"), 5)
    assert copy.deepcopy(state).draw[0] is state.draw[0]
    assert pickle.loads(pickle.dumps(state)).draw[-1] is state.draw[-1]


def test_a_card_unpickled_in_another_process_is_that_process_s_own_card() -> None:
    # What forked workers and a Dask cluster do: unpickle cards made elsewhere.
    code = ("import pickle, sys; from spitemalice.cards import parse_card; "
            "cards = pickle.loads(sys.stdin.buffer.read()); "
            "print(cards[0] is parse_card('KC'), cards[0] is cards[1], cards[2] is "
            "parse_card('9'))")
    data = pickle.dumps([parse_card("KC"), Card(13, "C"), Card(9)])
    done = subprocess.run([sys.executable, "-c", code], input=data, capture_output=True,
                          check=True)
    assert done.stdout.decode().split() == ["True", "True", "True"]


def test_a_card_no_longer_held_leaves_the_table() -> None:
    from spitemalice import cards

    rank = 10**75 + 12345  # a numbered card nothing else holds
    key = (Card, rank, "")
    card = Card(rank)
    assert cards._INTERNED[key]() is card
    del card
    gc.collect()
    assert key not in cards._INTERNED
    assert Card(rank) is Card(rank)  # a new card of that value is again the only one


def test_cards_stay_frozen_attrs_values() -> None:
    card = parse_card("JH")
    assert [field.name for field in attrs.fields(Card)] == ["rank", "suit"]
    assert attrs.asdict(card) == {"rank": 11, "suit": "H"} and repr(card) == "Card('JH')"
    try:
        card.rank = 2  # type: ignore[misc]
    except attrs.exceptions.FrozenInstanceError:
        pass
    else:
        raise AssertionError("a card accepted a new rank")
    assert card.rank == 11 and card != "JH" and card != (11, "H")

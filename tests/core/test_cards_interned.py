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
import pytest
from hypothesis import given
from hypothesis import strategies as st

import spitemalice as sm
from spitemalice.cards import SKIP_BO, Card, parse_card, parse_cards, standard_pack
from spitemalice.formats import dumps_state, format_position, loads_state, parse_position

# (rank, suit) pairs whose next rank up is a card too: suited A-Q, jokers and numbered cards
values = st.one_of(
    st.tuples(st.integers(min_value=1, max_value=12), st.sampled_from(["S", "H", "D", "C"])),
    st.tuples(st.integers(min_value=0, max_value=10**30), st.just("")))


@given(value=values)
def test_equal_values_are_one_object_and_behave_as_values(value: tuple[int, str]) -> None:
    rank, suit = value
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


# Values no notation writes: Card(14, "S") would print as 14S, which no record or state file
# reads back (and a deck holding it would deal and play).
@pytest.mark.parametrize(("rank", "suit", "error", "match"), [
    (14, "S", sm.SpiteMaliceError, r"rank is 1 \(the ace\) to 13.*not 14.*Card\(14\)"),
    (0, "H", sm.SpiteMaliceError, r"not 0; a joker is Card\(0\)"),
    (5, "SB", sm.SpiteMaliceError, r"SKIP-BO card is Card\(0, 'SB'\), not rank 5"),
    (3, "X", sm.SpiteMaliceError, r"suit is one of S H D C.*not \"X\""),
    (3, "s", sm.SpiteMaliceError, r"suit is one of S H D C.*not \"s\""),
    (5, "?", sm.SpiteMaliceError, r"suit is one of S H D C"),
    (-1, "", sm.SpiteMaliceError, r"rank is a whole number from 0 to .*not -1"),
    (10**81, "", sm.SpiteMaliceError, r"rank is a whole number from 0 to .*digits"),
    (True, "S", TypeError, r"rank is a whole number .*not true"),
    (1.0, "", TypeError, r"rank is a whole number .*not 1\.0"),
    ("Q", "S", TypeError, r"rank is a whole number .*not \"Q\""),
    (12, 3, TypeError, r"suit is text.*not 3"),
])
def test_values_no_notation_writes_are_refused(rank: object, suit: object,
                                                error: type[Exception], match: str) -> None:
    from spitemalice import cards

    before = dict(cards._INTERNED)
    with pytest.raises(error, match=match):
        Card(rank, suit)  # type: ignore[arg-type]
    assert before == cards._INTERNED  # nothing was entered


@given(rank=st.integers(min_value=0, max_value=10**20), suit=st.sampled_from(
    ["", "S", "H", "D", "C", "SB"]))
def test_every_card_made_is_one_its_text_reads_back(rank: int, suit: str) -> None:
    try:
        card = Card(rank, suit)
    except sm.SpiteMaliceError:
        assert (suit in "SHDC" and suit and not 1 <= rank <= 13) or (suit == "SB" and rank)
        return
    assert parse_card(str(card)) is card


def test_the_seat_views_face_down_card_and_numpy_ranks_are_cards() -> None:
    import numpy as np

    from spitemalice.engine.views import HIDDEN

    assert Card(HIDDEN.rank, HIDDEN.suit) is HIDDEN
    assert Card(np.int64(12), "S") is parse_card("QS")
    assert type(Card(np.int16(77)).rank) is int and Card(np.int16(77)) is Card(77)

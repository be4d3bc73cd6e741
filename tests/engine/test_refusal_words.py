"""An illegal move's refusal says what was wrong and what would be right, and the state is
left as it was (a fresh user's try-out: ``KH+KH>D1`` with one KH said "KH is not in the
hand", ``AC>B1`` with no build pile said "there is no build pile 1", ``D1:9C>D2`` said
"'D1:9C' is not a card")."""

from __future__ import annotations

import pytest
from helpers.positions import position

import spitemalice as sm


def _refusal(rules: sm.RuleBook, state: sm.GameState, text: str) -> sm.IllegalMove:
    with pytest.raises(sm.IllegalMove) as refused:
        sm.apply_move(rules, state, sm.parse_move(text))
    return refused.value


def test_a_pair_that_names_one_held_card_twice_says_so() -> None:
    rules = sm.load("blackwood-frey", ["pair-discards"])
    state = position(rules, hands=["KH KS 9C"])
    error = _refusal(rules, state, "KH+KH>D1")
    assert error.reason == "not-in-hand" and error.clause == "BF-15"
    assert ("the pair names KH twice, but the hand holds only one KH: a pair is two hand "
            "cards of equal rank, such as 9H+9S") in str(error)
    assert "KH is not in the hand" in str(_refusal(rules, position(rules, hands=["9C"]),
                                                   "KH+KH>D1"))
    two = position(rules, hands=["KH KH 9C"])
    assert sm.apply_move(rules, two, sm.parse_move("KH+KH>D1")).seats[0].discards[0]


def test_two_cards_where_a_discard_is_one_says_one_hand_card() -> None:
    rules = sm.load("blackwood-frey")
    error = _refusal(rules, position(rules, hands=["KH KS"]), "KH+KS>D1")
    assert "a discard here is one hand card, not 2" in str(error)


@pytest.mark.parametrize(("builds", "text", "words"), [
    ((), "AC>B1", "there is no build pile 1 yet: no build pile is open yet; a card opens a "
                  "new one as AC>B+"),
    (("A",), "2C>B2", "there is no build pile 2: only build pile 1 is open; a card opens a "
                      "new one as 2C>B+"),
    (("A 2", "A"), "AC>B3", "build piles 1 to 2 are open; a card opens a new one as AC>B+"),
    (("A", "A", "A", "A"), "AC>B5", "there is no build pile 5: build piles 1 to 4 are open, "
                                    "the most allowed"),
])
def test_a_build_pile_not_there_says_which_are_and_how_to_open_one(
        builds: tuple[str, ...], text: str, words: str) -> None:
    rules = sm.load("blackwood-frey")
    piles = [" ".join(f"{rank}{suit}" for rank in pile.split()) for pile, suit in
             zip(builds, "SDHS", strict=False)]
    state = position(rules, hands=["AC 2C 9C"], builds=piles)
    error = _refusal(rules, state, text)
    assert error.reason == "no-such-pile" and words in str(error), str(error)


@pytest.mark.parametrize(("text", "never"), [
    ("D1:9C>D2", "cards never move from one discard pile to another"),
    ("P:9C>D2", "a card never moves from a pay-off pile to a discard pile"),
])
def test_a_discard_from_a_pile_says_discards_come_from_the_hand(text: str, never: str) -> None:
    with pytest.raises(sm.NotationError) as refused:
        sm.parse_move(text)
    assert refused.value.reason == "discard-from-pile"
    assert f"move {text!r}: {never}: cards go to discard piles only from the hand (discard a " \
           f"hand card, as 9C>D2)" in str(refused.value)
    assert f"{text.split('>')[0]}>B1" in str(refused.value)


@pytest.mark.parametrize(("text", "move"), [
    ("AC > B+", "AC>B+"),
    ("  ac>  b+ ", "AC>B+"),
    ("9H + 9S > D2", "9H+9S>D2"),
    ("D3 : 9H > B1", "D3:9H>B1"),
    ("P : 9H\t>\tB1", "P:9H>B1"),
    ("S2 . D3 : 9H > B1", "S2.D3:9H>B1"),
    ("9H > S2 . D1", "9H>S2.D1"),
])
def test_spaces_around_the_parts_of_a_move_are_read_as_absent(text: str, move: str) -> None:
    """``AC > B+`` was refused ("the target is B<n>, B+ or D<n>, not ' B+'")."""
    assert str(sm.parse_move(text)) == move


@pytest.mark.parametrize(("text", "words"), [
    ("AC>B 1", "pile numbers are 1, 2, 3 ..., not ' 1'"),
    ("10 H>B1", "'10 H' is not a card"),
    ("9H 9S>D2", "'9H 9S' is not a card"),
])
def test_spaces_inside_a_part_are_refused_naming_the_part(text: str, words: str) -> None:
    with pytest.raises(sm.NotationError) as refused:
        sm.parse_move(text)
    assert words in str(refused.value)

"""An illegal move's refusal says what was wrong and what would be right, and the state is
left as it was (a fresh user's try-out: ``KH+KH>D1`` with one KH said "KH is not in the
hand", ``AC>B1`` with no build pile said "there is no build pile 1", ``D1:9C>D2`` said
"'D1:9C' is not a card")."""

from __future__ import annotations

import re

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
    assert "a discard here is one hand card, not 2; discard KH>D1 or KS>D1" in str(error)


@pytest.mark.parametrize(("hand", "text", "words"), [
    ("KH KS 9C", "KH+KH>D1", "a discard here is one hand card, not 2; discard KH>D1 ["),
    ("9C", "KH+KH>D1", "not 2; KH>D1 is not legal either: that card is not in the hand ["),
    ("KH 9C", "KH+KH>D9", "not 2; KH>D9 is not legal either: there is no such pile ["),
])
def test_a_pair_where_a_discard_is_one_card_offers_the_single_discard_only_if_legal(
        hand: str, text: str, words: str) -> None:
    """A fresh user's ``KH+KH>D1`` without pair discards was told only that a discard is one
    card: it now names the single discard ``KH>D1`` where that is legal, and otherwise says
    plainly why that is refused too."""
    rules = sm.load("blackwood-frey")
    state = position(rules, hands=[hand])
    error = _refusal(rules, state, text)
    assert error.reason == "discard-count" and words in str(error), str(error)
    for offered in str(error).partition("; discard ")[2].partition(" [")[0].split(" or "):
        if offered:
            assert sm.is_legal(rules, state, sm.parse_move(offered))


def test_three_cards_where_a_discard_is_a_pair_offers_the_legal_pairs_once() -> None:
    rules = sm.load("blackwood-frey", ["pair-discards"])
    error = _refusal(rules, position(rules, hands=["KH KS KD 9C"]), "KH+KS+KD>D1")
    assert ("a discard here is 1 to 2 hand cards, not 3; discard KH+KD>D1, KS+KD>D1 or "
            "KH+KS>D1 [") in str(error), str(error)


@pytest.mark.parametrize(("builds", "text", "words"), [
    ((), "AC>B1", "there is no build pile 1 yet: no build pile is open yet; AC opens a new one "
                  "as AC>B+ ["),
    ((), "2C>B1", "there is no build pile 1 yet: no build pile is open yet; 2C cannot open one "
                  "now ["),
    (("A",), "2C>B2", "there is no build pile 2: only build pile 1 is open; 2C goes on as "
                      "2C>B1 ["),
    (("A 2", "A"), "AC>B3", "build piles 1 to 2 are open; AC opens a new one as AC>B+ ["),
    (("A 2", "A"), "9C>B3", "build piles 1 to 2 are open; 9C goes on none of them now, and "
                            "cannot open a new one ["),
    (("A", "A", "A", "A"), "AC>B5", "there is no build pile 5: build piles 1 to 4 are open, "
                                    "the most allowed; AC goes on none of them now ["),
    (("A", "A", "A", "A"), "2C>B5", "the most allowed; 2C goes on as 2C>B1, 2C>B2, 2C>B3 or "
                                    "2C>B4 ["),
])
def test_a_build_pile_not_there_says_which_are_and_where_the_card_may_go(
        builds: tuple[str, ...], text: str, words: str) -> None:
    """``2C>B2`` with only build pile 1 open offered ``2C>B+``, which no 2 may do: the moves
    offered are legal ones (checked below), or the refusal says the card may go nowhere."""
    rules = sm.load("blackwood-frey")
    piles = [" ".join(f"{rank}{suit}" for rank in pile.split()) for pile, suit in
             zip(builds, "SDHS", strict=False)]
    state = position(rules, hands=["AC 2C 9C"], builds=piles)
    error = _refusal(rules, state, text)
    assert error.reason == "no-such-pile" and words in str(error), str(error)
    for offered in re.findall(r"\b\w+>B[0-9+]+", str(error).partition(": ")[2]):
        assert sm.is_legal(rules, state, sm.parse_move(offered)), offered


@pytest.mark.parametrize(("text", "never"), [
    ("D1:9C>D2", "cards never move from one discard pile to another"),
    ("P:9C>D2", "a card never moves from a pay-off pile to a discard pile"),
    ("S1.D1:9C>D2", "cards never move from one discard pile to another"),
])
def test_a_discard_from_a_pile_says_discards_come_from_the_hand(text: str, never: str) -> None:
    """The text alone does not say what the hand holds: the forms are written with their
    parts named, never as a move with the typed card (``9C>D2`` was offered, 9C perhaps in
    no hand; a session adds the legal moves, tests/play/test_play_session.py)."""
    with pytest.raises(sm.NotationError) as refused:
        sm.parse_move(text)
    assert refused.value.reason == "discard-from-pile"
    head = text.partition(":")[0]
    pile = "a pay-off pile" if head == "P" else "a discard pile"
    assert str(refused.value) == (
        f"move {text!r}: {never}: cards go to discard piles only from the hand (a discard is "
        f"written <hand card>>D2); the top of {pile} goes only to a build pile (written "
        f"{head}:<its top card>>B<n>, or >B+ to open one)")
    assert "9C>" not in str(refused.value).partition("': ")[2]  # past the move typed


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
    ("AC>B 1", "'B 1': no space inside a part; write B1"),
    ("P:KS>B +", "'B +': no space inside a part; write B+"),
    ("P 2:KS>B1", "'P 2': no space inside a part; write P2"),
    ("9H>D 2", "'D 2': no space inside a part; write D2"),
    ("S 2.D3:9H>B1", "'S 2': no space inside a part; write S2"),
    ("10 H>B1", "'10 H': no space inside a part; write 10H"),
    ("9H 9S>D2", "'9H 9S': no space inside a part; write 9H+9S"),
])
def test_spaces_inside_a_part_are_refused_naming_the_part(text: str, words: str) -> None:
    """``P:KS>B +`` was read as ``P:KS>B+`` (the ``+`` taken for a separator) and
    ``AC>B 1`` was refused as "pile numbers are 1, 2, 3 ..., not ' 1'", not naming the
    space; every space inside a part is now refused, saying so."""
    with pytest.raises(sm.NotationError) as refused:
        sm.parse_move(text)
    assert words in str(refused.value)


def test_the_shared_reader_of_spaces_refuses_what_is_no_text() -> None:
    """:func:`spitemalice.unspaced_move`, shared by every parser of move texts (Spit's
    too), is a door of its own."""
    assert sm.unspaced_move(" 9H + 9S > D2 ", "'9H>D2'") == "9H+9S>D2"
    with pytest.raises(TypeError, match=r"unspaced_move takes a move's text \(a str\), not int"):
        sm.unspaced_move(5, "'9H>D2'")  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "extra", "move"), [
    ("9H > B1 extra", "extra", "9H>B1"),
    ("9H>B1\npass", "pass", "9H>B1"),
    ("9H>B1 9S>B2", "9S>B2", "9H>B1"),
    ("9H>S2.D1 x", "x", "9H>S2.D1"),
    ("pass now", "now", "pass"),
])
def test_text_after_a_whole_move_is_refused_naming_it(text: str, extra: str,
                                                      move: str) -> None:
    """``9H > B1 extra`` was refused as "'B1 extra': no space inside a part; write
    B1extra" and ``9H>B1\\npass`` as "write B1pass": text after a whole move is named as
    such."""
    with pytest.raises(sm.NotationError) as refused:
        sm.parse_move(text)
    assert (f"unexpected text {extra!r} after the move {move!r}: write one move at a time"
            in str(refused.value))


def test_a_space_inside_a_target_number_is_still_joined() -> None:
    with pytest.raises(sm.NotationError, match="'B1 0': no space inside a part; write B10"):
        sm.parse_move("9H>B1 0")


@pytest.mark.parametrize("text", ["9H + 9S>C1", "9H+9S>C1", "9H 9S>C1"])
def test_without_pairs_two_cards_are_shown_as_one_card(text: str) -> None:
    """With ``pairs=False`` (Spit's parser) ``9H + 9S`` was joined to ``9H+9S``, which the
    parser then refused as no card; it is refused here, naming the one card to write."""
    with pytest.raises(sm.NotationError, match="write one card, 9H or 9S"):
        sm.unspaced_move(text, "'9H>C1'", pairs=False)
    assert sm.unspaced_move("9H + 9S > D2", "'9H>D2'") == "9H+9S>D2"


@pytest.mark.parametrize(("forms", "pairs", "words"), [
    (5, True, "move forms a refusal shows (a str"),
    (None, True, "move forms a refusal shows (a str"),
    ("'9H>B2'", "no", "pairs as True or False, not str"),
])
def test_the_shared_reader_of_spaces_checks_its_forms_and_pairs(forms: object, pairs: object,
                                                                words: str) -> None:
    with pytest.raises(TypeError, match=re.escape(words)):
        sm.unspaced_move("9H>B1", forms, pairs)  # type: ignore[arg-type]

"""A refusal names a rank as the deck's cards write it, as the terminal table does: ``A``,
``Q``, ``K`` in standard packs, the bare number in a numbered deck (Skip-Bo's 1 is no ace).
The refusal said "the pile needs rank 1, not 5H" while the table beside it said "needs A"."""

from __future__ import annotations

import pytest
from helpers.positions import position

import spitemalice as sm
from spitemalice.engine.invariants import check_state

BF = sm.load("blackwood-frey")
SK = sm.load("skip-bo")
TO_J = "AS 2H 3C 4D 5S 6H 7C 8D 9S 10H JC"
"""A blackwood-frey build pile that needs a queen, its build ceiling."""


def _refusal(rules: sm.RuleBook, state: sm.GameState, text: str) -> str:
    with pytest.raises(sm.IllegalMove) as refused:
        sm.check_move(rules, state, sm.parse_move(text))
    return str(refused.value)


@pytest.mark.parametrize(("rules", "rank", "name"), [
    (BF, 1, "A"), (BF, 10, "10"), (BF, 11, "J"), (BF, 12, "Q"), (BF, 13, "K"),
    (SK, 1, "1"), (SK, 11, "11"), (SK, 12, "12"), (SK, 0, "SB"),
    (sm.load("hasbro"), 13, "13"), (sm.load("hasbro"), 0, "*"),
])
def test_a_rank_is_named_as_the_decks_cards_write_it(rules: sm.RuleBook, rank: int,
                                                     name: str) -> None:
    assert rules.deck.rank_name(rank) == name


@pytest.mark.parametrize("rank", [-1, True, 1.0, "1", None])
def test_a_rank_that_is_no_whole_number_of_0_or_more_is_refused(rank: object) -> None:
    with pytest.raises(sm.SpiteMaliceError, match=r"rank \(0 for a joker, 1 or more\) is a "
                                                  r"whole number from 0"):
        BF.deck.rank_name(rank)  # type: ignore[arg-type]


@pytest.mark.parametrize(("rules", "builds", "text", "words"), [
    (BF, (), "5H>B+", "the pile needs an A, not 5H"),
    (BF, (TO_J,), "5H>B1", "the pile needs a Q, not 5H"),
    (BF, ("AS 2H 3C 4D 5S 6H 7C 8D 9S",), "5H>B1", "the pile needs a 10, not 5H"),
    (BF, ("AS 2H 3C 4D 5S 6H 7C",), "5H>B1", "the pile needs an 8, not 5H"),
    # A numbered deck's refusal names the bare number: Skip-Bo's 1 is no ace.
    (SK, (), "5>B+", "the pile needs a 1, not 5"),
    (SK, ("1 2 3 4 5 6 7 8 9 10 11",), "5>B1", "the pile needs a 12, not 5"),
])
def test_a_refusal_names_the_rank_the_pile_needs_as_the_deck_does(
        rules: sm.RuleBook, builds: tuple[str, ...], text: str, words: str) -> None:
    state = position(rules, hands=["5H 9C" if rules is BF else "5 9"], builds=builds)
    assert words in _refusal(rules, state, text)


def test_a_wild_card_refusal_names_the_rank_it_may_not_stand_for() -> None:
    rules = sm.load("blackwood-frey", ["wild-must-be-covered"])
    state = position(rules, hands=["KH 9C"], builds=[TO_J])
    assert "a wild card may not stand for a Q here" in _refusal(rules, state, "KH>B1")


def test_a_position_refusal_names_ranks_as_the_deck_does() -> None:
    with pytest.raises(sm.PositionError, match="3H, which cannot stand for rank 2: a build "
                                               "pile rises from A by one rank at a time"):
        sm.parse_position("9H:5H:-|-|-|-/2S:-:-|-|-|- AH,3H - - on=0", BF)
    with pytest.raises(sm.PositionError, match="QH, which cannot stand for rank J"):
        sm.parse_position("9H:5H:-|-|-|-/2S:-:-|-|-|- AH,2H,3H,4H,5H,6H,7H,8H,9H,10H,QH "
                          "- - on=0", BF)
    with pytest.raises(sm.PositionError, match="an open build pile stands at rank A to J"):
        sm.parse_position("9H:5H:-|-|-|-/2S:-:-|-|-|- AH,2H,3H,4H,5H,6H,7H,8H,9H,10H,JH,QH "
                          "- - on=0", BF)


def test_an_invariant_problem_names_ranks_as_the_deck_does() -> None:
    state = position(BF, hands=["9C"], builds=["AS 2H 3C 4D 5S 6H 7C 8D 9S 10H QC"])
    assert "build pile 1: QC cannot stand for rank J" in check_state(BF, state)
    full = position(BF, hands=["9C"], builds=[TO_J + " QS"])
    assert any("stands at rank Q with 12 cards; it must stand at rank A to J" in problem
               for problem in check_state(BF, full))
    numbered = position(SK, hands=["9"], builds=["1 2 3 4 5 6 7 8 9 10 11 12"])
    assert any("stands at rank 12 with 12 cards; it must stand at rank 1 to 11" in problem
               for problem in check_state(SK, numbered))

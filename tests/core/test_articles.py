"""The article before a value a message did not choose agrees with its sound
(:func:`spitemalice.wording.a_or_an`): "a AC may not be discarded" read wrong."""

from __future__ import annotations

import argparse

import attrs
import pytest
from helpers.positions import position

import spitemalice as sm
from spitemalice.cli.play import _resumed
from spitemalice.guards import check_list
from spitemalice.rules.sheet import wild_rule
from spitemalice.wording import a_or_an


@pytest.mark.parametrize(("text", "said"), [
    ("AC", "an AC"), ("8H", "an 8H"), ("11", "an 11"), ("18", "an 18"), ("8", "an 8"),
    ("A", "an A"), ("KH", "a KH"), ("10S", "a 10S"), ("2", "a 2"), ("SB", "a SB"),
    ("ace", "an ace"), ("eight", "an eight"), ("undo", "an undo"), ("unqueue", "an unqueue"),
    ("move", "a move"), ("int", "an int"), ("str", "a str"), ("Outcome", "an Outcome"),
    ("one", "a one"), ("unit", "a unit"), ("80", "an 80"), ("11000", "an 11000"),
    ("1100", "a 1100"), ("house-rule", "a house-rule"), ("ruleset", "a ruleset"),
])
def test_the_article_agrees_with_the_sound(text: str, said: str) -> None:
    assert a_or_an(text) == said


def test_a_forbidden_discard_of_an_ace_says_an() -> None:
    bf = sm.load("blackwood-frey")
    state = position(bf, hands=["AC 9C"])
    with pytest.raises(sm.IllegalMove) as refused:
        sm.check_move(bf, state, sm.parse_move("AC>D1"))
    assert "an AC may not be discarded" in str(refused.value)


def test_a_wild_ace_on_the_sheet_says_an() -> None:
    rules = sm.load("blackwood-frey").ruleset
    sentence = wild_rule(attrs.evolve(rules, wild_ranks=frozenset({1})))
    assert "an ace stands for" in sentence and "a ace" not in sentence


def test_a_type_name_after_not_says_an() -> None:
    with pytest.raises(TypeError, match=r"not an enumerate \(it has no length"):
        check_list(enumerate([]), "f", "moves, a list of moves,", "[]")


@pytest.mark.parametrize(("flags", "said"), [
    ({"seed": 3}, "--seed applies to a new game only"),
    ({"seed": 3, "players": 3}, "--players, --seed apply to a new game only"),
])
def test_resume_with_new_game_flags_agrees_with_their_count(flags: dict[str, object],
                                                             said: str) -> None:
    given = {"ruleset": None, "house_rule": None, "settings": None, "players": None,
             "seed": None, "resume": "game.json", **flags}
    with pytest.raises(sm.SpiteMaliceError, match=f"{said}$"):
        _resumed(argparse.Namespace(**given))


def test_a_forbidden_discard_of_a_joker_names_it() -> None:
    """A joker's text is ``*``: "a * may not be discarded" read as a symbol, not a card."""
    assert a_or_an("*") == "a joker (*)"
    rules = sm.load("blackwood-frey", jokers=6, discard_forbidden="0,1")
    state = position(rules, hands=["* 9C"])
    with pytest.raises(sm.IllegalMove) as refused:
        sm.check_move(rules, state, sm.parse_move("*>D1"))
    assert "*>D1: a joker (*) may not be discarded" in str(refused.value)

"""Plugins given directly to RuleBook.from_plugins and load_plugins: anything that is not a
plugin is refused by name, before anything is registered.  pluggy registers any object, so a
house rule's name given as a str was a plugin with no hooks, the rule silently not applied."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import spitemalice as sm
from spitemalice.rules.loader import load_plugins

BF = sm.load_plugin("blackwood-frey")
PAIRS = sm.load_plugin("pair-discards")
TAKES = ("RuleBook.from_plugins takes house_rules[0], a house-rule plugin (a module or an "
         "object with hook implementations, what spitemalice.load_plugin(name) returns), not ")


def test_a_house_rule_name_is_refused_saying_how_to_load_it() -> None:
    with pytest.raises(TypeError) as raised:
        sm.RuleBook.from_plugins(BF, ["pair-discards"], {})
    assert str(raised.value) == (
        TAKES + 'the str "pair-discards", a plugin\'s name: '
        'spitemalice.load_plugin("pair-discards"), or spitemalice.load(rule_set, '
        'house_rules=["pair-discards"]), which takes names')


def test_a_rule_set_name_is_refused_saying_how_to_load_it() -> None:
    with pytest.raises(TypeError) as raised:
        sm.RuleBook.from_plugins("blackwood-frey", [], {})
    assert str(raised.value) == (
        "RuleBook.from_plugins takes variant, a rule-set plugin (a module or an object with "
        "hook implementations, what spitemalice.load_plugin(name) returns), not the str "
        '"blackwood-frey", a plugin\'s name: spitemalice.load_plugin("blackwood-frey"), or '
        'spitemalice.load("blackwood-frey"), which takes names')


def test_a_bare_str_for_house_rules_is_refused() -> None:
    with pytest.raises(TypeError, match=r'^RuleBook\.from_plugins takes house_rules, a list of '
                       r'house-rule plugins, e\.g\. \[spitemalice\.load_plugin\("pair-discards"'
                       r'\)\], not the str "pair-discards"$'):
        sm.RuleBook.from_plugins(BF, "pair-discards", {})


@pytest.mark.parametrize(("given", "says"), [
    (42, "the int 42"), (None, "None"), (True, "the bool true"), (2.5, "the float 2.5"),
    (b"pair-discards", "the bytes b'pair-discards'"), (Path("x.py"), "a path (PosixPath)"),
    ({"NAME": "x"}, "dict"), (["pair-discards"], "list"),
    (sm.load("blackwood-frey"), "RuleBook: a rule book's plugins are book.plugin(name), for "
                                "each of book.plugins"),
])
def test_a_value_no_plugin_is_is_refused(given: Any, says: str) -> None:
    with pytest.raises(TypeError) as raised:
        sm.RuleBook.from_plugins(BF, [PAIRS, given])
    assert str(raised.value) == TAKES.replace("[0]", "[1]") + says


def test_the_second_member_of_the_example_is_named() -> None:
    with pytest.raises(TypeError, match=r"house_rules\[0\].*not the int 42$"):
        sm.RuleBook.from_plugins(BF, [42, None])


def test_a_plugin_class_is_refused_saying_to_make_one() -> None:
    class Rule:
        NAME, KIND = "rule", "house-rule"

    with pytest.raises(TypeError, match=r"not the class Rule: make its plugin object, Rule\(\)"):
        sm.RuleBook.from_plugins(BF, [Rule])


def test_a_list_as_the_rule_set_asks_about_the_order() -> None:
    with pytest.raises(TypeError, match=r"not list \(a list where the rule-set plugin belongs: "
                       r"are the arguments in order\?\)$"):
        sm.RuleBook.from_plugins([BF, PAIRS])


@pytest.mark.parametrize(("kind", "says"), [("banana", 'has KIND "banana"'),
                                             (None, "has no KIND"),
                                             ("ruleset", 'has KIND "ruleset"')])
def test_a_kind_the_registry_would_refuse_is_refused(kind: str | None, says: str) -> None:
    """As :func:`spitemalice.load_plugin` refuses an installed plugin of no valid KIND, or of
    the other kind."""

    class Rule:
        NAME = "Bad Name!"

    rule = Rule()
    if kind is not None:
        rule.KIND = kind  # type: ignore[attr-defined]
    with pytest.raises(sm.RulesetError) as raised:
        sm.RuleBook.from_plugins(BF, [rule])
    assert str(raised.value) == (
        'RuleBook.from_plugins takes house_rules[0], a plugin of KIND "house-rule"; plugin '
        f'"Bad Name!" {says} (the kinds are "ruleset", "house-rule")')


def test_a_house_rule_as_the_rule_set_is_refused() -> None:
    with pytest.raises(sm.RulesetError, match=r'takes variant, a plugin of KIND "ruleset"; '
                       r'plugin "pair-discards" has KIND "house-rule"'):
        sm.RuleBook.from_plugins(PAIRS)


def test_a_name_and_no_description_are_taken_as_the_registry_takes_them() -> None:
    """The registry asks nothing of NAME's form or of DESCRIPTION; neither is asked here."""

    class Rule:
        NAME, KIND = "Bad Name!", "house-rule"

    assert sm.RuleBook.from_plugins(BF, [Rule()]).plugins == ("blackwood-frey", "Bad Name!")


def test_load_plugins_names_itself() -> None:
    with pytest.raises(TypeError, match=r'^load_plugins takes house_rules\[0\], .*not the str '
                       r'"pair-discards"'):
        load_plugins("blackwood-frey", ["pair-discards"])


def test_plugins_given_rightly_still_build() -> None:
    book = sm.RuleBook.from_plugins(BF, [PAIRS], {})
    assert book.plugins == ("blackwood-frey", "pair-discards")
    assert book.rebuild(players=3).players == 3

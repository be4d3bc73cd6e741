"""Refusals cite the clause that covers them, pile by pile, in every rule set (issue 8 §2).

* Every reason code the engine can raise has a clause in every rule set's sheet, and a code
  refused on several kinds of pile cites the clause whose text is about that pile.
* Clause texts that depend on a parameter follow the resolved value.
"""

from __future__ import annotations

import pytest
from helpers.positions import position
from helpers.sheet_checks import card

import spitemalice as sm
from spitemalice.formats import parse_position
from spitemalice.rules import reasons
from spitemalice.rules.loader import built_in_rulesets

# The turn-based rule sets: spit's seats move at once and its sheet covers its own codes
# (tests/variants/test_spit.py).
BUILT_IN = sorted(built_in_rulesets())
HOUSE_RULES = sorted(i.name for i in sm.installed() if i.kind == "house-rule" and i.built_in)
PILE_WORDS = {"payoff": ("pay-off", "stack"), "discard": ("discard", "side")}


def _refusal(rules: sm.RuleBook, reason: str, pile: str) -> sm.IllegalMove:
    """Make the engine refuse a play from ``pile`` with ``reason``."""
    ace, nine = card(rules, 1), card(rules, 9, "C")
    hand, top = card(rules, 9, "H"), card(rules, 9, "D")
    content = {"empty-pile": "", "buried-card": f"{ace} {nine}", "not-on-pile": nine}[reason]
    if pile == "payoff":
        state = position(rules, hands=[hand], payoffs=[[content] * rules.deal.payoff_piles])
        move = f"P:{ace}>B+"
    else:
        state = position(rules, hands=[hand], payoffs=[[top] * rules.deal.payoff_piles],
                         discards=[[content]])
        move = f"D1:{ace}>B+"
    with pytest.raises(sm.IllegalMove) as refused:
        sm.apply_move(rules, state, sm.parse_move(move))
    assert refused.value.reason == reason
    return refused.value


@pytest.mark.parametrize("name", BUILT_IN)
@pytest.mark.parametrize("key", [k for k in reasons.keys(reasons.PILES)])
def test_a_pile_refusal_cites_the_clause_about_that_pile(name: str, key: str) -> None:
    rules = sm.load(name)
    reason, _, pile = key.partition("@")
    error = _refusal(rules, reason, pile)
    clause = rules.clause(error.clause)
    assert key in clause.reasons or reason in clause.reasons
    assert any(word in clause.text.lower() for word in PILE_WORDS[pile]), (
        f"{name}: {key} cites {clause.id}: {clause.text}")


@pytest.mark.parametrize("name", BUILT_IN)
def test_every_engine_reason_code_has_a_clause_in_every_rule_set(name: str) -> None:
    for stacked in ([], *([rule] for rule in HOUSE_RULES)):
        try:
            rules = sm.load(name, stacked)
        except sm.RulesetError:
            continue  # a house rule that cannot stack here
        for key in reasons.keys(reasons.ENGINE):
            clause_id = rules.clause_for[key]
            assert rules.clause(clause_id).id == clause_id


def test_the_uspcc_repro_cites_the_discard_and_the_pay_off_clauses() -> None:
    rules = sm.load("uspcc")
    state = parse_position("9H:5H:-|-|-|-/8C:3D:-|-|-|- - rest - on=0", rules)
    for move, pile in (("D1:3C>B+", "discard"), ("P:3C>B+", "payoff")):
        with pytest.raises(sm.IllegalMove) as refused:
            sm.apply_move(rules, state, sm.parse_move(move))
        text = rules.clause(refused.value.clause).text.lower()
        assert any(word in text for word in PILE_WORDS[pile]), (move, text)
    assert rules.clause_for["empty-pile@discard"] == "US-10"
    assert rules.clause_for["buried-card@payoff"] == "US-7"


def test_the_issue_repro_a_third_pile_cites_a_clause_that_says_two() -> None:
    rules = sm.load("blackwood-frey", max_build_piles=2)
    state = position(rules, hands=["AH 9C"], builds=["AS", "AD"])
    with pytest.raises(sm.IllegalMove) as refused:
        sm.apply_move(rules, state, sm.parse_move("AH>B+"))
    assert refused.value.clause == "BF-5"
    assert rules.clause("BF-5").text == "At most two build piles are open at once."


@pytest.mark.parametrize(("name", "params", "clause", "says", "not_says"), [
    ("blackwood-frey", {"max_build_piles": 2}, "BF-5", "At most two build piles", "four"),
    ("blackwood-frey", {"max_build_piles": "unlimited"}, "BF-5", "Any number", "four"),
    ("blackwood-frey", {"wild_excluded": "none"}, "BF-4", "starts the pile as its ace",
     "may not start"),
    ("blackwood-frey", {"build_ceiling": 13}, "BF-6", "reaches the king (thirteen", "queen"),
    ("blackwood-frey", {"hand_size": 6}, "BF-10", "a hand of six", "five"),
    ("blackwood-frey", {"discard_forbidden": "none"}, "BF-13", "Any hand card", "ace"),
    ("blackwood-frey", {"jokers": 6}, "BF-4", "Kings and jokers are wild", "Kings are wild"),
    ("uspcc", {"completed_piles": "set-aside"}, "US-6", "set aside", "shuffled"),
    ("g4a", {"max_build_piles": 4}, "G4-5", "four", "three"),
    ("misery", {"payoff_size": 10}, "MI-9", "piles of 10 cards", "12"),
    ("starturn", {"discard_piles": 3}, "ST-11", "three discard piles", "four"),
    # The deck clause follows packs and jokers (a fresh-user run found BF-1 fixed at three).
    ("blackwood-frey", {"packs": 4, "jokers": 6}, "BF-1",
     "four standard 52-card packs and six jokers (214 cards)", "three"),
    ("blackwood-frey", {}, "BF-1", "three standard 52-card packs without jokers (156", "four"),
    ("uspcc", {"packs": 3}, "US-1", "three standard 52-card packs without jokers (156", "104"),
    ("g4a", {"jokers": 2}, "G4-1", "two standard 52-card packs and two jokers (106", "without"),
    ("misery", {"players": 3}, "MI-1", "(three packs for three players)", "two packs"),
])
def test_clause_text_follows_the_resolved_value(
        name: str, params: dict[str, object], clause: str, says: str, not_says: str) -> None:
    text = sm.load(name, **params).clause(clause).text
    assert says in text and not_says not in text, text

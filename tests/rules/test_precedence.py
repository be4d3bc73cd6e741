"""One precedence rule for every hook (design notes §8 "Hook precedence", docs/hooks.md).

Two and three plugins are stacked on every hook, with every mix of ``tryfirst``/``trylast``
markers, and the answer the engine uses must come from the plugin the documented order names:
``tryfirst`` implementations (latest registered first), then unmarked ones (latest first), then
``trylast`` ones (earliest first); the base rules only when no plugin answers.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from helpers.positions import position, run

import spitemalice as sm
from spitemalice.cards import numbered_cards
from spitemalice.rules.registry import load_plugin
from spitemalice.rules.resolve import call_order

BF = load_plugin("blackwood-frey", "ruleset")
MARKERS = (None, "tryfirst", "trylast")


def plugin(name: str, hook: str, answer: Callable[..., Any], marker: str | None) -> object:
    """A house rule named ``name`` answering ``hook`` with ``answer``, whose arguments carry
    the spec's names (or ``*args``, for an answer that reads none)."""
    marks = {marker: True} if marker else {}
    house = type(name, (), {"NAME": name, "KIND": "house-rule"})()
    setattr(house, f"spitemalice_{hook}", sm.hookimpl(**marks)(answer))
    return house


def expected_winner(markers: tuple[str | None, ...], answering: tuple[bool, ...]) -> int | None:
    """The index of the plugin whose answer counts, by the documented rule."""
    order = sorted(range(len(markers)), key=lambda i: (
        {"tryfirst": 0, None: 1, "trylast": 2}[markers[i]],
        i if markers[i] == "trylast" else -i))
    return next((i for i in order if answering[i]), None)


CASES = [(markers, answering)
         for n in (2, 3)
         for markers in itertools.product(MARKERS, repeat=n)
         for answering in itertools.product((True, False), repeat=n)
         if any(answering) or n == 2]


def _ids(case: tuple[tuple[str | None, ...], tuple[bool, ...]]) -> str:
    return "-".join(f"{m or 'plain'}{'' if a else '(none)'}" for m, a in zip(*case, strict=True))


def stack(hook: str, value: Callable[[int], Any], markers: tuple[str | None, ...],
          answering: tuple[bool, ...], players: int = 2) -> sm.RuleBook:
    """Blackwood-frey with one plugin per marker answering ``value(i)`` (or ``None``)."""
    plugins = [plugin(f"p{i}", hook,
                      (lambda *args, i=i: value(i)) if answering[i] else (lambda *args: None),
                      markers[i])
               for i in range(len(markers))]
    return sm.RuleBook.from_plugins(BF, plugins, {"players": players})


@pytest.mark.parametrize("case", CASES, ids=[_ids(c) for c in CASES])
def test_build_time_hooks_follow_the_one_order(
        case: tuple[tuple[str | None, ...], tuple[bool, ...]]) -> None:
    markers, answering = case
    win = expected_winner(markers, answering)
    checks: list[tuple[str, Callable[[int], Any], Callable[[sm.RuleBook], Any], Any, Any]] = [
        ("build_pile_limit", lambda i: i + 1, lambda b: (b.build_limit,
                                                         b.ruleset.max_build_piles), 4, 4),
        ("wild", lambda i: sm.WildRule(frozenset({13}), frozenset({1, 2 + i})),
         lambda b: (b.wild.excluded, b.ruleset.wild_excluded), frozenset({1}), frozenset({1})),
        # above the queen: under it, the ranks left above would be dead cards, refused
        ("build_ceiling", lambda i: sm.CeilingRule(13 + i, "shuffle-in"),
         lambda b: (b.ceiling.ceiling, b.ruleset.build_ceiling), 12, 12),
        ("discard_limits", lambda i: sm.DiscardRule(1 + i, frozenset({1}), 1),
         lambda b: (b.discard.piles, b.ruleset.discard_piles), 4, 4),
        ("deal", lambda i: sm.DealRule(1, 10 + i, 5, "cut"),
         lambda b: (b.deal.payoff_size, b.ruleset.payoff_size), 26, 26),
    ]
    for hook, value, seen, base_engine, base_shown in checks:
        rules = stack(hook, value, markers, answering)
        engine, shown = seen(rules)
        if win is None:
            assert (engine, shown) == (base_engine, base_shown), hook
            continue
        expected = value(win)
        only = plugin("only", hook, lambda *a, v=expected: v, None)
        folded = seen(sm.RuleBook.from_plugins(BF, [only]))
        assert (engine, shown) == folded, f"{hook}: p{win} should win"
        # pluggy itself names the same winner: the rule book never walks another order
        said = getattr(rules._pm.hook, f"spitemalice_{hook}")(ruleset=rules.ruleset)
        assert said == expected, hook
        first = next(impl for impl in call_order(rules._pm, f"spitemalice_{hook}")
                     if impl.function(rules.ruleset) is not None)
        assert first.plugin_name == f"p{win}", hook
    # the deck: only the winner's answer is the deck the Ruleset states; any other is refused
    bad = sm.Deck(numbered_cards({rank: 12 for rank in range(1, 14)}))
    stated = sm.load("blackwood-frey").deck
    rules = stack("deck", lambda i: stated if i == win else bad, markers, answering)
    assert sorted(rules.deck.cards) == sorted(stated.cards)
    # teams (four seats): each plugin pairs seat 0 with another seat
    pairings = [((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2))]
    rules = stack("teams", lambda i: pairings[i], markers, answering, players=4)
    assert rules.teams.teams == (pairings[win] if win is not None
                                 else ((0,), (1,), (2,), (3,)))


@pytest.mark.parametrize("case", CASES, ids=[_ids(c) for c in CASES])
def test_per_move_and_per_game_hooks_follow_the_one_order(
        case: tuple[tuple[str | None, ...], tuple[bool, ...]]) -> None:
    markers, answering = case
    win = expected_winner(markers, answering)
    # end of game: each plugin ends the game with its own scores
    rules = stack("end_of_game", lambda i: sm.Outcome("blocked", None, (i, 100 + i)),
                  markers, answering)
    state = position(rules, hands=["9C 5D"], payoffs=["8C", "8D"])
    after = sm.apply_move(rules, state, sm.parse_move("9C>D1"))
    if win is None:
        assert after.outcome is None
    else:
        assert after.outcome == sm.Outcome("blocked", None, (win, 100 + win))
        pluggy_says = rules._pm.hook.spitemalice_end_of_game(ruleset=rules.ruleset, state=state)
        assert pluggy_says.scores == (win, 100 + win)
    # completed pile: each plugin marks the state it returns with its own shuffle count
    rules = _completion_stack(markers, answering)
    state = position(rules, hands=["QH 9C"], builds=[run(11)])
    after = sm.apply_move(rules, state, sm.parse_move("QH>B1"))
    if win is None:
        assert after.completed == state.builds[0] + (sm.parse_card("QH"),)
    else:
        assert after.shuffles == 1000 + win
    # scoring, per game
    rules = stack("score", lambda i: (i, 50 + i), markers, answering)
    state = position(rules, hands=["2H"], payoffs=["AS"], draw="")
    after = sm.apply_move(rules, state, sm.parse_move("P:AS>B+"))
    assert after.outcome is not None
    assert after.outcome.scores == ((win, 50 + win) if win is not None else (5 + 0, 0))


def _completion_stack(markers: tuple[str | None, ...],
                      answering: tuple[bool, ...]) -> sm.RuleBook:
    def placed(i: int) -> Callable[..., Any]:
        def place(ruleset: sm.Ruleset, state: sm.GameState, pile: tuple[sm.Card, ...]) -> Any:
            return attrs.evolve(state, completed=state.completed + pile, shuffles=1000 + i)
        return place

    plugins = [plugin(f"p{i}", "completed_pile",
                      placed(i) if answering[i] else (lambda *args: None), markers[i])
               for i in range(len(markers))]
    return sm.RuleBook.from_plugins(BF, plugins)


def test_a_trylast_house_rule_still_beats_the_base_rules() -> None:
    """Issue 8 repro: a house rule answering the build pile limit with 2, marked trylast."""
    two = plugin("two", "build_pile_limit", lambda *a: 2, "trylast")
    rules = sm.RuleBook.from_plugins(BF, [two])
    assert rules.build_limit == 2 and rules.ruleset.max_build_piles == 2
    assert rules.origin["max_build_piles"] == "plugin two (spitemalice_build_pile_limit)"
    assert "At most two build piles" in rules.clause("BF-5").text


def test_two_stacked_end_of_game_rules_the_later_one_wins_as_pluggy_says() -> None:
    """Issue 8 repro: [a, b] each ending the game with a win for a different seat."""
    a = plugin("a", "end_of_game", lambda *x: sm.Outcome("win", 0, (1, 0)), None)
    b = plugin("b", "end_of_game", lambda *x: sm.Outcome("win", 1, (0, 1)), None)
    rules = sm.RuleBook.from_plugins(BF, [a, b])
    state = position(rules, hands=["9C 5D"], payoffs=["8C", "8D"])
    after = sm.apply_move(rules, state, sm.parse_move("9C>D1"))
    said = rules._pm.hook.spitemalice_end_of_game(ruleset=rules.ruleset, state=after)
    assert after.outcome is not None and after.outcome.winner == 1 == said.winner


def test_an_override_a_plugin_answer_contradicts_is_refused_naming_both() -> None:
    two = plugin("two", "build_pile_limit", lambda *a: 2, None)
    with pytest.raises(sm.RulesetError, match="max_build_piles = 3 as given, but plugin 'two' "
                       "answers spitemalice_build_pile_limit with 2"):
        sm.RuleBook.from_plugins(BF, [two], {"max_build_piles": 3})


class _BlackwoodFreyValues:
    """A rule-set plugin with blackwood-frey's values and rule sheet (pluggy finds the
    hooks a subclass inherits)."""

    @sm.hookimpl
    def spitemalice_ruleset(self) -> sm.Ruleset:
        return BF.RULESET  # type: ignore[attr-defined, no-any-return]

    @sm.hookimpl
    def spitemalice_rule_sheet(self, ruleset: sm.Ruleset) -> list[sm.Clause]:
        return BF.spitemalice_rule_sheet(ruleset)  # type: ignore[attr-defined, no-any-return]


class TwoBuildPilesRuleset(_BlackwoodFreyValues):
    """blackwood-frey's values, with its build pile limit worked out by its own hook."""

    NAME, KIND = "two-piles", "ruleset"

    @sm.hookimpl
    def spitemalice_build_pile_limit(self, ruleset: sm.Ruleset) -> int:
        return 2


def test_the_rule_sets_own_answer_gives_way_to_a_parameter_given() -> None:
    """A rule set's answer to a value hook is one of its own values (skip-bo's kings, SK-26):
    an override replaces it, as it replaces the values its spitemalice_ruleset states; a house
    rule's answer against an override stays refused (the test above)."""
    own = sm.RuleBook.from_plugins(TwoBuildPilesRuleset())
    assert own.build_limit == 2
    assert own.origin["max_build_piles"] == "plugin two-piles (spitemalice_build_pile_limit)"
    given = sm.RuleBook.from_plugins(TwoBuildPilesRuleset(), [], {"max_build_piles": 3})
    assert given.build_limit == 3 and given.ruleset.max_build_piles == 3
    assert given.origin["max_build_piles"] == "override"
    assert "At most three build piles" in given.clause("BF-5").text
    # as given even where it equals the rule set's own value: the answer still gives way
    four = sm.RuleBook.from_plugins(TwoBuildPilesRuleset(), [], {"max_build_piles": 4})
    assert four.build_limit == 4 and "max_build_piles" not in four.origin


class FourJokersRuleset(_BlackwoodFreyValues):
    """blackwood-frey's values, its deck worked out by its own hook: four jokers (as
    skip-bo's standard packs hold two a pack, SK-26)."""

    NAME, KIND = "four-jokers", "ruleset"

    @sm.hookimpl
    def spitemalice_deck(self, ruleset: sm.Ruleset) -> sm.Deck:
        return sm.stated_deck(attrs.evolve(ruleset, jokers=4))


def test_the_rule_sets_own_deck_states_its_jokers_and_gives_way_to_jokers_given() -> None:
    own = sm.RuleBook.from_plugins(FourJokersRuleset())
    assert own.ruleset.jokers == 4 and own.deck.cards.count(sm.Card(0)) == 4
    assert own.origin["jokers"] == "plugin four-jokers (spitemalice_deck)"
    given = sm.RuleBook.from_plugins(FourJokersRuleset(), [], {"jokers": 2})
    assert given.ruleset.jokers == 2 and given.deck.cards.count(sm.Card(0)) == 2
    assert given.origin["jokers"] == "override"
    # a house rule's deck is checked, never folded: its other jokers are refused as before
    four = plugin("four", "deck", lambda ruleset: sm.stated_deck(attrs.evolve(ruleset,
                                                                              jokers=4)), None)
    with pytest.raises(sm.RulesetError, match="plugin 'four' answers spitemalice_deck"):
        sm.RuleBook.from_plugins(BF, [four])


def test_an_answer_the_ruleset_cannot_state_is_refused_naming_the_plugin() -> None:
    bad = plugin("bad", "deal", lambda *a: sm.DealRule(1, 99, 5, "cut"), None)
    with pytest.raises(sm.RulesetError, match=r"plugin 'bad' answers spitemalice_deal with .* "
                       "cannot state: payoff_size = 99"):
        sm.RuleBook.from_plugins(BF, [bad])


def test_a_wrapper_on_a_hook_other_than_the_ruleset_is_refused() -> None:
    class Wraps:
        NAME, KIND = "wraps", "house-rule"

        @sm.hookimpl(wrapper=True)
        def spitemalice_build_pile_limit(self, ruleset):  # type: ignore[no-untyped-def]
            return (yield)

    with pytest.raises(sm.RulesetError, match="'wraps' wraps spitemalice_build_pile_limit"):
        sm.RuleBook.from_plugins(BF, [Wraps()])


@pytest.mark.parametrize("order", [("mandatory-aces", "wild-must-be-covered"),
                                   ("wild-must-be-covered", "mandatory-aces")])
def test_stacked_move_filters_all_narrow_in_either_order(order: tuple[str, str]) -> None:
    """A move must be allowed by every filter, whichever order they are stacked in."""
    def only_hand(ruleset, state, moves):  # type: ignore[no-untyped-def]
        return sm.MoveFilter([m for m in moves if getattr(m, "zone", None) != sm.Zone.DISCARD],
                             "forced-play", "no plays from discard piles")

    def no_new_piles(ruleset, state, moves):  # type: ignore[no-untyped-def]
        return sm.MoveFilter([m for m in moves if getattr(m, "pile", 0) != sm.NEW_PILE],
                             "forced-play", "no new piles")

    clause = sm.Clause("F-1", "test filters", "TEST", reasons=("forced-play",))
    for first, second in ((only_hand, no_new_piles), (no_new_piles, only_hand)):
        f1 = plugin("f1", "filter_moves", first, None)
        f2 = plugin("f2", "filter_moves", second, None)
        sheet = plugin("sheet", "rule_sheet", lambda *a: [clause], None)
        rules = sm.RuleBook.from_plugins(BF, [f1, f2, sheet])
        state = position(rules, hands=["AH 2D 9C"], discards=[["2S"]], builds=["AS"])
        moves = sm.legal_moves(rules, state)
        assert sm.parse_move("D1:2S>B1") not in moves
        assert sm.parse_move("AH>B+") not in moves
        assert sm.parse_move("2D>B1") in moves
        for text in ("D1:2S>B1", "AH>B+"):
            assert not sm.is_legal(rules, state, sm.parse_move(text))
    # the built-in pair in this order allows no move either one alone refuses
    rules = sm.load("blackwood-frey", list(order))
    alone = [sm.load("blackwood-frey", [name]) for name in order]
    state = position(rules, hands=["AH KD 9C"], builds=["AS 2S 3S 4S"])
    both = set(sm.legal_moves(rules, state))
    for single in alone:
        assert both <= set(sm.legal_moves(single, state)) | {sm.Pass()}


def test_a_parameter_given_in_params_and_as_a_keyword_is_refused_unless_alike() -> None:
    """``load(name, params, **overrides)`` let the keyword win silently over ``params``."""
    with pytest.raises(sm.RulesetError, match=r"players is given twice, as players=3 in "
                                              r"params and players=2 as a keyword"):
        sm.load("blackwood-frey", params={"players": 3}, players=2)
    assert sm.load("blackwood-frey", params={"players": "3"}, players=3).players == 3
    assert sm.load("blackwood-frey", params={"wild_ranks": "0,13"},
                   wild_ranks=[13, 0]).ruleset.wild_ranks == {0, 13}

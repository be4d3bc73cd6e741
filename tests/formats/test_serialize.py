"""States and views as JSON: round trips for every rule set, resuming, and bad input."""

from __future__ import annotations

import json

import pytest
from helpers.walks import RULESETS, book, configs_of, picks, seeds, states_of
from hypothesis import given, settings
from hypothesis import strategies as st

import spitemalice as sm
from spitemalice.engine.views import view_of
from spitemalice.errors import DataError, PositionError
from spitemalice.formats import (
    dumps_state,
    dumps_view,
    loads_state,
    loads_view,
    state_to_dict,
    view_to_dict,
)


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=12)
@given(data=st.data(), seed=seeds, choices=picks, finish=st.booleans())
def test_a_state_saved_as_json_loads_equal(ruleset, data, seed, choices, finish) -> None:
    rules = book(data.draw(configs_of(ruleset)))
    states = states_of(rules, seed, choices, finish)
    for state in states[:: max(1, len(states) // 30)] + states[-1:]:
        again = loads_state(dumps_state(state), rules)
        assert again == state and hash(again) == hash(state)
        for seat in range(rules.players):
            view = view_of(state, seat)
            assert loads_view(dumps_view(view), rules) == view


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=8)
@given(data=st.data(), seed=seeds, choices=picks,
       later=st.lists(st.integers(0, 10_000), min_size=1, max_size=200))
def test_a_saved_game_continues_exactly_as_the_unsaved_one(ruleset, data, seed, choices,
                                                           later) -> None:
    rules = book(data.draw(configs_of(ruleset)))
    state = states_of(rules, seed, choices)[-1]
    saved = loads_state(dumps_state(state), rules)
    for pick in later:
        moves = sm.legal_moves(rules, state)
        assert sm.legal_moves(rules, saved) == moves
        if not moves:
            break
        move = moves[pick % len(moves)]
        state, saved = sm.apply_move(rules, state, move), sm.apply_move(rules, saved, move)
        assert saved == state


def test_a_resumed_game_reshuffles_as_the_original(bf: sm.RuleBook) -> None:
    """The shuffle counter travels in the JSON: a game saved before its draw pile runs out
    recycles the completed cards into the same order."""
    from spitemalice.bots.players import GreedyPlayer
    from spitemalice.runs.loop import play_game

    result = play_game(bf, [GreedyPlayer(1), GreedyPlayer(2)], seed=8)
    state = sm.deal(bf, 8)
    saved = None
    for index, move in enumerate(result.moves):
        if index == len(result.moves) // 3:
            saved = loads_state(dumps_state(state), bf)
        if saved is not None:
            saved = sm.apply_move(bf, saved, move)
        state = sm.apply_move(bf, state, move)
    assert saved == state == result.final
    assert result.final.shuffles > 1, "this seed should recycle the completed cards"


def test_the_json_shape_is_plain_data(bf: sm.RuleBook) -> None:
    state = sm.deal(bf, 4)
    data = state_to_dict(state)
    assert data["format"] == "spitemalice-state" and data["version"] == 1
    assert data["seats"][0]["hand"] == [str(card) for card in state.seats[0].hand]
    assert data["seed"] == 4 and data["outcome"] is None
    assert json.loads(json.dumps(data)) == data
    view = view_to_dict(view_of(state, 1))
    assert "seed" not in view and "draw" not in view and view["draw_count"] == len(state.draw)
    assert view["seats"][0]["payoff"][0] == {"count": 26, "top": str(state.seats[0].payoff[0][-1])}


# -- bad input -----------------------------------------------------------------------------


def _state_data(bf: sm.RuleBook) -> dict:
    return state_to_dict(sm.deal(bf, 4))


@pytest.mark.parametrize(("change", "words"), [
    (lambda d: d.pop("seed"), "state.seed: missing"),
    (lambda d: d.update(seed="5"), "state.seed: expected a whole number, not a string"),
    (lambda d: d.update(turn=True), "state.turn: expected a whole number, not true"),
    (lambda d: d.update(builds=None), "state.builds: expected a list, not null"),
    (lambda d: d.update(seed=2.5), "state.seed: expected a whole number, not a number 2.5"),
    (lambda d: d.update(turn=-1), "state.turn: expected a whole number >= 0"),
    (lambda d: d.update(shufles=1), "state.shufles: unknown field (did you mean \"shuffles\"?)"),
    (lambda d: d["seats"][1]["hand"].__setitem__(2, "XX"), "state.seats[1].hand[2]: 'XX'"),
    (lambda d: d["seats"][0].pop("discards"), "state.seats[0].discards: missing"),
    (lambda d: d.update(builds="AS"), "state.builds: expected a list, not a string"),
    (lambda d: d.update(outcome={"kind": "lost", "winner": None, "scores": [0, 0]}),
     "state.outcome.kind: expected one of win"),
    (lambda d: d.update(outcome={"kind": "drawn", "winner": 0, "scores": [0, 0]}),
     'state.outcome: Outcome.winner is a seat when kind is "win" and None otherwise, not 0'),
    (lambda d: d.update(outcome={"kind": "win", "winner": 2, "scores": [0, 0]}),
     "state.outcome: Outcome.winner is a seat of the game, below 2"),
    (lambda d: d.update(version=2), "version 2 is newer than this library reads"),
    (lambda d: d.update(version="one"), "is not a known spitemalice-state version"),
    (lambda d: d.update(format="spitemalice-record"),
     'state.format: expected "spitemalice-state"'),
])
def test_bad_state_data_is_refused_naming_the_field(bf, change, words) -> None:
    data = _state_data(bf)
    change(data)
    with pytest.raises(DataError) as caught:
        loads_state(json.dumps(data), bf)
    assert words in str(caught.value)
    assert not any(f"{word} {word}" in str(caught.value) for word in ("null", "true", "false"))


def test_malformed_and_truncated_json_is_refused(bf: sm.RuleBook) -> None:
    text = dumps_state(sm.deal(bf, 4))
    with pytest.raises(DataError, match="truncated"):
        loads_state(text[: len(text) // 2], bf)
    with pytest.raises(DataError, match="not valid JSON"):
        loads_state("{'seed': 1}", bf)
    with pytest.raises(DataError, match="expected a spitemalice-state object, not an empty list"):
        loads_state("[]", bf)


def test_a_state_that_breaks_the_rule_set_is_refused(bf: sm.RuleBook) -> None:
    data = _state_data(bf)
    data["builds"] = [["AS", "3H"]]
    with pytest.raises(PositionError, match="build pile 1 card 2 is 3H"):
        loads_state(json.dumps(data), bf)
    data = _state_data(bf)
    data["seats"][0]["hand"].append("2C")
    with pytest.raises(PositionError, match="hand holds 6 cards"):
        loads_state(json.dumps(data), bf)


def test_bad_view_data_is_refused(bf: sm.RuleBook) -> None:
    data = view_to_dict(view_of(sm.deal(bf, 4), 0))
    data["seats"][1]["payoff"][0]["top"] = None
    with pytest.raises(DataError, match=r"view.seats\[1\].payoff\[0\]: an empty pay-off pile"):
        loads_view(json.dumps(data), bf)
    data = view_to_dict(view_of(sm.deal(bf, 4), 0))
    data["seats"][0]["hand_count"] = 2
    with pytest.raises(PositionError, match="hand count says 2"):
        loads_view(json.dumps(data), bf)


@pytest.mark.parametrize(("value", "shown"), [(None, "null"), (True, "true"), (False, "false"),
                                              ("5", 'a string "5"'), ([1], "a list of 1 item"),
                                              ({}, "an empty object")])
def test_a_json_value_of_the_wrong_kind_is_named_once(bf: sm.RuleBook, value: object,
                                                     shown: str) -> None:
    data = _state_data(bf)
    data["turn"] = value
    with pytest.raises(DataError) as caught:
        loads_state(json.dumps(data), bf)
    assert str(caught.value).endswith(f"state.turn: expected a whole number, not {shown}")

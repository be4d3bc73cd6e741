"""The engine's speed-ups keep values values: moves made once and reused, states built
without converters, and caches that stay bounded."""

from __future__ import annotations

import random

import attrs
import pytest

import spitemalice as sm
from spitemalice.engine import legal
from spitemalice.engine.apply import apply_listed
from spitemalice.engine.copiers import state_copier, with_fields
from spitemalice.formats import dumps_state, loads_state


def _some_states(rules: sm.RuleBook, count: int) -> list[sm.GameState]:
    states, state = [], sm.deal(rules, 4)
    while state.outcome is None and len(states) < count:
        states.append(state)
        state = sm.apply_move(rules, state, sm.legal_moves(rules, state)[-1])
    return states


def test_a_loaded_copy_of_a_state_has_the_same_legal_moves_and_successors(
    bf: sm.RuleBook,
) -> None:
    for state in _some_states(bf, 40):
        copy = loads_state(dumps_state(state), bf)  # equal, made afresh from text
        assert copy == state and copy is not state and copy.seats is not state.seats
        assert copy.seats[0].hand[0] is state.seats[0].hand[0]  # cards are interned
        moves = sm.legal_moves(bf, state)
        assert sm.legal_moves(bf, copy) == moves
        assert sm.apply_move(bf, copy, moves[0]) == sm.apply_move(bf, state, moves[0])


def test_states_the_engine_builds_equal_and_hash_like_public_ones(bf: sm.RuleBook) -> None:
    for state in _some_states(bf, 30):
        public = sm.GameState(
            [sm.Seat(list(s.payoff), list(reversed(s.hand)), list(s.discards))
             for s in state.seats], list(state.builds), list(state.draw),
            list(state.completed), state.seat, state.turn, state.turn_moves, state.idle_turns,
            state.seed, state.shuffles, state.outcome)
        assert public == state and hash(public) == hash(state)
        assert all(type(pile) is tuple for seat in state.seats for pile in seat.discards)


def test_the_play_tables_stay_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(legal, "_PLAYS_MOST", 10)
    rules = sm.load("blackwood-frey")
    cache = rules.engine_cache
    tables = (cache.hand_plays, cache.payoff_plays, cache.discard_plays)
    most = 0
    state, chooser = sm.deal(rules, 4), random.Random(4)
    for _ in range(300):
        if state.outcome is not None:
            state = sm.deal(rules, chooser.randrange(1000))
        moves = sm.legal_moves(rules, state)
        most = max(most, *map(len, tables))
        # one listing adds at most a play per hand card and pile top past the limit
        assert all(len(table) <= 10 + 12 for table in tables)
        state = sm.apply_move(rules, state, chooser.choice(moves))
    assert most > 10  # the tables filled past the limit, so the bound was exercised


def test_with_fields_changes_exactly_the_fields_given(bf: sm.RuleBook) -> None:
    """The engine's copier is generated from the GameState's fields: each field given as a
    keyword, and only it, changes, as attrs.evolve would; an unknown name is refused."""
    state = _some_states(bf, 3)[-1]
    other = sm.deal(bf, 99)
    for field in attrs.fields(sm.GameState):
        value = getattr(other, field.name) if field.name != "turn" else 7
        copy = with_fields(state, **{field.name: value})
        assert copy == attrs.evolve(state, **{field.name: value}), field.name
    with pytest.raises(TypeError, match="nope"):
        with_fields(state, nope=1)


def test_a_state_copier_for_some_fields_agrees_with_with_fields(bf: sm.RuleBook) -> None:
    state, other = _some_states(bf, 3)[-1], sm.deal(bf, 99)
    copy = state_copier("draw", "turn")
    assert copy(state, other.draw, 9) == with_fields(state, draw=other.draw, turn=9)
    for bad in (("turn", "turn"), ("hand",)):
        with pytest.raises(ValueError, match="distinct GameState fields"):
            state_copier(*bad)


@pytest.mark.parametrize(("name", "house_rules", "players"), [
    ("blackwood-frey", (), 2), ("skip-bo", (), 3), ("misery", (), 2),
    ("blackwood-frey", ("partnerships", "pair-discards"), 4)])
def test_applying_a_listed_move_unchecked_gives_the_state_apply_move_gives(
    name: str, house_rules: tuple[str, ...], players: int,
) -> None:
    # apply_listed is apply_move after its check (the vectorised environment's step); every
    # listed move of a whole random game, ends of turns and of the game included.
    rules = sm.load(name, house_rules, {"payoff_size": 4, "players": players})
    rng = random.Random(7)
    state, seen = sm.deal(rules, 7), 0
    while state.outcome is None and seen < 400:
        moves = sm.legal_moves(rules, state)
        for move in moves:
            assert apply_listed(rules, state, move) == sm.apply_move(rules, state, move)
        state = apply_listed(rules, state, moves[rng.randrange(len(moves))])
        seen += 1
    assert state.outcome is not None, "the game reached its end"

"""Per-seat views: nothing hidden leaks, and the legal moves come from the view alone."""

from __future__ import annotations

import attrs
import pytest
from helpers.walks import RULESETS, book, configs_of, hidden_twin, picks, seeds, states_of
from hypothesis import given, settings
from hypothesis import strategies as st

import spitemalice as sm
from spitemalice.cards import parse_cards
from spitemalice.engine.views import (
    HIDDEN,
    PayoffView,
    SeatView,
    stand_in_state,
    view_legal_moves,
    view_of,
)
from spitemalice.errors import SpiteMaliceError


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=12)
@given(data=st.data(), seed=seeds, choices=picks, finish=st.booleans(), rng=st.randoms())
def test_states_that_differ_only_in_hidden_cards_give_equal_views(ruleset, data, seed, choices,
                                                                   finish, rng) -> None:
    rules = book(data.draw(configs_of(ruleset)))
    states = states_of(rules, seed, choices, finish)
    for state in states[:: max(1, len(states) // 20)] + states[-1:]:
        for seat in range(rules.players):
            twin = hidden_twin(state, seat, rng)
            assert view_of(twin, seat) == view_of(state, seat)
            assert view_legal_moves(rules, view_of(twin, seat)) == view_legal_moves(
                rules, view_of(state, seat))


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=12)
@given(data=st.data(), seed=seeds, choices=picks, finish=st.booleans())
def test_the_view_gives_exactly_the_engines_legal_moves(ruleset, data, seed, choices,
                                                        finish) -> None:
    rules = book(data.draw(configs_of(ruleset)))
    states = states_of(rules, seed, choices, finish)
    for state in states[:: max(1, len(states) // 40)] + states[-1:]:
        for seat in range(rules.players):
            expected = sm.legal_moves(rules, state) if seat == state.seat else ()
            assert view_legal_moves(rules, view_of(state, seat)) == expected


def test_a_view_holds_what_the_seat_sees(bf: sm.RuleBook) -> None:
    state = sm.deal(bf, 9)
    view = view_of(state, 1)
    assert view.viewer == 1 and view.hand == state.seats[1].hand
    for public, seat in zip(view.seats, state.seats, strict=True):
        assert public.payoff == (PayoffView(26, seat.payoff[0][-1]),)
        assert public.hand_count == len(seat.hand)
        assert public.discards == seat.discards
    assert view.draw_count == len(state.draw) and view.completed_count == 0
    assert (view.seat, view.turn, view.outcome) == (state.seat, 0, None)
    assert view.on_turn == (state.seat == 1)
    assert view.own is view.seats[1]


def test_a_view_has_no_field_that_could_reveal_a_hidden_card() -> None:
    names = {field.name for field in attrs.fields(SeatView)}
    assert not names & {"seed", "shuffles", "draw", "completed"}


def test_a_card_the_seat_can_see_changes_its_view(bf: sm.RuleBook) -> None:
    state = sm.deal(bf, 9)
    other = 1 - state.seat
    seats = list(state.seats)
    mine = seats[other]
    seats[other] = sm.Seat(mine.payoff, mine.hand[1:] + parse_cards("AS"), mine.discards)
    changed = attrs.evolve(state, seats=tuple(seats))
    assert view_of(changed, other) != view_of(state, other)
    assert view_of(changed, state.seat) == view_of(state, state.seat), "a hidden hand changed"


def test_the_stand_in_state_hides_every_card_the_seat_cannot_see(bf: sm.RuleBook) -> None:
    state = sm.deal(bf, 2)
    stand_in = stand_in_state(view_of(state, 0))
    assert stand_in.seats[0].hand == state.seats[0].hand
    assert set(stand_in.seats[1].hand) == {HIDDEN}
    assert set(stand_in.draw) == {HIDDEN} and len(stand_in.draw) == len(state.draw)
    assert stand_in.seats[1].payoff[0][-1] == state.seats[1].payoff[0][-1]
    assert stand_in.seed == 0


def test_a_seat_off_turn_and_an_ended_game_have_no_moves(bf: sm.RuleBook) -> None:
    state = sm.deal(bf, 2)
    assert view_legal_moves(bf, view_of(state, 1 - state.seat)) == ()
    ended = attrs.evolve(state, outcome=sm.Outcome("drawn", None, (0, 0)))
    assert view_legal_moves(bf, view_of(ended, state.seat)) == ()


def test_a_view_from_a_seat_that_does_not_exist_is_refused(bf: sm.RuleBook) -> None:
    with pytest.raises(SpiteMaliceError, match="seat 0 to 1, not 2"):
        view_of(sm.deal(bf, 2), 2)


def test_a_view_bot_plays_whole_games_through_view_player() -> None:
    from spitemalice.engine.views import ViewPlayer
    from spitemalice.runs.loop import play_game

    rules = sm.load("blackwood-frey", payoff_size=5)
    seen: list[SeatView] = []

    def first_move(rules: sm.RuleBook, view: SeatView) -> sm.Move:
        assert isinstance(view, SeatView) and view.on_turn
        seen.append(view)
        return view_legal_moves(rules, view)[0]

    result = play_game(rules, [ViewPlayer(first_move), ViewPlayer(first_move)], seed=3)
    assert result.final.outcome is not None and len(seen) == len(result.moves)

"""Every end-of-game kind is checked against the position it claims, in every reader (issue
20, class 9): the position notation, state JSON, views in both forms, the environments'
reset(options={"state"}) and records.  The kinds come from the model (OUTCOME_KINDS), so a
new kind fails test_every_kind_has_a_case until it is given one."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import attrs
import pytest

import spitemalice as sm
from spitemalice.bots import make_player
from spitemalice.engine.views import view_of
from spitemalice.errors import PositionError
from spitemalice.formats import (
    dumps_state,
    dumps_view,
    format_position,
    format_view,
    loads_state,
    loads_view,
    parse_position,
    parse_view,
)
from spitemalice.model import OUTCOME_KINDS, GameState, Outcome
from spitemalice.study import play_game

BF = sm.load("blackwood-frey")
LIMITED = sm.load("blackwood-frey", turn_limit=30)


def _final(rules: sm.RuleBook, kind: str) -> GameState:
    """A real game of ``rules`` that ended ``kind`` (seeds found by playing)."""
    for seed in range(60):
        for bots in ("random", "greedy"):
            state = play_game(rules, [make_player(bots, seed)] * rules.players, seed).final
            if state.outcome.kind == kind:
                return state
    raise AssertionError(f"no {kind} game in 60 seeds")


def _ended(rules: sm.RuleBook, state: GameState, kind: str, winner: int | None = None,
           **fields: object) -> GameState:
    """``state`` with ``fields`` changed, ended ``kind`` and scored as the rules score it, so
    only the kind can be wrong."""
    live = attrs.evolve(state, outcome=None, **fields)
    return attrs.evolve(live, outcome=Outcome(kind, winner, rules.score(live, kind, winner)))


def _blocked(rules: sm.RuleBook) -> GameState:
    """A game every seat passed in turn (no built-in rule set blocks with its own bots)."""
    live = sm.deal(rules, 5)
    return _ended(rules, live, "blocked", idle_turns=rules.players)


def _drawn_with(rules: sm.RuleBook, state: GameState) -> GameState:
    """The issue's example: a drawn game whose draw pile still holds a card (taken from the
    hand of the seat on turn, so no card is invented)."""
    seat = state.seats[state.seat]
    card = seat.hand[0]
    seats = list(state.seats)
    seats[state.seat] = sm.Seat(seat.payoff, seat.hand[1:], seat.discards)
    return _ended(rules, state, "drawn", seats=tuple(seats), draw=(card,))


# kind -> (rules, a possible end of that kind, impossible ones with what they break)
def _cases() -> dict[str, tuple[sm.RuleBook, GameState, list[tuple[GameState, str]]]]:
    win, drawn = _final(BF, "win"), _final(BF, "drawn")
    limit = _final(LIMITED, "turn-limit")
    blocked = _blocked(BF)
    loser = 1 - win.outcome.winner
    full = drawn.seats[drawn.seat]
    return {
        "win": (BF, win, [
            (_ended(BF, win, "win", loser), "still has pay-off cards"),
            (_ended(BF, drawn, "win", 0), "still has pay-off cards"),
        ]),
        "drawn": (BF, drawn, [
            (_drawn_with(BF, drawn), "the draw pile"),
            (_ended(BF, drawn, "drawn", completed=(full.hand[0],), seats=(
                *drawn.seats[:drawn.seat], sm.Seat(full.payoff, full.hand[1:], full.discards),
                *drawn.seats[drawn.seat + 1:])), "the completed cards"),
            (_ended(BF, win, "drawn"), "draw pile"),
        ]),
        "blocked": (BF, blocked, [
            (_ended(BF, blocked, "blocked", idle_turns=1), "idle turn"),
            (_ended(BF, win, "blocked"), "idle turn"),
        ]),
        "turn-limit": (LIMITED, limit, [
            (_ended(LIMITED, limit, "turn-limit", turn=29, turn_moves=0), "turn limit"),
            (_ended(LIMITED, sm.deal(LIMITED, 5), "turn-limit"), "turn limit"),
        ]),
    }


CASES = _cases()


def test_every_kind_has_a_case() -> None:
    assert set(CASES) == set(OUTCOME_KINDS)


def _notation(rules: sm.RuleBook, state: GameState) -> object:
    return parse_position(format_position(state), rules)


def _json(rules: sm.RuleBook, state: GameState) -> object:
    return loads_state(dumps_state(state), rules)


def _view_notation(rules: sm.RuleBook, state: GameState) -> object:
    return [parse_view(format_view(view_of(state, seat)), rules)
            for seat in range(rules.players)]


def _view_json(rules: sm.RuleBook, state: GameState) -> object:
    return [loads_view(dumps_view(view_of(state, seat)), rules)
            for seat in range(rules.players)]


def _aec(rules: sm.RuleBook, state: GameState) -> object:
    from spitemalice import env

    return env.make(rules).reset(options={"state": state})


def _parallel(rules: sm.RuleBook, state: GameState) -> object:
    from spitemalice import env

    return env.parallel_env(rules).reset(options={"state": state})


def _single(rules: sm.RuleBook, state: GameState) -> object:
    from spitemalice import env

    return env.single_agent(rules).reset(options={"state": state})


READERS: dict[str, Callable[[sm.RuleBook, GameState], object]] = {
    "parse_position": _notation, "loads_state": _json, "parse_view": _view_notation,
    "loads_view": _view_json, "env.make reset": _aec, "env.parallel_env reset": _parallel,
    "env.single_agent reset": _single,
}


@pytest.mark.parametrize("kind", OUTCOME_KINDS)
@pytest.mark.parametrize("reader", READERS)
def test_every_reader_refuses_an_end_its_position_does_not_show(kind: str,
                                                                reader: str) -> None:
    rules, possible, impossible = CASES[kind]
    READERS[reader](rules, possible)  # a real end of this kind reads
    for state, why in impossible:
        with pytest.raises(PositionError, match=why):
            READERS[reader](rules, state)


def test_the_issue_example_a_drawn_game_with_a_card_to_draw() -> None:
    rules, drawn, _ = CASES["drawn"]
    text = format_position(_drawn_with(rules, drawn))
    with pytest.raises(PositionError, match=r"a drawn game .* the draw pile still hold"):
        parse_position(text, rules)


def test_a_record_claiming_another_end_than_its_replay_is_refused() -> None:
    record = sm.load_record(Path(__file__).parents[2] / "seeds/records/blackwood-frey.json")
    assert record.outcome is not None
    for kind in OUTCOME_KINDS:
        if kind != record.outcome.kind:
            forged = attrs.evolve(record, outcome=Outcome(kind, None, record.outcome.scores))
            problem = sm.check_record(forged)
            assert problem is not None and "outcome" in problem.message, kind


def test_validate_holds_every_played_end_to_its_kind() -> None:
    """The check is an invariant validate runs after every move: real games never trip it
    (the suite's validate runs over every rule set say the same)."""
    from spitemalice.engine.invariants import outcome_fits_the_end

    for kind, (rules, possible, impossible) in CASES.items():
        assert outcome_fits_the_end(rules, possible) == [], kind
        assert all(outcome_fits_the_end(rules, state) for state, _ in impossible), kind

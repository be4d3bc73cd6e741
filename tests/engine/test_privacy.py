"""Refusals reveal nothing hidden (issue 10, class 2), deals are unguessable by default
(class 3), and a move's types are checked before any cache (class 7).

The property: for two states whose views for the mover are equal, every move gets the same
answer (accepted, or refused with the same reason, clause and message).  The twin state
shuffles every card the mover cannot see among the places it cannot see: its own pay-off
piles below their tops, the draw pile, the completed cards, other seats' hands and their
pay-off piles below the tops.
"""

from __future__ import annotations

import random
from functools import cache

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import spitemalice as sm
from spitemalice.engine.deal import SEED_BITS
from spitemalice.engine.views import view_of
from spitemalice.formats import parse_position
from spitemalice.model import GameState, Seat
from spitemalice.moves import NEW_PILE, Discard, Move, Pass, Play, Zone

CONFIGS: list[tuple] = [
    ("blackwood-frey", ()), ("g4a", ()), ("misery", ()), ("starturn", ()), ("uspcc", ()),
    ("blackwood-frey", ("mandatory-aces",)), ("g4a", ("pair-discards", "wild-must-be-covered")),
    ("blackwood-frey", ("unlimited-build-piles", "natural-ace-two")), ("skip-bo", ()),
    ("skip-bo", ("partnerships",), 4), ("blackwood-frey", ("partnerships",), 4),
    ("hasbro", ()), ("hasbro", (), 5),
]


@cache
def _rules(index: int) -> sm.RuleBook:
    name, house, *players = CONFIGS[index]
    return sm.load(name, house, {"players": players[0]} if players else None)


def _played(rules: sm.RuleBook, seed: int, plies: int) -> GameState:
    state = sm.deal(rules, seed)
    pick = random.Random(seed)
    for _ in range(plies):
        moves = sm.legal_moves(rules, state)
        if not moves:
            break
        following = sm.apply_move(rules, state, pick.choice(moves))
        if following.outcome is not None:
            break
        state = following
    return state


def _twin(state: GameState, viewer: int, shuffle: random.Random) -> GameState:
    """``state`` with every card hidden from ``viewer`` shuffled among the hidden places."""
    hidden = [c for s in state.seats for p in s.payoff for c in p[:-1]]
    hidden += [c for i, s in enumerate(state.seats) if i != viewer for c in s.hand]
    hidden += [*state.draw, *state.completed]
    shuffle.shuffle(hidden)
    cards = iter(hidden)

    def refill(pile: tuple) -> tuple:
        return tuple(next(cards) for _ in pile)

    seats = []
    for index, seat in enumerate(state.seats):
        payoff = tuple(refill(p[:-1]) + p[-1:] for p in seat.payoff)
        hand = seat.hand if index == viewer else refill(seat.hand)
        seats.append(Seat(payoff, hand, seat.discards))
    return attrs.evolve(state, seats=tuple(seats), draw=refill(state.draw),
                        completed=refill(state.completed))


def _candidates(rules: sm.RuleBook, state: GameState) -> list[Move]:
    """Every play and discard of every card of the deck from and to every pile, and a pass."""
    cards = sorted(set(rules.deck.cards) | set(rules.deck.payoff_cards or ()))
    targets = [*range(len(state.builds) + 1), NEW_PILE]
    moves: list[Move] = [Pass()]
    for card in cards:
        for pile in targets:
            moves.append(Play(Zone.HAND, card, pile))
            moves += [Play(Zone.PAYOFF, card, pile, i) for i in range(rules.deal.payoff_piles + 1)]
            moves += [Play(Zone.DISCARD, card, pile, i) for i in range(rules.discard.piles)]
        moves += [Discard((card,), i) for i in range(rules.discard.piles + 1)]
        moves.append(Discard((card, card), 0))
    return moves


def _answer(rules: sm.RuleBook, state: GameState, move: Move, seat: int) -> tuple:
    try:
        sm.check_move(rules, state, move, seat=seat)
    except sm.IllegalMove as error:
        return (error.reason, error.clause, str(error))
    return ("accepted",)


@given(config=st.integers(0, len(CONFIGS) - 1), seed=st.integers(0, 2**32),
       plies=st.integers(0, 60), shuffle_seed=st.integers(0, 2**32), other=st.booleans())
def test_every_answer_is_a_function_of_the_movers_view(config, seed, plies, shuffle_seed,
                                                       other) -> None:
    rules = _rules(config)
    state = _played(rules, seed, plies)
    mover = (state.seat + other) % rules.players
    twin = _twin(state, mover, random.Random(shuffle_seed))
    assert view_of(twin, mover) == view_of(state, mover)
    for move in _candidates(rules, state):
        assert _answer(rules, state, move, mover) == _answer(rules, twin, move, mover), move
    if not other:
        assert sm.legal_moves(rules, state) == sm.legal_moves(rules, twin)


@pytest.mark.clause("BF-9")
def test_a_pay_off_pile_cannot_be_mapped_by_its_refusals(bf: sm.RuleBook) -> None:
    # The example: 3C under JH got 'buried-card', 4D got 'not-on-pile'.
    answers = set()
    for under in ("3C", "4D"):
        state = parse_position(f"{under},JH:5H:-|-|-|-/2S:-:-|-|-|- - rest - on=0", bf)
        with pytest.raises(sm.IllegalMove) as error:
            sm.apply_move(bf, state, sm.parse_move("P:3C>B+"))
        answers.add((error.value.reason, error.value.clause, str(error.value)))
    assert answers == {("buried-card", "BF-9", "P:3C>B+: only the top card of a pay-off pile "
                        "may be played; its top card is JH [buried-card, clause BF-9]")}


def test_deals_without_a_seed_are_unguessable(bf: sm.RuleBook) -> None:
    seeds = {sm.deal(bf).seed for _ in range(20)}
    assert len(seeds) == 20
    assert max(seeds) >= 2 ** (SEED_BITS - 8)  # 20 draws all below 2**120: chance 2**-160
    assert all(0 <= seed < 2**SEED_BITS for seed in seeds)
    state = sm.deal(bf)
    assert sm.deal(bf, state.seed) == state  # the drawn seed is the game's, as any other


def test_a_mistyped_move_is_refused_on_a_warm_cache_as_on_a_cold_one(bf: sm.RuleBook) -> None:
    # The example: Play(..., pile=False) refused cold, accepted after legal_moves().
    state = parse_position("9H,AS:5H,KC,2D:-|4S|-|-/2S:-:-|-|-|- - rest - on=0", bf)
    good = Play(Zone.PAYOFF, sm.parse_card("AS"), NEW_PILE)
    assert good in sm.legal_moves(bf, state)
    for bad in (attrs.evolve(good, index=False), attrs.evolve(good, pile=-1.0),
                Discard((sm.parse_card("KC"),), False)):
        for warm in (False, True):
            if warm:
                sm.legal_moves(bf, state)
            with pytest.raises(TypeError):
                sm.apply_move(bf, state, bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        sm.legal_moves(bf, state)
        sm.apply_move(bf, state, good, seat=True)  # type: ignore[arg-type]


# -- spit: seats that move at once (views and refusals of the simultaneous doors) ----------

SPIT = sm.load("spit")


def _spit_played(seed: int, plies: int) -> sm.SimultaneousState:
    state = sm.deal(SPIT, seed)
    pick = random.Random(seed)
    for _ in range(plies):
        moves = sm.legal_moves(SPIT, state)
        if not moves:
            break
        move = pick.choice(moves)
        state = sm.apply_move(SPIT, state, move, move.seat)
    return state


def _spit_answer(state: sm.SimultaneousState, move: object, seat: int) -> tuple[str, ...]:
    try:
        sm.check_move(SPIT, state, move, seat)  # type: ignore[arg-type]
    except sm.IllegalMove as refused:
        return (refused.reason, refused.clause, str(refused))
    return ("accepted",)


@pytest.mark.parametrize("seed", range(12))
def test_spit_views_and_refusals_depend_only_on_what_the_seat_may_see(seed: int) -> None:
    game = SPIT.simultaneous
    assert game is not None
    for plies in (0, 3, 25, 90):
        state = _spit_played(seed, plies)
        twin = game.hidden_twin(state, random.Random(seed + plies))
        hidden = [c for s in state.seats for p in (*s.stock, s.spit) for c in p[:-1]]
        assert twin != state or len(set(hidden)) < 2  # the twin moved hidden cards
        for seat in (0, 1):
            assert view_of(twin, seat) == view_of(state, seat)
            for move, claimed in game.probes(state, seat):
                at = seat if claimed is None else claimed
                assert _spit_answer(twin, move, at) == _spit_answer(state, move, at)

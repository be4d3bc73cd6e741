"""``random_move``: one legal move drawn uniformly without listing them all, the very draw
``legal_moves`` and ``rng.randrange`` make, and refused where no move is legal."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import spitemalice as sm
from spitemalice.engine import random_move
from spitemalice.errors import SpiteMaliceError

# Rule books whose listings take every path of the engine: wild cards, two pay-off piles,
# pairs, partners' piles (plays and discards), a forced-play filter, a new pile anywhere.
BOOKS = {
    "blackwood-frey": ("blackwood-frey", (), {}),
    "misery": ("misery", (), {}),
    "skip-bo": ("skip-bo", (), {}),
    "pairs": ("uspcc", ("pair-discards",), {}),
    "partners": ("blackwood-frey", ("partnerships",), {"players": 4, "partner_piles": "share"}),
    "mandatory-aces": ("blackwood-frey", ("mandatory-aces",), {}),
    "unlimited": ("g4a", ("unlimited-build-piles",), {}),
}


def _book(key: str) -> sm.RuleBook:
    name, house, params = BOOKS[key]
    return sm.load(name, house, params)


@pytest.mark.parametrize("key", sorted(BOOKS))
def test_the_draw_is_the_listing_draw_and_the_games_are_the_same(key: str) -> None:
    """Move by move, the move drawn equals ``moves[rng.randrange(len(moves))]`` from a
    generator of the same seed, is among the legal moves, and leaves the generator where
    that draw leaves it; so whole games are the same."""
    rules = _book(key)
    for seed in range(3):
        drawing, listing = random.Random(seed), random.Random(seed)
        state = sm.deal(rules, seed)
        other = sm.deal(rules, seed)
        made = 0
        while state.outcome is None and made < 3000:
            move = random_move(rules, state, drawing)
            moves = sm.legal_moves(rules, other)
            assert move in moves
            assert move == moves[listing.randrange(len(moves))]
            assert drawing.getstate() == listing.getstate()
            state = sm.apply_move(rules, state, move)
            other = sm.apply_move(rules, other, move)
            made += 1
        assert state == other
        assert made > 20


def _uniform(rules: sm.RuleBook, state: sm.GameState, seed: int, per_move: int) -> Counter:
    rng = random.Random(seed)
    moves = sm.legal_moves(rules, state)
    drawn = Counter(random_move(rules, state, rng) for _ in range(per_move * len(moves)))
    assert set(drawn) == set(moves)  # every legal move appears, and nothing else
    return drawn


def _positions(rules: sm.RuleBook, seed: int, count: int) -> list[sm.GameState]:
    """``count`` positions of a random game, each with more than one legal move, taken as
    fresh objects so that the drawing finds no listing to reuse."""
    rng = random.Random(seed)
    state, found = sm.deal(rules, seed), []
    while state.outcome is None and len(found) < count:
        moves = sm.legal_moves(rules, state)
        if len(moves) > 1:
            found.append(state)
        state = sm.apply_move(rules, state, moves[rng.randrange(len(moves))])
    return found


@pytest.mark.parametrize("key", ["blackwood-frey", "pairs", "partners"])
def test_every_legal_move_is_drawn_about_equally_often(key: str) -> None:
    """Over many draws from one position every legal move appears, and the counts pass a
    chi-square test of uniformity (fixed seeds: the statistic is the same each run; the
    bound is the 0.999 quantile, so a fair draw fails about one position in a thousand)."""
    rules = _book(key)
    for state in _positions(rules, 11, 5):
        drawn = _uniform(rules, state, 5, 200)
        expected = sum(drawn.values()) / len(drawn)
        chi2 = sum((n - expected) ** 2 / expected for n in drawn.values())
        degrees = len(drawn) - 1
        # Wilson-Hilferty: the 0.999 quantile of chi-square with `degrees` degrees of freedom
        bound = degrees * (1 - 2 / (9 * degrees) + 3.09 * (2 / (9 * degrees)) ** 0.5) ** 3
        assert chi2 < bound, (state, drawn)


def test_a_skewed_draw_fails_the_uniformity_test() -> None:
    """The chi-square test above can fail: counts that favour the first move are caught."""
    rules = _book("blackwood-frey")
    state = _positions(rules, 11, 1)[0]
    drawn = _uniform(rules, state, 5, 200)
    first = sm.legal_moves(rules, state)[0]
    drawn[first] += 100
    expected = sum(drawn.values()) / len(drawn)
    chi2 = sum((n - expected) ** 2 / expected for n in drawn.values())
    degrees = len(drawn) - 1
    bound = degrees * (1 - 2 / (9 * degrees) + 3.09 * (2 / (9 * degrees)) ** 0.5) ** 3
    assert chi2 > bound


def test_the_only_move_a_pass_is_drawn_and_costs_a_draw(bf: sm.RuleBook) -> None:
    """A seat with nothing to play or discard must pass; the draw still calls the generator
    once, as choosing from the one-move list does."""
    state = sm.deal(bf, 1)
    seat = state.seats[state.seat]
    stuck = sm.Seat(seat.payoff, (), seat.discards)
    state = sm.GameState((*state.seats[: state.seat], stuck, *state.seats[state.seat + 1:]),
                         state.builds, state.draw, state.completed, state.seat)
    assert sm.legal_moves(bf, state) == (sm.Pass(),)
    drawing, listing = random.Random(4), random.Random(4)
    assert random_move(bf, state, drawing) == sm.Pass()
    listing.randrange(1)
    assert drawing.getstate() == listing.getstate()


def test_a_finished_game_is_refused_clearly(bf: sm.RuleBook) -> None:
    rng = random.Random(2)
    state = sm.deal(bf, 2)
    while state.outcome is None:
        state = sm.apply_move(bf, state, random_move(bf, state, rng))
    before = rng.getstate()
    with pytest.raises(SpiteMaliceError, match="the game is over"):
        random_move(bf, state, rng)
    assert rng.getstate() == before  # nothing drawn


def test_a_drawn_move_is_applied_unchecked_only_for_its_own_state(bf: sm.RuleBook) -> None:
    """apply_move skips the check for the move drawn for that very state object; any other
    move, or the drawn move on another state, is still checked."""
    rng = random.Random(7)
    state = sm.deal(bf, 7)
    move = random_move(bf, state, rng)
    after = sm.apply_move(bf, state, move)
    assert after == sm.apply_move(bf, sm.deal(bf, 7), move)
    illegal = sm.Discard((sm.Card(99),), 0)
    with pytest.raises(sm.IllegalMove):
        sm.apply_move(bf, state, illegal)


def test_wrong_arguments_are_refused_by_name(bf: sm.RuleBook) -> None:
    state = sm.deal(bf, 1)
    with pytest.raises(TypeError, match=r"random\.Random"):
        random_move(bf, state, 3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="load"):
        random_move("blackwood-frey", state, random.Random(1))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="view_legal_moves"):
        random_move(bf, sm.view_of(state, 0), random.Random(1))  # type: ignore[arg-type]


def test_seats_that_move_at_once_draw_from_every_seats_moves() -> None:
    """In a simultaneous rule set the draw is from the moves of every seat that may move."""
    spit = sm.load("spit")
    state = sm.deal(spit, 3)
    drawing, listing = random.Random(3), random.Random(3)
    for _ in range(30):
        if not sm.legal_moves(spit, state):
            break
        move = random_move(spit, state, drawing)
        moves = sm.legal_moves(spit, state)
        assert move == moves[listing.randrange(len(moves))]
        state = sm.apply_move(spit, state, move)


def test_the_draw_is_randrange_for_every_count_and_a_subclass_is_asked() -> None:
    """The engine's own draw (what the compiled build runs in C) gives what ``randrange``
    gives, from the same bits; a subclass of Random draws through its own ``randrange``."""
    from spitemalice.engine.sample import _below

    for seed in range(4):
        ours, theirs = random.Random(seed), random.Random(seed)
        for count in [*range(1, 300), 2**31, 2**31 + 1, 10**20]:
            assert _below(ours, count) == theirs.randrange(count)
        assert ours.getstate() == theirs.getstate()

    class Counting(random.Random):
        calls = 0

        def randrange(self, *args: object, **kwargs: object) -> int:  # type: ignore[override]
            Counting.calls += 1
            return super().randrange(*args, **kwargs)  # type: ignore[arg-type]

    rules = _book("blackwood-frey")
    random_move(rules, sm.deal(rules, 1), Counting(1))
    assert Counting.calls == 1
